"""The exports' Oxigraph store kept in the cache: same answers, never stale."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import ROOT

from kg.query.load import load_store, rdf_files
from kg.query.sparql import run_query
from kg.query.store import KEEP, open_store, stored, stores_dir, write_store

QUERY = "SELECT ?s ?p ?o WHERE { ?s ?p ?o }"


def test_a_stored_graph_answers_as_the_files_do(tmp_path, monkeypatch):
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "exports"
    shutil.copytree(ROOT / "exports", out)
    files = rdf_files([out])
    in_memory = set(run_query(QUERY, [out]).rows)  # no store yet: the files are loaded
    assert open_store(files) is None
    write_store(files, [out / "kg.nt" if f == out / "kg.ttl" else f for f in files])
    stored = open_store(files)
    assert stored is not None and len(stored) == len(load_store([out]))
    assert set(run_query(QUERY, [out]).rows) == in_memory
    # a file changed since: its store is not read
    os.utime(out / "void.ttl", ns=(0, 0))
    assert open_store(rdf_files([out])) is None


def test_only_the_latest_stores_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    source = ROOT / "exports" / "void.ttl"
    for n in range(KEEP + 2):
        copy = tmp_path / f"void{n}.ttl"
        shutil.copy(source, copy)
        write_store([copy])
    kept = [p for p in stores_dir().iterdir() if not p.name.startswith(".")]
    assert len(kept) == KEEP
    assert open_store([tmp_path / f"void{KEEP + 1}.ttl"]) is not None  # the newest stays


def test_a_build_writes_the_store_of_its_exports(tmp_path, monkeypatch):
    from kg.builder.pipeline import build

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "exports"
    build([ROOT / "seeds"], out, views="none")
    assert open_store(rdf_files([out])) is not None


def test_a_large_graph_is_stored_too_loaded_from_kg_nt_aside(tmp_path, monkeypatch):
    """Above `EVERY_COPY_UP_TO` (kg.ttl alone, kg.nt aside in the cache), as at 25,000
    abstracts: the store is written all the same and holds what kg.ttl does."""
    import kg.builder.pipeline
    from kg.builder.pipeline import build

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(kg.builder.pipeline, "EVERY_COPY_UP_TO", 10)
    out = tmp_path / "exports"
    build([ROOT / "seeds"], out, views="none")
    assert not (out / "kg.nt").exists() and list((tmp_path / "cache" / "blocks").glob("*.kg.nt"))
    assert (
        quads(open_store(rdf_files([out]))) == quads(in_memory(out)) and len(in_memory(out)) > 4_000
    )


def quads(store) -> set:
    assert store is not None
    return {(q.subject, q.predicate, q.object, q.graph_name) for q in store}


def in_memory(out):
    """The exports loaded afresh, as a query without a store does."""
    import pyoxigraph as ox

    from kg.query.store import load_into

    store = ox.Store()
    load_into(store, rdf_files([out]))
    return store


def seeds_file(tmp_path):
    lines = []
    for seed in sorted((ROOT / "seeds").glob("*.txt")):
        lines += [line for line in seed.read_text(encoding="utf-8").splitlines()[1:] if line]
    source = tmp_path / "in" / "papers.txt"
    source.parent.mkdir()
    source.write_text("ICML 2026 Papers\n\n" + "\n\n".join(lines) + "\n", encoding="utf-8")
    return source


def spy_on_deltas(monkeypatch) -> list:
    import kg.query.store

    deltas = []
    start = kg.query.store.StoreJob.__init__

    def spy(self, nt, graphs, cache_dir=None, delta=None, nice=0):
        deltas.append(delta)
        start(self, nt, graphs, cache_dir, delta, nice)

    monkeypatch.setattr(kg.query.store.StoreJob, "__init__", spy)
    return deltas


def test_a_rebuild_updates_the_last_store_and_it_answers_as_a_fresh_one(tmp_path, monkeypatch):
    from kg.builder.pipeline import build

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    deltas = spy_on_deltas(monkeypatch)
    source, out = seeds_file(tmp_path), tmp_path / "exports"
    build([source], out, views="none")
    first = stored(tmp_path / "cache")
    text = source.read_text(encoding="utf-8").split("\n\n")
    text[3] += " We also propose FooNet, which outperforms GRPO on MATH500 and GSM8K."
    del text[-2]  # a paper leaves (the others stay on their lines)
    text.append("We introduce BarBench, a benchmark on which Qwen2.5-7B beats Llama-3.")
    source.write_text("\n\n".join(text), encoding="utf-8")
    build([source], out, views="none")
    assert deltas[0] is None and deltas[1] is not None  # loaded, then updated
    assert deltas[1].add and deltas[1].remove
    assert stored(tmp_path / "cache") != first  # the last store, stale, is gone
    assert quads(open_store(rdf_files([out]))) == quads(in_memory(out))
    answer = run_query("SELECT ?l WHERE { ?e skos:prefLabel ?l }", [out])
    assert any(row[0] is not None and row[0].value == "BarBench" for row in answer.rows)


def test_a_large_change_loads_the_store_afresh(tmp_path, monkeypatch):
    import kg.builder.delta
    from kg.builder.pipeline import build

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(kg.builder.delta, "UPDATE_UP_TO", 0.0)
    deltas = spy_on_deltas(monkeypatch)
    source, out = seeds_file(tmp_path), tmp_path / "exports"
    build([source], out, views="none")
    source.write_text(source.read_text(encoding="utf-8") + "\n\nWe propose FooNet.\n")
    build([source], out, views="none")
    assert deltas == [None, None]
    assert quads(open_store(rdf_files([out]))) == quads(in_memory(out))


def test_no_stale_store_when_a_file_changes_after_the_build(tmp_path, monkeypatch):
    from kg.builder.pipeline import build

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    source, out = seeds_file(tmp_path), tmp_path / "exports"
    build([source], out, views="none")
    (out / "kg.ttl").write_text("<https://x.org/a> <https://x.org/p> <https://x.org/b> .\n")
    assert open_store(rdf_files([out])) is None
    answer = run_query("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", [out])
    assert answer.rows[0][0] is not None and answer.rows[0][0].value == "1"
    # kg.nt, which the store was loaded from, changed too: the next build loads it afresh
    (out / "kg.nt").write_text("<https://x.org/a> <https://x.org/p> <https://x.org/c> .\n")
    deltas = spy_on_deltas(monkeypatch)
    build([source], out, views="none", force=True)
    assert deltas == [None]
    assert quads(open_store(rdf_files([out]))) == quads(in_memory(out))


def test_a_failed_build_leaves_the_last_store_and_no_half_store(tmp_path, monkeypatch):
    import pytest

    import kg.builder.pipeline
    from kg.builder.pipeline import build

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    source, out = seeds_file(tmp_path), tmp_path / "exports"
    build([source], out, views="none")
    before = stored(tmp_path / "cache")

    def broken(*args, **kwargs):
        raise RuntimeError("views broke")

    monkeypatch.setattr(kg.builder.pipeline, "render_views", broken)
    source.write_text(source.read_text(encoding="utf-8") + "\n\nWe propose FooNet.\n")
    with pytest.raises(RuntimeError):
        build([source], out)
    assert stored(tmp_path / "cache") == before and len(before) == 1
    assert list(stores_dir(tmp_path / "cache").iterdir()) == before  # no temporary left
    assert quads(open_store(rdf_files([out]))) == quads(in_memory(out))


def test_no_store_is_filed_under_exports_replaced_while_it_was_written(tmp_path, monkeypatch):
    """kg.ttl replaced after this build's commit, before its store is named (another build
    into the same exports, or an edit): the store holds this build's graph, so it is not
    filed under the new files' name; a query of them loads them."""
    import kg.builder.pipeline
    from kg.builder.pipeline import build

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    source, out = seeds_file(tmp_path), tmp_path / "exports"
    name_store = kg.builder.pipeline.store_for_queries

    def edited_meanwhile(*args, **kwargs):
        with open(out / "kg.ttl", "a", encoding="utf-8") as handle:
            handle.write('<urn:x> <urn:p> "added after the commit" .\n')
        return name_store(*args, **kwargs)

    monkeypatch.setattr(kg.builder.pipeline, "store_for_queries", edited_meanwhile)
    build([source], out, views="none")
    assert open_store(rdf_files([out])) is None
    answer = run_query('ASK { <urn:x> <urn:p> "added after the commit" }', [out])
    assert answer.boolean is True
    assert list(stores_dir().iterdir()) == []  # nor a temporary left


