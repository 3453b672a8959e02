"""Reported figures: "80.6% exact-match accuracy on MATH500", "from 40% to 70% on HMMT 2025"."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from spacy.tokens import Doc, Span

from kg.extract.cues import load_cues
from kg.extract.relations import Found
from kg.model import EntityType

_RELATIVE = {
    "by",
    "improvement",
    "improvements",
    "gain",
    "gains",
    "reduction",
    "fewer",
    "faster",
    "less",
    "more",
    "up",
    "speedup",
    "lower",
    "higher",
    "relative",
    "improving",
    "reduces",
    "reducing",
    "absolute",
    "average",
}


def _number(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def find_results(
    doc: Doc, found: list[Found], subject: str | None
) -> list[tuple[str | None, str | None, Decimal, str, str | None, Span]]:
    """(subject, metric, value, unit, benchmark key, evidence span) per stated percentage."""
    metric_words = load_cues().metric_words
    out = []
    for sent in doc.sents:
        resources = [
            f
            for f in found
            if f.span.sent == sent and f.type in (EntityType.BENCHMARK, EntityType.DATASET)
        ]
        for token in sent:
            if token.i + 1 >= len(doc) or doc[token.i + 1].text != "%":
                continue
            value = _number(token.text)
            if value is None:
                continue
            before = {t.lower_ for t in doc[max(sent.start, token.i - 2) : token.i]}
            after = doc[token.i + 2 : min(sent.end, token.i + 5)]
            if before & _RELATIVE or {t.lower_ for t in after} & _RELATIVE:
                continue
            if (
                token.i + 3 < len(doc)
                and doc[token.i + 2].lower_ == "to"
                and _number(doc[token.i + 3].text) is not None
            ):
                continue  # "from 40% to 70%": the figure is the second one
            metric_tokens = [
                t.text
                for t in after
                if t.lower_ in metric_words or t.lower_.startswith("pass@") or "-" in t.text
            ]
            metric = " ".join(metric_tokens) if metric_tokens else None
            later = [f for f in resources if f.span.start > token.i]
            bench = (later or resources)[0] if (later or resources) else None
            if bench is None and metric is None:
                continue
            span = doc[token.i : token.i + 2]
            out.append((subject, metric, value, "%", bench.key if bench else None, span))
    return out
