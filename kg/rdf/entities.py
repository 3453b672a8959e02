"""Entities: the linked entities, the lexicon families above them, and the relations
between them (what papers share, in the first block)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rdflib import RDF, RDFS, Literal
from rdflib.namespace import SKOS

from kg.lexicon import Concept
from kg.model import Assertion, Entity, RelationType
from kg.namespaces import ENTITY, KG, LEXICON
from kg.rdf import terms as t
from kg.rdf.iris import entity_nt
from kg.rdf.syntax import iri, literal
from kg.rdf.triples import Triples


def add_families(
    graph: Triples, entities: Iterable[Entity], concepts: Mapping[str, Concept]
) -> None:
    """The lexicon concepts above the entities that no entity stands for, so that
    `kg:variantOf*` reaches the top of each family (every Qwen model is a variant of
    entity:qwen). No abstract names them: they are `skos:Concept`s of the lexicon, not
    entities (`kg:Entity`), and no count of entities includes them."""
    entities = list(entities)
    keys = {e.key for e in entities}
    for e in entities:
        family = e.broader
        while family and family not in keys and family in concepts:
            keys.add(family)
            _concept(graph, concepts[family])
            family = concepts[family].broader


def _concept(graph: Triples, concept: Concept) -> None:
    node = ENTITY[concept.key]
    graph.add((node, RDF.type, SKOS.Concept))
    graph.add((node, SKOS.prefLabel, Literal(concept.label)))
    graph.add((node, RDFS.label, Literal(concept.label)))
    graph.add((node, SKOS.inScheme, LEXICON))
    for alias in concept.alt_labels:
        graph.add((node, SKOS.altLabel, Literal(alias)))
    if concept.broader:
        graph.add((node, KG.variantOf, ENTITY[concept.broader]))


def add_entity(graph: Triples, e: Entity) -> None:
    """A linked entity: its type, names, family and how it was linked."""
    add = graph.add_nt
    node = entity_nt(e.key)
    add(node, t.A, t.ENTITY)  # stated, so that shapes and queries need no inference
    add(node, t.A, t.CLASSES[e.type])
    if e.concept:
        add(node, t.IN_SCHEME, iri(LEXICON))
    for note in e.merge_reasons:
        add(node, t.EDITORIAL_NOTE, literal(note))
    votes = ", ".join(f"{k} {n}" for k, n in sorted(e.type_votes, key=lambda v: (-v[1], v[0])))
    add(node, t.TYPE_VOTES, literal(votes))
    add(node, t.PREF_LABEL, literal(e.name))
    add(node, t.LABEL, literal(e.name))
    for alias in e.aliases:
        add(node, t.ALT_LABEL, literal(alias))
    if e.broader:
        add(node, t.VARIANT_OF, entity_nt(e.broader))


def add_relation(graph: Triples, a: Assertion) -> None:
    """A relation between two entities, as it holds whichever paper states it (PROPOSES
    relates a paper: its triple is in the paper's block)."""
    if a.relation is not RelationType.PROPOSES:
        graph.add_nt(entity_nt(a.head), t.PREDICATES[a.relation], entity_nt(a.tail))
