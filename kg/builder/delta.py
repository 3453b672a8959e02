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

from collections.abc import Iterable, Iterator, Set
from pathlib import Path

from kg.query.store import Delta

#: an update is used while what it takes out and puts in is at most this share of the
#: graph's triples (above, loading the whole graph costs less than adding and removing)
UPDATE_UP_TO = 0.25


class DeltaMaker:
    """The delta of this build's graph from the last build's, whose store is `base`, from
    the last build's shared block (`old_shared`, its bytes in kg.nt) and this build's (the
    lines `new_shared`), and the lines of the last build's blocks that may be gone
    (`add_old`: papers that changed or left) and of this build's new blocks (`add_new`).

    The shared blocks, most of the lines and alike, are compared by walking both in sorted
    order (a block's lines are sorted in kg.nt), so no set of them is made; the few other
    lines are kept in sets, given up once they outnumber `triples` (the graph's)."""

    def __init__(self, base: Path, triples: int, old_shared: bytes, new_shared: Set[str]) -> None:
        self.base = base
        self.triples = triples
        self.limit = int(triples * UPDATE_UP_TO)
        self._old_shared, self._new_shared = old_shared, new_shared
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
        """The delta, or None when it was given up or is too large.

        The last build's graph is its shared block S and other blocks; this one's the new
        shared block S' and other blocks. Out: (S | old) - (S' | new); in: (S' | new) -
        (S | old), where S = (S' - added) | removed, `removed` and `added` the lines of
        S only and S' only."""
        if self.given_up:
            return None
        removed, added = _compare(_lines_of(self._old_shared), sorted(self._new_shared))
        old, new = self._old, self._new

        def in_new_shared(line: bytes) -> bool:
            return line.decode("utf-8") in self._new_shared

        def in_old_shared(line: bytes) -> bool:
            return line in removed or (in_new_shared(line) and line not in added)

        remove = {line for line in removed if line not in new}
        remove.update(line for line in old if not in_new_shared(line) and line not in new)
        add = {line for line in added if line not in old}
        add.update(line for line in new if not in_old_shared(line) and line not in old)
        if len(remove) + len(add) > self.limit:
            return None
        return Delta(self.base, _joined(remove), _joined(add))


def _lines_of(data: bytes) -> Iterator[bytes]:
    """The lines of `data`, without their ends, one at a time."""
    at = 0
    while at < len(data):
        end = data.find(b"\n", at)
        end = len(data) if end < 0 else end
        if end > at:
            yield data[at:end]
        at = end + 1


def _compare(old: Iterator[bytes], new: list[str]) -> tuple[set[bytes], set[bytes]]:
    """The lines only in `old` and only in `new`, both sorted (UTF-8 sorts as text does)."""
    removed: set[bytes] = set()
    added: set[bytes] = set()
    i = 0
    for line in old:
        while i < len(new) and (encoded := new[i].encode("utf-8")) < line:
            added.add(encoded)
            i += 1
        if i < len(new) and new[i].encode("utf-8") == line:
            i += 1
        else:
            removed.add(line)
    added.update(line.encode("utf-8") for line in new[i:])
    return removed, added


def _joined(lines: set[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in sorted(lines))
