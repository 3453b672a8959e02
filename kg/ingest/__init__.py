"""Read abstracts from the files users bring: the seed format, plain text, JSON Lines, JSON,
CSV, TSV and BibTeX. The format comes from the extension and the content, or is forced."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from kg.errors import InputError
from kg.ingest.decode import read_text
from kg.ingest.files import input_files
from kg.ingest.merge import merge
from kg.ingest.papers import clean, paper_id, parse_heading
from kg.ingest.structured import read_bibtex, read_json, read_jsonl, read_table
from kg.ingest.text import has_paragraphs, read_lines, read_paragraphs
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
FORMATS = ("lines", "paragraphs", "jsonl", "json", "csv", "tsv", "bibtex")
_BY_SUFFIX = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".bib": "bibtex",
}
#: file suffixes read when a directory is given
SUFFIXES = (".txt", ".md", *_BY_SUFFIX)


def detect_format(path: Path, text: str) -> str:
    """The format of a file: from its extension, else from its content."""
    if path.suffix.lower() in _BY_SUFFIX:
        return _BY_SUFFIX[path.suffix.lower()]
    start = text.lstrip()
    if start.startswith("["):
        return "json"
    if start.startswith("{"):
        return "jsonl"
    if start.startswith("@") and "{" in start.splitlines()[0]:
        return "bibtex"
    return "paragraphs" if has_paragraphs(text) else "lines"


def read_file(path: Path, fmt: str | None = None, strict: bool = False) -> list[Paper]:
    """Every abstract of one file, as `Paper`s.

    Args:
        path: the file.
        fmt: one of FORMATS, or None to detect it.
        strict: stop at the first bad record instead of skipping it with a warning.

    Raises:
        InputError: the file cannot be read, or holds no abstract.
    """
    text = read_text(path)
    fmt = fmt or detect_format(path, text)
    if fmt == "lines":
        found = read_lines(path, text, strict)
    elif fmt == "paragraphs":
        found = read_paragraphs(path, text, strict)
    elif fmt == "jsonl":
        found = read_jsonl(path, text, strict)
    elif fmt == "json":
        found = read_json(path, text, strict)
    elif fmt in ("csv", "tsv"):
        found = read_table(path, text, strict, "," if fmt == "csv" else "\t")
    elif fmt == "bibtex":
        found = read_bibtex(path, text, strict)
    else:
        raise InputError(path, f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    papers = [p for p in found if p is not None]
    if not papers:
        raise InputError(path, f"holds no abstract (read as {fmt})")
    return papers


def read_inputs(paths: Iterable[Path], fmt: str | None = None, strict: bool = False) -> list[Paper]:
    """Every abstract from the given files and directories, one `Paper` per paper.

    The same paper met twice (the same abstract, or the same id from the input) is one
    paper: the first wins; records merged that differ otherwise are reported with counts.

    Raises:
        InputError: a path is missing or not a regular file, or a file cannot be read as
            abstracts.
    """
    return merge(
        paper for path in input_files(paths, SUFFIXES) for paper in read_file(path, fmt, strict)
    )