_TERMINATED_BUILD = """
import os, signal, sys
import kg.builder.pipeline
from kg.cli import main

write_jsonl = kg.builder.pipeline.write_jsonl


def terminated(*args, **kwargs):  # once the store's child runs
    os.kill(os.getpid(), getattr(signal, sys.argv[3]))
    return write_jsonl(*args, **kwargs)


kg.builder.pipeline.write_jsonl = terminated
main(["build", sys.argv[1], "--out", sys.argv[2], "--views", "none", "-q"])
"""


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_build_terminated_while_its_store_is_written_leaves_no_temporary(
    tmp_path, monkeypatch, name
):
    import signal
    import subprocess
    import sys

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    source, out = seeds_file(tmp_path), tmp_path / "exports"
    done = subprocess.run(
        [sys.executable, "-c", _TERMINATED_BUILD, str(source), str(out), name],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 128 + getattr(signal, name), done.stderr
    assert "Interrupted: the previous exports are unchanged" in done.stderr
    assert list(stores_dir().iterdir()) == []
    assert not out.exists() or list(out.iterdir()) == []


def test_the_temporaries_killed_builds_left_are_swept_and_no_live_one(tmp_path, monkeypatch):
    import subprocess
    import sys
    import time

    from kg.query.store import STALE_AFTER, clear_stores

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    root = stores_dir()
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], text=True, capture_output=True
    ).stdout.strip()
    owners = {"dead": gone, "live": str(os.getpid()), "old": str(os.getpid()), "new": None}
    for name, owner in owners.items():
        (root / f".store-{name}" / "db").mkdir(parents=True)
        if owner is not None:
            (root / f".store-{name}" / "owner").write_text(owner)
    long_ago = time.time() - STALE_AFTER - 60
    os.utime(root / ".store-old", (long_ago, long_ago))
    assert clear_stores() == 0
    assert sorted(p.name for p in root.iterdir()) == [".store-live", ".store-new"]
    os.utime(root / ".store-new", (long_ago, long_ago))  # no owner named, and old
    write_store([ROOT / "exports" / "void.ttl"])  # the prune after a store is written
    assert len(stored()) == 1 and (root / ".store-live").is_dir()
    assert not (root / ".store-new").exists()


