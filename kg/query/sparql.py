"""SPARQL over the exports with Oxigraph (default) or rdflib: the query read, checked and
bound, and run on either engine to the same `Answer` (loading the exports: `kg.query.load`).

Oxigraph (pyoxigraph, a Rust SPARQL 1.1 engine) answers in milliseconds where rdflib's
engine takes minutes on large graphs; rdflib stays available (`engine="rdflib"`) and a test
keeps both engines' answers to the bundled queries identical.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyparsing import ParseException
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery

from kg.errors import InputError, QueryError
from kg.namespaces import PREFIXES
from kg.query.load import load_graph, load_store

FORMATS = ("table", "csv", "tsv", "json", "turtle")
ENGINES = ("oxigraph", "rdflib")
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


@dataclass(frozen=True, order=True)
class Term:
    """An RDF term of an answer, the same whichever engine produced it."""

    kind: str  #: "uri", "literal" or "bnode"
    value: str
    datatype: str | None = None
    lang: str | None = None


@dataclass(frozen=True)
class Answer:
    """A query's answer: a table (SELECT), a yes/no (ASK) or a graph in Turtle (CONSTRUCT)."""

    columns: tuple[str, ...] = ()
    rows: tuple[tuple[Term | None, ...], ...] = ()
    boolean: bool | None = None
    graph: str | None = None


def read_query(query: str) -> str:
    """The query text: `query` itself, or the content of the .rq file it names."""
    if query.endswith(".rq"):
        path = Path(query)
        if not path.is_file():
            raise InputError(path, "no such query file")
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise InputError(path, f"not UTF-8 text (byte {error.start})") from None
        except OSError as error:
            raise InputError(path, f"cannot be read ({error.strerror})") from None
    return query


#: an absolute IRI as SPARQL's IRIREF may write it: a scheme, then none of what an IRIREF
#: may not hold (space, <>"{}|^`\: a value holding one would end the IRI early)
IRI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\x00-\x20<>\"{}|\\^`]*")


def _sparql_term(term: Term) -> str:
    if term.kind == "uri":
        if not IRI.fullmatch(term.value):
            raise QueryError(f"<{term.value}> is not an IRI: it cannot be bound")
        return f"<{term.value}>"
    if term.kind == "bnode":
        raise QueryError("a blank node cannot be bound to a query variable")
    literal = json.dumps(term.value, ensure_ascii=False)
    if term.lang:
        return f"{literal}@{term.lang}"
    return f"{literal}^^<{term.datatype}>" if term.datatype else literal


def bind_values(text: str, bindings: Mapping[str, Term]) -> str:
    """`text` with a VALUES block at the top of its WHERE clause binding the given variables.

    The same text runs on both engines (Oxigraph's substitutions want the variable in the
    SELECT list), and inline data inside the pattern narrows aggregates too, which a trailing
    VALUES clause, joined after grouping, would not.
    """
    if not bindings:
        return text
    names = sorted(bindings)
    for name in names:
        if not re.search(rf"[?$]{name}\b", text):
            raise QueryError(f"--param {name}: the query has no variable ?{name}")
    where = re.search(r"\bWHERE\s*\{", text, re.IGNORECASE) or re.search(
        r"\b(SELECT|ASK)\b[^{]*\{", text, re.IGNORECASE
    )
    if where is None:
        raise QueryError("cannot bind parameters: the query has no WHERE clause")
    variables = " ".join(f"?{n}" for n in names)
    values = " ".join(_sparql_term(bindings[n]) for n in names)
    block = f" VALUES ({variables}) {{ ({values}) }} "
    return text[: where.end()] + block + text[where.end() :]


@dataclass(frozen=True)
class Checked:
    """What the syntax and safety check read of a query."""

    form: str  #: SELECT, ASK, CONSTRUCT or DESCRIBE
    datasets: bool  #: it names graphs to read (FROM, FROM NAMED)
    ordered: bool  #: it orders its answer (an ORDER BY of the query, not of a subquery)
    every_variable: bool  #: SELECT * (the engine chooses the columns' order)


def check_query(text: str) -> Checked:
    """What the query is, after a syntax and safety check.

    Raises:
        QueryError: a syntax error (with line and column) or a SERVICE clause.
    """
    try:
        tree = parseQuery(text)
        query = translateQuery(tree, None, PREFIXES)
    except ParseException as error:
        raise QueryError(
            f"SPARQL syntax error at line {error.lineno}, column {error.col}: {error.msg}"
        ) from None
    except Exception as error:  # undefined prefixes and other translation errors
        raise QueryError(f"SPARQL error: {error}") from None
    if "ServiceGraphPattern" in repr(query.algebra):
        # both engines would fetch the remote endpoint; kg queries stay offline
        raise QueryError("SERVICE clauses are not allowed: kg queries run offline")
    name = query.algebra.name
    form = {
        "SelectQuery": "SELECT",
        "AskQuery": "ASK",
        "ConstructQuery": "CONSTRUCT",
        "DescribeQuery": "DESCRIBE",
    }.get(name, name)
    body = tree[1]  # the query itself, after its prologue
    return Checked(
        form,
        bool(query.algebra.get("datasetClause")),
        "orderby" in body,
        form == "SELECT" and "projection" not in body,
    )


