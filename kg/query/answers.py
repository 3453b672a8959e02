"""How `kg query` prints an answer: a table, CSV, TSV, SPARQL Results JSON or Turtle."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

from kg.errors import QueryError
from kg.namespaces import PREFIXES
from kg.query.sparql import Answer, Term


def compact(term: Term | None) -> str:
    """A term for a table: prefixed IRIs, plain literal values."""
    if term is None:
        return ""
    if term.kind == "uri":
        for prefix, iri in sorted(PREFIXES.items(), key=lambda kv: -len(kv[1])):
            if term.value.startswith(iri):
                return f"{prefix}:{term.value[len(iri) :]}"
        return f"<{term.value}>"
    return term.value


def format_answer(answer: Answer, fmt: str) -> str:
    """Render an answer as a table, CSV, TSV, SPARQL 1.1 Results JSON or Turtle."""
    if answer.graph is not None:
        if fmt not in ("table", "turtle"):
            raise QueryError(f"CONSTRUCT and DESCRIBE answer a graph: --format turtle, not {fmt}")
        return answer.graph
    if answer.boolean is not None:
        if fmt == "json":
            return json.dumps({"head": {}, "boolean": answer.boolean}) + "\n"
        return ("yes" if answer.boolean else "no") + "\n"
    if fmt == "turtle":
        raise QueryError("--format turtle is for CONSTRUCT and DESCRIBE queries")
    rows = [[compact(v) for v in row] for row in answer.rows]
    if fmt in ("csv", "tsv"):
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter="," if fmt == "csv" else "\t", lineterminator="\n")
        writer.writerow(answer.columns)
        writer.writerows(rows)
        return buffer.getvalue()
    if fmt == "json":
        bindings = [
            {
                name: _json_term(t)
                for name, t in zip(answer.columns, row, strict=True)
                if t is not None
            }
            for row in answer.rows
        ]
        return (
            json.dumps(
                {"head": {"vars": list(answer.columns)}, "results": {"bindings": bindings}},
                ensure_ascii=False,
                indent=1,
            )
            + "\n"
        )
    return _table(answer.columns, rows)


def _json_term(term: Term) -> dict:
    out = {"type": term.kind, "value": term.value}
    if term.datatype:
        out["datatype"] = term.datatype
    if term.lang:
        out["xml:lang"] = term.lang
    return out


#: the widest cell of a table; a longer value is cut, with "…"
_CELL = 80


def _table(columns: Sequence[str], rows: list[list[str]]) -> str:
    cells = [[c.replace("\n", " ") for c in row] for row in rows]
    widths = [max([len(c), *(min(len(r[i]), _CELL) for r in cells)]) for i, c in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        return "  ".join(
            (v if len(v) <= _CELL else v[: _CELL - 1] + "…").ljust(w)
            for v, w in zip(values, widths, strict=True)
        ).rstrip()

    out = [line(columns), line(["-" * w for w in widths]), *(line(r) for r in cells)]
    counted = f"{len(rows)} row{'s' if len(rows) != 1 else ''}"
    if any(len(v) > _CELL for r in cells for v in r):  # say how to see what the "…" hides
        counted += f"; cells cut at {_CELL} characters: -f tsv or -f json prints them whole"
    out.append(f"({counted})")
    return "\n".join(out) + "\n"
