"""Name normalisation: the folding that decides when two surface forms are one name."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from urllib.parse import quote

_SUFFIX = re.compile(r"\s+(dataset|datasets|benchmark|benchmarks|suite)$")
_NOISE = re.compile(r"[\s\-\u2010-\u2015_.·'’‘`\"]+")


@lru_cache(maxsize=262144)
def fold(name: str) -> str:
    """Fold case, spaces, hyphens, dots and apostrophes: MATH-500 and MATH500 fold alike.

    The same folding as ../shared/gold/score.py, so kg and the scorer agree on names.
    """
    folded = unicodedata.normalize("NFKC", name).casefold().strip()
    return _NOISE.sub("", _SUFFIX.sub("", folded))


def entity_key(name: str) -> str:
    """The IRI-safe key of a name: its folded form, percent-encoded outside [a-z0-9]."""
    return quote(fold(name), safe="")
