"""`ExportWriter.write`, the path of every page: whole files, mode 644, in place only at
`commit`, and nothing left behind when a write fails."""

from __future__ import annotations

import os
import stat

import pytest

from kg.errors import ExportError
from kg.export.manifest import MANIFEST
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


def test_a_temporary_name_already_taken_is_left_alone(tmp_path):
    """A temporary is named by its target and its writer; where that name is taken (made
    after this build swept the folder), another name is used and the file there is not
    touched."""
    out = tmp_path / "out"
    with ExportWriter(out) as writer:
        writer.write("papers/a.html", b"a")  # the folder made and swept
        taken = out / "papers" / f".kg-tmp.b.html.{writer._token}.tmp"
        taken.write_bytes(b"someone else's")
        writer.write("papers/b.html", b"b")
        writer.stream("papers/c.html", lambda handle: handle.write(b"c"))
        writer.commit()
    assert (out / "papers" / "b.html").read_bytes() == b"b"
    assert (out / "papers" / "c.html").read_bytes() == b"c"
    assert taken.read_bytes() == b"someone else's"
    assert stat.S_IMODE((out / "papers" / "c.html").stat().st_mode) == 0o644


def test_a_second_build_into_the_folder_makes_the_first_fail_not_mix(tmp_path):
    """Where no lock keeps them apart (a build holds its folder, `kg.export.writer.held`,
    but not on every file system), two writers of one process into one folder: the second
    sweeps the first's temporaries, and the first's commit fails instead of putting the
    second's bytes in place (a review found this with temporaries named by the process
    alone)."""
    out = tmp_path / "out"
    first = ExportWriter(out)
    first.write("papers/a.html", b"one (whole)")
    second = ExportWriter(out)
    second.write("papers/a.html", b"two")
    with pytest.raises(ExportError):
        first.commit()
    second.commit()
    assert (out / "papers" / "a.html").read_bytes() == b"two"


@pytest.mark.parametrize("when", ["write", "stream", "manifest"])
def test_ctrl_c_just_after_a_temporary_is_made_leaves_none(tmp_path, monkeypatch, when):
    """Ctrl-C between a temporary's creation and its record once left an empty temporary
    in the exports of an interrupted build (seen in CI: `papers/.kg-tmp.….tmp`, 0 bytes)."""
    out = tmp_path / "out"
    with ExportWriter(out) as writer:
        writer.write("papers/a.html", b"before")
        writer.commit()
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    real = os.open

    def interrupted(path, flags, mode=0o777):
        fd = real(path, flags, mode)
        name = os.path.basename(path)
        if name.startswith(".kg-tmp.") and (when != "manifest" or MANIFEST in name):
            raise KeyboardInterrupt
        return fd

    with pytest.raises(KeyboardInterrupt), ExportWriter(out) as writer:
        if when == "manifest":
            writer.write("papers/a.html", b"after")
            writer.write("papers/new.html", b"new")  # a name the manifest must gain
            monkeypatch.setattr(os, "open", interrupted)
            writer.commit()
        else:
            monkeypatch.setattr(os, "open", interrupted)
            if when == "write":
                writer.write("papers/a.html", b"after")
            else:
                writer.stream("papers/b.html", lambda handle: handle.write(b"b"))
    monkeypatch.setattr(os, "open", real)
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert (out / "papers" / "a.html").read_bytes() == b"before"


def test_an_aborted_build_leaves_a_temporary_name_it_did_not_make(tmp_path):
    """Where a temporary's name is taken (another build's file), the writer uses another
    name, and its abort removes only its own."""
    out = tmp_path / "out"
    with pytest.raises(RuntimeError), ExportWriter(out) as writer:
        writer.write("papers/a.html", b"a")
        taken = out / "papers" / f".kg-tmp.b.html.{writer._token}.tmp"
        taken.write_bytes(b"someone else's")
        writer.write("papers/b.html", b"b")
        raise RuntimeError("the build fails")
    assert sorted(p.name for p in (out / "papers").iterdir()) == [taken.name]
    assert taken.read_bytes() == b"someone else's"
