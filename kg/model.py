"""The records passed between pipeline stages: frozen dataclasses, no spaCy objects."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from functools import cached_property


class EntityType(StrEnum):
    """The kinds of thing kg extracts; the values are the ontology's class names."""

    METHOD = "Method"
    MODEL = "Model"
    DATASET = "Dataset"
    BENCHMARK = "Benchmark"
    TASK = "Task"
    METRIC = "Metric"


class RelationType(StrEnum):
    """Typed relations between a paper or entity and an entity (the scorer's names)."""

    PROPOSES = "proposes"
    USES = "uses"
    EVALUATED_ON = "evaluated_on"
    OUTPERFORMS = "outperforms"
    PART_OF = "part_of"


@dataclass(frozen=True, order=True)
class Paper:
    """One abstract as read from an input file."""

    id: str  #: content-derived: the same abstract has the same id in every build
    text: str
    source: str  #: file name the abstract came from
    line: int  #: 1-based line of the abstract in that file
    index: int  #: 1-based position among the file's abstracts
    collection: str = ""  #: the heading line, e.g. "ICML 2026 Papers"
    venue: str | None = None
    year: int | None = None
    title: str = ""
    authors: tuple[str, ...] = ()
    url: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    external_id: str | None = None  #: the id the input gave (OpenReview, BibTeX key, ...)

    @cached_property
    def digest(self) -> str:
        """A digest of every field (the paper as read), made once: a rebuild compares what
        its RDF block and its page read of it with the last build's."""
        return hashlib.sha256(repr(self).encode()).hexdigest()


@dataclass(frozen=True, order=True)
class Sentence:
    """A sentence of an abstract, by character offsets into `Paper.text`."""

    start: int
    end: int


@dataclass(frozen=True, order=True)
class Mention:
    """One occurrence of an entity name in an abstract."""

    start: int
    end: int
    text: str
    sentence: int  #: index into `Extraction.sentences`


@dataclass(frozen=True)
class ExtractedEntity:
    """An entity as one abstract names it, with every mention."""

    name: str  #: canonical surface form, as written in the abstract
    type: EntityType
    mentions: tuple[Mention, ...]
    aliases: tuple[str, ...] = ()  #: other forms in the same abstract (acronym, expansion)
    proposed: bool = False  #: the paper introduces it
    concept: str | None = None  #: lexicon concept id when the name is a known entity
    evidence: str = ""  #: how the type was decided (lexicon, shape, context)


@dataclass(frozen=True)
class ExtractedRelation:
    """A typed relation stated in one abstract, with the sentence that states it."""

    head: str  #: entity name (or the paper id for `proposes`)
    relation: RelationType
    tail: str
    sentence: int


@dataclass(frozen=True)
class Result:
    """A reported figure: (subject, metric, value, benchmark) from one sentence."""

    subject: str | None
    metric: str | None
    value: Decimal
    unit: str | None
    benchmark: str | None
    sentence: int
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Extraction:
    """What the extractor found in one paper."""

    paper: Paper
    sentences: tuple[Sentence, ...]
    entities: tuple[ExtractedEntity, ...]
    relations: tuple[ExtractedRelation, ...] = ()
    results: tuple[Result, ...] = ()


@dataclass(frozen=True)
class EntityRef:
    """Where a linked entity was mentioned: a paper and a mention in it."""

    paper: str
    mention: Mention


@dataclass(frozen=True)
class Entity:
    """One real-world thing across papers: the node of the graph."""

    key: str  #: stable, content-derived id (the lexicon id or the normalised name)
    name: str
    type: EntityType
    aliases: tuple[str, ...]
    papers: tuple[str, ...]
    mentions: tuple[EntityRef, ...]
    concept: str | None = None
    broader: str | None = None  #: key of the family this is a variant of
    type_votes: tuple[tuple[str, int], ...] = ()  #: how the type was settled
    merge_reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class Assertion:
    """A relation between linked nodes, stated in one paper."""

    head: str  #: entity key, or paper id for paper-level relations
    relation: RelationType
    tail: str  #: entity key
    paper: str
    sentence: Sentence


@dataclass(frozen=True)
class LinkedResult:
    """A `Result` whose subject and benchmark are linked entities."""

    paper: str
    subject: str | None
    metric: str | None
    value: Decimal
    unit: str | None
    benchmark: str | None
    sentence: Sentence
    text: str


@dataclass(frozen=True)
class KnowledgeGraph:
    """The linked graph: papers, entities, assertions and results, sorted by key."""

    papers: tuple[Paper, ...]
    entities: tuple[Entity, ...]
    assertions: tuple[Assertion, ...]
    results: tuple[LinkedResult, ...] = ()
    extractions: tuple[Extraction, ...] = field(default=(), repr=False)
    #: (paper id, name as that paper writes it, entity key) for every extracted name
    links: tuple[tuple[str, str, str], ...] = field(default=(), repr=False)

    def entity_key_of(self) -> dict[tuple[str, str], str]:
        """Map (paper id, name in that paper) to the linked entity's key."""
        return {(paper, name): key for paper, name, key in self.links}
