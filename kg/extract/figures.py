"""The numbers of an abstract that may be reported scores, and the result model's features
of each: its unit and size, the words around it, and cues read from kg/data/cues.json
(a score verb before it, a difference word after it, "by" before it, a metric named at it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from spacy.tokens import Doc

from kg.extract.cues import Cues, load_cues
from kg.extract.found import Found
from kg.extract.sentences import sentence_bounds, sentence_of
from kg.extract.texts import lowers, words
from kg.extract.wordclass import word_classes
from kg.model import EntityType

SYSTEMS = (EntityType.METHOD, EntityType.MODEL)
RESOURCES = (EntityType.BENCHMARK, EntityType.DATASET)
_NUMBER = re.compile("d")
_SIGNS = frozenset({"+", "-", "−", "±", "~", "∼", "≈"})
#: features of a number that is no score: a difference ("by 3.2%", "12% gains", "13.5%
#: better", "+4.1", "gains of 12%", "outperforms X (e.g., up to 25% on BBH)"), where a
#: range starts ("from 53.5% to 63.8%"), a count ("1.5 million"): of the 390 differences
#: and range starts of the pool annotations, 5 are results (4 the start of a range); of the
#: 12 "up to" a figure after a comparison in pool-train, none is
NOT_SCORE = frozenset(
    {
        "delta_after",
        "by_before",
        "delta_before",
        "signed",
        "range_start",
        "compared_gain",
        "count_after",
    }
)
#: words that make the number before them a count ("1.5 million architectures"): of the 38
#: such numbers of pool-train, none is a result
_COUNTS = frozenset(
    {"thousand", "million", "billion", "trillion", "thousands", "millions", "billions"}
)
#: the features of a difference, which the rest of its list shares
_DIFFERS = NOT_SCORE - {"range_start", "count_after"}
#: words that may stand between the figures of one list ("by 14.5%, 15.1% and 13.0% on")
_LIST_WORDS = frozenset({",", "and", "or", "on", "in", "for", "the", "%", ";", "respectively"})
#: what alone stands between the figures of a tight list
_JOINERS = frozenset({",", "and", "or", "%", ";"})
#: words of a metric's scope within a list: "in micro average accuracy and 43.6% in macro"
_SCOPES = frozenset({"micro", "macro", "mean", "overall", "relative", "absolute", "solving"})
#: a name and these words before a figure: the named one's figure
_OWNED = frozenset({"(", "'s", "’s"})
#: words before a figure that tie it to what follows ("on X", "in X")
_PLACE = frozenset({"on", "in", "for", "across"})


@dataclass(frozen=True)
class Figure:
    """A number of the abstract that may be a reported score."""

    start: int  #: token of the number
    end: int  #: past the number and its unit
    value: Decimal
    unit: str | None
    sent: int


def number(text: str) -> Decimal | None:
    """The value of a token that is a plain number ("80.6", "1,000", ".5"), else None."""
    if not text[:1].isdigit() and not (text[:1] == "." and text[1:2].isdigit()):
        return None
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def figures(doc: Doc, found: list[Found]) -> list[Figure]:
    """Every number that is not part of a name, a year or a citation."""
    word = words(doc)
    sentence = sentence_of(doc)
    # a number kept as a name ("**60.29%**" emphasised) is still a figure
    inside = {i for f in found if _has_letter(f.name) for i in range(f.start, f.end)}
    out = []
    for m in _NUMBER.finditer(word_classes(doc).number):
        i = m.start()
        w = word[i]
        if i in inside:
            continue
        value = number(w)
        if value is None:
            continue
        percent = i + 1 < len(word) and word[i + 1] == "%"
        if not percent and value == value.to_integral_value() and 1900 <= value <= 2100:
            continue  # a year
        end = i + 2 if percent else i + 1
        out.append(Figure(i, end, value, "%" if percent else None, sentence[i]))
    return out


def _has_letter(name: str) -> bool:
    return any(c.isalpha() for c in name)


def is_metric(word: str, cues: Cues) -> bool:
    """accuracy, exact-match, Pass@1, F1-score, CIDEr: a metric word or a compound of one,
    or the plural of one ("accuracies of 98.2% and 93.9%", "AUCs of 97.5%")."""
    if cues is load_cues():
        return _is_metric_word(word)  # the shipped cues: kept by word
    return _is_metric(word, cues)


@lru_cache(maxsize=65536)
def _is_metric_word(word: str) -> bool:
    return _is_metric(word, load_cues())


def _is_metric(word: str, cues: Cues) -> bool:
    metric = cues.metric_words
    return any(
        w in metric
        or w in cues.result_metric_words
        or "@" in w
        or any(part in metric for part in w.split("-"))
        for w in dict.fromkeys((word, _singular(word)))
    )


def _singular(word: str) -> str:
    """A plural's singular, roughly: accuracies → accuracy, aucs → auc (else the word)."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _bucket(value: Decimal) -> str:
    v = abs(value)
    return "<1" if v < 1 else "<10" if v < 10 else "<100" if v <= 100 else ">100"


