"""`kg serve` and `kg push` against a real Oxigraph server started by the test."""

from __future__ import annotations

import socket

import psutil
import pytest
from conftest import SEED_PAPERS, need_tool

from kg.cli import main
from kg.errors import KgError
from kg.serve.endpoint import push, sparql_select, start_server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def count(endpoint: str, graph: str | None = None) -> int:
    pattern = f"GRAPH <{graph}> {{ ?s ?p ?o }}" if graph else "?s ?p ?o"
    result = sparql_select(endpoint, f"SELECT (COUNT(*) AS ?n) WHERE {{ {pattern} }}")
    return int(result["results"]["bindings"][0]["n"]["value"])


@pytest.fixture(scope="module")
def oxigraph():
    from kg.serve.endpoint import oxigraph_binary

    if oxigraph_binary() is None:
        need_tool("oxigraph")  # skips, or fails under KG_REQUIRE_TOOLS=1


def test_serve_answers_sparql_over_http_read_only(oxigraph, built):
    server = start_server(built, port=free_port())
    pids = server.pool.pids()
    try:
        result = sparql_select(
            server.query_url,
            "PREFIX kg: <https://w3id.org/kg-ml/ontology#> "
            "SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }",
        )
        assert result["results"]["bindings"][0]["n"]["value"] == str(SEED_PAPERS)
        # kg's prefixes are declared, as `kg query` declares them
        bare = sparql_select(server.query_url, "SELECT (COUNT(?p) AS ?n) { ?p a kg:Paper }")
        assert bare["results"]["bindings"][0]["n"]["value"] == str(SEED_PAPERS)
        with pytest.raises(KgError, match="HTTP"):  # read-only: uploads are refused
            push(built, server.store_url, "https://example.org/g")
    finally:
        server.stop()
    assert pids and not any(psutil.pid_exists(pid) for pid in pids)


def test_push_twice_replaces_and_never_duplicates(oxigraph, built, runner):
    server = start_server(None, port=free_port())
    try:
        graph = "https://example.org/kg"
        expected = sum(1 for line in (built / "kg.nt").open() if line.strip())
        for _ in range(2):
            result = runner.invoke(
                main, ["push", str(built), "--endpoint", server.store_url, "--graph", graph]
            )
            assert result.exit_code == 0, result.output
            assert f"pushed {expected} triples" in result.stdout
            assert count(server.query_url, graph) == expected
    finally:
        server.stop()


def test_push_to_nothing_is_a_clear_error(runner, built):
    url = f"http://127.0.0.1:{free_port()}/store"
    result = runner.invoke(main, ["push", str(built), "--endpoint", url])
    assert result.exit_code == 2
    assert "cannot reach" in result.stderr and "is the store running?" in result.stderr
    assert "Traceback" not in result.stderr


def test_serve_and_push_work_from_the_lean_exports(oxigraph, built, lean, runner):
    """kg.ttl alone (`kg build --rdf turtle`): served and pushed as Turtle, every triple."""
    expected = sum(1 for line in (built / "kg.nt").open() if line.strip())
    served = start_server(lean, port=free_port())
    try:
        assert count(served.query_url) == expected
    finally:
        served.stop()
    store = start_server(None, port=free_port())
    try:
        graph = "https://example.org/lean"
        result = runner.invoke(
            main, ["push", str(lean), "--endpoint", store.store_url, "--graph", graph]
        )
        assert result.exit_code == 0, result.output
        assert f"pushed {expected} triples" in result.stdout
        assert count(store.query_url, graph) == expected
    finally:
        store.stop()


def test_serve_without_a_graph_names_what_it_looks_for(runner, tmp_path):
    result = runner.invoke(main, ["push", str(tmp_path), "--endpoint", "http://127.0.0.1:1/s"])
    assert result.exit_code == 2 and "holds no kg.ttl, kg.nt or kg.jsonld" in result.stderr
