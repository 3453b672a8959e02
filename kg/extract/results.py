"""Reported figures: "80.6% exact-match accuracy on MATH500", "from 40% to 70% on HMMT 2025"."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from spacy.tokens import Doc, Span

from kg.extract.cues import load_cues
from kg.extract.relations import Found
from kg.extract.texts import lowers, words
from kg.model import EntityType

_SYSTEMS = (EntityType.METHOD, EntityType.MODEL)


def _is_metric(word: str, metric_words: frozenset[str]) -> bool:
    """accuracy, exact-match, Pass@1, F1-score: a metric word or a compound of one."""
    return (
        word in metric_words or "@" in word or any(part in metric_words for part in word.split("-"))
    )


def _metric_phrase(after: Span, metric_words: frozenset[str]) -> str | None:
    """ "exact-match accuracy", "scenario pass rate": the words after a figure, up to the
    last metric word, while they are words."""
    last = None
    for token in after:
        if not (token.is_alpha or "-" in token.text or "@" in token.text) or token.is_stop:
            break
        if _is_metric(token.lower_, metric_words):
            last = token.i
    return after.doc[after.start : last + 1].text if last is not None else None


def _number(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def find_results(
    doc: Doc, found: list[Found], subject: str | None, proposed: frozenset[str] = frozenset()
) -> list[tuple[str | None, str | None, Decimal, str, str | None, Span]]:
    """(subject, metric, value, unit, benchmark key, evidence span) per stated percentage."""
    cues = load_cues()
    metric_words, skip = cues.metric_words, cues.result_skip_cues
    out: list[tuple[str | None, str | None, Decimal, str, str | None, Span]] = []
    word, lower = words(doc), lowers(doc)
    for n, sent in enumerate(doc.sents):
        resources = [
            f for f in found if f.sent == n and f.type in (EntityType.BENCHMARK, EntityType.DATASET)
        ]
        for i in range(sent.start, sent.end):
            if i + 1 >= len(doc) or word[i + 1] != "%":
                continue
            value = _number(word[i])
            if value is None or word[i][:1] in "+-−±":
                continue  # a signed figure is a difference, not a score
            before = set(lower[max(sent.start, i - 2) : i])
            after = doc[i + 2 : min(sent.end, i + 5)]
            if before & skip or not skip.isdisjoint(lower[after.start : after.end]):
                continue
            if i + 3 < len(doc) and lower[i + 2] == "to" and _number(word[i + 3]) is not None:
                continue  # "from 40% to 70%": the figure is the second one
            metric = _metric_phrase(after, metric_words)
            later = [f for f in resources if f.span.start > i]
            bench = (later or resources)[0] if (later or resources) else None
            if bench is None and metric is None:
                continue
            # the system the figure belongs to: the last one named before it, else the paper's
            systems = [f for f in found if f.sent == n and f.span.end <= i and f.type in _SYSTEMS]
            mine = [f for f in systems if f.key in proposed]
            owner: str | None
            if mine:
                owner = mine[-1].key
            elif systems and not any(f.key in proposed for f in found if f.type in _SYSTEMS):
                owner = systems[-1].key  # the paper proposes no system: the one named here
            else:
                owner = subject
            if bench is not None and bench.key == owner:
                continue  # a benchmark has no score on itself
            span = doc[i : i + 2]
            out.append((owner, metric, value, "%", bench.key if bench else None, span))
    return out
