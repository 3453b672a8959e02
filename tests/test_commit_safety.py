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


def test_a_second_build_into_the_same_folder_waits_for_the_first(tmp_path, caplog):
    """It swept the first's temporaries while they were renamed: a traceback, and exports
    of both builds mixed."""
    out = tmp_path / "out"
    first = ExportWriter(out)
    first.write("a.txt", "first\n")
    order: list[str] = []

    def second_build() -> None:
        with ExportWriter(out) as second:
            order.append("second began")
            assert "a.txt" in second.before  # the first's exports, claimed after it
            second.write("a.txt", "second\n")
            second.commit()

    caplog.set_level(logging.WARNING, logger="kg")
    thread = threading.Thread(target=second_build)
    thread.start()
    time.sleep(0.3)
    assert order == []  # waiting, its temporaries not yet made, the first's not swept
    first.commit()
    order.append("first done")
    first.__exit__(None, None, None)
    thread.join(timeout=10)
    assert order == ["first done", "second began"]
    assert (out / "a.txt").read_text() == "second\n" and recorded(out) == {"a.txt"}
    assert "another kg build is writing there; waiting for it to end" in caplog.text
