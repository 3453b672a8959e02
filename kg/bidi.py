"""Unicode controls that reorder how text is shown (U+202E RIGHT-TO-LEFT OVERRIDE, ...).

An abstract holding them is kept as given (every offset stays true), but a page drawing them
as they are would show another text than the abstract ("Trojan Source", CVE-2021-42574):
the views show each as a visible mark, such as "[U+202E]".
"""

from __future__ import annotations

import re

#: embeddings, overrides and isolates (U+202A to U+202E, U+2066 to U+2069); the marks
#: LRM, RLM and ALM only settle neutral characters and are left alone
CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
#: the same, one by one: looking for each with `in` is 50x faster than the pattern on a page
CHARACTERS = tuple(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def found(text: str) -> list[str]:
    """The controls in `text` as "U+202E", each once, in code point order."""
    if text.isascii() or not any(c in text for c in CHARACTERS):  # nearly every abstract
        return []
    return sorted({f"U+{ord(c):04X}" for c in CONTROLS.findall(text)})


def visible(text: str) -> str:
    """`text` with each control replaced by a mark that shows it ("[U+202E]")."""
    # `isascii` reads a flag of the string (no scan): most labels and tooltips are ASCII
    if text.isascii() or not any(c in text for c in CHARACTERS):
        return text
    return CONTROLS.sub(lambda m: f"[U+{ord(m.group()):04X}]", text)
