"""The extraction cache and the Dask engine give what a clean local build gives."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest
from conftest import PAPERS_PER_SEED_FILE, SEED_PAPERS, SEEDS, need_module, write

import kg.builder.engines
from kg.builder.cache import ExtractionCache, cache_key
from kg.builder.engines import run_extraction, warm_workers
from kg.builder.pipeline import build
from kg.cli import main
from kg.extract.serial import dump
from kg.ingest import read_inputs


def snapshot(directory):
    return {p.relative_to(directory): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


def test_a_rebuild_reuses_the_cache_and_writes_the_same_bytes(tmp_path):
    first = build([SEEDS], tmp_path / "a", cache_dir=tmp_path / "cache", views="none")
    again = build([SEEDS], tmp_path / "b", cache_dir=tmp_path / "cache", views="none")
    assert (first.cached, again.cached) == (0, SEED_PAPERS)
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")


def test_changing_one_abstract_extracts_only_that_one(tmp_path):
    lines = (SEEDS / "004_b354a604767238da.txt").read_text(encoding="utf-8").splitlines()
    source = write(tmp_path / "in.txt", "\n".join(lines) + "\n")
    build([source], tmp_path / "a", cache_dir=tmp_path / "cache", views="none")
    lines[2] = lines[2].replace("RC", "RC2", 1)
    write(source, "\n".join(lines) + "\n")
    summary = build([source], tmp_path / "b", cache_dir=tmp_path / "cache", views="none")
    assert summary.papers == PAPERS_PER_SEED_FILE
    assert summary.cached == PAPERS_PER_SEED_FILE - 1  # all but the one changed


def test_a_new_extractor_starts_afresh(tmp_path, monkeypatch):
    build([SEEDS], tmp_path / "a", cache_dir=tmp_path / "cache", views="none")
    import kg.builder.cache

    monkeypatch.setattr(kg.builder.cache, "fingerprint", lambda: "another-extractor")
    assert build([SEEDS], tmp_path / "b", cache_dir=tmp_path / "cache", views="none").cached == 0


def test_no_cache_and_cache_commands(runner, tmp_path, monkeypatch):
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    result = runner.invoke(main, ["build", str(SEEDS), "-o", str(tmp_path / "a"), "--no-cache"])
    assert "(0 extractions from the cache)" in result.stdout
    assert not (tmp_path / "cache").exists()  # neither extractions nor page memos
    runner.invoke(main, ["build", str(SEEDS), "-o", str(tmp_path / "a"), "-q"])
    info = runner.invoke(main, ["cache", "info"])
    assert info.exit_code == 0 and f": {SEED_PAPERS} extractions" in info.stdout
    assert ": memos of 1 exports directories" in info.stdout
    cleared = runner.invoke(main, ["cache", "clear"])
    assert cleared.exit_code == 0 and f"removed {SEED_PAPERS} extractions" in cleared.stdout
    assert "removed the memos of 1 exports directories" in cleared.stdout
    assert ExtractionCache(tmp_path / "cache").count() == 0
    assert not list((tmp_path / "cache" / "pages").glob("*"))
    assert not list((tmp_path / "cache" / "blocks").glob("*"))


def test_no_progress_bar_when_not_a_terminal(runner, tmp_path):
    result = runner.invoke(main, ["build", str(SEEDS), "-o", str(tmp_path / "a")])
    assert result.exit_code == 0 and "Extracting" not in result.stderr


@pytest.mark.slow
def test_a_killed_build_resumes_from_the_cache_and_equals_a_clean_build(tmp_path):
    big = write(
        tmp_path / "big.txt",
        "Big 2026\n\n"
        + "\n".join(
            f"We propose FooNet{i}, which beats GRPO on MATH500 by {i % 50}.5%."
            for i in range(12_000)
        ),
    )
    env = {**os.environ, "KG_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "kg", "build", str(big), "-q", "--views", "none"]
    process = subprocess.Popen([*command, "-o", str(tmp_path / "killed")], env=env)
    deadline = time.monotonic() + 60
    cache = tmp_path / "cache" / "extractions.sqlite"
    while time.monotonic() < deadline:  # kill once the first batches are committed
        if cache.exists() and ExtractionCache(tmp_path / "cache").count() >= 512:
            break
        time.sleep(0.2)
    workers = psutil.Process(process.pid).children(recursive=True)
    assert workers, "12,000 abstracts are extracted by worker processes"
    process.send_signal(signal.SIGKILL)
    process.wait()
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, "the workers of a killed build leave with it"
    kept = ExtractionCache(tmp_path / "cache").count()
    assert 0 < kept < 6_000
    subprocess.run([*command, "-o", str(tmp_path / "resumed")], env=env, check=True)
    subprocess.run([*command, "-o", str(tmp_path / "clean"), "--no-cache"], env=env, check=True)
    assert snapshot(tmp_path / "resumed") == snapshot(tmp_path / "clean")


@pytest.mark.slow
def test_worker_processes_cache_what_one_process_caches(tmp_path):
    """Extractions made in worker processes are cached in the form the workers sent (not
    dumped again by the build): the same entries as a one-process build's."""
    papers = read_inputs([SEEDS])
    one, two = ExtractionCache(tmp_path / "one"), ExtractionCache(tmp_path / "two")
    alone, _ = run_extraction(papers, cache=one, workers=1)
    spawned, _ = run_extraction(papers, cache=two, workers=2)
    assert spawned == alone
    keys = [cache_key(p.text) for p in papers]
    cached = two.get_many(keys)
    assert len(cached) == len(set(keys)) and cached == one.get_many(keys)
    assert cached == {key: dump(ex) for key, ex in zip(keys, alone, strict=True)}


