from __future__ import annotations

import json
import os
import sys

import pytest
from conftest import ROOT, SEED_PAPERS, SEEDS

import kg.export.writer
from kg.builder.pipeline import build
from kg.errors import ExportError
from kg.export.manifest import MANIFEST
from kg.export.views import vis_library
from kg.export.writer import write_files


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
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "a.txt", "b.txt"]


def test_only_files_an_earlier_write_wrote_are_removed(tmp_path):
    write_files(tmp_path, {"a.txt": "a", "lib/b.js": "b"})
    (tmp_path / "lib" / "mine.js").write_text("mine")
    assert write_files(tmp_path, {"c.txt": "c"}) == [tmp_path / "c.txt"]
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file()) == [
        MANIFEST,
        "c.txt",
        "lib/mine.js",
    ]


def test_a_folder_linked_elsewhere_is_not_followed_to_remove_files(tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    write_files(out, {"a.txt": "a", "papers/x.html": "x"})
    elsewhere.mkdir()
    (elsewhere / "x.html").write_text("not kg's")
    (out / "papers" / "x.html").unlink()
    (out / "papers").rmdir()
    (out / "papers").symlink_to(elsewhere)  # the manifest still lists papers/x.html
    write_files(out, {"a.txt": "a"})
    assert (elsewhere / "x.html").read_text() == "not kg's"


def test_a_failed_write_keeps_the_manifest_and_removes_nothing(tmp_path, monkeypatch):
    write_files(tmp_path, {"a.txt": "a"})
    manifest = (tmp_path / MANIFEST).read_bytes()
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(28, "Full")))
    with pytest.raises(ExportError, match="Full"):
        write_files(tmp_path, {"b.txt": "b"})
    assert (tmp_path / MANIFEST).read_bytes() == manifest and (tmp_path / "a.txt").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "a.txt"]


def test_a_write_killed_while_renaming_leaves_no_file_of_its_unrecorded(tmp_path, monkeypatch):
    write_files(tmp_path, {"a.txt": "a"})
    replace, calls = os.replace, []

    def killed_after_the_first_export(src, dst):
        replace(src, dst)
        calls.append(dst)
        if str(dst).endswith("b.txt"):
            raise KeyboardInterrupt

    monkeypatch.setattr(kg.export.writer.os, "replace", killed_after_the_first_export)
    with pytest.raises(KeyboardInterrupt):
        write_files(tmp_path, {"b.txt": "b", "c.txt": "c"})
    monkeypatch.setattr(kg.export.writer.os, "replace", replace)
    assert (tmp_path / "b.txt").is_file() and (tmp_path / "a.txt").is_file()
    write_files(tmp_path, {"d.txt": "d"})  # the next write removes every file kg wrote
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "d.txt"]


def test_extraction_records_carry_offsets(built):
    records = [json.loads(line) for line in (built / "extractions.jsonl").open()]
    assert len(records) == SEED_PAPERS
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
    assert after == before and len(after) > SEED_PAPERS  # the same files, not rewritten copies


