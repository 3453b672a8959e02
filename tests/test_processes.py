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


def test_a_forked_task_gives_back_the_bytes_it_returns():
    """Bytes of any size, made in the child (its pid), come back; anything else is None."""
    big = os.urandom(3 * 1024 * 1024)
    assert Forked(lambda: big).wait() == big
    assert int(Forked(lambda: str(os.getpid()).encode()).wait()) != os.getpid()
    assert Forked(lambda: b"").wait() == b""
    assert Forked(lambda: 42).wait() is None


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
    assert Forked(lambda: str(os.getpid()).encode()).wait() == str(os.getpid()).encode()
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

    def cut_short(task, send, receive) -> None:
        os.write(send.fileno(), struct.pack("!i", 1024 * 1024) + b"x" * 65_536)
        os._exit(0)

    monkeypatch.setattr(kg.processes, "_child", cut_short)
    with pytest.raises(
        ForkedError, match=r"^a forked task's reply was cut short \(it exited with 0\)$"
    ):
        Forked(lambda: None).wait()


def test_run_timed_returns_the_answer_and_the_childs_kg_error(tmp_path):
    from kg.errors import InputError
    from kg.processes import run_timed

    assert run_timed(lambda: 20, lambda n: n + 1, 10) == 21
    with pytest.raises(InputError, match="x.ttl:3: broken") as caught:
        run_timed(
            lambda: None, lambda _: (_ for _ in ()).throw(InputError("x.ttl", "broken", 3)), 10
        )
    assert caught.value.path == "x.ttl" and caught.value.line == 3


@pytest.mark.slow
def test_run_timed_kills_a_task_past_its_deadline_but_not_its_preparation(tmp_path):
    import time

    import psutil

    from kg.processes import TimedOutError, run_timed

    marker = tmp_path / "pid"

    def spin(_: object) -> None:
        marker.write_text(str(os.getpid()))
        while True:
            pass

    start = time.monotonic()
    with pytest.raises(TimedOutError):
        run_timed(lambda: time.sleep(1.5), spin, 0.5)
    assert 1.9 < time.monotonic() - start < 10  # 1.5 s of preparation, then 0.5 s
    assert not psutil.pid_exists(int(marker.read_text()))


def test_a_tied_child_dies_with_the_process_that_started_it_even_killed(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    import psutil

    if not sys.platform.startswith("linux"):
        pytest.skip("PR_SET_PDEATHSIG is Linux's")
    code = (
        "import subprocess, time\n"
        "from kg.processes import tied\n"
        "print(subprocess.Popen(tied(['/bin/sleep', '60'])).pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, cwd=tmp_path)
    assert parent.stdout is not None
    child = psutil.Process(int(parent.stdout.readline()))
    try:
        time.sleep(0.3)  # it has become sleep
        assert child.is_running() and child.status() != psutil.STATUS_ZOMBIE
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and child.is_running():
            if child.status() == psutil.STATUS_ZOMBIE:
                break
            time.sleep(0.05)
        assert not child.is_running() or child.status() == psutil.STATUS_ZOMBIE
    finally:
        if child.is_running():
            child.kill()


def test_forked_workers_inherit_what_they_work_on():
    """`fork_map`: a lambda in the shared object would not pickle; only indices travel."""
    shared = {"square": lambda n: n * n, "parent": os.getpid()}
    task = lambda s, i: (s["square"](i), os.getpid() != s["parent"])  # noqa: E731
    answers = list(kg.processes.fork_map(task, shared, 40, workers=2, chunksize=4))
    assert answers == [(i * i, True) for i in range(40)]  # in order, each in a worker
    assert kg.processes._FORKED is None  # nothing left behind for the next pool


def _note_started() -> None:
    os.environ["KG_TEST_STARTED"] = "yes"


def _started(_: int) -> tuple[str | None, int]:
    return os.environ.get("KG_TEST_STARTED"), os.getpid()


def test_spawned_workers_start_first():
    with kg.processes.spawn_pool(2, _note_started) as pool:
        answers = list(pool.map(_started, range(4)))
    assert {started for started, _ in answers} == {"yes"}
    assert os.getpid() not in {pid for _, pid in answers}


def _double(_: object, i: int) -> int:
    return 2 * i


def test_a_forked_pool_ends_its_workers_without_a_traceback(capfd):
    """The pool ends its workers with SIGTERM; under `terminated_as_interrupt` a worker
    raised `Terminated` and printed its traceback (and a build once hung waiting for one)."""
    with kg.processes.terminated_as_interrupt():
        for _ in range(3):
            assert list(kg.processes.fork_map(_double, None, 50, workers=2)) == [
                2 * i for i in range(50)
            ]
    assert "Traceback" not in capfd.readouterr().err


def _ignored_by_worker(_: int) -> tuple[bool, bool]:
    import signal

    return (
        signal.getsignal(signal.SIGINT) == signal.SIG_IGN,
        signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []),
    )


def test_spawned_workers_leave_ctrl_c_to_the_build():
    """A terminal's Ctrl-C reaches every process of the build: a spawned worker ignores it
    (and does not keep it blocked), so none dies mid-task and leaves the pool stuck."""
    with kg.processes.spawn_pool(2, _note_started) as pool:
        assert set(pool.map(_ignored_by_worker, range(4))) == {(True, False)}


_HANGUP_SURVIVED = """
import os, signal
from kg.processes import fork_map, terminated_as_interrupt

def task(_, i):
    if i == 3:
        os.kill(os.getpid(), signal.SIGHUP)  # a hang-up, as a terminal's reaches workers
    return i

signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under nohup
with terminated_as_interrupt():
    print(sum(fork_map(task, None, 40, workers=2, chunksize=1)))
"""


def test_forked_workers_keep_a_hang_up_ignored_as_the_build_does():
    """Under nohup the build ignores SIGHUP, and so must its forked workers: one killed by
    it would leave the pool waiting forever for its tasks."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _HANGUP_SURVIVED], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(sum(range(40)))


def test_a_forked_child_leaves_when_the_build_is_killed_before_reading_its_reply(tmp_path):
    """A reply larger than a pipe holds, and the build killed (SIGKILL) before it reads it:
    the child must not wait forever to write it (it held the pipe's reading end too)."""
    import signal
    import subprocess
    import sys
    import time

    import psutil

    script = (
        "import os, signal, sys, time\n"
        "from kg.processes import Forked\n"
        "child = Forked(lambda: time.sleep(0.5) or b'x' * 10_000_000)\n"
        "print(child._process.pid, flush=True)\n"
        "time.sleep(0.2)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    build = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert build.returncode == -signal.SIGKILL, build.stderr
    pid = int(build.stdout)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                break
        except psutil.NoSuchProcess:
            break
        time.sleep(0.1)
    else:
        psutil.Process(pid).kill()
        raise AssertionError("the child still waits to write its reply")


def test_a_cancelled_child_lets_go_of_its_pipe():
    import time

    child = Forked(lambda: time.sleep(30))
    child.cancel()
    assert child._process is None and child._receive.closed
    child.cancel()  # twice: nothing left to do
