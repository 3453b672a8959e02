"""Extractions to and from plain JSON-able dicts (for the cache and for workers)."""

from __future__ import annotations

from decimal import Decimal

from kg.model import (
    EntityType,
    ExtractedEntity,
    ExtractedRelation,
    Extraction,
    Mention,
    Paper,
    RelationType,
    Result,
    Sentence,
)


def dump(ex: Extraction) -> dict:
    """What the extractor found, without the paper (whose metadata is not part of it)."""
    return {
        "s": [[s.start, s.end] for s in ex.sentences],
        "e": [
            [
                e.name,
                e.type.value,
                [[m.start, m.end, m.text, m.sentence] for m in e.mentions],
                list(e.aliases),
                e.proposed,
                e.concept,
                e.evidence,
            ]
            for e in ex.entities
        ],
        "r": [[r.head, r.relation.value, r.tail, r.sentence] for r in ex.relations],
        "x": [
            [
                r.subject,
                r.metric,
                str(r.value),
                r.unit,
                r.benchmark,
                r.sentence,
                r.start,
                r.end,
                r.text,
            ]
            for r in ex.results
        ],
    }


def load(data: dict, paper: Paper) -> Extraction:
    """The extraction `dump` wrote, for `paper` (whose id is the one it was made for)."""
    return Extraction(
        paper=paper,
        sentences=tuple(Sentence(a, b) for a, b in data["s"]),
        entities=tuple(
            ExtractedEntity(
                name,
                EntityType(etype),
                tuple(Mention(*m) for m in mentions),
                tuple(aliases),
                proposed,
                concept,
                evidence,
            )
            for name, etype, mentions, aliases, proposed, concept, evidence in data["e"]
        ),
        relations=tuple(
            ExtractedRelation(paper.id if rel == "proposes" else head, RelationType(rel), tail, s)
            for head, rel, tail, s in data["r"]
        ),
        results=tuple(
            Result(subject, metric, Decimal(value), unit, bench, s, start, end, text)
            for subject, metric, value, unit, bench, s, start, end, text in data["x"]
        ),
    )
