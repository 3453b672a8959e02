"""SPARQL over the exports: load Turtle files, run a query, format the answer."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pyparsing import ParseException
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.plugins.sparql import prepareQuery
from rdflib.plugins.sparql.sparql import Query

from kg.errors import InputError, QueryError
from kg.namespaces import PREFIXES
from kg.resources import ontology_dir

FORMATS = ("table", "csv", "tsv", "json")
RDF_SUFFIXES = {".ttl": "turtle", ".nt": "nt", ".jsonld": "json-ld"}


@dataclass(frozen=True)
class Answer:
    """A query's answer: column names and rows of RDF terms (None where unbound), or a bool."""

    columns: tuple[str, ...]
    rows: tuple[tuple[object, ...], ...]
    boolean: bool | None = None


def read_query(query: str) -> str:
    """The query text: `query` itself, or the content of the .rq file it names."""
    path = Path(query)
    if query.endswith(".rq"):
        if not path.is_file():
            raise InputError(path, "no such query file")
        return path.read_text(encoding="utf-8")
    return query


def load_graph(paths: Sequence[Path]) -> Graph:
    """The exports (Turtle, N-Triples, JSON-LD files or directories of them) plus the ontology."""
    graph = Graph()
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            # the exports hold one graph in three formats: read the first format present
            found = next(
                (
                    sorted(path.glob(f"*{suffix}"))
                    for suffix in RDF_SUFFIXES
                    if any(path.glob(f"*{suffix}"))
                ),
                [],
            )
            if not found:
                raise InputError(path, "holds no RDF files (.ttl, .nt, .jsonld); run `kg build`")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise InputError(path, "no such file or directory; run `kg build` first")
    for file in [*files, ontology_dir() / "kg.ttl"]:
        try:
            graph.parse(file, format=RDF_SUFFIXES.get(file.suffix, "turtle"))
        except Exception as error:  # rdflib raises many parser-specific types
            raise InputError(file, f"not valid RDF: {str(error).splitlines()[0]}") from None
    return graph


def _prepare(text: str) -> Query:
    try:
        query = prepareQuery(text, initNs=PREFIXES)
    except ParseException as error:
        raise QueryError(
            f"SPARQL syntax error at line {error.lineno}, column {error.col}: {error.msg}"
        ) from None
    except Exception as error:  # undefined prefix and other translation errors
        raise QueryError(f"SPARQL error: {error}") from None
    if "ServiceGraphPattern" in repr(query.algebra):
        # rdflib would fetch the remote endpoint; kg queries stay offline
        raise QueryError("SERVICE clauses are not allowed: kg queries run offline")
    return query


def run_query(text: str, graph: Graph) -> Answer:
    """Run a SELECT or ASK query (prefixes of the kg ontology are predeclared)."""
    query = _prepare(text)
    result = graph.query(query)
    if result.type == "ASK":
        return Answer((), (), boolean=bool(result.askAnswer))
    if result.type != "SELECT":
        raise QueryError(f"{result.type} queries are not supported yet: use SELECT or ASK")
    columns = tuple(str(v) for v in result.vars or ())
    return Answer(columns, tuple(tuple(row) for row in result))  # type: ignore[arg-type]


def _compact(term: object) -> str:
    if term is None:
        return ""
    if isinstance(term, URIRef):
        for prefix, iri in sorted(PREFIXES.items(), key=lambda kv: -len(kv[1])):
            if term.startswith(iri):
                return f"{prefix}:{term[len(iri) :]}"
        return f"<{term}>"
    if isinstance(term, Literal | BNode):
        return str(term)
    return str(term)


def format_answer(answer: Answer, fmt: str) -> str:
    """Render an answer as an aligned table, CSV, TSV or SPARQL 1.1 Results JSON."""
    if answer.boolean is not None:
        if fmt == "json":
            return json.dumps({"head": {}, "boolean": answer.boolean}) + "\n"
        return ("yes" if answer.boolean else "no") + "\n"
    rows = [[_compact(v) for v in row] for row in answer.rows]
    if fmt in ("csv", "tsv"):
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter="," if fmt == "csv" else "\t", lineterminator="\n")
        writer.writerow(answer.columns)
        writer.writerows(rows)
        return buffer.getvalue()
    if fmt == "json":
        return (
            json.dumps(
                {
                    "head": {"vars": list(answer.columns)},
                    "results": {"bindings": [_binding(answer.columns, r) for r in answer.rows]},
                },
                ensure_ascii=False,
                indent=1,
            )
            + "\n"
        )
    return _table(answer.columns, rows)


def _binding(columns: Iterable[str], row: Iterable[object]) -> dict:
    out = {}
    for name, term in zip(columns, row, strict=True):
        if isinstance(term, URIRef):
            out[name] = {"type": "uri", "value": str(term)}
        elif isinstance(term, Literal):
            item = {"type": "literal", "value": str(term)}
            if term.datatype:
                item["datatype"] = str(term.datatype)
            if term.language:
                item["xml:lang"] = term.language
            out[name] = item
        elif isinstance(term, BNode):
            out[name] = {"type": "bnode", "value": str(term)}
    return out


def _table(columns: Sequence[str], rows: list[list[str]]) -> str:
    cells = [[c.replace("\n", " ") for c in row] for row in rows]
    widths = [max([len(c), *(min(len(r[i]), 80) for r in cells)]) for i, c in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        return "  ".join(
            (v if len(v) <= 80 else v[:79] + "…").ljust(w)
            for v, w in zip(values, widths, strict=True)
        ).rstrip()

    out = [line(columns), line(["-" * w for w in widths]), *(line(r) for r in cells)]
    out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out) + "\n"
