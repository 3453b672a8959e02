"""A rebuild draws only the pages whose view changed and copies the RDF and JSON Lines of
papers that did not change, and its exports equal a clean build's."""

from __future__ import annotations

import dataclasses
import io
import marshal
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest
from conftest import SEEDS, files, write
from rdflib import Graph
from rdflib.compare import isomorphic

import kg.builder.blocks
import kg.builder.engines
import kg.builder.memo
import kg.builder.pipeline
from kg.builder.blocks import block_keys
from kg.builder.pages import PageMemo, draw_all, drawn_ahead, signs_ahead, views_ahead
from kg.builder.pipeline import build
from kg.errors import ExportError
from kg.export.convert import convert_blocks
from kg.export.views import render_views, vis_library
from kg.export.views.pages import Site, paper_view
from kg.extract import extract
from kg.graph import paper_node, to_networkx
from kg.ingest import read_inputs
from kg.link import link
from kg.namespaces import PREFIXES
from kg.processes import Forked


def edit(source, change):
    lines = source.read_text(encoding="utf-8").splitlines()
    change(lines)
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")


NEW = "We propose FooNet, evaluated on MATH500 and AIME 2024 with Qwen2.5-7B."


def change_last_and_add_one(lines):
    """Change one abstract, and add one that names entities other papers name."""
    lines[-1] += " We evaluate on MATH500 and GSM8K and outperform GPT-4o."
    lines.append(NEW)


def add_one_first(lines):
    """Every other paper moves a line down: every page that draws one changes."""
    lines.insert(2, NEW)


def remove_last(lines):
    """No other paper moves: every other paper's RDF is copied."""
    del lines[-1]


def test_a_rebuild_draws_only_changed_pages_and_equals_a_clean_build(source, tmp_path):
    out, cache = tmp_path / "out", tmp_path / "cache"
    first = build([source], out, cache_dir=cache)
    assert first.pages_kept == 0
    edit(source, change_last_and_add_one)
    again = build([source], out, cache_dir=cache)
    pages = len(list(out.rglob("*.html")))
    assert 0 < again.pages_kept < pages - 1  # some pages kept, the changed ones drawn
    clean = build([source], tmp_path / "clean", cache=False)
    assert clean.pages_kept == 0
    assert files(out) == files(tmp_path / "clean")


def test_a_rebuild_after_lines_moved_equals_a_clean_build(source, tmp_path):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache)
    edit(source, add_one_first)
    build([source], out, cache_dir=cache)
    build([source], tmp_path / "clean", cache=False)
    assert files(out) == files(tmp_path / "clean")


def test_nothing_changed_nothing_drawn(source, tmp_path):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache)
    pages = len(list(out.rglob("*.html")))
    assert build([source], out, cache_dir=cache).pages_kept == pages


def test_a_page_changed_or_removed_by_hand_is_drawn_again(source, tmp_path):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache)
    before = files(out)
    edited, removed = sorted((out / "papers").glob("*.html"))[:2]
    edited.write_bytes(b"x" * edited.stat().st_size)  # the same size: the time tells
    removed.unlink()
    build([source], out, cache_dir=cache)
    assert files(out) == before


def test_new_drawing_code_draws_every_page(source, tmp_path, monkeypatch):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache)
    monkeypatch.setattr(kg.builder.memo, "fingerprint", lambda: "other drawing code")
    assert build([source], out, cache_dir=cache).pages_kept == 0


def test_an_unreadable_memo_draws_every_page(source, tmp_path):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache)
    (memo,) = (cache / "pages").glob("*.json")
    memo.write_text("{not json", encoding="utf-8")
    assert build([source], out, cache_dir=cache).pages_kept == 0
    assert build([source], out, cache_dir=cache).pages_kept > 0  # and the memo is whole again


