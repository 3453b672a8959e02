"""Memos written with members made ahead (`kg.builder.memo.save`'s `done`), as the block
memo makes its record of the blocks while a rebuild waits for its views
(`BlockMemo.settle`)."""

from __future__ import annotations

import json

import pytest

from kg.builder import memo
from kg.builder.blocks import BlockMemo


def test_members_made_ahead_read_back_as_if_given_with_the_rest(tmp_path):
    path = tmp_path / "m.json"
    whole = {"files": {"kg.nt": [3, 4]}, "blocks": {"k": {"n": 2}}, "classes": ["a", "é"]}
    memo.save(
        path, {"files": whole["files"]}, {k: memo.encoded(whole[k]) for k in whole if k != "files"}
    )
    assert memo.load(path) == {"fingerprint": memo.fingerprint(), **whole}
    json.loads(path.read_text())  # one JSON object, no member twice
    memo.save(path, {}, {"blocks": memo.encoded([])})
    assert memo.load(path) == {"fingerprint": memo.fingerprint(), "blocks": []}


def test_a_member_given_twice_is_refused(tmp_path):
    with pytest.raises(ValueError, match="blocks"):
        memo.save(tmp_path / "m.json", {"blocks": {}}, {"blocks": "{}"})


def _saved(tmp_path, settle_after: int | None) -> dict:
    out = tmp_path / f"out{settle_after}"
    out.mkdir()
    (out / "kg.nt").write_bytes(b"x" * 10)
    blocks = BlockMemo(tmp_path / f"blocks{settle_after}.json", out)
    for n, key in enumerate(["b", "a", "c"]):
        if n == settle_after:
            blocks.settle()
        blocks.remember(key, {"kg.nt": (n, n + 1)}, n + 1, {"Paper": 1, "Method": n})
    blocks.remember_all("extractions.jsonl", ["c", "a"], [(5, 9), (0, 5)])
    if settle_after == 3:
        blocks.settle()
    blocks.save({})
    saved = memo.load(blocks.path)
    del saved["files"]  # each test's own kg.nt, made at its own time
    return saved


def test_settled_blocks_are_what_save_would_write_and_a_late_block_is_not_lost(tmp_path):
    plain = _saved(tmp_path, None)
    assert plain["blocks"]["keys"] == ["a", "b", "c"]
    assert _saved(tmp_path, 3) == plain  # settled once every block was remembered
    assert _saved(tmp_path, 1) == plain  # settled too early: made again


def test_the_next_build_reads_where_each_block_was_and_its_counts(tmp_path):
    _saved(tmp_path, None)
    again = BlockMemo(tmp_path / "blocksNone.json", tmp_path / "outNone")
    assert again.valid == {"kg.nt"}  # no extractions.jsonl: none of its blocks is copied
    assert [again.where(k, "kg.nt") for k in "bac"] == [(0, 1), (1, 2), (2, 3)]
    assert again.where("c", "extractions.jsonl") is None
    assert again.where("d", "kg.nt") is None
    assert again.counts("c") == (3, {"Method": 2, "Paper": 1})
    assert again.counts("b") == (1, {"Method": 0, "Paper": 1})


