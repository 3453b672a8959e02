"""Take LaTeX, Markdown and HTML markup out of an abstract, keeping a map to its offsets.

OpenReview abstracts write `**Temp**oral **M**otifs`, `\\textbf{LINGUA}`, `$\\beta$-VAE`,
`80.6\\%` and `<b>NExT-QA</b>`. The extractor reads the clean text (`Temporal Motifs`,
`LINGUA`, `β-VAE`, `80.6%`, `NExT-QA`), so names come out whole and without markup, and
`Cleaned.original` maps every span of it back to the characters of the abstract as written.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from dataclasses import dataclass

#: characters without which a text holds no markup this module reads
_TRIGGERS = re.compile(r"[\\$*_{}]|<[a-zA-Z/]|&[#a-zA-Z]|``|''|\]\(https?://")
#: the characters every match of `_TRIGGERS` starts with (one character class: a fast scan)
_TRIGGER_START = re.compile(r"[\\$*_{}<&`'\]]")
#: the characters `_scan` stops at
_SPECIAL = re.compile(r"[\\$*_{}<&`'^\[\]]")

_GREEK = (
    "alpha α beta β gamma γ delta δ epsilon ϵ varepsilon ε zeta ζ eta η theta θ vartheta ϑ "
    "iota ι kappa κ lambda λ mu μ nu ν xi ξ pi π rho ρ sigma σ tau τ upsilon υ phi ϕ "
    "varphi φ chi χ psi ψ omega ω Gamma Γ Delta Δ Theta Θ Lambda Λ Xi Ξ Pi Π Sigma Σ "
    "Phi Φ Psi Ψ Omega Ω ell ℓ"
).split()
#: commands written as one character
_SYMBOLS = dict(zip(_GREEK[::2], _GREEK[1::2], strict=True)) | {
    "times": "×",
    "cdot": "·",
    "sim": "~",
    "approx": "≈",
    "leq": "≤",
    "le": "≤",
    "geq": "≥",
    "ge": "≥",
    "neq": "≠",
    "pm": "±",
    "infty": "∞",
    "rightarrow": "→",
    "to": "→",
    "leftarrow": "←",
    "gets": "←",
    "longrightarrow": "→",
    "Rightarrow": "⇒",
    "Longrightarrow": "⇒",
    "Leftarrow": "⇐",
    "leftrightarrow": "↔",
    "Leftrightarrow": "⇔",
    "mapsto": "↦",
    "in": "∈",
    "dots": "…",
    "ldots": "…",
    "cdots": "…",
}
#: commands whose argument is a citation or label: dropped with it
_DROP_ARGUMENT = frozenset({"cite", "citep", "citet", "ref", "eqref", "label", "footnote"})
#: commands that emphasise their argument
_EMPHASIS = frozenset({"textbf", "emph", "textit", "underline", "textsc", "texttt", "mathbf"})
_SUPER = str.maketrans("0123456789+-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻")
_SUB = str.maketrans("0123456789+-", "₀₁₂₃₄₅₆₇₈₉₊₋")
_COMMAND = re.compile(r"\\([a-zA-Z]+)\*?|\\(.)", re.DOTALL)
_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*(\s[^<>]*)?/?>")
_ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);")
# **bold**, *italic* and _italic_ as Markdown pairs them: a marker touching a word on one
# side only; a lone star (A*, Q*) is a name's own
_BOLD = re.compile(r"\*\*(?=\S)(?:[^*\n]|\*(?!\*)){1,200}?(?<=\S)\*\*")
# (each starts with its marker and looks behind it after: the engine then scans for the
# marker alone, not every character)
_STAR = re.compile(r"\*(?<![\w*\\]\*)(?=[^\s*])[^*\n]{1,200}?(?<=[^\s*\\])\*(?![\w*])")
_LEFT_OVER = re.compile(r"\*\*+|\*(?<=[A-Za-z]\*)(?=[A-Za-z])")
# a Markdown link, [FooNet](https://github.com/…): its brackets go, the URL stays as text
_LINK = re.compile(r"\[(?=[^\[\]\n]{1,100}\]\(https?://)")
_UNDERSCORE = re.compile(r"_(?<![\w\\]_)(?=[^\s_])[^_\n$]{1,200}?(?<=[^\s_\\])_(?!\w)")
#: Markdown's other bold, `__Resona__` (no word character or backslash before it, none
#: after); a Python name such as `__init__` (lower case, one word) is no emphasis
_BOLD_UNDERSCORE = re.compile(
    r"__(?<![\w\\]__)(?![a-z0-9]+__)(?=[^\s_])[^_\n$]{1,200}?(?<=[^\s_\\])__(?!\w)"
)


@dataclass(frozen=True)
class Cleaned:
    """An abstract's text without markup, and where each of its characters came from.

    `pieces` are (clean start, original start, original end, verbatim) runs: a verbatim
    run maps character by character, a replaced one (β for `$\\beta$`) maps as a whole.
    """

    text: str
    pieces: tuple[tuple[int, int, int, bool], ...] = ()
    #: (start, end) clean offsets of emphasised runs: `**X**`, `\\textbf{X}`, `\\emph{X}`
    emphasis: tuple[tuple[int, int], ...] = ()

    def original(self, start: int, end: int) -> tuple[int, int]:
        """The original offsets of the clean span [start, end)."""
        if not self.pieces or start >= end:
            return start, end
        return self._start(start), self._end(end - 1)

    def _piece(self, i: int) -> tuple[int, int, int, bool]:
        return self.pieces[bisect_right(self.pieces, (i, float("inf"))) - 1]

    def _start(self, i: int) -> int:
        clean, orig, orig_end, verbatim = self._piece(i)
        return orig + (i - clean) if verbatim else orig

    def _end(self, i: int) -> int:
        clean, orig, orig_end, verbatim = self._piece(i)
        return orig + (i - clean) + 1 if verbatim else orig_end


class _Writer:
    """Collects the clean text and its pieces."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pieces: list[tuple[int, int, int, bool]] = []
        self.length = 0
        self.emphasis: list[tuple[int, int]] = []
        #: an emphasis marker's original offset: the clean offsets before and after it
        self.marks: dict[int, tuple[int, int]] = {}

    def keep(self, text: str, start: int) -> None:
        if text:
            self.pieces.append((self.length, start, start + len(text), True))
            self.parts.append(text)
            self.length += len(text)

    def put(self, text: str, start: int, end: int) -> None:
        if text:
            self.pieces.append((self.length, start, end, False))
            self.parts.append(text)
            self.length += len(text)