def test_small_inputs_and_dask_start_no_worker_ahead(tmp_path):
    """The seeds are under a megabyte (`WARM_FROM_BYTES`): nothing is started before they
    are read, nor for the Dask engine; a large file (its size, not its content) starts one."""
    with warm_workers([SEEDS], "local") as warm:
        assert warm is None
    large = tmp_path / "large.jsonl"
    with open(large, "wb") as handle:
        handle.truncate(kg.builder.engines.WARM_FROM_BYTES)
    with warm_workers([large], "dask") as warm:
        assert warm is None
    assert kg.builder.engines.input_bytes([large, tmp_path, tmp_path / "missing"]) == (
        2 * kg.builder.engines.WARM_FROM_BYTES
    )
    with warm_workers([large], "local") as warm:
        assert warm is not None or (os.cpu_count() or 1) < 2
    (tmp_path / ".hidden.jsonl").write_bytes(b"x" * 10)
    (tmp_path / "notes.pdf").write_bytes(b"x" * 10)
    assert kg.builder.engines.input_bytes([tmp_path]) == kg.builder.engines.WARM_FROM_BYTES


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_a_worker_started_ahead_extracts_what_one_process_extracts(tmp_path, monkeypatch, workers):
    """Alone, or with a pool started once the abstracts are read: the same extractions in
    the same order, cached as a one-process build caches them; with everything cached the
    worker is not needed and the block is left at once."""
    monkeypatch.setattr(kg.builder.engines, "WARM_FROM_BYTES", 0)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # a one-core machine starts none
    monkeypatch.setattr(kg.builder.engines, "CHUNK", 3)  # chunks that come back out of turn
    papers = read_inputs([SEEDS])
    one, two = ExtractionCache(tmp_path / "one"), ExtractionCache(tmp_path / "two")
    alone, _ = run_extraction(papers, cache=one, workers=1)
    with warm_workers([SEEDS], "local") as warm:
        assert warm is not None
        ahead, cached = run_extraction(papers, cache=two, workers=workers, warm=warm)
    assert (ahead, cached) == (alone, 0)
    keys = [cache_key(p.text) for p in papers]
    assert two.get_many(keys) == one.get_many(keys)
    with warm_workers([SEEDS], "local") as warm:
        again, cached = run_extraction(papers, cache=two, warm=warm)
    assert (again, cached) == (alone, len(papers))


def test_the_cached_extractions_are_handed_over_while_the_worker_extracts_the_rest(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(kg.builder.engines, "WARM_FROM_BYTES", 0)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    papers = read_inputs([SEEDS])
    cache = ExtractionCache(tmp_path / "cache")
    run_extraction(papers[::2], cache=cache, workers=1)  # every other paper cached
    handed: list[list] = []
    reported: list[int] = []
    with warm_workers([SEEDS], "local") as warm:
        done, cached = run_extraction(
            papers,
            cache=cache,
            warm=warm,
            workers=1,
            on_progress=reported.append,
            meanwhile=lambda ready: handed.append((ready, list(reported))),
        )
    assert cached == len(papers[::2])
    # once, the cached ones in order, before any other came back
    assert handed == [(done[::2], [cached])]
    for every in (True, False):  # all cached, or none: nothing to do meanwhile
        handed.clear()
        reported.clear()
        with warm_workers([SEEDS], "local") as warm:
            run_extraction(
                papers,
                cache=cache if every else None,
                warm=warm,
                workers=1,
                meanwhile=handed.append,
            )
        assert handed == []


_AHEAD = """
import os, sys
from pathlib import Path
import kg.builder.engines
from kg.builder.pipeline import build
kg.builder.engines.WARM_FROM_BYTES = 0
os.cpu_count = lambda: 2  # a one-core machine starts none
build([Path(sys.argv[1])], Path(sys.argv[2]), cache=False)
print("spacy" in sys.modules)
"""


@pytest.mark.slow
def test_a_build_with_a_worker_started_ahead_writes_what_one_without_writes(tmp_path):
    """The worker started before the seeds are read extracts them all: the build's own
    process never loads spaCy, and the exports are those of a build that started none."""
    done = subprocess.run(
        [sys.executable, "-c", _AHEAD, str(SEEDS), str(tmp_path / "ahead")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "False", done.stderr
    build([SEEDS], tmp_path / "here", cache=False)
    assert snapshot(tmp_path / "ahead") == snapshot(tmp_path / "here")


@pytest.mark.slow
def test_dask_engine_equals_local_engine_on_two_workers():
    distributed = need_module("distributed")
    # earlier tests' garbage holds pyoxigraph query results, which must be dropped on the
    # thread that made them: collected here, not by a collection run on a Dask thread
    gc.collect()
    papers = read_inputs([SEEDS])
    local, _ = run_extraction(papers)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote, _ = run_extraction(papers, engine="dask", scheduler=cluster.scheduler_address)
    assert remote == local


@pytest.mark.slow
def test_dask_scheduler_that_is_not_there_is_a_clear_error(runner, tmp_path):
    need_module("distributed")
    result = runner.invoke(
        main,
        [
            "build",
            str(SEEDS),
            "-o",
            str(tmp_path / "a"),
            "--engine",
            "dask",
            "--scheduler",
            "tcp://127.0.0.1:9",
            "--no-cache",
        ],
    )
    assert result.exit_code == 2 and "cannot reach the Dask scheduler" in result.stderr
