"""Digests of plain values (`kg.digest`): equal values give equal digests however their
strings were made; different values give different ones."""

from __future__ import annotations

import sys

import pytest

from kg.digest import digest, serialized


def test_equal_values_equal_digests_whatever_their_strings_sharing() -> None:
    made = "".join(["entity:", "GRPO"])  # a new string, not interned
    interned = sys.intern("entity:GRPO")
    assert made is not interned
    once = [("label", made), ("papers", 3)]
    shared = [("label", interned), ("papers", 3)]
    twice = (once, [(interned, "k", [("relation", interned)]), [made, made]])
    again = (shared, [(made, "k", [("relation", made)]), [interned, "entity:GRPO"]])
    assert serialized(once) == serialized(shared)
    assert digest(twice) == digest(again)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (("ab", "c"), ("a", "bc")),  # where a string ends is in the bytes
        (("1",), (1,)),  # a string is not the number it spells
        ([("a", 1)], [("a", 2)]),
        ((["x"], []), ([], ["x"])),
        ("é", "e\u0301"),  # two spellings of é
        (2**70, 2**70 + 1),  # beyond 64 bits
    ],
)
def test_different_values_different_digests(one: object, other: object) -> None:
    assert digest(one) != digest(other)


def test_a_value_that_is_no_plain_data_is_refused() -> None:
    with pytest.raises(ValueError):
        serialized([object()])