def _back(lower: list[str], a: int, skip: frozenset[str], cues: Cues, most: int = 6) -> int:
    """The first token before `a` that is no filler word, no metric word and not in `skip`
    ("achieves an accuracy of 68.1%": the verb), within `most` tokens; -1 when none."""
    j = a - 1
    while j >= 0 and a - j <= most:
        w = lower[j]
        if w not in cues.result_fillers and w not in skip and not is_metric(w, cues):
            return j
        j -= 1
    return -1


def cue_features(lower: list[str], fig: Figure, cues: Cues) -> list[str]:
    """What the words around a figure say it is: a score ("achieves 70.8%", "38.2 BLEU@4",
    "accuracy of 43.94"), or a difference ("by 3.2%", "gains of 12%", "13.5% better")."""
    a, b, n = fig.start, fig.end, len(lower)
    out = []
    if any(w in cues.result_delta_words for w in lower[b : b + 3]):
        out.append("delta_after")
    j = _back(lower, a, frozenset(), cues, 5)
    if j >= 0 and lower[j] == "by":
        out.append("by_before")
    elif j >= 0 and lower[j] in cues.result_delta_words:
        out.append("delta_before")
    j = _back(lower, a, frozenset(), cues)
    if j >= 0 and lower[j] in cues.result_score_verbs:
        out.append("verb_before")
    if b < n and is_metric(lower[b], cues):
        out.append("metric_at")
    elif a >= 2 and lower[a - 1] == "of" and is_metric(lower[a - 2], cues):
        out.append("metric_at")
    if b + 1 < n and lower[b] == "(" and lower[b + 1][:1] in _SIGNS:
        out.append("delta_follows")  # "34.8 AP (+9.1)"
    if _compared_gain(lower, fig, cues):
        out.append("compared_gain")
    if b < n and lower[b] in _COUNTS:
        out.append("count_after")
    return out


def _compared_gain(lower: list[str], fig: Figure, cues: Cues) -> bool:
    """Whether "up to" a figure says by how much a comparison before it in its sentence
    was won, no score verb between: "outperforms human-engineered prompts (e.g., up to 25%
    on BBH)" is a gain; "success rates up to 98.1%" and "outperforms X, achieving up to
    81%" are scores."""
    a = fig.start
    if a < 2 or lower[a - 2 : a] != ["up", "to"]:
        return False
    for j in range(a - 3, -1, -1):
        w = lower[j]
        if w in cues.result_score_verbs or w in {".", ";"} or number(w) is not None:
            return False
        if w in cues.strong_comparison_cues:
            return True
    return False