def test_a_view_digest_covers_what_its_page_draws(nlp):
    kg = link(extract(read_inputs([SEEDS]), nlp))
    graph = to_networkx(kg)
    ex = next(ex for ex in kg.extractions if len(ex.entities) >= 2)
    view = paper_view(ex, Site.of(kg, graph), "x")
    me = paper_node(ex.paper.id)
    shown = next(n for n in view.nodes if n != me)
    hidden = next(n for n in graph.nodes if n not in view.nodes)

    def digest_after(change) -> str:
        copy = graph.copy()
        change(copy)
        return paper_view(ex, Site.of(kg, copy), "x").digest()

    assert digest_after(lambda g: None) == view.digest()
    assert digest_after(lambda g: g.nodes[hidden].update(label="renamed")) == view.digest()
    assert digest_after(lambda g: g.nodes[shown].update(label="renamed")) != view.digest()
    edge = lambda g: g.add_edge(shown, me, key="x", relation="uses", paper="p")  # noqa: E731
    assert digest_after(edge) != view.digest()
    assert paper_view(ex, Site.of(kg, graph), "other extractor").digest() != view.digest()
    other = dataclasses.replace(ex, paper=dataclasses.replace(ex.paper, line=ex.paper.line + 1))
    assert paper_view(other, Site.of(kg, graph), "x").digest() != view.digest()


def test_pages_drawn_by_two_worker_processes_are_those_drawn_here(nlp, tmp_path):
    kg = link(extract(read_inputs([SEEDS]), nlp))
    graph = to_networkx(kg)
    pages = render_views(kg, graph, "seeds", "x")
    here, forked = PageMemo(None, tmp_path), PageMemo(None, tmp_path)
    drawn = list(draw_all(pages, here, workers=1))
    assert list(draw_all(pages, forked, workers=2)) == drawn
    lib = len(vis_library())  # lib/ as it is
    assert forked._now == here._now and len(here._now) == len(pages) - lib


def test_views_are_drawn_ahead_only_for_a_rebuild(nlp, tmp_path):
    """A child draws the pages ahead (`views_ahead`) only where the last build's node
    states are known: not for a first build (which draws nearly every page, in workers),
    nor with `--no-cache` (no memo); what it sends back is what a build drawing them itself
    draws, and what it noted in its memo is taken over."""
    kg = link(extract(read_inputs([SEEDS]), nlp))
    pages = render_views(kg, to_networkx(kg), "seeds", "x")
    one = lambda n: 1  # noqa: E731
    assert views_ahead(lambda: pages, PageMemo(tmp_path / "memo.json", tmp_path), one) is None
    memo = PageMemo(None, tmp_path)
    memo.states_before = {}
    assert views_ahead(lambda: pages, memo, one) is None  # no cache: nothing is kept
    memos = []
    for ahead in (True, False):
        memo = PageMemo(tmp_path / "memo.json", tmp_path)
        memo.states_before = {}  # a rebuild: the last build's states are known
        child = views_ahead(lambda: pages, memo, one) if ahead else None
        assert (child is not None) == ahead
        drawn = drawn_ahead(child, memo) if ahead else list(draw_all(pages, memo))
        memos.append((drawn, memo.noted()))
    assert memos[0][0] == memos[1][0] and memos[0][1] == memos[1][1]
    assert len(memos[0][1][2]) == len(pages.signatures.graph)  # every node's state
    memo = PageMemo(tmp_path / "memo.json", tmp_path)
    memo.states_before = {}
    assert drawn_ahead(Forked(lambda: os._exit(3)), memo) is None  # a child that died
    assert memo.noted() == ({}, 0, None)  # nothing of it taken: the build draws them all


def test_node_signatures_made_ahead_in_a_child_are_those_made_by_the_workers(nlp, tmp_path):
    """A first build signs every node in a forked child (`signs_ahead`) while the RDF is
    written: the pages drawn are the same; what the child sends is what is taken; a child
    that fails leaves the nodes to be signed by `sign_all`; no child where the pages would
    not be drawn by workers, or for a rebuild."""
    kg = link(extract(read_inputs([SEEDS]), nlp))
    graph = to_networkx(kg)

    def first_build(signs=None, workers=2):
        pages = render_views(kg, graph, "seeds", "x")
        memo = PageMemo(tmp_path / "memo.json", tmp_path)
        child = signs(pages) if signs else signs_ahead(pages, memo, workers)
        return pages, memo, child, list(draw_all(pages, memo, workers, signs=child))

    pages, memo, child, drawn = first_build()
    assert child is not None
    assert drawn == first_build(workers=1)[3]  # drawn here, every node signed as needed
    made = pages.signatures._made
    assert len(made) == len(graph)
    sent = [(node, "from the child", None) for node in sorted(graph)]
    pages, *_ = first_build(signs=lambda _: Forked(lambda: marshal.dumps(sent)))
    assert set(pages.signatures._made.values()) == {"from the child"}
    pages, *_ = first_build(signs=lambda _: Forked(lambda: os._exit(3)))
    assert pages.signatures._made == made
    pages = render_views(kg, graph, "seeds", "x")
    memo = PageMemo(tmp_path / "memo.json", tmp_path)
    assert signs_ahead(pages, memo, 1) is None
    memo.states_before = {}  # a rebuild: most pages are kept
    assert signs_ahead(pages, memo, 2) is None


