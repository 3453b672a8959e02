"""Blank out LaTeX and HTML markup without moving a character, so offsets stay true.

`\\textbf{LINGUA}` becomes `        LINGUA ` and `80.6\\%` becomes `80.6 %`: the tokenizer sees
clean words, and every character offset still points into the original abstract.
"""

from __future__ import annotations

import re

_PATTERNS = (
    re.compile(r"\\[a-zA-Z]+\*?\{"),  # \textbf{ \emph{ \mathrm{ ...
    re.compile(r"\\[a-zA-Z]+(?![a-zA-Z{])"),  # \times \cdot ...
    re.compile(r"\\(?=[%&$#_])"),  # \% \& \$
    re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*(\s[^<>]*)?/?>"),  # <b> </sub> <br/>
    re.compile(r"[{}$]"),
)


def blank_markup(text: str) -> str:
    """`text` with markup replaced by spaces of the same length."""
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    return text
