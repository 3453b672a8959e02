"""The NetworkX graph's nodes and edges carry exactly the attributes `kg.graph_schema`
declares, with the declared types, in memory and read back from kg.graphml."""

from __future__ import annotations

import typing

import networkx as nx
import pytest

from kg.graph import to_networkx
from kg.graph_schema import (
    ENTITY,
    PAPER,
    EdgeData,
    EntityNode,
    PaperNode,
    edges,
    entity_nodes,
    paper_nodes,
)
from kg.link import link
from kg.model import (
    EntityType,
    ExtractedEntity,
    ExtractedRelation,
    Extraction,
    Mention,
    Paper,
    RelationType,
    Sentence,
)

TEXT = "We propose FooNet. FooNet uses BERT on MATH500."


def _declared(schema: type) -> dict[str, type]:
    """Each declared attribute and the Python type of its values."""
    hints = typing.get_type_hints(schema)
    kinds = {}
    for name, hint in hints.items():
        while typing.get_origin(hint) is typing.NotRequired:
            (hint,) = typing.get_args(hint)
        kinds[name] = str if typing.get_origin(hint) is typing.Literal else hint
    return kinds


def _graph() -> nx.MultiDiGraph:
    def entity(name: str, etype: EntityType, start: int, **kw: object) -> ExtractedEntity:
        mention = Mention(start, start + len(name), name, 0)
        return ExtractedEntity(name, etype, (mention,), **kw)  # type: ignore[arg-type]

    papers = [
        Paper("p1", TEXT, "a.md", 3, 1, venue="ICML", year=2026, title="FooNet", authors=("A",)),
        Paper("p2", TEXT, "a.md", 5, 2),
    ]
    extractions = [
        Extraction(
            p,
            (Sentence(0, 18), Sentence(19, len(TEXT))),
            (
                entity("FooNet", EntityType.METHOD, 11, proposed=True),
                entity("BERT", EntityType.MODEL, 31),
                entity("MATH500", EntityType.BENCHMARK, 39),
            ),
            (
                ExtractedRelation(p.id, RelationType.PROPOSES, "FooNet", 0),
                ExtractedRelation("FooNet", RelationType.USES, "BERT", 1),
            ),
        )
        for p in papers
    ]
    return to_networkx(link(extractions))


def _check(graph: nx.MultiDiGraph) -> None:
    schemas = {PAPER: _declared(PaperNode), ENTITY: _declared(EntityNode)}
    for node, data in graph.nodes(data=True):
        declared = schemas[data["kind"]]
        assert set(data) == set(declared), (node, set(data) ^ set(declared))
        for name, value in data.items():
            assert isinstance(value, declared[name]), (node, name, value)
    edge = _declared(EdgeData)
    required = EdgeData.__required_keys__
    assert graph.number_of_edges()
    for head, tail, data in graph.edges(data=True):
        assert required <= set(data) <= set(edge), (head, tail, data)
        assert all(isinstance(v, edge[k]) for k, v in data.items()), (head, tail, data)


def test_nodes_carry_exactly_the_declared_attributes():
    graph = _graph()
    _check(graph)
    assert [n for n, _ in paper_nodes(graph)] == ["paper:p1", "paper:p2"]
    entities = dict(entity_nodes(graph))
    assert entities["entity:foonet"]["papers"] == 2
    assert {d["relation"] for *_, d in edges(graph)} == {"mentions", "proposes", "uses"}


def test_the_graphml_carries_exactly_the_declared_attributes(built):
    _check(nx.read_graphml(built / "kg.graphml", force_multigraph=True))


def test_an_undeclared_attribute_fails_the_check():
    graph = _graph()
    graph.nodes["paper:p1"]["pages"] = 3
    with pytest.raises(AssertionError, match="pages"):
        _check(graph)
