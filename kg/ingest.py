"""Read abstracts from input files: the seed format (a heading line, one abstract per line)."""

from __future__ import annotations

import hashlib
import logging
import re
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.errors import InputError
from kg.model import Paper

log = logging.getLogger(__name__)

#: file suffixes read when a directory is given
SUFFIXES = (".txt",)
#: a heading is a short line that does not read like prose
_HEADING_MAX = 200
_VENUE = re.compile(r"\b([A-Za-z][A-Za-z-]*)\b")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")


def paper_id(text: str) -> str:
    """A stable id from the abstract's content (NFC, whitespace folded): same text, same id."""
    folded = " ".join(unicodedata.normalize("NFC", text).split())
    return hashlib.sha256(folded.encode("utf-8")).hexdigest()[:16]


def parse_heading(heading: str) -> tuple[str | None, int | None]:
    """Venue and year from a heading such as "ICML 2026 Papers" or "ICML 2026 论文列表"."""
    venue = next(
        (w for w in _VENUE.findall(heading) if sum(c.isupper() for c in w) >= 2),
        None,
    )
    year = _YEAR.search(heading)
    return venue, int(year.group(1)) if year else None


def _is_heading(line: str) -> bool:
    text = line.strip()
    return len(text) <= _HEADING_MAX and not re.search(r"[.!?]\s+\S", text)


def _decode(path: Path, data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise InputError(
            path,
            f"byte 0x{data[error.start]:02x} at column {column} is not UTF-8; "
            "re-save the file as UTF-8",
            line=line,
        ) from None
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError(path, "contains a NUL byte; is this a binary file?", line=line)
    return text


def read_file(path: Path) -> list[Paper]:
    """Read one seed-format file: an optional heading line, then one abstract per line.

    Raises:
        InputError: the file is missing, empty, not UTF-8 or holds no abstract.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(path, "no such file or directory") from None
    except OSError as error:
        raise InputError(path, f"cannot be read: {error.strerror}") from None
    text = _decode(path, data)
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise InputError(path, "empty file: expected a heading line and one abstract per line")
    heading = ""
    if len(lines) > 1 and _is_heading(lines[0][1]):
        heading = lines.pop(0)[1]
    elif len(lines) == 1 and _is_heading(lines[0][1]):
        raise InputError(path, f"only a heading ({lines[0][1]!r}) and no abstract", line=1)
    venue, year = parse_heading(heading)
    return [
        Paper(
            id=paper_id(abstract),
            text=abstract,
            source=path.name,
            line=number,
            index=index,
            collection=heading,
            venue=venue,
            year=year,
        )
        for index, (number, abstract) in enumerate(lines, 1)
    ]


def _expand(paths: Iterable[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.suffix in SUFFIXES and p.is_file())
            if not files:
                raise InputError(path, f"directory holds no input files ({', '.join(SUFFIXES)})")
            yield from files
        elif path.exists():
            yield path
        else:
            raise InputError(path, "no such file or directory")


def read_inputs(paths: Iterable[Path]) -> list[Paper]:
    """Read every abstract from the given files and directories, one `Paper` per abstract.

    The same abstract met twice (in one file or several) is one paper: the first wins.

    Raises:
        InputError: a path is missing or a file cannot be read as abstracts.
    """
    papers: dict[str, Paper] = {}
    for path in _expand(paths):
        for paper in read_file(path):
            if paper.id in papers:
                first = papers[paper.id]
                log.info(
                    "%s:%d repeats the abstract at %s:%d; kept once",
                    paper.source,
                    paper.line,
                    first.source,
                    first.line,
                )
                continue
            papers[paper.id] = paper
    return list(papers.values())
