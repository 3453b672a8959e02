"""`write_blocks`: blocks made anew and blocks copied from the last build's file, in order."""

from __future__ import annotations

import errno
import io
import os
import random

import pytest

from kg.builder import blocks as blocks_module
from kg.builder.blocks import OldBytes, write_blocks


@pytest.fixture
def old(tmp_path):
    """A last build's file of 200 blocks of random sizes, open; its bytes and spans."""
    rng = random.Random(3)
    parts = [rng.randbytes(rng.randrange(1, 3000)) for _ in range(200)]
    path = tmp_path / "old.nt"
    path.write_bytes(b"".join(parts))
    spans, at = [], 0
    for part in parts:
        spans.append((at, at + len(part)))
        at += len(part)
    fd = os.open(path, os.O_RDONLY)
    yield fd, str(path), parts, spans
    os.close(fd)


def _plan(old, seed):
    """Blocks in the old order with some made anew and a few moved: (chunk, bytes) each."""
    fd, path, parts, spans = old
    rng = random.Random(seed)
    order = list(range(len(parts)))
    for _ in range(5):  # a few blocks out of their old place
        i, j = rng.randrange(len(order)), rng.randrange(len(order))
        order[i], order[j] = order[j], order[i]
    plan = []
    for n in order:
        if rng.random() < 0.1:
            new = rng.randbytes(rng.randrange(0, 500))
            plan.append(((new,), new))
        else:
            plan.append(((OldBytes(fd, path, *spans[n]),), parts[n]))
    return plan


def _write(handle, plan):
    return write_blocks(handle, range(len(plan)), lambda n: plan[n][0])


@pytest.mark.parametrize("seed", range(4))
def test_copied_runs_give_the_bytes_and_spans_of_each_block(tmp_path, old, seed):
    plan = _plan(old, seed)
    expected = b"".join(data for _, data in plan)
    target = tmp_path / "new.nt"
    with open(target, "wb") as handle:
        spans = _write(handle, plan)
        assert handle.tell() == len(expected)
    assert target.read_bytes() == expected
    assert [expected[a:b] for a, b in spans] == [data for _, data in plan]


def test_a_file_the_kernel_cannot_copy_into_is_read_and_written(old):
    plan = _plan(old, 9)
    handle = io.BytesIO()  # no descriptor
    _write(handle, plan)
    assert handle.getvalue() == b"".join(data for _, data in plan)


def test_without_copy_file_range_the_bytes_are_read_and_written(tmp_path, old, monkeypatch):
    calls = []

    def refuse(*args):
        calls.append(args)
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(blocks_module.os, "copy_file_range", refuse, raising=False)
    plan = _plan(old, 5)
    target = tmp_path / "new.nt"
    with open(target, "wb") as handle:
        _write(handle, plan)
    assert calls  # it was tried
    assert target.read_bytes() == b"".join(data for _, data in plan)


def test_an_old_file_cut_short_is_an_error_naming_it(tmp_path, old):
    fd, path, parts, spans = old
    size = spans[-1][1]
    with pytest.raises(OSError, match=r"old\.nt: ends before byte"):
        with open(tmp_path / "new.nt", "wb") as handle:
            write_blocks(handle, [0], lambda _: (OldBytes(fd, path, 0, size + 10),))


def test_a_handle_over_a_longer_file_goes_on_where_the_copy_ended(tmp_path, old):
    """The handle's position after a copy is where the copy ended, not the file's end."""
    plan = _plan(old, 2)
    expected = b"".join(data for _, data in plan)
    target = tmp_path / "new.nt"
    target.write_bytes(b"-" * (len(expected) + 5000))
    with open(target, "r+b") as handle:
        _write(handle, plan)
        assert handle.tell() == len(expected)
    assert target.read_bytes()[: len(expected)] == expected


def test_a_handle_that_transforms_its_bytes_is_given_them(tmp_path, old):
    """A handle over a file that is no plain file object (gzip) gets the bytes written
    through it, not copied under it."""
    import gzip

    plan = _plan(old, 4)
    with gzip.open(tmp_path / "new.nt.gz", "wb") as handle:
        _write(handle, plan)
    assert gzip.decompress((tmp_path / "new.nt.gz").read_bytes()) == b"".join(
        data for _, data in plan
    )


def test_a_range_that_ends_before_it_starts_is_an_error(tmp_path, old):
    fd, path, *_ = old
    with pytest.raises(OSError, match=r"old\.nt: no bytes from 10 to 5"):
        with open(tmp_path / "new.nt", "wb") as handle:
            write_blocks(handle, [0], lambda _: (OldBytes(fd, path, 10, 5),))
