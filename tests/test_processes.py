"""Tasks run in a forked child while the build goes on (kg/processes.py)."""

from __future__ import annotations

import multiprocessing
import os
import struct

import pytest

import kg.processes
from kg.processes import Forked, ForkedError


def test_a_forked_task_runs_in_a_child(tmp_path):
    marker = tmp_path / "pid"
    Forked(lambda: marker.write_text(str(os.getpid()))).wait()
    assert int(marker.read_text()) != os.getpid()


def test_a_forked_task_that_cannot_write_names_the_file(tmp_path):
    task = Forked(lambda: (tmp_path / "no" / "file").write_text("x"))
    with pytest.raises(ForkedError, match="no/file: No such file or directory"):
        task.wait()


def test_a_forked_task_that_crashes_gives_its_exit_status():
    def crash() -> None:
        os._exit(3)

    with pytest.raises(ForkedError, match="exited with 3"):
        Forked(crash).wait()


def test_without_fork_the_task_runs_here(tmp_path, monkeypatch):
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    marker = tmp_path / "pid"
    task = Forked(lambda: marker.write_text(str(os.getpid())))
    assert int(marker.read_text()) == os.getpid()  # at once, before wait
    task.wait()
    failed = Forked(lambda: (tmp_path / "no" / "file").write_text("x"))
    with pytest.raises(ForkedError, match="No such file"):
        failed.wait()


def test_a_forked_tasks_reply_of_any_size_comes_back():
    long = "x" * (2 * 1024 * 1024)

    def fail() -> None:
        raise OSError(28, "No space left on device", long)

    with pytest.raises(ForkedError) as error:
        Forked(fail).wait()
    assert str(error.value) == f"{long}: No space left on device"


def test_a_reply_cut_short_is_a_clean_error(monkeypatch):
    """The child dies while it answers: 64 KiB of a reply said to hold a megabyte."""

    def cut_short(task, send) -> None:
        os.write(send.fileno(), struct.pack("!i", 1024 * 1024) + b"x" * 65_536)
        os._exit(0)

    monkeypatch.setattr(kg.processes, "_child", cut_short)
    with pytest.raises(
        ForkedError, match=r"^a forked task's reply was cut short \(it exited with 0\)$"
    ):
        Forked(lambda: None).wait()
