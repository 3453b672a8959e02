"""A rebuild gathers again only the pages of nodes near a change (`kg.builder.page_scope`):
for each kind of change, every page farther away shows what it showed, and a rebuild that
keeps those pages ungathered writes what a clean build writes."""

from __future__ import annotations

import json
import logging
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import networkx as nx
import pytest
from conftest import SEEDS, files, write

import kg.builder.pages
import kg.builder.pipeline
from kg.builder.page_scope import HOPS, near_changes, node_states, within
from kg.builder.pipeline import build
from kg.export.views import View, render_views
from kg.extract import extract
from kg.graph import to_networkx
from kg.ingest import read_inputs
from kg.link import link


def seed_records() -> list[dict]:
    lines = []
    for seed in sorted(SEEDS.glob("*.txt")):
        lines += seed.read_text(encoding="utf-8").splitlines()[1:]
    return [{"id": f"p{n}", "abstract": line} for n, line in enumerate(lines) if line.strip()]


def write_records(path, records: list[dict]):
    return write(path, "".join(json.dumps(r) + "\n" for r in records))


ADDED = "We propose FooNet, evaluated on MATH500 and AIME 2024 with Qwen2.5-7B."


def changed_and_added(records):
    records[-1]["abstract"] += " We evaluate on MATH500 and GSM8K and outperform GPT-4o."
    records.append({"id": "new", "abstract": ADDED})


def removed(records):
    del records[3]


def doi_given(records):
    records[5]["doi"] = "10.1234/foo.5"  # nothing in the graph but the paper's record


def titled(records):
    records[7]["title"] = "A Title of Its Own"


def alias_given(records):
    records.append(
        {
            "id": "alias",
            "abstract": "We compare with Group Relative Policy Optimization "
            "(GRPO) and Qwen2.5-Math-7B-Instruct on MATH500.",
        }
    )


CHANGES = [changed_and_added, removed, doi_given, titled, alias_given]


def state(path, nlp):
    """Each page's digest (views, not files), and the pages and graph they came from."""
    kg = link(extract(read_inputs([path]), nlp))
    graph = to_networkx(kg)
    pages = render_views(kg, graph, "t", "x")
    digests = {}
    for name, page in pages:
        view = page()
        if isinstance(view, View):
            digests[name] = view.digest()
    return pages, graph, digests


@pytest.mark.parametrize("change", CHANGES, ids=lambda c: c.__name__)
def test_every_page_far_from_the_changes_shows_what_it_showed(change, nlp, tmp_path):
    records = seed_records()
    before, _, old = state(write_records(tmp_path / "a.jsonl", records), nlp)
    change(records)
    after, graph, new = state(write_records(tmp_path / "a.jsonl", records), nlp)
    old_states = node_states(before.signatures.graph, before.signatures, before.extras)
    new_states = node_states(graph, after.signatures, after.extras)
    near = near_changes(graph, old_states, new_states)
    far = [name for name, node in after.about.items() if node not in near and name in old]
    differ = [name for name in new if name in old and old[name] != new[name]]
    assert differ, "the change changed no page: the test tests nothing"
    assert far, "every page is near the change: the test tests nothing"
    assert not [name for name in far if old[name] != new[name]]


def test_one_edge_is_not_near_enough(nlp, tmp_path):
    """A paper's page draws the papers that share its entities: a paper retitled changes
    the pages of papers two edges away."""
    records = seed_records()
    before, graph, old = state(write_records(tmp_path / "a.jsonl", records), nlp)
    drawn_on: Counter[str] = Counter()
    for name, page in before:
        view = page()
        if isinstance(view, View) and name.startswith("papers/"):
            drawn_on.update(n for n in view.nodes if n.startswith("paper:"))
    ((most, count),) = drawn_on.most_common(1)
    assert count > 2  # the paper is drawn on other papers' pages
    text = graph.nodes[most]["text"]
    next(r for r in records if r["abstract"].strip() == text)["title"] = "A Title of Its Own"
    after, graph, new = state(write_records(tmp_path / "a.jsonl", records), nlp)
    old_states = node_states(before.signatures.graph, before.signatures, before.extras)
    new_states = node_states(graph, after.signatures, after.extras)
    changed = [n for n, s in new_states.items() if old_states.get(n) != s]
    assert changed == [most]
    differ = {n for n, node in after.about.items() if n in old and old[n] != new[n]}
    missed = {after.about[n] for n in differ} - within(graph, changed, HOPS - 1)
    assert missed and missed <= within(graph, changed, HOPS)