@pytest.mark.parametrize("failure", ["Popen", "stdin"])
def test_a_store_job_that_cannot_start_leaves_nothing_behind(tmp_path, monkeypatch, failure):
    import subprocess
    import sys

    import kg.query.store
    from kg.query.store import StoreJob

    started, real_popen = [], subprocess.Popen

    class Stdin:
        def write(self, data: bytes) -> None:
            raise BrokenPipeError(32, "Broken pipe")

        def close(self) -> None:
            pass

    def popen(args, **kwargs):
        if failure == "Popen":
            raise OSError(12, "Cannot allocate memory")
        process = real_popen([sys.executable, "-c", "import time; time.sleep(60)"], **kwargs)
        process.stdin.close()
        process.stdin = Stdin()
        started.append(process)
        return process

    monkeypatch.setattr(kg.query.store.subprocess, "Popen", popen)
    with pytest.raises(OSError):
        StoreJob(ROOT / "exports" / "kg.nt", [], tmp_path / "cache")
    assert list(stores_dir(tmp_path / "cache").iterdir()) == []
    assert all(p.returncode is not None for p in started) and len(started) == (failure == "stdin")
    held = [str(fd.resolve()) for fd in Path("/proc/self/fd").iterdir()]
    assert not [path for path in held if ".store-" in path]  # the error file closed


@pytest.mark.parametrize("damage", ["emptied tables", "garbled tables", "garbled manifest"])
def test_a_damaged_stored_graph_is_passed_over_for_the_files(tmp_path, monkeypatch, damage):
    """RocksDB says "Corruption: ..." as a RuntimeError, not an OSError: it ended `kg query`
    in a traceback (an adversarial review, 2026-12-07)."""
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "exports"
    shutil.copytree(ROOT / "exports", out)
    files = rdf_files([out])
    expected = set(run_query(QUERY, [out]).rows)
    write_store(files, [out / "kg.nt" if f == out / "kg.ttl" else f for f in files])
    (store,) = (p for p in stores_dir().iterdir() if not p.name.startswith("."))
    for part in store.iterdir():
        if damage == "emptied tables" and part.suffix == ".sst":
            part.write_bytes(b"")
        elif damage == "garbled tables" and part.suffix == ".sst":
            part.write_bytes(os.urandom(5000))
        elif damage == "garbled manifest" and part.name.startswith("MANIFEST"):
            part.write_bytes(os.urandom(300))
    assert open_store(files) is None
    assert set(run_query(QUERY, [out]).rows) == expected
