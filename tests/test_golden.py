"""Golden files: the Turtle and the overview's view data that kg builds from a small fixed
input, compared with what is committed under tests/golden/.

tests/golden/input/ holds five abstracts: four seed abstracts under the seeds' heading and one
made-up JSON Lines record with every metadata field. tests/golden/kg.ttl is the kg.ttl built
from them and tests/golden/overview.json the data index.html embeds for vis-network (its
nodes, edges and options; the page around them is not compared). On a mismatch a test fails
with a unified diff of the text and a verdict: for the Turtle whether the two graphs are
still isomorphic (a formatting change) or which triples only one side has (a content
change); for the view data whether only the order changed or which nodes and edges differ.

The golden files are never rewritten by a plain test run. After a change meant to alter the
output, regenerate them on purpose and review what changed before committing:

    KG_UPDATE_GOLDEN=1 pytest tests/test_golden.py && git diff tests/golden/
"""

from __future__ import annotations

import difflib
import json
import os
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from rdflib import Graph
from rdflib.compare import graph_diff, isomorphic, to_isomorphic

from kg.cli import main

GOLDEN = Path(__file__).resolve().parent / "golden"
INPUT = GOLDEN / "input"
#: set on purpose to rewrite the golden files from the build (see the module docstring)
UPDATE = os.environ.get("KG_UPDATE_GOLDEN") == "1"
#: a failure shows at most this many lines of the diff, and this many differing items
DIFF_LINES = 120
ITEMS = 15
#: how index.html embeds the view data (kg/export/views/templates/graph.html)
_EMBEDDED = {
    "nodes": re.compile(r"var nodes = new vis\.DataSet\((.*)\);$", re.MULTILINE),
    "edges": re.compile(r"var edges = new vis\.DataSet\((.*)\);$", re.MULTILINE),
    "options": re.compile(r"\{nodes: nodes, edges: edges\}, (.*)\);$", re.MULTILINE),
}

#: says how two texts differ in content, given the golden one and the built one
Verdict = Callable[[str, str], str]


@pytest.fixture(scope="module")
def golden_build(tmp_path_factory) -> Path:
    """The exports of tests/golden/input/, every view (the overview's nodes link to the
    paper and entity pages only when the build writes them)."""
    from click.testing import CliRunner

    out = tmp_path_factory.mktemp("golden") / "exports"
    args = ["build", str(INPUT), "-o", str(out), "-q", "--no-cache"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return out


def view_data(html: str) -> dict:
    """The nodes, edges and options an HTML view embeds for vis-network."""
    data = {}
    for key, pattern in _EMBEDDED.items():
        found = pattern.findall(html)
        assert len(found) == 1, f"index.html embeds its {key} once, not {len(found)} times"
        data[key] = json.loads(found[0])
    return data


def as_golden_json(data: dict) -> str:
    """View data as its golden file holds it: one key a line, readable in a diff."""
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def unified_diff(expected: str, actual: str, name: str) -> str:
    """The unified diff from the golden file to the build, cut at `DIFF_LINES` lines."""
    lines = list(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=f"tests/golden/{name}",
            tofile=f"built {name}",
        )
    )
    shown = "".join(line if line.endswith("\n") else line + "\n" for line in lines[:DIFF_LINES])
    more = len(lines) - DIFF_LINES
    return shown + (f"... and {more} more lines of diff\n" if more > 0 else "")


def _listed(items: list[str]) -> str:
    more = len(items) - ITEMS
    return "".join(f"    {item}\n" for item in items[:ITEMS]) + (
        f"    ... and {more} more\n" if more > 0 else ""
    )


def turtle_verdict(expected: str, actual: str) -> str:
    """Whether two Turtle texts hold isomorphic graphs, else the triples only one holds."""
    graphs = []
    for side, text in (("golden", expected), ("built", actual)):
        try:
            graphs.append(Graph().parse(data=text, format="turtle"))
        except Exception as error:  # any parser error: the verdict reports it, not raises
            return f"the {side} Turtle does not parse ({type(error).__name__}: {error})"
    golden, built = graphs
    if isomorphic(golden, built):
        return (
            f"the graphs are isomorphic ({len(built)} triples each): a formatting change only, "
            "the same triples written differently"
        )
    _, only_golden, only_built = graph_diff(to_isomorphic(golden), to_isomorphic(built))
    lines = [
        f"the graphs are NOT isomorphic: a content change ({len(golden)} triples in the "
        f"golden file, {len(built)} in the build)"
    ]
    for side, graph in (("golden file", only_golden), ("build", only_built)):
        triples = sorted(" ".join(term.n3() for term in triple) + " ." for triple in graph)
        lines.append(f"  {len(triples)} triples only in the {side}:\n" + _listed(triples))
    return "\n".join(lines).rstrip()


def _edge_key(edge: dict) -> str:
    """An edge without its id (ids number the edges in order)."""
    return json.dumps({k: v for k, v in edge.items() if k != "id"}, sort_keys=True)


def view_verdict(expected: str, actual: str) -> str:
    """Whether two view data files hold the same nodes and edges, else which differ."""
    golden, built = json.loads(expected), json.loads(actual)
    if golden == built:
        return "the same data: only its formatting differs (the golden file was edited by hand?)"
    nodes = [{n["id"]: n for n in side["nodes"]} for side in (golden, built)]
    edges = [Counter(_edge_key(e) for e in side["edges"]) for side in (golden, built)]
    same_options = golden["options"] == built["options"]
    if nodes[0] == nodes[1] and edges[0] == edges[1] and same_options:
        return "the same nodes, edges and options in another order (edge ids renumbered)"
    lines = ["the view data differs in content:"]
    for title, ids in (
        ("nodes only in the golden file", sorted(nodes[0].keys() - nodes[1].keys())),
        ("nodes only in the build", sorted(nodes[1].keys() - nodes[0].keys())),
        ("nodes changed", sorted(_changed(nodes[0], nodes[1]))),
        ("edges only in the golden file", sorted((edges[0] - edges[1]).elements())),
        ("edges only in the build", sorted((edges[1] - edges[0]).elements())),
    ):
        if ids:
            lines.append(f"  {len(ids)} {title}:\n" + _listed(ids))
    if not same_options:
        lines.append("  the options changed")
    return "\n".join(lines).rstrip()


