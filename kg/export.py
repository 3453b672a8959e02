"""Write the exports: all files rendered first, then each written to a temporary file
beside its target and renamed over it, so a failed run leaves the previous exports whole."""

from __future__ import annotations

import json
import logging
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

import networkx as nx

from kg.errors import ExportError
from kg.model import Extraction, KnowledgeGraph

log = logging.getLogger(__name__)


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
    keys = kg.entity_key_of()
    lines = [json.dumps(extraction_record(ex, keys), ensure_ascii=False) for ex in kg.extractions]
    return "\n".join(lines) + "\n" if lines else ""


def graphml(graph: nx.MultiDiGraph) -> str:
    """The NetworkX graph as GraphML (for Gephi, Cytoscape, networkx.read_graphml)."""
    return "\n".join(nx.generate_graphml(graph, prettyprint=True)) + "\n"


def write_files(out: Path, files: Mapping[str, bytes | str]) -> list[Path]:
    """Write every file under `out` atomically: all to temporaries first, then rename.

    Temporaries left by a build that was killed are removed first.

    Raises:
        ExportError: a file cannot be written; the files already in `out` are unchanged.
    """
    if out.is_dir():
        for stale in out.rglob(".*.tmp"):
            stale.unlink(missing_ok=True)
    temps: list[tuple[Path, Path]] = []
    try:
        for name in sorted(files):
            target = out / name
            target.parent.mkdir(parents=True, exist_ok=True)
            data = files[name]
            payload = data.encode("utf-8") if isinstance(data, str) else data
            fd, name_tmp = tempfile.mkstemp(
                prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
            )
            temps.append((Path(name_tmp), target))
            with os.fdopen(fd, "wb") as handle:
                handle.write(payload)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(name_tmp, 0o644)
    except OSError as error:
        _remove(temps)
        where = error.filename or out
        raise ExportError(
            f"{where}: cannot write the exports ({error.strerror}); "
            "the previous exports are unchanged"
        ) from None
    except BaseException:  # Ctrl-C: leave nothing half-written behind
        _remove(temps)
        raise
    for tmp, target in temps:
        os.replace(tmp, target)
    return [target for _, target in temps]


def _remove(temps: list[tuple[Path, Path]]) -> None:
    for tmp, _ in temps:
        tmp.unlink(missing_ok=True)