def figure_features(
    doc: Doc, fig: Figure, found: list[Found], proposed: frozenset[str]
) -> list[str]:
    """The result model's features of one number."""
    cues = load_cues()
    lower = lowers(doc)
    n = len(lower)
    a, b = fig.start, fig.end
    unit = "pct" if fig.unit else "nounit"
    kind = "dec" if fig.value != fig.value.to_integral_value() else "int"
    out = [
        unit,
        kind,
        f"{unit}|{kind}",
        f"mag:{_bucket(fig.value)}",
        f"{unit}|{_bucket(fig.value)}",
    ]
    words = [lower[a - k] if a - k >= 0 else "<s>" for k in (1, 2, 3)]  # before it
    for k in (1, 2, 3):
        out.append(f"p{k}:{words[k - 1]}")
        out.append(f"n{k}:{lower[b + k - 1] if b + k - 1 < n else '</s>'}")
    # the word or two before it, with its unit: "over 70%" is a score, "over 1,000" a
    # count; "up to 98.1%", "as high as 84%"
    out.append(f"p1|{unit}:{words[0]}")
    out.append(f"p21|{unit}:{words[1]} {words[0]}")
    if a > 0 and lower[a - 1] in _SIGNS:
        out.append("signed")
    if any(is_metric(w, cues) for w in lower[max(0, a - 4) : a]):
        out.append("metric_before")
    if any(is_metric(w, cues) for w in lower[b : b + 3]):
        out.append("metric_after")
    resources_after = {f.start for f in found if f.type in RESOURCES and b <= f.start <= b + 4}
    if resources_after and (b < n and lower[b] in _PLACE or b + 1 < n and lower[b + 1] in _PLACE):
        out.append("on_resource_after")
    if any(w in cues.result_skip_cues for w in lower[max(0, a - 2) : a]):
        out.append("skip_before")
    after = _past_aside(lower, b)  # "from 45.2% (first 10) to 61.8% (last 10)"
    if after + 1 < n and lower[after] in {"to", "→"} and number(lower[after + 1]) is not None:
        out.append("range_start")
    before = [j for j in range(max(0, a - 3), a) if lower[j] in {"to", "→"}]
    if before and any(_number_before(lower, j) for j in before):
        out.append("range_end")
        out.append(f"range_end|{unit}")
    numbers_around = [j for j in (a - 2, b + 1) if 0 <= j < n and number(lower[j]) is not None]
    if numbers_around:
        out.append("number_list")
    if (
        a > 0
        and lower[a - 1] in _OWNED
        and any(f.end == a - 1 and f.type in SYSTEMS for f in found)
    ):
        out.append("owned")  # "BM25 (9.8%)", "CLIP's 68.3%"
    cued = cue_features(lower, fig, cues)
    out += cued + [f"{c}|{unit}" for c in cued]
    out += _sentence_features(doc, fig, found, proposed, cues)
    return out


def _past_aside(lower: list[str], at: int, most: int = 8) -> int:
    """The token after a parenthesis that opens at `at` and closes within `most` tokens
    ("(first 10)"), else `at`."""
    if at < len(lower) and lower[at] == "(":
        for j in range(at + 1, min(len(lower), at + most)):
            if lower[j] == "(":
                break
            if lower[j] == ")":
                return j + 1
    return at


def _number_before(lower: list[str], j: int) -> bool:
    """Whether a number (or its "%") ends right before token `j`, past an aside in
    parentheses ("45.2% (first 10) to")."""
    k = j - 1
    if k >= 0 and lower[k] == ")":
        opened = opened_by(lower, k, most=7)
        if opened is None:
            return False
        k = opened - 1
    return k >= 0 and (number(lower[k]) is not None or lower[k] == "%")


def opened_by(lower: list[str], start: int, most: int = 5) -> int | None:
    """The token of the parenthesis that token `start` stands in (a figure, a closing
    parenthesis), opened at most `most` tokens before it."""
    for k in range(start - 1, max(-1, start - 1 - most), -1):
        if lower[k] == ")":
            return None
        if lower[k] == "(":
            return k
    return None


def _sentence_features(
    doc: Doc, fig: Figure, found: list[Found], proposed: frozenset[str], cues: Cues
) -> list[str]:
    """What the figure's sentence names: a benchmark, the paper's system, another system."""
    lower = lowers(doc)
    start, end = sentence_bounds(doc)[fig.sent]
    in_sent = [f for f in found if f.sent == fig.sent]
    sentence_words = set(lower[start:end])
    out = []
    if any(f.type in RESOURCES for f in in_sent):
        out.append("s:resource")
    if any(f.type in SYSTEMS and f.key in proposed for f in in_sent):
        out.append("s:proposed")
    elif any(f.type in SYSTEMS for f in in_sent):
        out.append("s:system")
    if not proposed:
        out.append("nothing_proposed")
    if "respectively" in sentence_words:
        out.append("s:respectively")
    if sentence_words & cues.strong_comparison_cues:
        out.append("s:compare")
    return out


#: (figure, next figure, whether nothing but joiners stands between them)
Pair = tuple[Figure, Figure, bool]


