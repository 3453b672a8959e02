"""Check an export against ontology/shapes.ttl with pySHACL."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rdflib import Graph, URIRef
from rdflib.namespace import SH

from kg.errors import InputError
from kg.namespaces import PREFIXES
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


def validate(exports: Path) -> list[Violation]:
    """Violations of the shapes by `exports/kg.ttl` (or the Turtle file given); [] conforms.

    Raises:
        InputError: the export is missing or is not Turtle.
    """
    from pyshacl import validate as shacl_validate

    path = exports / "kg.ttl" if exports.is_dir() else exports
    if not path.is_file():
        raise InputError(path, "no such file; run `kg build` first")
    try:
        data = Graph().parse(path, format="turtle")
    except Exception as error:  # rdflib raises parser-specific types
        raise InputError(path, f"not valid Turtle: {str(error).splitlines()[0]}") from None
    shapes = Graph().parse(ontology_dir() / "shapes.ttl")
    ontology = Graph().parse(ontology_dir() / "kg.ttl")
    _, report, _ = shacl_validate(
        data, shacl_graph=shapes, ont_graph=ontology, inference="none", allow_warnings=True
    )
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
