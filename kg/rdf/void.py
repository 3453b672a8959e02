"""The VoID description of an export: its size, classes, licence and the kg that wrote it."""

from __future__ import annotations

from rdflib import RDF, XSD, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS

from kg.namespaces import DATASET, ENTITY, KG, VOID
from kg.rdf.triples import Counts, new_graph


def void_description(counts: Counts, version: str) -> Graph:
    """A VoID description of the export: size, classes, licence and the kg that wrote it."""
    void = new_graph()
    void.add((DATASET, RDF.type, VOID.Dataset))
    void.add((DATASET, DCTERMS.title, Literal("kg knowledge graph of ML papers")))
    void.add((DATASET, DCTERMS.license, URIRef("https://opensource.org/licenses/MIT")))
    void.add((DATASET, DCTERMS.creator, Literal(f"kg {version}")))
    void.add((DATASET, VOID.vocabulary, URIRef(str(KG._NS))))
    void.add((DATASET, VOID.uriSpace, Literal(str(ENTITY)[: -len("entity/")])))
    void.add((DATASET, VOID.triples, Literal(counts.triples, datatype=XSD.integer)))
    void.add((DATASET, VOID.entities, Literal(counts.entities, datatype=XSD.integer)))
    classes = {URIRef(cls): n for cls, n in counts.classes.items() if n}
    void.add((DATASET, VOID.classes, Literal(len(classes), datatype=XSD.integer)))
    for cls, n in sorted(classes.items()):
        local = str(cls).rsplit("#", 1)[-1].rsplit("/", 1)[-1]
        part = URIRef(f"{DATASET}/class/{local}")
        void.add((DATASET, VOID.classPartition, part))
        void.add((part, VOID["class"], cls))
        void.add((part, VOID.entities, Literal(n, datatype=XSD.integer)))
    return void