def _from_rdflib(term: object) -> Term | None:
    if term is None:
        return None
    if isinstance(term, URIRef):
        return Term("uri", str(term))
    if isinstance(term, BNode):
        return Term("bnode", str(term))
    assert isinstance(term, Literal)
    datatype = str(term.datatype) if term.datatype else None
    return Term("literal", str(term), None if datatype == _XSD_STRING else datatype, term.language)


def _from_oxigraph(term: object) -> Term | None:
    import pyoxigraph as ox

    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return Term("uri", term.value)
    if isinstance(term, ox.BlankNode):
        return Term("bnode", term.value)
    assert isinstance(term, ox.Literal)
    datatype = term.datatype.value if term.datatype else None
    return Term(
        "literal",
        term.value,
        None if datatype == _XSD_STRING or term.language else datatype,
        term.language,
    )


def _row_key(row: tuple[Term | None, ...]) -> tuple[tuple[str, ...], ...]:
    """A row's sort key: unbound before bound, then each term's kind, value, datatype and
    language."""
    return tuple(
        (t.kind, t.value, t.datatype or "", t.lang or "") if t is not None else () for t in row
    )


def _to_rdflib(term: Term) -> object:
    if term.kind == "uri":
        return URIRef(term.value)
    if term.kind == "bnode":
        return BNode(term.value)
    return Literal(
        term.value, lang=term.lang, datatype=URIRef(term.datatype) if term.datatype else None
    )


def _turtle(triples: Iterable[tuple[Term | None, Term | None, Term | None]]) -> str:
    graph = Graph(bind_namespaces="none")
    for prefix, iri in PREFIXES.items():
        graph.bind(prefix, iri)
    for s, p, o in triples:
        if s is not None and p is not None and o is not None:
            graph.add((_to_rdflib(s), _to_rdflib(p), _to_rdflib(o)))  # type: ignore[arg-type]
    return graph.serialize(format="turtle")


def run_query(
    text: str,
    paths: Sequence[Path],
    *,
    engine: str = "oxigraph",
    bindings: Mapping[str, Term] | None = None,
    store: Any = None,
) -> Answer:
    """Run a SPARQL query over RDF files or directories; kg's prefixes are predeclared.

    Args:
        text: the query.
        paths: files or directories of RDF (ignored when `store` is given).
        engine: "oxigraph" (default) or "rdflib".
        bindings: values for variables of the query (`?benchmark` → entity:math500).
        store: an already loaded store or graph of that engine, to run many queries.

    Raises:
        QueryError: the query is malformed, unsafe or fails.
        InputError: an RDF file is missing or malformed.
    """
    text = bind_values(text, bindings or {})
    checked = check_query(text)
    form = checked.form
    if engine == "rdflib":
        if checked.datasets:
            # rdflib would fetch each graph named from its IRI: a URL, any file
            raise QueryError(
                "FROM and FROM NAMED are not read by the rdflib engine (it would fetch "
                "them): use the default engine, where they choose graphs of the exports"
            )
        graph = store if store is not None else load_graph(paths)
        assert isinstance(graph, Graph)
        result = graph.query(text, initNs=PREFIXES)
        if form == "ASK":
            return Answer(boolean=bool(result.askAnswer))
        if form in ("CONSTRUCT", "DESCRIBE"):
            assert result.graph is not None
            return Answer(
                graph=_turtle(
                    (_from_rdflib(s), _from_rdflib(p), _from_rdflib(o)) for s, p, o in result.graph
                )
            )  # type: ignore[misc]
        columns = tuple(str(v) for v in result.vars or ())
        rows = tuple(
            tuple(_from_rdflib(t) for t in row)  # type: ignore[union-attr]
            for row in result
        )
        # rdflib's order changes from run to run (set iteration): the columns of SELECT *
        # in the order Oxigraph gives them (by name), the rows sorted
        if checked.every_variable:
            order = sorted(range(len(columns)), key=lambda i: columns[i])
            columns = tuple(columns[i] for i in order)
            rows = tuple(tuple(row[i] for i in order) for row in rows)
        if not checked.ordered:
            rows = tuple(sorted(rows, key=_row_key))
        return Answer(columns, rows)
    if engine != "oxigraph":
        raise QueryError(f"unknown engine {engine!r}: use one of {', '.join(ENGINES)}")
    import pyoxigraph as ox

    oxstore = store if store is not None else load_store(paths)
    try:
        result = oxstore.query(text, prefixes=PREFIXES)
    except SyntaxError as error:
        raise QueryError(f"SPARQL syntax error: {error}") from None
    except (OSError, RuntimeError) as error:
        raise QueryError(f"SPARQL error: {error}") from None
    if isinstance(result, ox.QueryBoolean):
        return Answer(boolean=bool(result))
    if isinstance(result, ox.QueryTriples):
        return Answer(
            graph=_turtle(
                (_from_oxigraph(t.subject), _from_oxigraph(t.predicate), _from_oxigraph(t.object))
                for t in result
            )
        )
    columns = tuple(v.value for v in result.variables)
    return Answer(columns, tuple(tuple(_from_oxigraph(s[c]) for c in columns) for s in result))