def command_line(process: psutil.Process) -> list[str]:
    try:
        return process.cmdline()
    except psutil.Error:  # ended meanwhile (a converter)
        return []


@pytest.mark.slow
def test_drawing_workers_leave_with_a_killed_build(tmp_path):
    many = write(
        tmp_path / "many.txt",
        "Many 2026\n\n"
        + "\n".join(f"We propose FooNet{i}, which beats GRPO on MATH500." for i in range(2_500)),
    )
    out = tmp_path / "out"
    command = [sys.executable, "-m", "kg", "build", str(many), "-o", str(out), "-q"]
    process = subprocess.Popen(command, env={**os.environ, "KG_CACHE_DIR": str(tmp_path / "c")})
    me = psutil.Process(process.pid)
    deadline, workers = time.monotonic() + 120, []
    while time.monotonic() < deadline and not workers:  # forked: the build's command line
        time.sleep(0.1)
        if list((out / "papers").glob(".*.tmp")):
            workers = [c for c in me.children() if command_line(c) == me.cmdline()]
    assert workers, "2,500 pages are drawn by worker processes"
    process.send_signal(signal.SIGKILL)
    process.wait()
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, "the drawing workers of a killed build leave with it"


def _snapshot(folder) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.slow
@pytest.mark.parametrize("stage", ["extracting", "extracting ahead", "drawing"])
def test_ctrl_c_from_a_terminal_stops_a_large_build_cleanly(tmp_path, stage):
    """A terminal's Ctrl-C reaches every process of the build (its process group): the
    build stops within seconds with exit status 130, no process prints a traceback, none is
    left, and the previous exports are as they were. Workers that died of it once left the
    build hung at exit, and drawing workers printed tracebacks. "extracting ahead": an
    input over a megabyte, whose first worker starts before it is read."""
    out, cache = tmp_path / "out", tmp_path / "c"
    env = {**os.environ, "KG_CACHE_DIR": str(cache)}
    one = write(tmp_path / "one.txt", "One 2026\n\nWe propose FooNet, which beats GRPO on MATH500.")
    base = [sys.executable, "-m", "kg", "build", "-o", str(out), "-q"]
    subprocess.run([*base, str(one)], env=env, check=True)
    before = _snapshot(out)
    padding = " It is simple, and it is general." * (9 if stage == "extracting ahead" else 0)
    many = write(
        tmp_path / "many.txt",
        "Many 2026\n\n"
        + "\n".join(
            f"We propose FooNet{i}, a model for proofs. FooNet{i} beats GRPO and "
            f"BarNet{i % 7} on MATH500 and GSM8K, reaching {50 + i % 40}.5% accuracy.{padding}"
            for i in range(3_000)
        ),
    )
    ahead = many.stat().st_size >= kg.builder.engines.WARM_FROM_BYTES
    assert ahead == (stage == "extracting ahead")
    process = subprocess.Popen(
        [*base, str(many)], env=env, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    me = psutil.Process(process.pid)
    deadline, ready = time.monotonic() + 120, False
    while time.monotonic() < deadline and not ready and process.poll() is None:
        time.sleep(0.05)
        children = [command_line(c) for c in me.children()]
        if stage.startswith("extracting"):  # spawned: python -c "from multiprocessing.spawn …"
            ready = any("multiprocessing.spawn" in " ".join(c) for c in children)
        else:  # forked drawing workers, once pages are being written
            ready = bool(list((out / "papers").glob(".*.tmp"))) or any(
                c == me.cmdline() for c in children
            )
    if not ready:
        os.killpg(process.pid, signal.SIGKILL)  # leave nothing running behind a failure
        pytest.fail(f"the build did not reach {stage} with worker processes")
    family = [me, *me.children(recursive=True)]
    os.killpg(process.pid, signal.SIGINT)
    try:
        _, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"the build did not stop within 60 s of Ctrl-C while {stage}")
    assert process.returncode == 130, err
    assert "Traceback" not in err, err
    _, alive = psutil.wait_procs(family, timeout=10)
    assert not alive, "every process of the build leaves"
    assert _snapshot(out) == before


