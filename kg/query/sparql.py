"""SPARQL over the exports with Oxigraph (default) or rdflib, and the answer formatted.

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
from rdflib import BNode, Dataset, Graph, Literal, URIRef
from rdflib.plugins.sparql import prepareQuery

from kg.errors import InputError, QueryError
from kg.export.outputs import RDF_SYNTAXES, VOID, by_suffix, graph_in, listed
from kg.namespaces import DATASET, ONTOLOGY, PREFIXES
from kg.query.rdf_errors import syntax_reason
from kg.resources import ontology_dir

FORMATS = ("table", "csv", "tsv", "json", "turtle")
ENGINES = ("oxigraph", "rdflib")
#: the graph a build exports in each syntax (`kg.export.outputs`), a query reads the first there is;
#: rdflib's parser for each syntax's suffix
EXPORTS = tuple(s.file for s in RDF_SYNTAXES)
RDF_SUFFIXES = {suffix: s.rdflib for suffix, s in by_suffix().items()}
_SUFFIXES, _ANY_GRAPH = ", ".join(RDF_SUFFIXES), listed(list(EXPORTS), "or")
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
        return path.read_text(encoding="utf-8")
    return query


def graph_file(exports: Path) -> Path:
    """The graph of an exports directory in the first syntax it holds (see `EXPORTS`), or
    the file given.

    Raises:
        InputError: there is no such file, or the directory holds no graph.
    """
    if exports.is_dir():
        found = graph_in(exports)
        if found is None:
            raise InputError(exports, f"holds no {_ANY_GRAPH}; run `kg build` first")
        return found
    if not exports.is_file():
        raise InputError(exports, "no such file; run `kg build` first")
    return exports


def parse_graph(path: Path, graph: Graph | None = None) -> Graph:
    """One RDF file read into `graph` (a new one by default), its syntax told by its suffix
    (Turtle otherwise).

    Raises:
        InputError: the file is not valid RDF in that syntax.
    """
    graph = Graph() if graph is None else graph
    try:
        return graph.parse(path, format=RDF_SUFFIXES.get(path.suffix, "turtle"))
    except Exception as error:  # rdflib raises many parser-specific types
        raise InputError(path, f"not valid RDF: {syntax_reason(error)}") from None


def rdf_files(paths: Sequence[Path]) -> list[Path]:
    """The RDF files to load: files as given; in an exports directory, its graph in one
    syntax (kg.ttl, else kg.nt after `kg build --rdf nt`, else kg.jsonld) and void.ttl; in
    another directory, its RDF files of one format."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            if any((path / n).is_file() for n in EXPORTS):
                files += [graph_file(path), *[f for f in [path / "void.ttl"] if f.is_file()]]
                continue
            found = next(
                (
                    sorted(path.glob(f"*{suffix}"))
                    for suffix in RDF_SUFFIXES
                    if any(path.glob(f"*{suffix}"))
                ),
                [],
            )
            if not found:
                raise InputError(path, f"holds no RDF files ({_SUFFIXES}); run `kg build`")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise InputError(path, "no such file or directory; run `kg build` first")
    return [*files, ontology_dir() / "kg.ttl"]


def graph_of(file: Path) -> str | None:
    """The named graph `file` is loaded into, or None for the default graph: the ontology
    and a VoID description each go into a graph of their own (the ontology's IRI, the
    dataset's), so that the default graph is the export alone and counts the triples
    `void:triples` and the build say. `GRAPH <https://w3id.org/kg-ml/ontology> { … }` reads
    the class hierarchy."""
    if file.name == VOID:
        return str(DATASET)
    if file.resolve() == (ontology_dir() / "kg.ttl").resolve():
        return str(ONTOLOGY)
    return None


def load_graph(paths: Sequence[Path]) -> Graph:
    """The exports in an rdflib dataset's default graph, the ontology and VoID each in a
    named graph (`graph_of`)."""
    dataset = Dataset()
    for file in rdf_files(paths):
        name = graph_of(file)
        parse_graph(file, dataset.graph(URIRef(name)) if name else dataset.default_graph)
    return dataset


def load_store(paths: Sequence[Path]):  # -> pyoxigraph.Store
    """The exports in an Oxigraph store, the ontology and VoID each in a named graph
    (`graph_of`): the one `kg build` wrote for these files (kg/query/store.py), opened
    read-only, else loaded in memory."""
    import pyoxigraph as ox

    from kg.query.store import load_into, open_store

    files = rdf_files(paths)
    stored = open_store(files)
    if stored is not None:
        return stored
    store = ox.Store()
    load_into(store, files)
    return store


def _sparql_term(term: Term) -> str:
    if term.kind == "uri":
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


def check_query(text: str) -> str:
    """The query's form (SELECT, ASK, CONSTRUCT, DESCRIBE) after a syntax and safety check.

    Raises:
        QueryError: a syntax error (with line and column) or a SERVICE clause.
    """
    try:
        query = prepareQuery(text, initNs=PREFIXES)
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
    return {
        "SelectQuery": "SELECT",
        "AskQuery": "ASK",
        "ConstructQuery": "CONSTRUCT",
        "DescribeQuery": "DESCRIBE",
    }.get(name, name)


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
    form = check_query(text)
    if engine == "rdflib":
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
        return Answer(
            columns,
            tuple(
                tuple(_from_rdflib(t) for t in row)  # type: ignore[union-attr]
                for row in result
            ),
        )
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
