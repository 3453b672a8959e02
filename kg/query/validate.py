"""Check an export against ontology/shapes.ttl with pySHACL."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rdflib import Graph, URIRef
from rdflib.namespace import RDF, SH

from kg.errors import InputError
from kg.namespaces import KG, PREFIXES
from kg.query.load import RDF_SUFFIXES, graph_file
from kg.query.rdf_errors import syntax_reason
from kg.resources import ontology_dir


@dataclass(frozen=True)
class Violation:
    """One SHACL result: the node, the property, the shape and what is wrong."""

    focus: str
    path: str
    shape: str
    message: str


def _short(term: object) -> str:
    text = str(term)
    for prefix, iri in sorted(PREFIXES.items(), key=lambda kv: -len(kv[1])):
        if text.startswith(iri):
            return f"{prefix}:{text[len(iri) :]}"
    return text


def _parse(path: Path) -> Graph:
    """The graph of `path`, or an error that gives the parser's whole reason."""
    try:
        return Graph().parse(path, format=RDF_SUFFIXES.get(path.suffix, "turtle"))
    except Exception as error:  # rdflib raises many parser-specific types
        raise InputError(path, f"not valid RDF: {syntax_reason(error)}") from None


def validate(exports: Path) -> list[Violation]:
    """Violations of the shapes by the exports' graph (kg.ttl, or kg.nt after `--rdf nt`)
    or the RDF file given; [] conforms.

    Raises:
        InputError: the export is missing, is not valid RDF, or holds no paper (an empty
            file conforms to every shape: it said so).
    """
    from pyshacl import validate as shacl_validate

    path = graph_file(exports)
    data = _parse(path)
    if (None, RDF.type, KG.Paper) not in data:
        raise InputError(path, f"holds no kg:Paper ({len(data)} triples): not a graph kg wrote")
    shapes = Graph().parse(ontology_dir() / "shapes.ttl")
    # the shapes alone, no ontology and no inference: what `pyshacl -s shapes.ttl kg.ttl`
    # or a store's own SHACL engine sees (the data states every class the shapes need)
    _, report, _ = shacl_validate(data, shacl_graph=shapes, inference="none", allow_warnings=True)
    violations = []
    for result in report.subjects(SH.resultSeverity, SH.Violation):
        source = report.value(result, SH.sourceShape)
        shape = next((s for s in shapes.subjects(SH.property, source)), source)
        violations.append(
            Violation(
                focus=_short(report.value(result, SH.focusNode)),
                path=_short(report.value(result, SH.resultPath) or ""),
                shape=_short(shape) if isinstance(shape, URIRef) else "kgs:" + str(shape),
                message=str(report.value(result, SH.resultMessage)),
            )
        )
    return sorted(violations, key=lambda v: (v.focus, v.path, v.message))