def test_a_rebuild_leaves_files_of_yours_among_kgs(runner, tmp_path):
    """A page of notes in papers/ and a script in lib/ are not kg's: no build removes them,
    whether or not the cache still remembers the exports (the manifest is in OUT)."""
    from kg.cli import main

    out = tmp_path / "exports"
    build([SEEDS], out, cache_dir=tmp_path / "cache")
    notes, script = out / "papers" / "notes.html", out / "lib" / "mine.js"
    notes.write_text("<p>my notes</p>", encoding="utf-8")
    script.write_text("mine", encoding="utf-8")
    build([SEEDS], out, cache_dir=tmp_path / "cache")  # unchanged
    assert notes.read_text(encoding="utf-8") == "<p>my notes</p>" and script.is_file()
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps({"abstract": "We propose FooNet on MATH500."}) + "\n")
    # as after `kg cache clear`: no memo of what was drawn into OUT
    result = runner.invoke(main, ["build", str(one), "-o", str(out), "-q", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert len(list((out / "papers").glob("*.html"))) == 2  # the one paper's and the notes
    assert notes.is_file() and script.is_file()
    shipped = [name.removeprefix("lib/") for name in vis_library()]
    assert sorted(p.name for p in (out / "lib").iterdir()) == sorted(["mine.js", *shipped])
    assert "vis-network.min.js" in shipped


def test_a_manifest_is_committed_with_the_exports():
    manifest = (ROOT / "exports" / MANIFEST).read_text(encoding="utf-8").splitlines()
    assert "kg.nt" in manifest and "lib/vis-network.min.js" in manifest
    assert manifest[1:] == sorted(manifest[1:])


def test_only_kgs_temporaries_are_removed_as_stale(tmp_path):
    """A killed build's temporaries go with the next write; a file of yours ending in .tmp
    stays, and no folder kg does not write to is searched."""
    write_files(tmp_path, {"a.txt": "a", "lib/b.js": "b"})
    stale = [tmp_path / ".kg-tmp.a.txt.x1.tmp", tmp_path / "lib" / ".kg-tmp.b.js.x2.tmp"]
    mine = [tmp_path / ".draft.tmp", tmp_path / "lib" / ".b.js.x3.tmp"]
    elsewhere = tmp_path / "project" / ".kg-tmp.c.x4.tmp"
    elsewhere.parent.mkdir()
    for path in [*stale, *mine, elsewhere]:
        path.write_text("x")
    write_files(tmp_path, {"a.txt": "a", "lib/b.js": "b"})
    assert not any(path.exists() for path in stale)
    assert all(path.exists() for path in [*mine, elsewhere])


def test_many_files_are_flushed_by_one_syncfs_per_file_system(tmp_path, monkeypatch):
    """From `SYNCFS_FROM` files on, one syncfs of their file system flushes them (29,000
    pages: 0.5 s against 3-4 s of fsyncs), not a fsync each."""
    import kg.export.writer as writer

    synced, fsynced = [], []
    monkeypatch.setattr(writer, "SYNCFS_FROM", 3)
    monkeypatch.setattr(writer, "_syncfs", lambda: lambda fd: synced.append(fd) or 0)
    monkeypatch.setattr(os, "fsync", lambda fd: fsynced.append(fd))
    files = {f"papers/{i}.html": str(i) for i in range(5)} | {"index.html": "i"}
    write_files(tmp_path, files)
    assert len(synced) == 1  # one file system
    assert len(fsynced) == 1  # the manifest's own, written alone
    assert (tmp_path / "papers" / "4.html").read_text() == "4"


def test_a_failed_syncfs_leaves_previous_files_intact(tmp_path, monkeypatch):
    import ctypes

    import kg.export.writer as writer

    write_files(tmp_path, {"a.txt": "old a", "b.txt": "old b"})

    def full(fd):
        ctypes.set_errno(28)
        return -1

    monkeypatch.setattr(writer, "SYNCFS_FROM", 2)
    monkeypatch.setattr(writer, "_syncfs", lambda: full)
    with pytest.raises(ExportError, match="No space left on device"):
        write_files(tmp_path, {"a.txt": "new a", "b.txt": "new b"})
    assert (tmp_path / "a.txt").read_text() == "old a"
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "a.txt", "b.txt"]


def test_without_syncfs_each_file_is_flushed(tmp_path, monkeypatch):
    import kg.export.writer as writer

    fsynced = []
    monkeypatch.setattr(writer, "SYNCFS_FROM", 2)
    monkeypatch.setattr(writer, "_syncfs", lambda: None)  # not Linux
    monkeypatch.setattr(os, "fsync", lambda fd: fsynced.append(fd))
    write_files(tmp_path, {"a.txt": "a", "b.txt": "b", "c.txt": "c"})
    assert len(fsynced) == 4  # three files and the manifest


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="syncfs is Linux's")
def test_the_real_syncfs_flushes(tmp_path, monkeypatch):
    import kg.export.writer as writer

    assert writer._syncfs() is not None
    monkeypatch.setattr(writer, "SYNCFS_FROM", 1)
    write_files(tmp_path, {"a.txt": "a", "lib/b.js": "b"})
    assert (tmp_path / "lib" / "b.js").read_text() == "b"
