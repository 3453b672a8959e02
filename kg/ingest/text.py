"""Plain-text inputs: the seed format (a heading line, then one abstract per line) and
one abstract per paragraph (paragraphs separated by blank lines)."""

from __future__ import annotations

import re
from pathlib import Path

from kg.errors import InputError
from kg.ingest.papers import paper_from_record
from kg.model import Paper

_HEADING_MAX = 200


def _is_heading(line: str) -> bool:
    return len(line) <= _HEADING_MAX and not re.search(r"[.!?]\s+\S", line)


def read_lines(path: Path, text: str, strict: bool) -> list[Paper | None]:
    """The seed format: an optional heading naming the collection, then an abstract a line."""
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    heading = ""
    if len(lines) > 1 and _is_heading(lines[0][1]):
        heading = lines.pop(0)[1]
    elif len(lines) == 1 and _is_heading(lines[0][1]):
        raise InputError(path, f"only a heading ({lines[0][1]!r}) and no abstract", line=1)
    return [
        paper_from_record(
            {"abstract": abstract},
            source=path,
            line=number,
            index=index,
            strict=strict,
            collection=heading,
        )
        for index, (number, abstract) in enumerate(lines, 1)
    ]


def read_paragraphs(path: Path, text: str, strict: bool) -> list[Paper | None]:
    """One abstract per paragraph; a paragraph's lines are joined with spaces."""
    papers: list[Paper | None] = []
    block: list[str] = []
    start = 0
    for number, line in enumerate([*text.splitlines(), ""], 1):
        if line.strip():
            if not block:
                start = number
            block.append(line.strip())
        elif block:
            papers.append(
                paper_from_record(
                    {"abstract": " ".join(block)},
                    source=path,
                    line=start,
                    index=len(papers) + 1,
                    strict=strict,
                )
            )
            block = []
    return papers


def has_paragraphs(text: str) -> bool:
    """Is this one abstract per paragraph (rather than one per line)?

    Yes when two or more paragraphs run over several lines, or when most line breaks of a
    multi-line paragraph fall mid-sentence (hard-wrapped text: a line ending in a word or a
    comma, or followed by a lower-case word). A seed file's lines are whole abstracts.
    """
    blocks = [b.strip().splitlines() for b in re.split(r"\n\s*\n", text) if b.strip()]
    multi = [b for b in blocks if len(b) > 1]
    if len(multi) >= 2:
        return True
    breaks = [(b[i].rstrip(), b[i + 1].lstrip()) for b in multi for i in range(len(b) - 1)]
    wrapped = sum(
        1
        for line, following in breaks
        if re.search(r"[\w,\-]$", line)
        and (following[:1].islower() or not re.search(r"[.!?]$", line))
    )
    return bool(breaks) and wrapped > len(breaks) / 2