@pytest.mark.parametrize(
    "blocks",
    [
        [],
        {"keys": ["a"], "spans": {"kg.nt": [0]}, "triples": [1], "types": [[]]},  # one end
        {"keys": ["a"], "spans": {"kg.nt": [0, 1]}, "triples": [], "types": [[]]},
        {"keys": ["a"], "spans": {"kg.nt": [0, True]}, "triples": [1], "types": [[]]},
        {"keys": [1], "spans": {"kg.nt": [0, 1]}, "triples": [1], "types": [[]]},
        {"keys": ["a"], "spans": {"kg.nt": [0, 1]}, "triples": [1], "types": [["x"]]},
        {"keys": ["a"], "spans": [], "triples": [1], "types": [[]]},
        {"keys": ["a"], "spans": {"kg.nt": [0, 1]}, "triples": [1], "types": [[0]]},  # odd
        {"keys": ["a"], "spans": {"kg.nt": [0, 1]}, "triples": [1], "types": [[2, 1]]},
        {"keys": ["a"], "spans": {"kg.nt": [0, 1]}, "triples": [1], "types": [[-1, 1]]},
        {"keys": ["a"], "spans": {"kg.nt": [0, 1]}, "triples": [1], "types": [[0, -1]]},
        {"keys": ["a"], "spans": {"kg.nt": [5, 1]}, "triples": [1], "types": [[]]},  # reversed
        {"keys": ["a"], "spans": {"kg.nt": [-1, 1]}, "triples": [1], "types": [[]]},
        {"keys": ["a"], "spans": {"kg.nt": [0, 1]}, "triples": [-1], "types": [[]]},
    ],
)
def test_a_memo_of_blocks_not_as_written_copies_none(tmp_path, blocks):
    """A damaged memo (a file edited, a disk's error) copies no block and counts none: it
    neither stops the rebuild nor counts the wrong classes in void.ttl."""
    _saved(tmp_path, None)
    path = tmp_path / "blocksNone.json"
    data = json.loads(path.read_text())
    assert data["classes"] == ["Method", "Paper"]
    good = {"keys": ["a"], "spans": {"kg.nt": [0, 1]}, "triples": [1], "types": [[1, 1]]}
    data["blocks"] = good
    path.write_text(json.dumps(data))
    again = BlockMemo(path, tmp_path / "outNone")
    assert again.where("a", "kg.nt") == (0, 1) and again.counts("a") == (1, {"Paper": 1})
    data["blocks"] = blocks
    path.write_text(json.dumps(data))
    assert BlockMemo(path, tmp_path / "outNone").where("a", "kg.nt") is None


@pytest.mark.parametrize("classes", [{"0": "Method"}, ["Method", 1], None])
def test_a_memo_whose_classes_are_not_a_list_of_names_copies_none(tmp_path, classes):
    _saved(tmp_path, None)
    path = tmp_path / "blocksNone.json"
    data = json.loads(path.read_text())
    data["classes"] = classes
    path.write_text(json.dumps(data))
    assert BlockMemo(path, tmp_path / "outNone").where("a", "kg.nt") is None


@pytest.mark.parametrize("shared", [[9, 3], [-1, 3], [0, True], [0], "0-3"])
def test_a_shared_block_not_as_written_updates_no_store(tmp_path, shared):
    _saved(tmp_path, None)
    path = tmp_path / "blocksNone.json"
    data = json.loads(path.read_text())
    data["shared"], data["store"] = shared, "a-store"
    path.write_text(json.dumps(data))
    assert BlockMemo(path, tmp_path / "outNone").base_store() is None


@pytest.mark.parametrize("out", [".", "o", "./o", "o/", "ABSOLUTE"])
def test_the_page_memo_takes_the_commits_stats_however_out_is_written(tmp_path, monkeypatch, out):
    """Each page's stamp comes from the stats the commit took (`ExportWriter.placed`,
    keyed as `out / name`), not from another stat, whether `out` is ".", relative or not."""
    from pathlib import Path

    from kg.builder.pages import PageMemo

    monkeypatch.chdir(tmp_path)
    where = Path(tmp_path / "o" if out == "ABSOLUTE" else out)
    (where / "papers").mkdir(parents=True, exist_ok=True)
    placed = {}
    for name in ("index.html", "papers/p1.html"):
        (where / name).write_text(name)
        placed[where / name] = (where / name).stat()
    pages = PageMemo(tmp_path / "pages.json", where)
    for name in placed:
        pages.remember(str(name.relative_to(where)), "digest", kept=False)

    def no_stat(path):
        raise AssertionError(f"{path} was read again")

    monkeypatch.setattr(memo, "stamp", no_stat)
    pages.save(placed)
    monkeypatch.undo()
    saved = memo.load(tmp_path / "pages.json")["pages"]
    assert saved == {
        str(p.relative_to(where)): ["digest", s.st_size, s.st_mtime_ns] for p, s in placed.items()
    }
