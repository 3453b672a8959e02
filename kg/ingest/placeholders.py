"""Abstracts that stand for no abstract: "TBD", "N/A", "Abstract", "-", "Coming soon".

A paper's id is a hash of its abstract, so every record with the placeholder "TBD" would
be one paper; such a record is treated as a record with no abstract.
"""

from __future__ import annotations

import unicodedata

#: placeholders, folded: lower case, letters and digits only ("N/A" is "na")
_PLACEHOLDERS = frozenset(
    {
        "abstract",
        "abstractnotavailable",
        "comingsoon",
        "empty",
        "missing",
        "na",
        "nan",
        "noabstract",
        "noabstractavailable",
        "none",
        "notavailable",
        "null",
        "pending",
        "placeholder",
        "tba",
        "tbc",
        "tbd",
        "todo",
        "tobeannounced",
        "tobeadded",
        "tobedetermined",
        "unavailable",
        "unknown",
        "xxx",
    }
)
#: no placeholder is longer than this; a longer text is never folded
_LONGEST = 40


def is_placeholder(text: str) -> bool:
    """Whether `text` stands for no abstract: a placeholder such as "TBD" or "N/A"
    (whatever its case and punctuation, "Abstract: TBD" too), or no letter or digit at all."""
    if not any(c.isalnum() for c in text):
        return True
    if len(text) > _LONGEST:
        return False
    folded = "".join(c for c in unicodedata.normalize("NFKC", text).casefold() if c.isalnum())
    return folded in _PLACEHOLDERS or folded.removeprefix("abstract") in _PLACEHOLDERS
