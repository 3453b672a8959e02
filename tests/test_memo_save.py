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
    ],
)
def test_a_memo_of_blocks_not_as_written_copies_none(tmp_path, blocks):
    _saved(tmp_path, None)
    path = tmp_path / "blocksNone.json"
    data = json.loads(path.read_text())
    data["blocks"] = blocks
    path.write_text(json.dumps(data))
    again = BlockMemo(path, tmp_path / "outNone")
    assert again.where("a", "kg.nt") is None
