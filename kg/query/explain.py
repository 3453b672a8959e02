"""Why an entity is what it is: its names, type votes, merges, family and every mention."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rdflib import RDF, Graph, URIRef
from rdflib.namespace import SKOS

from kg.errors import InputError
from kg.names import entity_key, fold
from kg.namespaces import ENTITY, KG, OA
from kg.query.library import voted
from kg.query.load import graph_file, parse_graph

_TYPES = {str(KG[t]) for t in ("Method", "Model", "Dataset", "Benchmark", "Task", "Metric")}


@dataclass(frozen=True)
class Occurrence:
    """A mention of the entity: the paper, the words, their offsets and the sentence."""

    paper: str
    source: str
    line: int
    text: str
    start: int
    end: int
    sentence: str


@dataclass(frozen=True)
class Explanation:
    """What kg knows about one entity and why."""

    key: str
    name: str
    type: str
    aliases: tuple[str, ...]
    type_votes: str
    family: tuple[str, ...]  #: names up the kg:variantOf chain
    variants: tuple[str, ...]  #: names of everything below it (kg:variantOf+), sorted
    merges: tuple[str, ...]
    occurrences: tuple[Occurrence, ...]


def _find(graph: Graph, name: str) -> URIRef:
    key = entity_key(name)
    if (ENTITY[key], None, None) in graph:
        return ENTITY[key]
    wanted = fold(name)
    for prop in (SKOS.prefLabel, SKOS.altLabel):
        named = {
            subject
            for subject, _, label in graph.triples((None, prop, None))
            if fold(str(label)) == wanted and isinstance(subject, URIRef)
        }
        if named:  # the one most papers name, as `kg query --param` resolves a name
            return min(named, key=lambda s: (-voted(str(graph.value(s, KG.typeVotes) or "")), s))
    raise InputError(name, "no entity of that name in the graph; try `kg stats` for names")


def _variants(graph: Graph, node: URIRef) -> tuple[str, ...]:
    """The names of every entity below `node` in its family (kg:variantOf+), sorted."""
    seen: set[URIRef] = set()
    todo = [node]
    while todo:
        for child in graph.subjects(KG.variantOf, todo.pop()):
            if isinstance(child, URIRef) and child not in seen and child != node:
                seen.add(child)
                todo.append(child)
    return tuple(sorted(str(graph.value(c, SKOS.prefLabel) or c) for c in seen))


def explain(name: str, exports: Path) -> Explanation:
    """Explain the entity named `name` (any of its names, in any spelling) in `exports`.

    Raises:
        InputError: the exports are missing or no entity has that name.
    """
    jsonl = exports / "extractions.jsonl"
    graph = parse_graph(graph_file(exports))
    if not jsonl.is_file():
        raise InputError(jsonl, "no such file; run `kg build` first")
    node = _find(graph, name)
    records = {}
    for line in jsonl.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        records[record["paper"]] = record
    occurrences = []
    for mention in graph.subjects(OA.hasBody, node):
        span = graph.value(mention, OA.hasTarget)
        selector = graph.value(span, OA.hasSelector)
        paper = str(graph.value(span, OA.hasSource)).rsplit("/", 1)[-1]
        start = int(str(graph.value(selector, OA.start)))
        end = int(str(graph.value(selector, OA.end)))
        record = records[paper]
        s, e = next(((a, b) for a, b in record["sentences"] if a <= start < b), (start, end))
        occurrences.append(
            Occurrence(
                paper,
                record["source"],
                record["line"],
                record["text"][start:end],
                start,
                end,
                record["text"][s:e],
            )
        )
    family: list[str] = []
    parent = graph.value(node, KG.variantOf)
    while isinstance(parent, URIRef) and len(family) < 10:
        family.append(str(graph.value(parent, SKOS.prefLabel) or parent))
        parent = graph.value(parent, KG.variantOf)
    types = sorted(
        str(t).rsplit("#", 1)[-1] for t in graph.objects(node, RDF.type) if str(t) in _TYPES
    )
    if not types and (node, RDF.type, SKOS.Concept) in graph:
        types = ["a family of the lexicon that no abstract names"]
    return Explanation(
        key=str(node)[len(str(ENTITY)) :],
        name=str(graph.value(node, SKOS.prefLabel)),
        type=", ".join(types),
        variants=_variants(graph, node),
        aliases=tuple(sorted(str(a) for a in graph.objects(node, SKOS.altLabel))),
        type_votes=str(graph.value(node, KG.typeVotes) or "from the lexicon only"),
        family=tuple(family),
        merges=tuple(sorted(str(n) for n in graph.objects(node, SKOS.editorialNote))),
        occurrences=tuple(sorted(occurrences, key=lambda o: (o.source, o.line, o.start))),
    )
