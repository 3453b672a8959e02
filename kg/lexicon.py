"""The lexicon of known entities (ontology/lexicon.ttl): SKOS concepts with a kg type."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rdflib.namespace import RDF, SKOS

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


_TYPES = {str(KG[t.value]): t for t in EntityType}
_RDF_TYPE, _VARIANT_OF = str(RDF.type), str(KG.variantOf)
_PREF_LABEL, _ALT_LABEL = str(SKOS.prefLabel), str(SKOS.altLabel)


def _key(text: str) -> str:
    if not text.startswith(str(ENTITY)):
        raise ValueError(f"lexicon concept {text} is outside {ENTITY}")
    return text[len(str(ENTITY)) :]


def load_lexicon(path: Path | None = None) -> tuple[Concept, ...]:
    """Read the lexicon file (default: the bundled ontology/lexicon.ttl), sorted by key.

    Parsed by Oxigraph, not rdflib: every extraction worker reads it as it starts, and
    rdflib took 0.18 s of a worker's 1.6 s start (Oxigraph 0.02-0.03 s). Its triples are
    read as a set, as rdflib's graph holds them (a triple written twice counts once).

    Raises:
        ValueError: a concept is outside the entity namespace, or has not one type and one
            preferred label.
    """
    import pyoxigraph as ox

    source = path or ontology_dir() / "lexicon.ttl"
    types: dict[str, set[EntityType]] = defaultdict(set)
    labels: dict[str, set[str]] = defaultdict(set)
    alt_labels: dict[str, set[str]] = defaultdict(set)
    broader: dict[str, str] = {}
    for triple in ox.parse(path=str(source), format=ox.RdfFormat.TURTLE):
        subject, predicate, value = triple.subject, triple.predicate.value, triple.object
        if not isinstance(subject, ox.NamedNode):
            continue
        if predicate == _RDF_TYPE and isinstance(value, ox.NamedNode) and value.value in _TYPES:
            types[subject.value].add(_TYPES[value.value])
        elif predicate == _PREF_LABEL and isinstance(value, ox.Literal):
            labels[subject.value].add(value.value)
        elif predicate == _ALT_LABEL and isinstance(value, ox.Literal):
            alt_labels[subject.value].add(value.value)
        elif predicate == _VARIANT_OF and isinstance(value, ox.NamedNode):
            broader[subject.value] = value.value
    concepts = []
    for iri, kinds in types.items():
        if len(kinds) != 1 or len(labels[iri]) != 1:
            raise ValueError(
                f"lexicon concept {iri} has {len(kinds)} types and "
                f"{len(labels[iri])} preferred labels (one of each, please)"
            )
        concepts.append(
            Concept(
                key=_key(iri),
                label=next(iter(labels[iri])),
                type=next(iter(kinds)),
                alt_labels=tuple(sorted(alt_labels[iri])),
                broader=_key(broader[iri]) if iri in broader else None,
            )
        )
    return tuple(sorted(concepts, key=lambda c: c.key))


@lru_cache(maxsize=1)
def default_lexicon() -> tuple[Concept, ...]:
    """The bundled lexicon, read once per process."""
    return load_lexicon()
