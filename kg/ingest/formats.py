"""The input formats, each declared once: its `--format` name, the extensions that say it, its
reader and how to recognise it by content. The CLI's choices, the suffix table and the
files read from a directory all come from `REGISTRY`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kg.ingest.remembered import RememberedLines
from kg.ingest.structured import read_bibtex, read_json, read_jsonl, read_table
from kg.ingest.text import has_paragraphs, read_lines, read_paragraphs
from kg.model import Paper

#: a reader: (file, its text, strict) -> a Paper per record, None for a record skipped
Reader = Callable[[Path, str, bool], list[Paper | None]]
#: a reader that takes the papers of lines the last build read (`kg.ingest.remembered`)
Remembering = Callable[[Path, str, bool, RememberedLines], list[Paper | None]]


@dataclass(frozen=True)
class InputFormat:
    """One input format."""

    name: str
    read: Reader
    #: extensions that say this format, whatever the content
    suffixes: tuple[str, ...] = ()
    #: does a file whose extension says nothing hold this format? (None: never guessed)
    sniff: Callable[[str], bool] | None = None
    #: formats are sniffed in this order: a marker first, plain text last
    rank: int = 0
    #: the reader that parses only the lines the last build did not read, if it has one
    remembering: Remembering | None = None


def _starts(marker: str) -> Callable[[str], bool]:
    return lambda text: text.lstrip().startswith(marker)


def _bibtex(text: str) -> bool:
    start = text.lstrip()
    return start.startswith("@") and "{" in start.splitlines()[0]


def _csv(path: Path, text: str, strict: bool) -> list[Paper | None]:
    return read_table(path, text, strict, ",")


def _tsv(path: Path, text: str, strict: bool) -> list[Paper | None]:
    return read_table(path, text, strict, "\t")


#: every input format, in the order `--format` lists them
REGISTRY: tuple[InputFormat, ...] = (
    InputFormat("lines", read_lines, sniff=lambda _text: True, rank=2),
    InputFormat("paragraphs", read_paragraphs, sniff=has_paragraphs, rank=1),
    InputFormat("jsonl", read_jsonl, (".jsonl", ".ndjson"), _starts("{"), remembering=read_jsonl),
    InputFormat("json", read_json, (".json",), _starts("[")),
    InputFormat("csv", _csv, (".csv",)),
    InputFormat("tsv", _tsv, (".tsv", ".tab")),
    InputFormat("bibtex", read_bibtex, (".bib",), _bibtex),
)
#: extensions of files whose format the content tells (the seed format, plain text)
TEXT_SUFFIXES = (".txt", ".md")

BY_NAME = {f.name: f for f in REGISTRY}
BY_SUFFIX = {suffix: f for f in REGISTRY for suffix in f.suffixes}
_SNIFFED = sorted((f for f in REGISTRY if f.sniff is not None), key=lambda f: f.rank)


def sniff(text: str) -> InputFormat:
    """The format a text holds, by its content (plain lines when nothing else fits)."""
    return next(f for f in _SNIFFED if f.sniff is not None and f.sniff(text))
