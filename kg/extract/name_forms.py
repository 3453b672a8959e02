"""What a written form stands for: the full name a slash abbreviates (AIME24/25 gives
AIME25), and forms that name nothing (enumeration markers, single letters, numbers)."""

from __future__ import annotations

import re

from kg.extract.shapes import is_name_shape

#: an enumeration marker, a single letter, a roman numeral or a number, without its
#: brackets: "(a)", "(II)", "iii", "53", "K"
_MARKER = re.compile(r"[(\[]?([A-Za-z]|[ivx]{1,4}|[IVX]{1,4}|\d+(\.\d+)?)[)\].:]?")
#: a version written as letters and digits: V2, v1.5
_LETTER_VERSION = re.compile(r"([A-Za-z]{1,2})\d+(\.\d+)?")


def is_marker(name: str) -> bool:
    """An enumeration marker, a variable or a count rather than a name."""
    return len(name) <= 6 and _MARKER.fullmatch(name) is not None


def expand_slash(first: str, second: str) -> str | None:
    """The full name of `second` after `first/`, or None when it is a name of its own
    ("Flan-T5/T5": T5, not Flan-T5 again)."""
    full = _expanded(first, second)
    return None if full == first else full


def _expanded(first: str, second: str) -> str | None:
    version = _LETTER_VERSION.fullmatch(second)
    if version is not None:
        # LLaMA-V1/V2 → LLaMA-V2: the second replaces the first's version of the same letters
        m = re.search(r"(?<=[-_ ])" + re.escape(version.group(1)) + r"\d+(\.\d+)?$", first)
        return first[: m.start()] + second if m is not None else None
    if is_name_shape(second) and not second[0].isdigit():
        return None  # AIME/HMMT: two names, found on their own
    head = second.split("-", 1)[0]
    # the part of `first` that `head` replaces: trailing digits (AIME24/25), a size (3B/7B)
    m = re.search(r"(\d+(\.\d+)?[A-Za-z]?)$", first) if head[:1].isdigit() else None
    if m is None:
        parts = first.split("-")
        for k in range(len(parts) - 1, 0, -1):
            if parts[k][:1].isdigit() and head[:1].isdigit():
                return "-".join([*parts[:k], second])
        return None
    prefix = first[: m.start()]
    if not prefix:
        return None
    return prefix + second
