"""Plain-text inputs: the seed format (a heading line, then one abstract per line) and
one abstract per paragraph (paragraphs separated by blank lines)."""

from __future__ import annotations

import re
from pathlib import Path

from kg.errors import InputError
from kg.ingest.papers import paper_from_record
from kg.model import Paper

_HEADING_MAX = 200
#: the longest line of hard-wrapped text (editors wrap at 72 to 100 characters; a line of a
#: seed file is a whole abstract, some 1,000)
_WRAPPED_MAX = 250


#: where a line ends: a line feed, a carriage return, or both
LINE_END = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of `text`, split at line feeds and carriage returns only: not at the other
    breaks `str.splitlines` takes (U+2028, U+2029, form feed, U+0085...), which an abstract
    may hold and an editor shows on one line (they made one abstract two papers, and every
    later line number wrong)."""
    return LINE_END.split(text)


def _is_heading(line: str) -> bool:
    return len(line) <= _HEADING_MAX and not re.search(r"[.!?]\s+\S", line)


def read_lines(path: Path, text: str, strict: bool) -> list[Paper | None]:
    """The seed format: an optional heading naming the collection, then an abstract a line."""
    lines = [(n, line.strip()) for n, line in enumerate(split_lines(text), 1) if line.strip()]
    heading = ""
    if len(lines) > 1 and _is_heading(lines[0][1]):
        heading = lines.pop(0)[1]
    elif len(lines) == 1 and _is_heading(lines[0][1]):
        raise InputError(path, f"only a heading ({lines[0][1]!r}) and no abstract", line=1)
    return _papers(path, lines, strict, heading)


def _papers(
    path: Path, abstracts: list[tuple[int, str]], strict: bool, heading: str
) -> list[Paper | None]:
    """The papers of (line, abstract) pairs of a plain-text file, of the collection its
    heading names."""
    return [
        paper_from_record(
            {"abstract": abstract},
            source=path,
            line=number,
            index=index,
            strict=strict,
            collection=heading,
        )
        for index, (number, abstract) in enumerate(abstracts, 1)
    ]


def read_paragraphs(path: Path, text: str, strict: bool) -> list[Paper | None]:
    """One abstract per paragraph; a paragraph's lines are joined with spaces. A first
    paragraph of one line that reads as a heading ("ICML 2026 Papers", "# ICML 2026") names
    the collection, as the seed format's first line does: it was read as a paper."""
    blocks: list[tuple[int, list[str]]] = []
    block: list[str] = []
    start = 0
    for number, line in enumerate([*split_lines(text), ""], 1):
        if line.strip():
            if not block:
                start = number
            block.append(line.strip())
        elif block:
            blocks.append((start, block))
            block = []
    heading = ""
    if len(blocks) > 1 and len(blocks[0][1]) == 1:
        first = blocks[0][1][0].lstrip("#").strip()  # a markdown heading's marks aside
        if first and _is_title(first) and not first.endswith((".", "!", "?")):
            heading = first
            blocks = blocks[1:]
    return _papers(path, [(start, " ".join(lines)) for start, lines in blocks], strict, heading)


def has_paragraphs(text: str) -> bool:
    """Is this one abstract per paragraph (rather than one per line)?

    Yes when two or more paragraphs run over several lines, or when most line breaks of a
    multi-line paragraph fall mid-sentence (hard-wrapped text: a line ending in a word or a
    comma, or followed by a lower-case word). A seed file's lines are whole abstracts: a
    line longer than any hard-wrapped one (`_WRAPPED_MAX`) that runs into a capital is no
    wrap, nor is the break after the file's heading ("ICML 2026 Papers", then "We propose
    ..."). (Abstracts that end in a URL, a word, made a seed file one paragraph: one paper.)
    """
    blocks = [split_lines(b.strip()) for b in re.split(r"\n\s*\n", text) if b.strip()]
    multi = [b for b in blocks if len(b) > 1]
    if len(multi) >= 2:
        return True
    first = blocks[0] if blocks else []
    breaks = [
        (b[i].rstrip(), b[i + 1].lstrip())
        for b in multi
        for i in range(len(b) - 1)
        if not (b is first and i == 0 and _is_title(b[0]) and b[1].lstrip()[:1].isupper())
    ]
    wrapped = sum(
        1
        for line, following in breaks
        if re.search(r"[\w,\-]$", line)
        and (
            following[:1].islower()
            or (not re.search(r"[.!?]$", line) and len(line) <= _WRAPPED_MAX)
        )
    )
    return bool(breaks) and wrapped > len(breaks) / 2


#: words a heading does not end in, and a hard-wrapped line may ("... we evaluate on")
_RUNS_ON = re.compile(
    r"(?:[,\-;:]|\b(?:a|an|the|of|on|in|to|by|for|from|with|and|or|as|at|is|are|was|were|"
    r"we|our|that|which|this|its|their|than|into|over|under|between))$",
    re.IGNORECASE,
)


def _is_title(line: str) -> bool:
    """Whether the first line of a file reads as its heading, not the start of a wrapped
    sentence: short, no sentence in it, and not ending in a comma or a word that runs on."""
    text = line.strip()
    return len(text) <= 100 and _is_heading(text) and not _RUNS_ON.search(text)