def test_near_means_so_many_edges_either_way():
    graph = nx.MultiDiGraph([("a", "b"), ("c", "b"), ("c", "d"), ("e", "d")])
    assert within(graph, ["a"], 0) == {"a"}
    assert within(graph, ["a"], 1) == {"a", "b"}
    assert within(graph, ["a"], 2) == {"a", "b", "c"}
    assert within(graph, ["a"], 4) == {"a", "b", "c", "d", "e"}


def test_a_node_with_new_in_edges_has_changed():
    graph = nx.MultiDiGraph([("p1", "e"), ("p2", "f")])
    signature = lambda node: "same"  # noqa: E731
    before = node_states(graph, signature, {})
    graph.add_edge("p2", "e")
    after = node_states(graph, signature, {})
    assert {n for n in after if after[n] != before[n]} == {"e"}
    assert node_states(graph, signature, {"p1": "doi"})["p1"] != after["p1"]


def counting(monkeypatch, path: Path) -> Callable[[], list[str]]:
    """Every page gathered from now on, in whichever process gathers it (a rebuild's
    pages are drawn in a forked child: `views_ahead`), noted in the file `path`."""
    draw = kg.builder.pages.draw

    def counted(name, page, before):
        with path.open("a", encoding="utf-8") as noted:
            noted.write(name + "\n")
        return draw(name, page, before)

    monkeypatch.setattr(kg.builder.pages, "draw", counted)
    return lambda: path.read_text(encoding="utf-8").split() if path.exists() else []


def test_a_rebuild_gathers_only_pages_near_the_change(tmp_path, monkeypatch):
    records = seed_records()
    source = write_records(tmp_path / "in" / "a.jsonl", records)
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache)
    gathered = counting(monkeypatch, tmp_path / "gathered.txt")
    build([source], out, cache_dir=cache)
    pages = sum(1 for name in gathered() if name.startswith(("papers/", "entities/")))
    assert pages == 0  # nothing changed: no paper's or entity's page is even gathered
    changed_and_added(records)
    write_records(source, records)
    (tmp_path / "gathered.txt").unlink()
    again = build([source], out, cache_dir=cache)
    html = sum(1 for p in out.rglob("*.html"))
    assert 0 < len(gathered()) < html / 2
    assert again.pages_kept > html / 2
    build([source], tmp_path / "clean", cache=False)
    assert files(out) == files(tmp_path / "clean")


def test_a_memo_without_states_gathers_every_page(tmp_path, monkeypatch):
    source = write_records(tmp_path / "in" / "a.jsonl", seed_records())
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache)
    (path,) = (cache / "pages").glob("*.json")
    memo = json.loads(path.read_text(encoding="utf-8"))
    del memo["states"]  # as an older kg wrote it
    path.write_text(json.dumps(memo), encoding="utf-8")
    gathered = counting(monkeypatch, tmp_path / "gathered.txt")
    again = build([source], out, cache_dir=cache)
    html = [name for name in gathered() if name.endswith(".html")]
    assert len(html) == sum(1 for p in out.rglob("*.html")) == again.pages_kept


def rebuilt(tmp_path: Path) -> tuple[Path, Path, Path, list[dict]]:
    """A first build of the seeds into `out` and the records changed, for a rebuild:
    source, out, cache and records."""
    records = seed_records()
    source = write_records(tmp_path / "in" / "a.jsonl", records)
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache)
    changed_and_added(records)
    write_records(source, records)
    return source, out, cache, records


