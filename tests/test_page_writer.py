"""`ExportWriter.write`, the path of every page: whole files, mode 644, in place only at
`commit`, and nothing left behind when a write fails."""

from __future__ import annotations

import os
import stat

import pytest

from kg.errors import ExportError
from kg.export.writer import ExportWriter


def test_pages_are_written_whole_and_readable_at_commit(tmp_path):
    out = tmp_path / "out"
    big = bytes(range(256)) * 40_000  # 10 MB: more than one os.write may take
    with ExportWriter(out) as writer:
        writer.write("papers/a.html", big)
        writer.write("papers/b.html", "é")
        writer.write("index.html", b"<p>")
        assert not (out / "papers" / "a.html").exists()  # not before the commit
        writer.commit()
    assert (out / "papers" / "a.html").read_bytes() == big
    assert (out / "papers" / "b.html").read_text(encoding="utf-8") == "é"
    for name in ("papers/a.html", "papers/b.html", "index.html"):
        assert stat.S_IMODE((out / name).stat().st_mode) == 0o644
    assert sorted(p.name for p in (out / "papers").iterdir()) == ["a.html", "b.html"]


def test_a_failed_write_leaves_the_previous_pages_and_no_temporary(tmp_path, monkeypatch):
    out = tmp_path / "out"
    with ExportWriter(out) as writer:
        writer.write("papers/a.html", b"before")
        writer.commit()
    real = os.write
    calls = []

    def full(fd, data):
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(ExportError, match="No space left"), ExportWriter(out) as writer:
        writer.write("papers/a.html", b"after")
        writer.write("papers/c.html", b"new")
    assert (out / "papers" / "a.html").read_bytes() == b"before"
    assert sorted(p.name for p in (out / "papers").iterdir()) == ["a.html"]
    with ExportWriter(out) as writer:  # a folder removed since the last build is made again
        (out / "papers" / "a.html").unlink()
        (out / "papers").rmdir()
        writer.write("papers/d.html", b"d")
        writer.commit()
    assert (out / "papers" / "d.html").read_bytes() == b"d"
