"""The delta from the last build's graph to this one's (kg/builder/delta.py) is exactly the
lines of one and not the other, whatever moves between the shared block and the papers'."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import kg.builder.delta
from kg.builder.delta import DeltaMaker


def line(n: int) -> str:
    return f'<https://x.org/s{n}> <https://x.org/p> "é{n}" .'


def lines(data: bytes) -> set[bytes]:
    return {x for x in data.split(b"\n") if x}


@pytest.mark.parametrize("seed", range(30))
def test_the_delta_is_the_difference_of_the_two_graphs(seed, monkeypatch):
    monkeypatch.setattr(kg.builder.delta, "UPDATE_UP_TO", 1.0)
    rng = random.Random(seed)
    pool = [line(n) for n in range(60)]
    old_shared, new_shared = set(rng.sample(pool, 30)), set(rng.sample(pool, 30))
    old_blocks = [set(rng.sample(pool, rng.randrange(5))) for _ in range(3)]
    new_blocks = [set(rng.sample(pool, rng.randrange(5))) for _ in range(3)]
    old_bytes = "".join(x + "\n" for x in sorted(old_shared)).encode("utf-8")
    maker = DeltaMaker(Path("base"), 1_000, old_bytes, new_shared)
    for block in old_blocks:
        maker.add_old("".join(x + "\n" for x in sorted(block)).encode("utf-8"))
    for block in new_blocks:
        maker.add_new(block)
    delta = maker.delta()
    assert delta is not None
    before = {x.encode() for x in old_shared.union(*old_blocks)}
    after = {x.encode() for x in new_shared.union(*new_blocks)}
    assert lines(delta.remove) == before - after and lines(delta.add) == after - before
    assert (before - lines(delta.remove)) | lines(delta.add) == after


def test_a_delta_larger_than_it_pays_is_none():
    old = "".join(line(n) + "\n" for n in range(10)).encode("utf-8")
    maker = DeltaMaker(Path("base"), 12, old, {line(n) for n in range(10, 20)})
    assert maker.delta() is None  # 20 lines out and in: more than a quarter of 12
    small = DeltaMaker(Path("base"), 100, old, {line(n) for n in range(1, 11)})
    delta = small.delta()
    assert delta is not None and lines(delta.remove) == {line(0).encode()}
    assert lines(delta.add) == {line(10).encode()}