def drawn_by(monkeypatch, path: Path) -> Callable[[], set[int]]:
    """The processes that draw pages (gather their views) from now on."""
    draw = kg.builder.pages.draw

    def noted(name, page, before):
        with path.open("a", encoding="utf-8") as note:
            note.write(f"{os.getpid()} {name}\n")
        return draw(name, page, before)

    monkeypatch.setattr(kg.builder.pages, "draw", noted)
    return lambda: {int(line.split()[0]) for line in path.read_text(encoding="utf-8").splitlines()}


def test_a_rebuild_draws_its_pages_in_a_child_meanwhile(tmp_path, monkeypatch):
    source, out, cache, _ = rebuilt(tmp_path)
    pids = drawn_by(monkeypatch, tmp_path / "pids.txt")
    again = build([source], out, cache_dir=cache)
    assert pids() and os.getpid() not in pids()  # gathered and drawn by the child alone
    assert 0 < again.pages_kept < sum(1 for p in out.rglob("*.html"))
    build([source], tmp_path / "clean", cache=False)
    assert files(out) == files(tmp_path / "clean")
    # what the child noted (each page's digest, each node's state) was remembered
    (tmp_path / "pids.txt").unlink()
    same = build([source], out, cache_dir=cache)
    assert same.pages_kept == sum(1 for p in out.rglob("*.html"))
    gathered = (tmp_path / "pids.txt").read_text(encoding="utf-8").split()[1::2]
    assert gathered and not [n for n in gathered if n.startswith(("papers/", "entities/"))]


def _fails(*args: object) -> bytes:
    raise OSError(28, "No space left on device", "/tmp/x")


@pytest.mark.parametrize(
    "handed_back",
    ["the child fails", "more than AHEAD_BYTES drawn", "the pages call for workers"],
)
def test_a_rebuild_draws_its_pages_itself_where_the_child_cannot(
    tmp_path, monkeypatch, caplog, handed_back
):
    """The child fails (the build draws the pages, and makes the node states, itself), or
    hands the drawing back with the node states it made (taken over, not made again)."""
    caplog.set_level(logging.DEBUG, logger="kg.builder.pages")
    source, out, cache, _ = rebuilt(tmp_path)
    if handed_back == "the child fails":
        monkeypatch.setattr(kg.builder.pages, "_draw_ahead", _fails)
    elif handed_back == "more than AHEAD_BYTES drawn":
        monkeypatch.setattr(kg.builder.pages, "AHEAD_BYTES", 1)
    else:  # two workers, forked by the build for any number of pages left to draw (the
        # forked path: the pages left go to the workers by their place in the list, the
        # kept ones are not sent at all)
        monkeypatch.setattr(kg.builder.pipeline, "auto_workers", lambda n: 2)
        monkeypatch.setattr(kg.builder.pages, "FORK_FROM", 0)
    drawn_here = []
    draw_all = kg.builder.pipeline.draw_all
    monkeypatch.setattr(
        kg.builder.pipeline,
        "draw_all",
        lambda pages, memo, workers, *rest: (
            drawn_here.append(workers) or draw_all(pages, memo, workers, *rest)
        ),
    )
    states = []
    node_states = kg.builder.pages.node_states
    monkeypatch.setattr(
        kg.builder.pages, "node_states", lambda *a: states.append(os.getpid()) or node_states(*a)
    )
    again = build([source], out, cache_dir=cache)
    assert drawn_here == [2 if handed_back == "the pages call for workers" else 1]
    said = [r.getMessage() for r in caplog.records if r.name == "kg.builder.pages"]
    if handed_back == "the child fails":
        assert said == ["the pages are drawn here (/tmp/x: No space left on device)"]
        assert states == [os.getpid()]  # made here, once
    else:
        assert said == ["the pages are drawn here: the child handed them back"]
        assert states == []  # made in the child, which sent them back (its pid is not noted)
    assert 0 < again.pages_kept < sum(1 for p in out.rglob("*.html"))
    build([source], tmp_path / "clean", cache=False)
    assert files(out) == files(tmp_path / "clean")