def strip_markup(text: str) -> Cleaned:
    """`text` without LaTeX, Markdown and HTML markup, with the map back to `text`."""
    first = _TRIGGER_START.search(text)
    if first is None or not _TRIGGERS.search(text, first.start()):
        return Cleaned(text)
    drop, pairs = _emphasis_markers(text)
    out = _Writer()
    _scan(text, 0, len(text), out, drop, math=False)
    clean = "".join(out.parts)
    if clean == text:
        return Cleaned(text)
    for opening, closing in pairs:
        if opening in out.marks and closing in out.marks:
            out.emphasis.append((out.marks[opening][1], out.marks[closing][0]))
    emphasis = tuple(sorted((a, b) for a, b in out.emphasis if a < b))
    return Cleaned(clean, _merge(out.pieces), emphasis)


def _merge(pieces: list[tuple[int, int, int, bool]]) -> tuple[tuple[int, int, int, bool], ...]:
    """Join verbatim runs that follow each other in both texts."""
    merged: list[tuple[int, int, int, bool]] = []
    for piece in pieces:
        if merged and piece[3] and merged[-1][3]:
            clean, orig, orig_end, _ = merged[-1]
            if orig_end == piece[1] and clean + (orig_end - orig) == piece[0]:
                merged[-1] = (clean, orig, piece[2], True)
                continue
        merged.append(piece)
    return tuple(merged)


def _emphasis_markers(text: str) -> tuple[dict[int, str], list[tuple[int, int]]]:
    """The `*`, `**` and `_` characters that open or close emphasis, and what each becomes:
    nothing, or a space where an opening marker is all that parts two words
    (`propose**Heima**` reads "propose Heima"; `Sub**Co**mbinatorial` reads "SubCombinatorial")."""
    drop: dict[int, str] = {}
    pairs: list[tuple[int, int]] = []  #: (opening, closing) marker offsets
    for pattern, width in ((_BOLD, 2), (_BOLD_UNDERSCORE, 2), (_STAR, 1), (_UNDERSCORE, 1)):
        for m in pattern.finditer(text):
            if pattern is _UNDERSCORE and "$" in m.group(0):
                continue
            span = [*range(m.start(), m.start() + width), *range(m.end() - width, m.end())]
            if any(i in drop for i in span):
                continue
            # propose**Heima**: a lower-case word glued to a capitalised emphasised one
            glued = (
                m.start() > 0
                and text[m.start() - 1].islower()
                and text[m.start() + width : m.start() + width + 1].isupper()
            )
            ends_word = m.end() >= len(text) or not text[m.end()].isalnum()
            for i in span:
                drop[i] = ""
            pairs.append((m.start(), m.end() - width))
            if glued and ends_word:
                drop[m.start()] = " "
    # [FooNet](https://…) reads "FooNet (https://…)"
    for m in _LINK.finditer(text):
        close = text.index("]", m.end())
        drop[m.start()] = ""
        drop[close] = " "
    # a bold marker left unpaired (a run cut by the scrape) is markup too, and so is a star
    # inside a word (**Rein*for*mer**): a name's own star ends it (A*, Q*)
    for m in _LEFT_OVER.finditer(text):
        for i in range(m.start(), m.end()):
            drop.setdefault(i, "")
    return drop, pairs


