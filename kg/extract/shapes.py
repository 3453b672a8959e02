"""Surface shapes of coined names: ReaForest, GRPO, Sora-2, CLIP-MAD, V₁-Infer."""

from __future__ import annotations

import re
from functools import lru_cache

_CAMEL = re.compile(r"[a-zà-ÿ][A-Z]|[A-Z]{2,}[a-z]")
#: a parameter count (7B, 0.6B, 350M); "10k" and "27K" count data, not parameters
_SIZE = re.compile(r"^\d+(\.\d+)?[BMbm]$")
#: characters a name token may hold; URLs, formulas and punctuation runs are not names
_NAME_CHARS = re.compile(r"^[^\W_][\w.+'’@\-–]*[\w+'’]$")
_DASHES = re.compile(r"[-–]")
_V_VERSION = re.compile(r"^v\d+(\.\d+)*$")


def _strong_part(part: str) -> bool:
    if not part or not part[0].isalnum():
        return False
    caps = sum(map(str.isupper, part))
    has_digit = any(map(str.isdigit, part))
    has_alpha = any(map(str.isalpha, part))
    return has_alpha and (
        bool(_CAMEL.search(part)) or caps >= 2 or (has_digit and part[0].isupper())
    )


@lru_cache(maxsize=262144)
def is_name_shape(text: str) -> bool:
    """A token that looks like a coined name: camel case, capitals, letters with digits."""
    if len(text) < 2 or not _NAME_CHARS.match(text) or "+" in text[:-1]:
        return False  # "L+1" is arithmetic; a trailing "+" names a variant (HumanEval+)
    if not text[0].isalpha():
        # 3ViewSense, 2WikiMultihopQA: a digit, then a camel-case name
        rest = text.lstrip("0123456789")
        return len(rest) >= 3 and bool(_CAMEL.search(rest)) and rest[0].isupper()
    if not any(map(str.isupper, text)):
        return False
    parts = _DASHES.split(text)
    if any(_strong_part(p) for p in parts):
        return True
    if len(parts) > 1 and parts[0][:1].isupper():
        # Sora-2, GPT-4, Dolly-v2: a capitalised word and a version number
        if any(p[:1].isdigit() or _V_VERSION.match(p) for p in parts[1:]):
            return True
        # R-zero: a single capital followed by a hyphenated part
        return len(parts[0]) == 1 and bool(parts[1])
    return False


@lru_cache(maxsize=262144)
def is_weak_name_shape(text: str) -> bool:
    """Title-case hyphenated compounds (Video-Holmes, Chain-of-Glimpse): names only in context."""
    parts = _DASHES.split(text)
    return (
        bool(_NAME_CHARS.match(text))
        and len(parts) > 1
        and parts[0][:1].isupper()
        and parts[-1][:1].isupper()
    )


def is_size(text: str) -> bool:
    """A parameter count such as 7B or 0.6B."""
    return bool(_SIZE.match(text))
