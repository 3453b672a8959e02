"""The exports loaded for a query: which file of an exports directory holds the graph (the
first syntax there is, in the order `kg.export.outputs` gives), each file parsed by its
suffix, and the files in an rdflib dataset or an Oxigraph store, the ontology and VoID each
in a named graph."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rdflib import Dataset, Graph, URIRef

from kg.errors import InputError
from kg.export.outputs import RDF_SYNTAXES, VOID, RdfSyntax, by_suffix, graph_in, listed
from kg.namespaces import DATASET, ONTOLOGY
from kg.query.rdf_errors import syntax_reason
from kg.resources import ontology_dir

#: the graph a build exports in each syntax (`kg.export.outputs`), a query reads the first there is;
#: rdflib's parser for each syntax's suffix
EXPORTS = tuple(s.file for s in RDF_SYNTAXES)
RDF_SUFFIXES = {suffix: s.rdflib for suffix, s in by_suffix().items()}
_SUFFIXES, _ANY_GRAPH = ", ".join(RDF_SUFFIXES), listed(list(EXPORTS), "or")


def graph_file(exports: Path, first: RdfSyntax | None = None) -> Path:
    """The graph of an exports directory in the syntax `first` where it is there, else in
    the first syntax it holds (see `EXPORTS`); or the file given.

    Raises:
        InputError: there is no such file, or the directory holds no graph.
    """
    if exports.is_dir():
        found = graph_in(exports, first)
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