def _changed(golden: dict[str, dict], built: dict[str, dict]) -> list[str]:
    """The nodes on both sides whose attributes differ, each with the attributes that do."""
    changed = []
    for node in golden.keys() & built.keys():
        keys = sorted(
            k
            for k in golden[node].keys() | built[node].keys()
            if golden[node].get(k) != built[node].get(k)
        )
        if keys:
            changed.append(f"{node} ({', '.join(keys)})")
    return changed


def golden_mismatch(name: str, actual: str, verdict: Verdict, update: bool = False) -> str | None:
    """None when tests/golden/`name` holds `actual`, else what differs and how to accept it.
    With `update`, the golden file is rewritten first (`KG_UPDATE_GOLDEN=1`)."""
    path = GOLDEN / name
    if update:
        path.write_bytes(actual.encode("utf-8"))
    if not path.is_file():
        return f"tests/golden/{name} is missing: make it with KG_UPDATE_GOLDEN=1 (module docstring)"
    expected = path.read_bytes().decode("utf-8")
    if expected == actual:
        return None
    return (
        f"the build's {name} differs from tests/golden/{name}\n"
        f"verdict: {verdict(expected, actual)}\n\n"
        f"{unified_diff(expected, actual, name)}\n"
        "If the change is meant: KG_UPDATE_GOLDEN=1 pytest tests/test_golden.py, then review "
        "and commit tests/golden/."
    )


def test_turtle_matches_its_golden_file(golden_build):
    built = (golden_build / "kg.ttl").read_bytes().decode("utf-8")
    mismatch = golden_mismatch("kg.ttl", built, turtle_verdict, UPDATE)
    assert mismatch is None, mismatch


def test_overview_view_data_matches_its_golden_file(golden_build):
    html = (golden_build / "index.html").read_text(encoding="utf-8")
    built = as_golden_json(view_data(html))
    mismatch = golden_mismatch("overview.json", built, view_verdict, UPDATE)
    assert mismatch is None, mismatch


def test_the_golden_input_covers_what_the_exports_show():
    """The fixed input is worth its files: shared entities, results, relations, metadata."""
    data = json.loads((GOLDEN / "overview.json").read_text(encoding="utf-8"))
    groups = Counter(node["group"] for node in data["nodes"])
    assert groups["Paper"] == 5 and {"Method", "Model", "Dataset", "Benchmark"} <= groups.keys()
    assert any(node.get("url", "").startswith("entities/") for node in data["nodes"])
    assert {"mentions", "evaluated_on"} <= {edge["relation"] for edge in data["edges"]}
    turtle = (GOLDEN / "kg.ttl").read_text(encoding="utf-8")
    assert "dc:creator" in turtle and "kg:value 78.4" in turtle


# The comparison itself: a formatting change and a content change are told apart.


def test_a_reformatted_turtle_file_is_reported_isomorphic():
    golden = (GOLDEN / "kg.ttl").read_text(encoding="utf-8")
    reformatted = Graph().parse(data=golden, format="turtle").serialize(format="turtle")
    mismatch = golden_mismatch("kg.ttl", reformatted, turtle_verdict)
    assert mismatch is not None and "verdict: the graphs are isomorphic" in mismatch
    assert "--- tests/golden/kg.ttl\n+++ built kg.ttl\n@@" in mismatch


def test_a_changed_triple_is_named_on_both_sides():
    golden = (GOLDEN / "kg.ttl").read_text(encoding="utf-8")
    changed = golden.replace("kg:value 78.4", "kg:value 78.5", 1)
    mismatch = golden_mismatch("kg.ttl", changed, turtle_verdict)
    assert mismatch is not None and "NOT isomorphic" in mismatch
    only = mismatch.split("only in the build:")
    assert "1 triples only in the golden file" in only[0] and '"78.4"' in only[0]
    assert '"78.5"' in only[1]
    assert "-\tkg:value 78.4 .\n+\tkg:value 78.5 .\n" in mismatch


def test_view_data_in_another_order_is_told_from_a_content_change():
    golden = json.loads((GOLDEN / "overview.json").read_text(encoding="utf-8"))
    reordered = {**golden, "nodes": golden["nodes"][::-1]}
    reordered["edges"] = [{**e, "id": i} for i, e in enumerate(golden["edges"][::-1])]
    mismatch = golden_mismatch("overview.json", as_golden_json(reordered), view_verdict)
    assert mismatch is not None and "in another order" in mismatch
    dropped = {**golden, "nodes": golden["nodes"][1:]}
    mismatch = golden_mismatch("overview.json", as_golden_json(dropped), view_verdict)
    assert mismatch is not None and "1 nodes only in the golden file" in mismatch
    assert golden["nodes"][0]["id"] in mismatch
    relabelled = {**golden, "nodes": [{**golden["nodes"][0], "label": "X"}, *golden["nodes"][1:]]}
    mismatch = golden_mismatch("overview.json", as_golden_json(relabelled), view_verdict)
    assert mismatch is not None and f"{golden['nodes'][0]['id']} (label)" in mismatch