def list_pairs(doc: Doc, figs: list[Figure], found: list[Found]) -> list[Pair]:
    """Each figure and the next where both are of one list ("AUCs of 97.5%, 95.9% and
    88.1%", "by 14.5%, 15.1% and 13.0% on A, B and C"), in order."""
    lower = lowers(doc)
    named = {i for f in found for i in range(f.start, _glued_end(doc, f.end))}
    return [
        (a, b, all(w in _JOINERS for w in lower[a.end : b.start]))
        for a, b in zip(figs, figs[1:], strict=False)
        if _listed(a, b, lower, named)
    ]


def _glued_end(doc: Doc, end: int) -> int:
    """The end of a name with what is written onto it ("CelebA-64×64", "ImageNet-1k"):
    tokens with no space before them that go on with a hyphen, a "×", a letter or a digit;
    not a dash, a quote, punctuation or "'s" ("BarNet's 64.1%" is BarNet's figure)."""
    while (
        end < len(doc)
        and not doc[end - 1].whitespace_
        and (doc[end].text[0] in "-×" or doc[end].text[0].isalnum())
    ):
        end += 1
    return end


def spread(marked: set[int], pairs: list[Pair], tight_back: bool = False) -> set[int]:
    """`marked` figures (by first token) and every figure of a list with one of them; with
    `tight_back`, backwards only along a tight list (a difference: "18.9% and 32.7% relative
    gains", but not "38.1% accuracy on X, a 22.1% gain")."""
    out = set(marked)
    for a, b, _ in pairs:
        if a.start in out:
            out.add(b.start)
    for a, b, tight in reversed(pairs):
        if (tight or not tight_back) and b.start in out:
            out.add(a.start)
    return out


def not_scores(featured: list[tuple[Figure, list[str]]], pairs: list[Pair]) -> set[int]:
    """The figures (by first token) that are no scores: a `NOT_SCORE` feature, or a figure
    of the same list as a difference ("outperforms it by 14.5%, 15.1% and 13.0% on A, B and
    C", "improvements of 0.37, 0.19 and 1.01 points", "18.9% and 32.7% relative gains")."""
    differ = {fig.start for fig, features in featured if _DIFFERS.intersection(features)}
    hard = {fig.start for fig, features in featured if NOT_SCORE.intersection(features)}
    return spread(differ, pairs, tight_back=True) | hard


def _listed(a: Figure, b: Figure, lower: list[str], named: set[int]) -> bool:
    """Whether two figures one after the other are of one list: in one sentence, with only
    list words, names, fillers and metric words between them (at most 6), one a joiner."""
    cues = load_cues()
    between = range(a.end, b.start)
    if a.sent != b.sent or len(between) > 6:
        return False
    words = [lower[j] for j in between]
    if words in (["to"], ["→"]):
        return True  # "reducing tokens by 11.8% to 50.4%"
    if "(" in words or ")" in words:
        return _named_in_parentheses(words, [j in named for j in between])
    return any(w in (",", "and", "or", ";") for w in words) and all(
        j in named
        or lower[j] in _LIST_WORDS
        or lower[j] in cues.result_fillers
        or lower[j] in _SCOPES
        or is_metric(lower[j], cues)
        for j in between
    )


def _named_in_parentheses(words: list[str], named: list[bool]) -> bool:
    """Whether the words between two figures pair each with a name in parentheses, the
    same way: a name closing the first's and opening the second's ("E5 (15.0%) and BM25
    (9.8%)": ")", "and", "BM25", "("), or the first's name in parentheses after it ("41%
    (Qwen2.5-7B) and 20%": "(", "Qwen2.5-7B", ")", "and"); nothing but names inside.
    An aside ("84.2% (a gain of 4.1%) and 71.4%") pairs nothing."""
    n = len(words)
    if n >= 4 and words[0] == ")" and words[-1] == "(":
        k = 1  # ")" joiners name "("
        while k < n - 1 and words[k] in _JOINERS:
            k += 1
        return 1 < k < n - 1 and all(named[k : n - 1])
    if n >= 4 and words[0] == "(":
        close = words.index(")") if ")" in words else -1  # "(" name ")" joiners
        return (
            close > 1
            and all(named[1:close])
            and close + 1 < n
            and all(w in _JOINERS for w in words[close + 1 :])
        )
    return False
