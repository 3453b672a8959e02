"""Reported figures: "80.6% exact-match accuracy on MATH500", "a FID of 6.61 on COCO",
"from 40% to 70% on HMMT 2025" (70 is the paper's figure).

Every number of an abstract is a candidate; the result model (`kg.extract.classifier`)
tells scores from improvements, settings, sizes and counts by the words around it. A score
belongs to the system named last before it in its sentence (else the paper's own), and is
on the benchmark named after it ("on X"), before it, or in the same place of a list that
"respectively" pairs with the figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from spacy.tokens import Doc

from kg.extract.classifier import LinearModel
from kg.extract.cues import load_cues
from kg.extract.found import Found
from kg.extract.sentences import sentence_bounds, sentence_of
from kg.extract.texts import lowers, words
from kg.extract.wordclass import word_classes
from kg.model import EntityType

_SYSTEMS = (EntityType.METHOD, EntityType.MODEL)
_RESOURCES = (EntityType.BENCHMARK, EntityType.DATASET)
_NUMBER = re.compile("d")
_SIGNS = frozenset({"+", "-", "−", "±", "~", "∼", "≈"})

#: (subject key, metric, value, unit, benchmark key, (first, last) tokens of the figure)
Reported = tuple[str | None, str | None, Decimal, str | None, str | None, tuple[int, int]]


@dataclass(frozen=True)
class Figure:
    """A number of the abstract that may be a reported score."""

    start: int  #: token of the number
    end: int  #: past the number and its unit
    value: Decimal
    unit: str | None
    sent: int


def _number(text: str) -> Decimal | None:
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
    inside = {i for f in found for i in range(f.start, f.end)}
    out = []
    for m in _NUMBER.finditer(word_classes(doc).number):
        i = m.start()
        w = word[i]
        if i in inside:
            continue
        value = _number(w)
        if value is None:
            continue
        percent = i + 1 < len(word) and word[i + 1] == "%"
        if not percent and value == value.to_integral_value() and 1900 <= value <= 2100:
            continue  # a year
        end = i + 2 if percent else i + 1
        out.append(Figure(i, end, value, "%" if percent else None, sentence[i]))
    return out


def _bucket(value: Decimal) -> str:
    v = abs(value)
    return "<1" if v < 1 else "<10" if v < 10 else "<100" if v <= 100 else ">100"


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
    for k in (1, 2, 3):
        out.append(f"p{k}:{lower[a - k] if a - k >= 0 else '<s>'}")
        out.append(f"n{k}:{lower[b + k - 1] if b + k - 1 < n else '</s>'}")
    if a > 0 and lower[a - 1] in _SIGNS:
        out.append("signed")
    if any(_is_metric(w, cues.metric_words) for w in lower[max(0, a - 4) : a]):
        out.append("metric_before")
    if any(_is_metric(w, cues.metric_words) for w in lower[b : b + 3]):
        out.append("metric_after")
    resources_after = {f.start for f in found if f.type in _RESOURCES and b <= f.start <= b + 4}
    if resources_after and (
        b < n
        and lower[b] in {"on", "in", "for", "across"}
        or b + 1 < n
        and lower[b + 1] in {"on", "in", "for", "across"}
    ):
        out.append("on_resource_after")
    if any(w in cues.result_skip_cues for w in lower[max(0, a - 2) : a]):
        out.append("skip_before")
    if b + 1 < n and lower[b] in {"to", "→"} and _number(lower[b + 1]) is not None:
        out.append("range_start")
    before = [j for j in range(max(0, a - 3), a) if lower[j] in {"to", "→"}]
    if before and any(_number(lower[j - 1]) is not None or lower[j - 1] == "%" for j in before):
        out.append("range_end")
        out.append(f"range_end|{unit}")
    numbers_around = [j for j in (a - 2, b + 1) if 0 <= j < n and _number(lower[j]) is not None]
    if numbers_around:
        out.append("number_list")
    start, end = sentence_bounds(doc)[fig.sent]
    in_sent = [f for f in found if f.sent == fig.sent]
    sentence_words = set(lower[start:end])
    if any(f.type in _RESOURCES for f in in_sent):
        out.append("s:resource")
    if any(f.type in _SYSTEMS and f.key in proposed for f in in_sent):
        out.append("s:proposed")
    elif any(f.type in _SYSTEMS for f in in_sent):
        out.append("s:system")
    if not proposed:
        out.append("nothing_proposed")
    if "respectively" in sentence_words:
        out.append("s:respectively")
    if sentence_words & cues.strong_comparison_cues:
        out.append("s:compare")
    return out


def _metric_phrase(doc: Doc, fig: Figure, metric_words: frozenset[str]) -> str | None:
    """ "exact-match accuracy" after the figure, or "accuracy of" before it."""
    lower = lowers(doc)
    last = None
    for j in range(fig.end, min(len(doc), fig.end + 4)):
        token = doc[j]
        if not (token.is_alpha or "-" in token.text or "@" in token.text) or token.is_stop:
            break
        if _is_metric(lower[j], metric_words):
            last = j
    if last is not None:
        return doc[fig.end : last + 1].text
    for j in range(fig.start - 1, max(-1, fig.start - 5), -1):
        if _is_metric(lower[j], metric_words):
            first = j
            while first > 0 and (doc[first - 1].is_alpha and not doc[first - 1].is_stop):
                first -= 1
                if fig.start - first > 4:
                    break
            return doc[first : j + 1].text
    return None


def _is_metric(word: str, metric_words: frozenset[str]) -> bool:
    """accuracy, exact-match, Pass@1, F1-score: a metric word or a compound of one."""
    return (
        word in metric_words or "@" in word or any(part in metric_words for part in word.split("-"))
    )


def _subject(
    fig: Figure, kept: list[Figure], in_sent: list[Found], subject: str | None, lower: list[str]
) -> str | None:
    """Who scored the figure: the systems of a list paired in order with as many figures
    ("A, B and C achieve 83.1%, 84.3% and 85.0%, respectively"); a system right after it in
    parentheses or after "for" ("3% of tasks (Llama2-70B)", "from 29% to 3% for Claude");
    a system in parentheses around it ("BM25 (9.8%)"); else the system named last before it
    in its sentence, else the paper's own: but a system named as a means or a rival ("with
    GPT-4", "over CoT") when the paper's own system is named in the sentence, or stands
    behind "our"."""
    systems = [f for f in in_sent if f.type in _SYSTEMS]
    keys = list(dict.fromkeys(f.key for f in systems))
    mine = [g for g in kept if g.sent == fig.sent]
    if len(keys) > 1 and len(keys) == len(mine) and "respectively" in lower[mine[-1].end :][:8]:
        if all(f.end <= mine[0].start for f in systems):
            return keys[mine.index(fig)]
    after = [f for f in systems if fig.end <= f.start <= fig.end + 3]
    if after and lower[after[0].start - 1] in ("for", "("):
        return after[0].key  # "from 29% to 3% for Claude 3.5 Sonnet"
    before = [f for f in systems if f.end <= fig.start]
    if not before:
        return subject
    last = before[-1]
    if last.end == fig.start - 1 and lower[last.end] == "(":
        return last.key  # "BM25 (9.8%)"
    if last.key != subject and subject is not None:
        ours = "our" in lower[last.end : fig.start]  # "(Qwen-2.5-7B), our framework boosts"
        own = subject in {f.key for f in in_sent} or "our" in lower[before[0].start : fig.start]
        if ours or (_is_means(last, lower) and own):
            return subject
    if _is_means(last, lower):
        # "LLaMA-3-8B achieves the best results using the RLHF approach, scoring 0.87"
        scorer = next((f for f in reversed(before) if not _is_means(f, lower)), None)
        if scorer is not None and scorer.key != last.key:
            return scorer.key
    return last.key


def _is_means(f: Found, lower: list[str]) -> bool:
    """Whether a system is named as a means or a rival: "with GPT-4", "using the RLHF"."""
    at = f.start - 1
    if at > 0 and lower[at] in _ARTICLES:
        at -= 1
    return at >= 0 and lower[at] in _MEANS


_ARTICLES = load_cues().articles  # kg/data/cues.json


def _benchmark(
    fig: Figure, kept: list[Figure], figs: list[Figure], in_sent: list[Found], lower: list[str]
) -> str | None:
    """The benchmark a figure is on: paired in order with a list of as many benchmarks
    ("respectively", or all named before or all after the figures), else named after it,
    else before it, in its sentence."""
    resources = [f for f in in_sent if f.type in _RESOURCES]
    keys = list(dict.fromkeys(f.key for f in resources))
    if not keys:
        return None
    for pool in (kept, figs):  # the scores kept, else every number of the sentence
        mine = [g for g in pool if g.sent == fig.sent]
        if len(keys) > 1 and len(keys) == len(mine):
            listed = all(f.end <= mine[0].start for f in resources) or all(
                f.start >= mine[-1].end for f in resources
            )
            if listed or "respectively" in lower:
                return keys[mine.index(fig)]
    after = [f for f in resources if f.start >= fig.end]
    if after:
        return after[0].key
    return resources[-1].key


#: words before a system's name that make it a means or a rival, not the one scored
_MEANS = load_cues().means_words  # kg/data/cues.json


def find_results(
    doc: Doc,
    found: list[Found],
    subject: str | None,
    proposed: frozenset[str],
    model: LinearModel | None,
) -> tuple[list[Reported], list[tuple[Figure, list[str]]]]:
    """The reported scores, and every number with its features (for training)."""
    cues = load_cues()
    lower = lowers(doc)
    figs = figures(doc, found)
    featured = [(fig, figure_features(doc, fig, found, proposed)) for fig in figs]
    out: list[Reported] = []
    bounds = sentence_bounds(doc)
    kept = [
        fig
        for fig, features in featured
        if (
            model.predict(features)[0] == "yes"
            if model is not None
            else fig.unit == "%" and "signed" not in features and "skip_before" not in features
        )
    ]
    # a metric's name (CIDEr, ROUGE-1) is neither who scored nor what on
    named = [f for f in found if not _is_metric(f.name.lower(), cues.metric_words)]
    by_sentence: dict[int, list[Found]] = {}
    for f in named:
        by_sentence.setdefault(f.sent, []).append(f)
    only = list(dict.fromkeys(f.key for f in named if f.type in _RESOURCES))
    for fig in kept:
        in_sent = by_sentence.get(fig.sent, [])
        owner = _subject(fig, kept, in_sent, subject, lower)
        if owner is None:
            continue  # the score of an unnamed system
        start, end = bounds[fig.sent]
        bench = _benchmark(fig, kept, figs, in_sent, lower[start:end])
        if bench is None and len(only) == 1:
            bench = only[0]  # the one benchmark the abstract names
        if bench == owner:
            bench = None
        metric = _metric_phrase(doc, fig, cues.metric_words)
        out.append((owner, metric, fig.value, fig.unit, bench, (fig.start, fig.end)))
    return out, featured
