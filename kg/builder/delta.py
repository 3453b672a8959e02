"""How a rebuild's graph differs from the last build's, so that its query store is the last
one updated (`kg.query.store.StoreJob`), not written again: 1.9 s of a 7 s rebuild of ICML
2024, ~10 s of CPU at 25,000 abstracts.

The graph is blocks (`kg.builder.blocks`): what papers share, then one block per paper, no
triple in two. A rebuild copies the blocks of the papers that did not change; what it takes
out is the last build's shared block and the blocks of papers that changed or left, what it
puts in the new shared block and the new papers' blocks. Lines in both are neither taken out
nor put in (most of the shared block), so the store's default graph after the update is this
build's kg.nt, whatever the blocks hold.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from kg.query.store import Delta

#: an update is used while what it takes out and puts in is at most this share of the
#: graph's triples (above, loading the whole graph costs less than adding and removing)
UPDATE_UP_TO = 0.25


class DeltaMaker:
    """The lines of a delta gathered while kg.nt is written (`add_old` for what the last
    build had, `add_new` for what this one makes); no delta when it is larger than it pays
    (`UPDATE_UP_TO` of the last build's `triples`), given up as soon as the lines gathered
    outnumber the graph's."""

    def __init__(self, base: Path, triples: int) -> None:
        self.base = base
        self.triples = triples
        self.limit = int(triples * UPDATE_UP_TO)
        self._old: set[bytes] = set()
        self._new: set[bytes] = set()
        self.given_up = False

    def _check(self) -> None:
        if len(self._old) + len(self._new) > self.triples:
            self.given_up = True
            self._old, self._new = set(), set()

    def add_old(self, data: bytes) -> None:
        """N-Triples lines of the last build's graph that may be gone."""
        if not self.given_up:
            self._old.update(line for line in data.split(b"\n") if line)
            self._check()

    def add_new(self, lines: Iterable[str]) -> None:
        """N-Triples lines of this build's graph that may be new."""
        if not self.given_up:
            self._new.update(line.encode("utf-8") for line in lines)
            self._check()

    def delta(self) -> Delta | None:
        """The delta, or None when it was given up."""
        if self.given_up:
            return None
        remove, add = self._old - self._new, self._new - self._old
        if len(remove) + len(add) > self.limit:
            return None
        return Delta(self.base, _lines(remove), _lines(add))


def _lines(lines: set[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in sorted(lines))
