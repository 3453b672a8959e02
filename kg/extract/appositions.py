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
    first_head = -1  #: the token of the phrase's first head noun
    evaluation = load_cues().evaluation_heads
    for k in range(start, min(end, start + _LONGEST)):
        if lower[k] == "%" and found is None:
            return None  # "FooBench, a 22.1% improvement over the base model": no name for it
        if _based_compound(lower, heads, k, end):
            continue  # "a capsule network based model", as "network-based": a model
        if _ends_phrase(lower[k]):
            if (
                lower[k] == "of"
                and k > start
                and lower[k - 1] in CONTAINER_NOUNS
                and (found is None or first_head == k - 1)
            ):
                # "a series of image retrieval models", "a suite of models": what it holds
                # names it; not "a benchmark suite of 20 models", named by its own head
                continue
            if lower[k] == "," and found is None and _adjective_follows(lower, k, end):
                continue  # "a multiregion, switching nonlinear state space model"
            if found == "M" and _evaluates(lower, k):
                found = "B"  # "a framework for evaluating LLMs"
            break
        if found is not None and _clause_after_head(lower, heads, k):
            break  # "a framework exploiting large language models": a framework
        if found is None and k > start and lower[k] in _PREPOSITIONS:
            return None  # "a class of attacks against language models": no head of its own
        if heads[k] != " ":
            if found is None:
                first_head = k
            found = heads[k]
            if k > start and lower[k - 1] in evaluation and found == "M":
                found = "B"  # "an evaluation framework", "a test suite"
            elif k > start and found == "D" and heads[k - 1] == "B":
                found = "B"  # "a benchmark dataset": the text calls it a benchmark
    return found


def _based_compound(lower: list[str], heads: str, k: int, end: int) -> bool:
    """Whether "based" at token `k` joins the words before it to a head noun at most three
    words after it, as "-based" does ("a capsule network based model"), rather than
    starting "based on …", "based largely upon …", "based around …"."""
    if lower[k] != "based" or k + 1 >= end:
        return False
    following = lower[k + 1]
    if following in _BASED_OPENS or following.endswith("ly") or _ends_phrase(following):
        return False
    return any(heads[j] != " " for j in range(k + 1, min(end, k + 4)))


#: nouns of a group whose members name it: "a suite of models", "a family of benchmarks"
CONTAINER_NOUNS = frozenset(
    {"series", "set", "suite", "family", "collection", "range", "pair", "variety", "class"}
)


def _adjective_follows(lower: list[str], k: int, end: int) -> bool:
    """Whether the comma at token `k` joins two modifiers of one noun ("a multiregion,
    switching … model"): a lower-case word that opens no new phrase follows it."""
    nxt = lower[k + 1] if k + 1 < end else ""
    return nxt.isalpha() and nxt not in _OPENERS and nxt not in load_cues().proposal_phrase_stop


#: prepositions that end a noun phrase (other than those `_ends_phrase` reads)
_PREPOSITIONS = frozenset(
    {"across", "against", "beyond", "between", "into", "over", "through", "under", "via"}
    | {"without"}
)
#: words that, after the head noun, start what the phrase says of it
_AFTER_HEAD = _PREPOSITIONS | {"capable", "able", "designed", "built", "trained", "tailored"}
#: words after "based" that open what it is based on, beside those that end a phrase
#: (`_ends_phrase`: on, in, of, from, by, for, with)
_BASED_OPENS = _PREPOSITIONS | {"upon", "at", "around", "within", "off"}


def _clause_after_head(lower: list[str], heads: str, k: int) -> bool:
    """Whether token `k`, after a head noun, starts a clause or modifier of it ("… framework
    targeting augmented LLMs", "… method across popular models") rather than going on with
    the noun phrase ("a model training framework": a head noun follows the -ing word)."""
    word = lower[k]
    if word in _AFTER_HEAD:
        return True
    after = k + 1
    if after + 1 < len(lower) and lower[after] in {"and", "or"} and lower[after + 1][-3:] == "ing":
        after += 2  # "an LLM reasoning and planning benchmark": what follows both -ing words
    following = heads[after] if after < len(heads) else " "
    return word.endswith("ing") and len(word) > 5 and following == " "


def apposition_after(
    lower: list[str], heads: str, b: int, last: int, a: int | None = None
) -> str | None:
    """The head type of "X, a … model" / "X (ACR), a benchmark" / "X is a framework" for the
    name ending before token `b` (`last`: the end of its sentence; `a`: where the name
    starts, when known)."""
    i = b
    while i < last and lower[i].startswith("*"):
        i += 1
    if i < last and lower[i] == ")" and (a is not None and a > 0 and lower[a - 1] == "("):
        # a long form that fills a parenthesis: "RAMDocs (Retrieval with … Documents), a
        # dataset"; not the last name of a list in one ("corpora (A and B), a model")
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


def called(lower: list[str], heads: str, a: int, b: int, first: int, last: int) -> str | None:
    """The head type (a `HEAD_TYPES` character) of what the text calls the name at tokens a
    to b, in the sentence from `first` to `last`: an apposition after it ("X, a retrieval
    model"), a noun phrase and a naming word before it ("a diffusion model …, named X"), or
    a noun phrase before it ("a framework, X, for evaluating …")."""
    return (
        apposition_after(lower, heads, b, last, a)
        or named_after(lower, heads, a, first)
        or apposed_before(lower, heads, a, b, first)
    )


def _evaluates(lower: list[str], k: int) -> bool:
    """Whether "for evaluating" (or assessing, benchmarking ...) starts at token `k` (which
    may be the text's end: "… a new framework, FooNet")."""
    return k + 1 < len(lower) and lower[k] == "for" and lower[k + 1] in load_cues().evaluation_verbs


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
