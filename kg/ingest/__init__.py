"""Read abstracts from the files users bring: the seed format, plain text, JSON Lines, JSON,
CSV, TSV and BibTeX. The format comes from the extension and the content, or is forced."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from kg.errors import InputError
from kg.ingest.decode import read_text
from kg.ingest.files import input_files
from kg.ingest.formats import BY_NAME, BY_SUFFIX, TEXT_SUFFIXES, sniff
from kg.ingest.merge import merge
from kg.ingest.papers import clean, paper_id, parse_heading
from kg.ingest.remembered import RememberedLines
from kg.model import Paper

__all__ = [
    "FORMATS",
    "clean",
    "detect_format",
    "paper_id",
    "parse_heading",
    "read_file",
    "read_inputs",
]

#: the input formats, as `--format` names them
FORMATS = tuple(BY_NAME)
#: file suffixes read when a directory is given
SUFFIXES = (*TEXT_SUFFIXES, *BY_SUFFIX)


def detect_format(path: Path, text: str) -> str:
    """The format of a file: from its extension, else from its content."""
    found = BY_SUFFIX.get(path.suffix.lower()) or sniff(text)
    return found.name


def read_file(
    path: Path,
    fmt: str | None = None,
    strict: bool = False,
    known: RememberedLines | None = None,
) -> list[Paper]:
    """Every abstract of one file, as `Paper`s.

    Args:
        path: the file.
        fmt: one of FORMATS, or None to detect it.
        strict: stop at the first bad record instead of skipping it with a warning.
        known: the lines of JSON Lines files the last build read, and their papers: those
            lines are not parsed again (`kg.ingest.remembered`).

    Raises:
        InputError: the file cannot be read, or holds no abstract.
    """
    text = read_text(path)
    fmt = fmt or detect_format(path, text)
    if fmt not in BY_NAME:
        raise InputError(path, f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    form = BY_NAME[fmt]
    records = (
        form.remembering(path, text, strict, known)
        if form.remembering is not None and known is not None
        else form.read(path, text, strict)
    )
    papers = [p for p in records if p is not None]
    if not papers:
        raise InputError(path, f"holds no abstract (read as {fmt})")
    return papers


def read_inputs(
    paths: Iterable[Path],
    fmt: str | None = None,
    strict: bool = False,
    known: RememberedLines | None = None,
) -> list[Paper]:
    """Every abstract from the given files and directories, one `Paper` per paper.

    The same paper met twice (the same abstract, or the same id from the input) is one
    paper: the first wins; records merged that differ otherwise are reported with counts.
    With `known`, lines of JSON Lines files that the last build read are not parsed again.

    Raises:
        InputError: a path is missing or not a regular file, or a file cannot be read as
            abstracts.
    """
    return merge(
        paper
        for path in input_files(paths, SUFFIXES)
        for paper in read_file(path, fmt, strict, known)
    )
