"""The VoID description of an export: its size, classes, vocabularies, rights and the
extractor that wrote it."""

from __future__ import annotations

from rdflib import RDF, XSD, Graph, Literal, URIRef
from rdflib.namespace import DC, DCTERMS, PROV, SKOS

from kg.namespaces import DATASET, ENTITY, KG, OA, SCHEMA, VOID
from kg.rdf.iris import agent_iri
from kg.rdf.triples import Counts, new_graph

#: the vocabularies of kg's data model (ontology/kg.ttl), whose terms an export is written
#: in; DCMI's elements (dc:creator, an author's name) only where a paper names its authors
VOCABULARIES = (str(KG._NS), str(DCTERMS), str(SKOS), str(PROV), str(OA._NS), str(SCHEMA._NS))


#: what may be done with an export: the abstracts' rights stay with their authors
RIGHTS = (
    "The abstracts, quoted whole with their titles and authors, remain their authors' and "
    "publishers' works, under the terms they were published with; what kg adds (entities, "
    "relations, results, mentions) is derived from them."
)


def void_description(counts: Counts, extractor: str, authors: bool = False) -> Graph:
    """A VoID description of the export: size, classes, vocabularies (`authors`: with
    DCMI's elements), rights and the extractor that wrote it (the agent its assertions
    are attributed to).

    `void:entities` is VoID's: the resources the dataset describes (§4.6), every subject
    of the export (each is typed, and only an entity twice: `Counts.subjects`); the
    entities abstracts name are the `kg:Entity` class partition's."""
    void = new_graph()
    void.add((DATASET, RDF.type, VOID.Dataset))
    void.add((DATASET, DCTERMS.title, Literal("kg knowledge graph of ML papers")))
    # the abstracts are quoted as they are, and are their authors': no licence is kg's to
    # give them (ontology/kg.ttl, kg's own work, is MIT)
    void.add((DATASET, DCTERMS.rights, Literal(RIGHTS)))
    void.add((DATASET, DCTERMS.creator, agent_iri(extractor)))
    for vocabulary in sorted((*VOCABULARIES, str(DC)) if authors else VOCABULARIES):
        void.add((DATASET, VOID.vocabulary, URIRef(vocabulary)))
    void.add((DATASET, VOID.uriSpace, Literal(str(ENTITY)[: -len("entity/")])))
    void.add((DATASET, VOID.triples, Literal(counts.triples, datatype=XSD.integer)))
    void.add((DATASET, VOID.entities, Literal(counts.subjects, datatype=XSD.integer)))
    classes = {URIRef(cls): n for cls, n in counts.classes.items() if n}
    void.add((DATASET, VOID.classes, Literal(len(classes), datatype=XSD.integer)))
    for cls, n in sorted(classes.items()):
        local = str(cls).rsplit("#", 1)[-1].rsplit("/", 1)[-1]
        part = URIRef(f"{DATASET}/class/{local}")
        void.add((DATASET, VOID.classPartition, part))
        void.add((part, VOID["class"], cls))
        void.add((part, VOID.entities, Literal(n, datatype=XSD.integer)))
    return void
