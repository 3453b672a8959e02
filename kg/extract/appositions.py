"""What the noun phrase beside a name calls it: "X, a highly efficient retrieval model",
"X (ACR), a benchmark", "X is a framework", "a diffusion model for legal texts, named X".

The head noun of such a phrase is its last type word before a word that ends the phrase
("of", "for", "that", a comma): "Trellis, a novel Transformer architecture with bounded
memory" is an architecture, "MOMENT, a family of foundation models" a family.
"""

from __future__ import annotations

from kg.extract.cues import load_cues
from kg.extract.wordclass import HEAD_TYPES

#: words an apposition starts with
_OPENERS = frozenset({"a", "an", "the", "our", "one"})
#: what may stand between a name and its apposition
_JOINS = frozenset({",", ":", "—", "–", "-", "is", "as"})
#: the longest noun phrase read, in tokens
_LONGEST = 12
_PUNCT = frozenset({",", ".", ";", ":", "(", ")", "—", "–", "[", "]"})


def _ends_phrase(word: str) -> bool:
    return word in _PUNCT or (word != "and" and word in load_cues().proposal_phrase_stop)


def phrase_head(lower: list[str], heads: str, start: int, end: int) -> str | None:
    """The type (a `HEAD_TYPES` character) of the noun phrase lower[start:...]: its last
    head noun before a word that ends the phrase, at most `_LONGEST` tokens, before `end`."""
    found = None
    evaluation = load_cues().evaluation_heads
    for k in range(start, min(end, start + _LONGEST)):
        if _ends_phrase(lower[k]):
            if found == "M" and _evaluates(lower, k):
                found = "B"  # "a framework for evaluating LLMs"
            break
        if heads[k] != " ":
            found = heads[k]
            if k > start and lower[k - 1] in evaluation and found == "M":
                found = "B"  # "an evaluation framework", "a test suite"
    return found


def apposition_after(lower: list[str], heads: str, b: int, last: int) -> str | None:
    """The head type of "X, a … model" / "X (ACR), a benchmark" / "X is a framework" for the
    name ending before token `b` (`last`: the end of its sentence)."""
    i = b
    while i < last and lower[i].startswith("*"):
        i += 1
    if i < last and lower[i] == "(":  # "the Energy Transformer (ET), a …"
        close = next((k for k in range(i + 1, min(last, i + 10)) if lower[k] == ")"), None)
        if close is None:
            return None
        i = close + 1
        if i < last and heads[i] != " ":
            return heads[i]  # "the … Bridge (GOUB) model"
    if i + 1 >= last or lower[i] not in _JOINS or lower[i + 1] not in _OPENERS:
        return None
    return phrase_head(lower, heads, i + 2, last)


def _evaluates(lower: list[str], k: int) -> bool:
    """Whether "for evaluating" (or assessing, benchmarking ...) starts at token `k`."""
    return lower[k] == "for" and k + 1 < len(lower) and lower[k + 1] in load_cues().evaluation_verbs


def apposed_before(lower: list[str], heads: str, a: int, b: int, first: int) -> str | None:
    """The head type of "a framework, X, for evaluating …" / "a new benchmark, X": a noun
    phrase with its head noun last, then a comma, then the name (tokens a to b)."""
    k = a - 2
    if k <= first or lower[a - 1] != "," or heads[k] == " ":
        return None
    if not any(lower[j] in _OPENERS for j in range(max(first, k - 4), k)):
        return None
    found = heads[k]
    if found == "M" and (
        lower[k - 1] in load_cues().evaluation_heads
        or _evaluates(lower, b)
        or (b < len(lower) and lower[b] == "," and _evaluates(lower, b + 1))
    ):
        return "B"
    return found


def named_after(lower: list[str], heads: str, a: int, first: int) -> str | None:
    """The head type of "a novel diffusion model for legal texts, named X": a noun phrase
    and a naming word before the name starting at token `a` (`first`: its sentence's start)."""
    naming = load_cues().naming_cues
    j = a - 1
    while j >= first and lower[j] in {",", "*", "**"}:
        j -= 1
    if j < first or lower[j] not in naming:
        return None
    while j > first and lower[j - 1] in naming | {","}:
        j -= 1
    for k in range(j - 1, max(first, j - _LONGEST) - 1, -1):
        if lower[k] in _OPENERS:
            return phrase_head(lower, heads, k + 1, j)
    return None


#: the feature name of each head type
FEATURE = {c: t.value for c, t in HEAD_TYPES.items()}
