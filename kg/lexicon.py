"""The lexicon of known entities (ontology/lexicon.ttl): SKOS concepts with a kg type."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rdflib import RDF, Graph, URIRef
from rdflib.namespace import SKOS

from kg.model import EntityType
from kg.namespaces import ENTITY, KG
from kg.resources import ontology_dir


@dataclass(frozen=True)
class Concept:
    """One lexicon entry: its key (the IRI's local name), names, type and family."""

    key: str
    label: str
    type: EntityType
    alt_labels: tuple[str, ...] = ()
    broader: str | None = None

    @property
    def labels(self) -> tuple[str, ...]:
        """The preferred label followed by every alternative label."""
        return (self.label, *self.alt_labels)


_TYPES = {KG[t.value]: t for t in EntityType}


def _key(iri: URIRef) -> str:
    text = str(iri)
    if not text.startswith(str(ENTITY)):
        raise ValueError(f"lexicon concept {text} is outside {ENTITY}")
    return text[len(str(ENTITY)) :]


def load_lexicon(path: Path | None = None) -> tuple[Concept, ...]:
    """Read the lexicon file (default: the bundled ontology/lexicon.ttl), sorted by key."""
    graph = Graph().parse(path or ontology_dir() / "lexicon.ttl", format="turtle")
    concepts = []
    for subject, _, cls in graph.triples((None, RDF.type, None)):
        if not isinstance(cls, URIRef) or cls not in _TYPES or not isinstance(subject, URIRef):
            continue
        broader = graph.value(subject, KG.variantOf)
        concepts.append(
            Concept(
                key=_key(subject),
                label=str(graph.value(subject, SKOS.prefLabel)),
                type=_TYPES[cls],
                alt_labels=tuple(sorted(str(a) for a in graph.objects(subject, SKOS.altLabel))),
                broader=_key(broader) if isinstance(broader, URIRef) else None,
            )
        )
    return tuple(sorted(concepts, key=lambda c: c.key))


@lru_cache(maxsize=1)
def default_lexicon() -> tuple[Concept, ...]:
    """The bundled lexicon, read once per process."""
    return load_lexicon()
