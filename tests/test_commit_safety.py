"""Putting the exports in place cannot be cut in two by a signal, nor raced by another
build into the same folder (an adversarial review of kg build, 2026-12-07)."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time

import pytest
from conftest import SEEDS

from kg.cli import main
from kg.export.manifest import recorded
from kg.export.writer import ExportWriter
from kg.processes import Terminated, signals_deferred, terminated_as_interrupt


def test_a_signal_meanwhile_is_raised_after_the_work():
    done = []
    with pytest.raises(KeyboardInterrupt):
        with signals_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # where the handler would have run
            done.append("all of it")
    assert done == ["all of it"]
    with terminated_as_interrupt(), pytest.raises(Terminated) as caught:
        with signals_deferred():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
            done.append("again")
    assert caught.value.signum == signal.SIGTERM and done[-1] == "again"


def test_sigterm_during_the_renames_leaves_every_new_export(tmp_path, monkeypatch):
    """Between two renames it left some files new and the rest old."""
    import kg.export.writer as writer_module

    out = tmp_path / "out"
    with ExportWriter(out) as first:
        for n in range(6):
            first.write(f"f{n}.txt", "old\n")
        first.commit()
    real = os.replace
    calls = []

    def replace(src, dst):
        calls.append(dst)
        if len(calls) == 3:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
        real(src, dst)

    monkeypatch.setattr(writer_module.os, "replace", replace)
    with terminated_as_interrupt(), pytest.raises(Terminated):
        with ExportWriter(out) as second:
            for n in range(6):
                second.write(f"f{n}.txt", "new\n")
            second.commit()
    assert second.committed
    assert {(out / f"f{n}.txt").read_text() for n in range(6)} == {"new\n"}


def test_an_interrupted_build_says_which_exports_are_in_place(runner, tmp_path, monkeypatch):
    import kg.export.writer as writer_module

    out = tmp_path / "out"
    assert runner.invoke(main, ["build", str(SEEDS), "--out", str(out), "-q"]).exit_code == 0
    real = writer_module.ExportWriter.commit

    def commit_then_ctrl_c(self):
        placed = real(self)
        raise KeyboardInterrupt  # as a Ctrl-C right after the renames
        return placed

    monkeypatch.setattr(writer_module.ExportWriter, "commit", commit_then_ctrl_c)
    (tmp_path / "one.txt").write_text("Heading\nWe propose FooNet, a model.\n", encoding="utf-8")
    result = runner.invoke(main, ["build", str(tmp_path / "one.txt"), "--out", str(out), "-q"])
    assert result.exit_code == 130
    assert result.stderr.endswith("Interrupted: the new exports are in place\n")
    assert "FooNet" in (out / "extractions.jsonl").read_text(encoding="utf-8")


def test_a_signal_during_work_that_fails_is_raised_in_its_place():
    """It was dropped, and a SIGTERM during a failed commit ended the build with exit 1."""
    with pytest.raises(KeyboardInterrupt) as caught:
        with signals_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            raise RuntimeError("the work failed")
    assert isinstance(caught.value.__context__, RuntimeError)


def _held_by_another(out) -> bool:
    import fcntl

    fd = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_a_build_reads_what_the_last_one_left_while_it_holds_the_folder(tmp_path, monkeypatch):
    """Its memos were read before it took the folder: one that waited copied byte ranges
    from the files the other build had just written (a review, 2026-12-07)."""
    import kg.builder.pipeline as pipeline

    out, seen = tmp_path / "out", []
    real = pipeline._memos

    def memos(*args, **kwargs):
        seen.append(_held_by_another(out))
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "_memos", memos)
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    pipeline.build([SEEDS], out, views="none")
    assert seen == [True] and not _held_by_another(out)


def test_a_second_build_into_the_same_folder_waits_for_the_first(tmp_path, caplog, monkeypatch):
    """It swept the first's temporaries while they were renamed: a traceback, and exports
    of both builds mixed."""
    from kg.builder.pipeline import build
    from kg.export.writer import held

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    caplog.set_level(logging.WARNING, logger="kg")
    done: list[object] = []
    with held(out):  # as a first build does, from start to end
        second = threading.Thread(
            target=lambda: done.append(build([SEEDS], out, views="none")), daemon=True
        )
        second.start()
        deadline = time.monotonic() + 20
        while "waiting for it to end" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "another kg build is writing there" in caplog.text
        assert done == [] and recorded(out) is None  # it has written nothing yet
    second.join(timeout=60)
    assert len(done) == 1 and recorded(out)


def test_where_the_file_system_cannot_lock_a_build_goes_on(tmp_path, caplog, monkeypatch):
    """NFS answers flock of a folder with EBADF: a traceback, where builds had worked."""
    import errno
    import fcntl

    from kg.export.writer import held

    def refuse(fd, operation):
        raise OSError(errno.EBADF, "Bad file descriptor")

    monkeypatch.setattr(fcntl, "flock", refuse)
    caplog.set_level(logging.WARNING, logger="kg")
    with held(tmp_path / "out") as waited:
        assert waited is False
    assert "cannot lock it" in caplog.text


def test_a_build_that_waited_for_a_folder_removed_meanwhile_locks_the_new_one(tmp_path):
    """The build waited for wrote nothing and removed the folder it had made: the lock
    was on a folder no longer there, and a third build could take the new one."""
    from kg.export.writer import held

    out = tmp_path / "out"
    got: list[bool] = []
    with held(out):  # made here: removed at the end, as nothing was written
        waiting = threading.Thread(target=lambda: got.append(_hold_and_check(out)), daemon=True)
        waiting.start()
        time.sleep(0.3)
    waiting.join(timeout=10)
    assert got == [True]


def _hold_and_check(out) -> bool:
    from kg.export.writer import held

    with held(out):
        return out.is_dir() and _held_by_another(out)
