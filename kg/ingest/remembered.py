"""JSON Lines records remembered from one build to the next: a rebuild after one abstract of
a 25,000-line file changed parses that line alone and takes the other papers as the last
build read them (parsing every record again is a tenth of such a rebuild).

A line is known by its file's name and a digest of its text; a paper read from it moves
with it (another line number or position, the same paper otherwise). Only lines read
without a warning are remembered, so that a rebuild warns about the others again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import replace

from kg.model import Paper

#: a line of an input: (its file's name, a digest of its text)
LineKey = tuple[str, bytes]


def line_key(source: str, line: str) -> LineKey:
    """The key of one line of the file named `source`."""
    return source, hashlib.blake2b(line.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class RememberedLines:
    """The papers the last build read from lines of JSON Lines files (`before`), and those
    this build reads (`now`, for the next).

    Args:
        before: the last build's papers by line (`line_key`), or None for none.
    """

    def __init__(self, before: Mapping[LineKey, Paper] | None = None) -> None:
        self.before: Mapping[LineKey, Paper] = before or {}
        self.now: dict[LineKey, Paper] = {}
        self.reused = 0  #: papers taken as the last build read them

    def paper(self, key: LineKey, line: int, index: int) -> Paper | None:
        """The paper the last build read from the line `key`, now at `line` and the
        `index`th of its file; None if that line is new."""
        paper = self.before.get(key)
        if paper is None:
            return None
        if paper.line != line or paper.index != index:
            paper = replace(paper, line=line, index=index)
        self.now[key] = paper
        self.reused += 1
        return paper

    def remember(self, key: LineKey, paper: Paper) -> None:
        """Remember the paper read (without a warning) from the line `key`."""
        self.now[key] = paper