@pytest.mark.parametrize(
    ("change", "reused"),
    [(change_last_and_add_one, "some"), (add_one_first, "none"), (remove_last, "all")],
)
def test_a_rebuild_copies_unchanged_papers_and_equals_a_clean_build(
    source, tmp_path, change, reused
):
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert build([source], out, cache_dir=cache, views="none").blocks_reused == 0
    edit(source, change)
    again = build([source], out, cache_dir=cache, views="none")
    expected = {"some": range(1, again.papers - 1), "none": [0], "all": [again.papers]}[reused]
    assert again.blocks_reused in expected
    build([source], tmp_path / "clean", cache=False, views="none")
    assert files(out) == files(tmp_path / "clean")


def test_exports_changed_by_hand_are_not_copied_from(source, tmp_path):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache, views="none")
    before = files(out)
    (out / "kg.ttl").write_bytes(b"garbage")
    nt = (out / "kg.nt").read_bytes()
    (out / "kg.nt").write_bytes(nt[: len(nt) // 2] + b"x" * (len(nt) - len(nt) // 2))
    (out / "extractions.jsonl").unlink()
    build([source], out, cache_dir=cache, views="none")
    assert files(out) == before


def test_turtle_after_an_n_triples_only_build(source, tmp_path):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache, views="none", rdf_formats="nt")
    assert not (out / "kg.ttl").exists()
    assert build([source], out, cache_dir=cache, views="none").blocks_reused > 0
    build([source], tmp_path / "clean", cache=False, views="none")
    assert files(out) == files(tmp_path / "clean")


def test_block_keys_follow_the_paper_and_its_links(nlp):
    kg = link(extract(read_inputs([SEEDS]), nlp))
    keys = block_keys(kg)
    assert len(set(keys.values())) == len(kg.papers)
    paper, name, key = kg.links[0]
    relinked = dataclasses.replace(kg, links=((paper, name, key + "x"), *kg.links[1:]))
    changed = {p for p, k in block_keys(relinked).items() if k != keys[p]}
    assert changed == {paper}
    moved = dataclasses.replace(kg.papers[0], line=kg.papers[0].line + 1)
    shifted = dataclasses.replace(kg, papers=(moved, *kg.papers[1:]))
    assert block_keys(shifted)[moved.id] != keys[moved.id]
    assert {p: k for p, k in block_keys(shifted).items() if p != moved.id}.items() <= keys.items()


@pytest.mark.parametrize("fmt", ["turtle", "jsonld"])
def test_blocks_converted_or_copied_give_the_same_file(fmt):
    grpo, label = (
        "<https://w3id.org/kg-ml/id/entity/grpo>",
        "<http://www.w3.org/2000/01/rdf-schema#label>",
    )
    paper = "<https://w3id.org/kg-ml/id/paper/p1>"
    nt = f'{grpo} {label} "GRPO" .\n{paper} {label} "A \\"paper\\"" .\n'.encode()
    blocks = [(0, nt.index(b"\n") + 1), (nt.index(b"\n") + 1, len(nt))]
    first = io.BytesIO()
    spans = convert_blocks(nt, blocks, fmt, first, PREFIXES)
    again = io.BytesIO()
    convert_blocks(nt, blocks, fmt, again, PREFIXES, first.getvalue(), [None, spans[1]])
    assert again.getvalue() == first.getvalue()
    whole = Graph().parse(data=nt.decode(), format="nt")
    parsed = Graph().parse(data=first.getvalue().decode(), format=fmt.replace("jsonld", "json-ld"))
    assert isomorphic(parsed, whole)


def aside(cache):
    """kg.nt kept in the cache beside the memo by a build that did not export it."""
    return sorted((cache / "blocks").glob("*.kg.nt"))


@pytest.mark.parametrize("change", [change_last_and_add_one, remove_last])
def test_a_lean_rebuild_copies_from_kg_nt_aside_and_equals_a_clean_build(source, tmp_path, change):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache, views="none", rdf_formats="turtle")
    assert not (out / "kg.nt").exists() and len(aside(cache)) == 1
    edit(source, change)
    assert build([source], out, cache_dir=cache, views="none", rdf_formats="turtle").blocks_reused
    build([source], tmp_path / "clean", cache=False, views="none", rdf_formats="turtle")
    assert files(out) == files(tmp_path / "clean")  # no temporary left either
    build([source], tmp_path / "nt", cache=False, views="none", rdf_formats="nt")
    assert aside(cache)[0].read_bytes() == (tmp_path / "nt" / "kg.nt").read_bytes()