def _group_end(text: str, start: int, end: int) -> int:
    """The offset just past the `}` that closes the group opened at `start`."""
    depth = 0
    i = start
    while i < end:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return end


def _scan(text: str, start: int, end: int, out: _Writer, drop: dict[int, str], math: bool) -> None:
    """Write text[start:end] clean; `math` is whether it is inside `$...$`."""
    i = start
    run = start  # start of the verbatim run not yet written
    while (found := _SPECIAL.search(text, i, end)) is not None:
        i = found.start()
        out.keep(text[run:i], run)
        i = _markup(text, i, end, out, drop, math)
        run = i
    out.keep(text[run:end], run)


def _markup(text: str, i: int, end: int, out: _Writer, drop: dict[int, str], math: bool) -> int:
    """Write the markup at text[i] (or the character, when it is none); the next offset."""
    c = text[i]
    if c == "\\":
        return _command(text, i, end, out, drop, math)
    if c == "$":
        close = _math_end(text, i, end)
        if close is None:
            return i + 1  # a stray dollar: dropped
        width = 2 if text.startswith("$$", i) else 1
        _scan(text, i + width, close, out, drop, math=True)
        return close + width
    if c in "{}":
        return i + 1
    if c in "*_[]" and i in drop:
        out.marks[i] = (out.length, out.length + len(drop[i]))
        out.put(drop[i], i, i + 1)
        return i + 1
    if c in "^_" and math:
        return _script(text, i, end, out, drop)
    if c == "<":
        m = _TAG.match(text, i, end)
        if m:
            return m.end()
    elif c == "&":
        m = _ENTITY.match(text, i, end)
        if m:
            out.put(html.unescape(m.group(0)), i, m.end())
            return m.end()
    elif c in "`'" and text.startswith(c * 2, i):
        out.put('"', i, i + 2)  # LaTeX quotes: ``name''
        return i + 2
    out.keep(c, i)
    return i + 1


def _math_end(text: str, i: int, end: int) -> int | None:
    """The offset of the `$` that closes the formula opened at `i`, if any."""
    width = 2 if text.startswith("$$", i) else 1
    j = i + width
    while j < end:
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == "$":
            return j
        if j - i > 400:
            return None
        j += 1
    return None


def _script(text: str, i: int, end: int, out: _Writer, drop: dict[int, str]) -> int:
    """`^2`, `_{10}`: digits as super- or subscripts; other scripts lose their marker."""
    table = _SUPER if text[i] == "^" else _SUB
    j = i + 1
    if j < end and text[j] == "{":
        close = _group_end(text, j, end)
        inner = text[j + 1 : close - 1]
        if inner and all(ch in "0123456789+-" for ch in inner):
            out.put(inner.translate(table), i, close)
            return close
        _scan(text, j + 1, close - 1, out, drop, math=True)
        return close
    if j < end and text[j] in "0123456789":
        out.put(text[j].translate(table), i, j + 1)
        return j + 1
    return j


def _command(text: str, i: int, end: int, out: _Writer, drop: dict[int, str], math: bool) -> int:
    m = _COMMAND.match(text, i, end)
    if m is None:
        return i + 1  # a trailing backslash
    name, char = m.group(1), m.group(2)
    after = m.end()
    if char is not None:
        if char in "%&$#_{}":
            out.put(char, i, after)
        elif char in "\\ ,;:!":
            out.put(" ", i, after)
        return after
    if name in _SYMBOLS:
        out.put(_SYMBOLS[name], i, after)
        return after
    if after < end and text[after] == "{":
        close = _group_end(text, after, end)
        if name not in _DROP_ARGUMENT:
            begin = out.length
            _scan(text, after + 1, close - 1, out, drop, math)
            if name in _EMPHASIS:
                out.emphasis.append((begin, out.length))
        return close
    return after  # \em, \bf, \left: a command without an argument is dropped
