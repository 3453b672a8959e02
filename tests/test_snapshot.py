"""A rebuild takes the papers of the JSON Lines lines the last build read from its snapshot
(`kg.builder.snapshot`, `kg.ingest.remembered`) and parses only the lines that changed: its
papers, and so its exports, are those a clean build makes."""

from __future__ import annotations

import json
import logging
import os
import pickle

import pytest
from conftest import SEEDS, files, write

import kg.builder.engines
import kg.builder.snapshot
from kg.builder.memo import clear_memos
from kg.builder.pipeline import build
from kg.builder.snapshot import load_snapshot, save_snapshot, snapshot_path
from kg.ingest import read_inputs
from kg.ingest.remembered import RememberedLines

REUSED = "of them from lines the last build read"


def records() -> list[dict]:
    """The seeds' abstracts as JSON Lines records with a title and an id."""
    abstracts = []
    for seed in sorted(SEEDS.glob("*.txt")):
        abstracts += [line for line in seed.read_text(encoding="utf-8").splitlines()[1:] if line]
    return [
        {"id": f"p{n}", "title": f"Paper {n}", "abstract": text, "year": 2026}
        for n, text in enumerate(abstracts, 1)
    ]


def write_jsonl(path, rows: list[dict]):
    return write(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


@pytest.fixture
def jsonl(tmp_path):
    return write_jsonl(tmp_path / "in" / "papers.jsonl", records())


def remembered_now(path) -> dict:
    """The papers of the lines of `path`, as a fresh read remembers them."""
    lines = RememberedLines()
    read_inputs([path], known=lines)
    return lines.now


def reused(caplog) -> list[int]:
    """How many papers each build took from lines the last build read (`kg -v build`)."""
    return [int(r.getMessage().split()[0]) for r in caplog.records if REUSED in r.getMessage()]


def test_papers_of_known_lines_are_the_papers_read_again(jsonl):
    rows = records()
    first = RememberedLines()
    read_inputs([jsonl], known=first)
    assert len(first.now) == len(rows) and first.reused == 0
    rows[3]["abstract"] += " We propose FooNet."  # a changed line
    rows.insert(0, {"abstract": "We propose BarNet, evaluated on MATH500."})  # every line moves
    del rows[-1]
    write_jsonl(jsonl, rows)
    again = RememberedLines(first.now)
    papers = read_inputs([jsonl], known=again)
    assert papers == read_inputs([jsonl])  # line, index and every other field
    assert again.reused == len(rows) - 2  # all but the new line and the changed one
    assert [p.line for p in papers] == list(range(1, len(rows) + 1))


def test_a_line_that_warned_is_read_and_warns_again(jsonl, caplog):
    rows = records()
    rows[1]["doi"] = "not a doi"
    write_jsonl(jsonl, rows)
    first = RememberedLines()
    with caplog.at_level(logging.WARNING):
        read_inputs([jsonl], known=first)
    assert "is not one DOI" in caplog.text
    caplog.clear()
    again = RememberedLines(first.now)
    with caplog.at_level(logging.WARNING):
        papers = read_inputs([jsonl], known=again)
    assert "papers.jsonl:2: doi 'not a doi' is not one DOI" in caplog.text
    assert again.reused == len(rows) - 1
    assert papers == read_inputs([jsonl])


@pytest.mark.parametrize("change", ["edit", "insert first", "remove last"])
def test_a_rebuild_from_the_snapshot_equals_a_clean_build(jsonl, tmp_path, change, caplog):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([jsonl], out, cache_dir=cache)
    rows = records()
    if change == "edit":
        rows[-1]["abstract"] += " We evaluate on MATH500 and outperform GPT-4o."
    elif change == "insert first":
        rows.insert(0, {"abstract": "We propose FooNet, evaluated on MATH500 with Qwen2.5-7B."})
    else:
        del rows[-1]
    write_jsonl(jsonl, rows)
    with caplog.at_level(logging.INFO, logger="kg"):
        build([jsonl], out, cache_dir=cache)
    unchanged = len(records()) - (change != "insert first")  # an inserted line moves the rest
    assert reused(caplog) == [unchanged]
    build([jsonl], tmp_path / "clean", cache=False)
    assert files(out) == files(tmp_path / "clean")


def test_a_rebuild_that_links_ahead_while_its_worker_extracts_equals_a_clean_build(
    jsonl, tmp_path, monkeypatch, caplog
):
    monkeypatch.setattr(kg.builder.engines, "WARM_FROM_BYTES", 0)  # a worker started ahead
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([jsonl], out, cache_dir=cache)
    rows = records()
    rows[5]["abstract"] = "We propose Reflective Test-Time Scaling (ReTTS), evaluated on MATH500."
    rows.append({"abstract": "ReTTS outperforms GRPO and FooNet on GSM8K and MATH-500."})
    write_jsonl(jsonl, rows)
    with caplog.at_level(logging.INFO, logger="kg"):
        build([jsonl], out, cache_dir=cache)
    assert f"{len(rows) - 2} cached extractions linked ahead" in caplog.text
    build([jsonl], tmp_path / "clean", cache=False)
    assert files(out) == files(tmp_path / "clean")


def test_an_unreadable_or_foreign_snapshot_is_read_as_none(jsonl, tmp_path, monkeypatch, caplog):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([jsonl], out, cache_dir=cache)
    path = snapshot_path(cache, out)
    assert load_snapshot(path) == remembered_now(jsonl)
    path.write_bytes(b"\x80\x05 not a pickle")
    assert load_snapshot(path) == {}
    with caplog.at_level(logging.INFO, logger="kg"):
        build([jsonl], out, cache_dir=cache)  # reads every line, and writes it anew
    assert reused(caplog) == []
    assert len(load_snapshot(path)) == len(records())
    stamp = kg.builder.snapshot._stamp()
    monkeypatch.setattr(kg.builder.snapshot, "_stamp", lambda: (*stamp[:2], "other extractor"))
    assert load_snapshot(path) == {}


class Boom:
    def __reduce__(self):
        return (os.system, ("touch boom",))


def test_a_snapshot_makes_papers_and_nothing_else(jsonl, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "snapshot.pickle"
    with path.open("wb") as handle:
        pickle.dump(kg.builder.snapshot._stamp(), handle)
        pickle.dump({("papers.jsonl", b"x"): Boom()}, handle)
    assert load_snapshot(path) == {}
    assert not (tmp_path / "boom").exists()


def test_a_build_that_read_no_json_lines_leaves_no_snapshot(jsonl, tmp_path):
    cache, out = tmp_path / "cache", tmp_path / "out"
    build([jsonl], out, cache_dir=cache, views="none")
    assert snapshot_path(cache, out).exists()
    seeds = write(tmp_path / "in" / "papers.txt", (SEEDS / "000_3b3022f013145135.txt").read_text())
    build([seeds], out, cache_dir=cache, views="none")
    assert not snapshot_path(cache, out).exists()


def test_no_cache_no_snapshot_and_clearing_the_cache_forgets_it(jsonl, tmp_path):
    cache = tmp_path / "cache"
    build([jsonl], tmp_path / "a", cache=False, cache_dir=cache)
    assert not snapshot_path(cache, tmp_path / "a").exists()
    build([jsonl], tmp_path / "b", cache_dir=cache)
    assert snapshot_path(cache, tmp_path / "b").exists()
    clear_memos(cache)
    assert not snapshot_path(cache, tmp_path / "b").exists()


def test_the_cache_keeps_the_snapshots_of_the_latest_four_exports_directories(jsonl, tmp_path):
    cache = tmp_path / "cache"
    for name in "abcde":
        build([jsonl], tmp_path / name, cache_dir=cache, views="none")
    kept = [name for name in "abcde" if snapshot_path(cache, tmp_path / name).exists()]
    assert kept == list("bcde")


def test_a_snapshot_that_cannot_be_written_is_skipped_with_a_warning(tmp_path, caplog):
    blocked = write(tmp_path / "file", "not a folder")
    lines = RememberedLines()
    read_inputs([write_jsonl(tmp_path / "in.jsonl", records()[:2])], known=lines)
    with caplog.at_level(logging.WARNING):
        save_snapshot(blocked / "snapshots" / "x.pickle", lines)
    assert "cannot write the snapshot" in caplog.text
    assert not list(tmp_path.glob("**/.snapshot.*"))