def test_a_rebuild_between_lean_and_every_copy_equals_a_clean_build(source, tmp_path):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache, views="none", rdf_formats="turtle")
    edit(source, change_last_and_add_one)
    assert build([source], out, cache_dir=cache, views="none", rdf_formats="all").blocks_reused
    assert not aside(cache)  # kg.nt is an export again: the copy aside is gone
    build([source], tmp_path / "all", cache=False, views="none", rdf_formats="all")
    assert files(out) == files(tmp_path / "all")
    edit(source, remove_last)
    assert build([source], out, cache_dir=cache, views="none", rdf_formats="turtle").blocks_reused
    assert not (out / "kg.nt").exists() and aside(cache)
    build([source], tmp_path / "lean", cache=False, views="none", rdf_formats="turtle")
    assert files(out) == files(tmp_path / "lean")


def test_a_failed_lean_build_leaves_the_exports_and_kg_nt_aside(source, tmp_path, monkeypatch):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache, views="none", rdf_formats="turtle")
    before, [nt] = files(out), aside(cache)
    kept = (nt.read_bytes(), nt.stat().st_mtime_ns)
    edit(source, change_last_and_add_one)

    def fail(*args):
        raise ExportError("disk on fire")

    monkeypatch.setattr(kg.builder.pipeline, "write_jsonl", fail)
    with pytest.raises(ExportError, match="disk on fire"):
        build([source], out, cache_dir=cache, views="none", rdf_formats="turtle")
    assert files(out) == before  # no temporary left, kg.nt aside as it was
    assert aside(cache) == [nt] and (nt.read_bytes(), nt.stat().st_mtime_ns) == kept
    monkeypatch.undo()
    assert build([source], out, cache_dir=cache, views="none", rdf_formats="turtle").blocks_reused
    assert kg.builder.memo.clear_memos(cache) == 1 and not aside(cache)  # kg cache clear


def test_a_forced_lean_build_removes_the_copies_it_did_not_write(source, tmp_path):
    """With no manifest to name them (exports of an older kg, `--force`), copies of the graph
    this build leaves out go: a query, kg stats or kg serve would read them as this graph."""
    out = tmp_path / "out"
    build([source], out, cache=False, views="none", rdf_formats="all")
    (out / ".kg-manifest").unlink()
    write(out / "notes.txt", "mine")
    edit(source, remove_last)
    build([source], out, cache=False, views="none", rdf_formats="turtle", force=True)
    assert not any((out / name).exists() for name in ("kg.nt", "kg.jsonld", "kg.graphml"))
    assert (out / "kg.ttl").is_file() and (out / "notes.txt").read_text() == "mine"


def test_the_cache_keeps_kg_nt_aside_for_the_latest_four_exports_directories(source, tmp_path):
    cache = tmp_path / "cache"
    for n in range(6):
        build([source], tmp_path / f"out{n}", cache_dir=cache, views="none", rdf_formats="turtle")
    kept = aside(cache)
    assert len(kept) == kg.builder.memo.KEEP_ASIDE
    newest = kg.builder.memo.memo_path(cache, "blocks", tmp_path / "out5")
    assert newest.with_name(f"{newest.stem}.kg.nt") in kept
    # the directory whose copy went is built afresh: the same bytes as a clean build
    oldest = tmp_path / "out0"
    assert not build(
        [source], oldest, cache_dir=cache, views="none", rdf_formats="turtle"
    ).blocks_reused


def test_a_memo_interrupted_while_written_leaves_no_temporary(tmp_path, monkeypatch):
    """Ctrl-C while a memo is written leaves neither a memo nor its temporary in the cache."""
    path = tmp_path / "cache" / "memo.json"

    def interrupted(source, target):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        kg.builder.memo.save(path, {"pages": {}})
    assert list(path.parent.iterdir()) == []
