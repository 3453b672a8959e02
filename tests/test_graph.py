from __future__ import annotations

import networkx as nx
from conftest import SEED_PAPERS

from kg.query.stats import stats


def test_graphml_round_trips_with_types_and_evidence(built):
    graph = nx.read_graphml(built / "kg.graphml", force_multigraph=True)
    kinds = nx.get_node_attributes(graph, "kind")
    assert sum(k == "paper" for k in kinds.values()) == SEED_PAPERS
    assert graph.nodes["entity:math500"]["type"] == "Benchmark"
    evaluated = [
        d
        for _, t, d in graph.edges(data=True)
        if t == "entity:math500" and d["relation"] == "evaluated_on"
    ]
    assert evaluated and all("MATH500" in d["evidence"].replace("-", "") for d in evaluated)


def test_stats_counts_match_the_graph(built):
    result = stats(built, top=3)
    assert result.papers == SEED_PAPERS
    graph = nx.read_graphml(built / "kg.graphml", force_multigraph=True)
    entity_nodes = [n for n, d in graph.nodes(data=True) if d["kind"] == "entity"]
    assert sum(result.entities_by_type.values()) == len(entity_nodes)
    assert len(result.top_entities) == 3
    counts = [papers for _, _, papers in result.top_entities]
    assert counts == sorted(counts, reverse=True)


def test_stats_of_the_rdf_graph_equal_those_of_graphml(built, lean):
    """Without kg.graphml (`--rdf turtle`), the counts come from kg.ttl, the same."""
    assert not (lean / "kg.graphml").exists()
    assert stats(lean, top=50) == stats(built, top=50)
    assert stats(built / "kg.ttl", top=5) == stats(built, top=5)
