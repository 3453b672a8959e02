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
    blocks = BlockMemo(tmp_path / f"blocks{settle_after}.json", out)
    for n, key in enumerate(["b", "a", "c"]):
        if n == settle_after:
            blocks.settle()
        blocks.remember(key, {"kg.nt": (n, n + 1)}, n + 1, {"Paper": 1, "Method": n})
    if settle_after == 3:
        blocks.settle()
    blocks.save({})
    return memo.load(blocks.path)


def test_settled_blocks_are_what_save_would_write_and_a_late_block_is_not_lost(tmp_path):
    plain = _saved(tmp_path, None)
    assert list(plain["blocks"]) == ["a", "b", "c"]
    assert plain["blocks"]["c"] == {"kg.nt": [2, 3], "n": 3, "types": [[0, 2], [1, 1]]}
    assert _saved(tmp_path, 3) == plain  # settled once every block was remembered
    assert _saved(tmp_path, 1) == plain  # settled too early: made again
