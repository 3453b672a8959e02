"""extractions.jsonl: one record per abstract in the scorer's format, with ids, source and
mention offsets."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import BinaryIO

from kg.model import Extraction, KnowledgeGraph


def written_names(ex: Extraction) -> dict[str, str]:
    """The form the abstract writes of each entity whose name it does not contain.

    A name cleaned of markup (`**F**inancial **R**elation **E**xtraction`) or of TeX occurs
    nowhere in the text; a relation or a result refers to such an entity by the first of
    its aliases that does ("FIRE"), as the scorer's format (names from the abstract) asks.
    """
    return written_forms(ex.paper.text, ((e.name, e.aliases) for e in ex.entities))


def written_forms(text: str, entities: Iterable[tuple[str, Sequence[str]]]) -> dict[str, str]:
    """`written_names` of (name, aliases) pairs in `text`."""
    written = {}
    for name, aliases in entities:
        if name not in text:
            alias = next((a for a in aliases if a in text), None)
            if alias is not None:
                written[name] = alias
    return written


def _written(written: Mapping[str, str], name: str | None) -> str | None:
    return None if name is None else written.get(name, name)


def extraction_record(ex: Extraction, keys: Mapping[tuple[str, str], str]) -> dict:
    """One JSON Lines record in the scorer's format plus ids, source and mention offsets.

    Relations and results name their ends as the abstract writes them (`written_names`);
    each entity's `name` and `aliases` say which entity that is.
    """
    p = ex.paper
    written = written_names(ex)
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
            {
                "head": written.get(r.head, r.head),
                "relation": r.relation.value,
                "tail": written.get(r.tail, r.tail),
                "sentence": r.sentence,
            }
            for r in ex.relations
        ],
        "results": [
            {
                "subject": _written(written, r.subject),
                "metric": r.metric,
                "value": float(r.value),
                "value_text": str(r.value),
                "unit": r.unit,
                "benchmark": _written(written, r.benchmark),
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
