from __future__ import annotations

import json
import os

import pytest
from conftest import ROOT, SEEDS

from kg.errors import ExportError
from kg.export import write_files


def test_write_files_replaces_all_files(tmp_path):
    write_files(tmp_path, {"a.txt": "one", "lib/b.js": b"two"})
    assert (tmp_path / "a.txt").read_text() == "one"
    assert (tmp_path / "lib" / "b.js").read_bytes() == b"two"
    assert not [p for p in tmp_path.rglob("*.tmp")]


def test_failed_write_leaves_previous_files_intact(tmp_path, monkeypatch):
    write_files(tmp_path, {"a.txt": "old a", "b.txt": "old b"})
    calls = []

    def failing_fsync(fd):
        calls.append(fd)
        if len(calls) == 2:  # the disk fills while writing the second file
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(ExportError, match="No space left on device"):
        write_files(tmp_path, {"a.txt": "new a", "b.txt": "new b"})
    assert (tmp_path / "a.txt").read_text() == "old a"
    assert (tmp_path / "b.txt").read_text() == "old b"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_extraction_records_carry_offsets(built):
    records = [json.loads(line) for line in (built / "extractions.jsonl").open()]
    assert len(records) == 38
    for record in records:
        assert {"paper", "source", "line", "text", "entities", "relations"} <= set(record)
        for entity in record["entities"]:
            assert entity["entity"]
            for m in entity["mentions"]:
                assert record["text"][m["start"] : m["end"]] == m["text"]


def test_committed_exports_are_what_the_code_builds(built):
    """exports/ in the repository must be regenerated (`kg build`) when the output changes."""
    committed = ROOT / "exports"
    names = sorted(str(p.relative_to(built)) for p in built.rglob("*") if p.is_file())
    for name in names:
        assert (committed / name).is_file(), f"exports/{name} is not committed"
        assert (committed / name).read_bytes() == (built / name).read_bytes(), (
            f"exports/{name} differs from a fresh build: run `kg build` and commit"
        )


def test_exports_are_always_one_builds(runner, tmp_path):
    """What an earlier build wrote and this one did not goes: pages of papers no longer read,
    a Turtle file older than the N-Triples `kg query` would read first. Other files stay."""
    from kg.cli import main

    out = tmp_path / "exports"
    assert runner.invoke(main, ["build", str(SEEDS), "-o", str(out), "-q"]).exit_code == 0
    assert (out / "kg.ttl").is_file() and list((out / "papers").glob("*.html"))
    (out / "notes.md").write_text("mine", encoding="utf-8")
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps({"abstract": "We propose FooNet on MATH500."}) + "\n")
    args = ["build", str(one), "-o", str(out), "-q", "--rdf", "nt", "--views", "overview"]
    assert runner.invoke(main, args).exit_code == 0
    assert not (out / "kg.ttl").exists() and not (out / "kg.jsonld").exists()
    assert not list((out / "papers").glob("*")) and not list((out / "entities").glob("*"))
    assert (out / "index.html").is_file() and (out / "notes.md").read_text() == "mine"
    count = "SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }"
    result = runner.invoke(main, ["query", count, str(out), "-f", "csv"])
    assert result.exit_code == 0 and result.stdout.split() == ["n", "1"], result.output
    assert runner.invoke(main, ["validate", str(out)]).exit_code == 0  # on kg.nt
    assert "one.jsonl:1" in runner.invoke(main, ["explain", "FooNet", str(out)]).stdout


def test_a_rebuild_leaves_unchanged_files_alone(runner, tmp_path):
    from kg.cli import main

    out = tmp_path / "exports"
    for _ in range(2):
        before = {p: p.stat().st_ino for p in out.rglob("*.html")} if out.exists() else {}
        assert runner.invoke(main, ["build", str(SEEDS), "-o", str(out), "-q"]).exit_code == 0
    after = {p: p.stat().st_ino for p in out.rglob("*.html")}
    assert after == before and len(after) > 40  # the same files, not rewritten copies
