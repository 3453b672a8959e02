"""extractions.jsonl: one record per abstract in the scorer's format, with ids, source and
mention offsets."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import BinaryIO

from kg.model import Extraction, KnowledgeGraph


def extraction_record(ex: Extraction, keys: Mapping[tuple[str, str], str]) -> dict:
    """One JSON Lines record in the scorer's format plus ids, source and mention offsets."""
    p = ex.paper
    return {
        "paper": p.id,
        "source": p.source,
        "line": p.line,
        "index": p.index,
        "text": p.text,
        "sentences": [[s.start, s.end] for s in ex.sentences],
        "entities": [
            {
                "name": e.name,
                "type": e.type.value,
                "aliases": list(e.aliases),
                "proposed": e.proposed,
                "entity": keys.get((p.id, e.name)),
                "evidence": e.evidence,
                "mentions": [
                    {"text": m.text, "start": m.start, "end": m.end, "sentence": m.sentence}
                    for m in e.mentions
                ],
            }
            for e in ex.entities
        ],
        "relations": [
            {"head": r.head, "relation": r.relation.value, "tail": r.tail, "sentence": r.sentence}
            for r in ex.relations
        ],
        "results": [
            {
                "subject": r.subject,
                "metric": r.metric,
                "value": float(r.value),
                "value_text": str(r.value),
                "unit": r.unit,
                "benchmark": r.benchmark,
                "sentence": r.sentence,
                "start": r.start,
                "end": r.end,
                "text": r.text,
            }
            for r in ex.results
        ],
    }


def extractions_jsonl(kg: KnowledgeGraph) -> str:
    """extractions.jsonl: one record per abstract, in input order."""
    buffer = io.BytesIO()
    write_extractions(kg, buffer)
    return buffer.getvalue().decode("utf-8")


def extraction_line(ex: Extraction, keys: Mapping[tuple[str, str], str]) -> bytes:
    """One paper's line of extractions.jsonl (`keys`: `KnowledgeGraph.entity_key_of`)."""
    return (json.dumps(extraction_record(ex, keys), ensure_ascii=False) + "\n").encode("utf-8")


def write_extractions(kg: KnowledgeGraph, handle: BinaryIO) -> dict[str, tuple[int, int]]:
    """Write extractions.jsonl, one record per abstract in input order.

    Returns:
        Each paper's byte range in the file, by paper id.
    """
    keys = kg.entity_key_of()
    spans = {}
    at = 0
    for ex in kg.extractions:
        line = extraction_line(ex, keys)
        handle.write(line)
        spans[ex.paper.id] = (at, at + len(line))
        at += len(line)
    return spans
