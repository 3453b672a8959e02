"""Every worker process helper of kg: a pool of spawned workers that leave with the build
that started them (`spawn_pool`), a pool of forked workers that inherit what they work on
(`fork_map`), tasks run in a forked child while the build goes on (`Forked`), tasks cut off
at a deadline (`run_timed`), server children that die with the thread that started them
(`tied`), and SIGTERM and SIGHUP raised as Ctrl-C is (`terminated_as_interrupt`). (The RDF
converter, `kg.export.convert`, is a script of its own: it imports no kg.)"""

from __future__ import annotations

import faulthandler
import multiprocessing
import multiprocessing.process
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from kg.errors import KgError

S = TypeVar("S")
T = TypeVar("T")


def exit_with(parent: int) -> None:
    """Exit this worker process as soon as the process `parent` is gone: a build killed with
    SIGKILL cannot stop its workers, which would otherwise wait forever to send results.
    Call it first thing in a worker (a pool's initializer)."""
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(1)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP (`signum`), raised as Ctrl-C raises KeyboardInterrupt."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextmanager
def terminated_as_interrupt() -> Iterator[None]:
    """Meanwhile SIGTERM and SIGHUP raise `Terminated` in the main thread, as SIGINT raises
    KeyboardInterrupt, so that every `finally` runs: a build removes its temporaries and
    stops its children (by default Python ends at once, leaving them). A signal ignored
    (nohup) or handled already is left as it is, as it is off the main thread."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(signum) == signal.SIG_DFL:
                previous[signum] = signal.signal(signum, _raise_terminated)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _raise_terminated(signum: int, _frame: object) -> None:
    raise Terminated(signum)


_DEFERRED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Meanwhile Ctrl-C, SIGTERM and SIGHUP wait: each is noted, and the first is raised at
    the end as it would have been at once (KeyboardInterrupt, `Terminated`), after the work
    inside, which must not be cut in two (putting a build's exports in place). Where the
    work raises, the signal is raised in place of its error (which it carries as its
    context); off the main thread (where handlers cannot be set) the signals are left as
    they are."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    previous: dict[int, Any] = {signum: signal.getsignal(signum) for signum in _DEFERRED}
    for signum, handler in previous.items():
        if handler not in (signal.SIG_IGN, None):
            signal.signal(signum, lambda number, _frame: noted.append(number))
    try:
        yield
    finally:
        for signum, handler in previous.items():
            if handler not in (signal.SIG_IGN, None):
                signal.signal(signum, handler)
        if noted:  # raised after the work, or in place of the error it ended with
            handler = previous[noted[0]]
            if callable(handler):
                handler(noted[0], None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(noted[0])  # the default: the process ends, as it would


def can_fork() -> bool:
    """Whether processes can fork here (not on Windows)."""
    return "fork" in multiprocessing.get_all_start_methods()


@contextmanager
def spawn_pool(
    workers: int, start: Callable[[], object], *, wait: bool = True
) -> Iterator[ProcessPoolExecutor]:
    """A pool of `workers` spawned processes, each of which leaves as soon as this process
    is gone (`exit_with`) and first calls `start` (a module-level function). At the end the
    pool waits for its workers to leave; with `wait` False it does not (they leave once
    `start` and their tasks are done, and the interpreter's exit waits for that): a pool
    started ahead and not needed, or left by an error, costs the build no wait.

    Ctrl-C and a hang-up, which a terminal sends to every process of the build, are the
    build's to handle, not the workers': when the build stops, the tasks not yet begun are
    cancelled and the pool waits for the few that run. (Workers that died of Ctrl-C left
    the pool's feeder thread blocked on a pipe no one reads: the build hung at exit.)
    SIGTERM still ends a worker: the pool ends broken workers with it.
    """
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_start_spawned, initargs=(os.getpid(), start)
    )
    # the workers start now, with the signals blocked, so that none arrives before a worker
    # ignores it (it keeps the mask through exec); the build receives them once they started
    # (a Ctrl-C held meanwhile is raised as they are unblocked: inside the `try`, so that
    # the pool is shut down as for any other)
    try:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _WORKER_IGNORES)
        try:
            for _ in range(workers):
                pool.submit(_nothing)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        yield pool
    except BaseException:
        pool.shutdown(wait=wait, cancel_futures=True)
        raise
    pool.shutdown(wait=wait)


_WORKER_IGNORES = frozenset({signal.SIGINT, signal.SIGHUP})


def _nothing() -> None:
    pass


def _start_spawned(parent: int, start: Callable[[], object]) -> None:
    for signum in _WORKER_IGNORES:
        signal.signal(signum, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _WORKER_IGNORES)
    exit_with(parent)
    start()


def fork_map(
    task: Callable[[S, int], T], shared: S, count: int, workers: int, chunksize: int = 16
) -> Iterator[T]:
    """`task(shared, i)` for each i below `count`, in order, in `workers` forked processes,
    which inherit `shared` instead of receiving it pickled (only the indices and the results
    travel). Processes must be able to fork (`can_fork`)."""
    global _FORKED
    _FORKED = (task, shared)  # inherited by the workers as they fork
    try:
        context = multiprocessing.get_context("fork")
        # a worker reads its tasks from a pipe only the build writes: when the build is
        # killed, the worker reads the end of it and leaves (tested), and one that waits on
        # the pool's lock leaves with the build too (`exit_with`). The pool and its threads
        # (which fork the workers that replace ended ones) start with the build's signals
        # blocked, so that none reaches a worker before it takes its own handlers: SIGTERM,
        # with which the pool ends them, ends them (a worker forked under
        # `terminated_as_interrupt` printed the traceback of `Terminated`), and Ctrl-C is
        # the build's (one that killed a fresh worker left its replacement, forked as the
        # pool ended, waiting forever on the pool's lock with the build gone)
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _FORKED_HOLDS)
        try:
            pool = context.Pool(workers, initializer=_start_forked, initargs=(os.getpid(),))
        except BaseException:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
            raise
        with pool:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
            yield from pool.imap(_forked_one, range(count), chunksize=chunksize)
    finally:
        _FORKED = None


_FORKED: tuple[Callable[[Any, int], Any], Any] | None = None
_FORKED_HOLDS = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


def _start_forked(parent: int) -> None:
    """First thing in a forked pool worker: its own signal handlers, then the signals
    unblocked, and leave when the build is gone."""
    _default_signals()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _FORKED_HOLDS)
    exit_with(parent)


def _default_signals() -> None:
    """In a forked worker: SIGTERM and SIGHUP end it, as they would have by default, where
    the build raises them (`terminated_as_interrupt`) — one it ignores (`nohup`) the worker
    ignores too: a worker killed by a hang-up the build survives would leave the pool
    waiting forever for its tasks — and Ctrl-C, which a terminal sends to every process of
    the build, is the build's to handle (it stops the pool): no worker prints a traceback."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(signum) is _raise_terminated:
            signal.signal(signum, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _forked_one(index: int) -> object:
    """Run in a forked worker: the task it inherited, on item `index`."""
    assert _FORKED is not None
    task, shared = _FORKED
    return task(shared, index)


class ForkedError(Exception):
    """A forked task failed: its message says why (the file and the cause)."""


class Forked:
    """`task` run in a forked child process, which inherits the build's objects (a graph of
    a million edges is not pickled): the build goes on meanwhile. Where processes cannot
    fork, `task` runs here, at once.

    The task's OSError (a file that cannot be written) comes back as a `ForkedError` from
    `wait`; any other failure as the child's exit status. What the task returns, when it is
    bytes, `wait` returns. The child's reply is a byte that says what follows (the error's
    text, the bytes or nothing), then that (any size; no unpickling); one cut short is a
    `ForkedError` too.
    """

    def __init__(self, task: Callable[[], object]) -> None:
        self._process: multiprocessing.process.BaseProcess | None = None
        self._error: str | None = None
        self._value: bytes | None = None
        if not can_fork():
            self._error, self._value = _run(task)
            return
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_child, args=(task, send, self._receive), daemon=True
        )
        # forked with the build's signals blocked, as `fork_map` forks its workers: one that
        # came before the child took its own handlers would raise in it, with a traceback
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _FORKED_HOLDS)
        try:
            self._process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        send.close()

    def wait(self) -> bytes | None:
        """Wait for the task to end; what it returned, if bytes.

        Raises:
            ForkedError: it failed.
        """
        if self._process is not None:
            cut_short = False
            try:
                reply = self._receive.recv_bytes()
                if reply[:1] == _ERROR:
                    self._error = reply[1:].decode("utf-8", "replace")
                elif reply[:1] == _VALUE:
                    self._value = reply[1:]
            except EOFError:  # the child died before it could say
                self._error = None
            except OSError:  # it died while saying ("got end of file during message")
                self._error, cut_short = None, True
            self._process.join()
            if cut_short:
                self._error = (
                    f"a forked task's reply was cut short (it exited with {self._process.exitcode})"
                )
            elif self._process.exitcode and self._error is None:
                self._error = f"a forked task exited with {self._process.exitcode}"
            self._receive.close()
            self._process = None
        if self._error is not None:
            raise ForkedError(self._error)
        return self._value

    def cancel(self) -> None:
        """Stop the child if it is still running (the build failed or was interrupted)."""
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join()
            self._receive.close()
            self._process = None


#: the first byte of a forked child's reply: an error's text follows, or the bytes the task
#: returned, or nothing (it returned no bytes)
_ERROR, _VALUE, _NONE = b"E", b"V", b"N"


def _run(task: Callable[[], object]) -> tuple[str | None, bytes | None]:
    """The task's error (an OSError's file and cause), or None and what it returned if
    bytes."""
    try:
        value = task()
    except OSError as error:
        return f"{error.filename or 'a forked task'}: {error.strerror}", None
    return None, value if isinstance(value, bytes) else None


def _child(task: Callable[[], object], send: Connection, receive: Connection) -> None:
    # the reading end is the build's alone: held here too, a reply larger than the pipe
    # would wait forever for a build that was killed
    receive.close()
    _default_signals()  # the build stops its children itself (`cancel`)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _FORKED_HOLDS)
    error, value = _run(task)
    if error is not None:
        send.send_bytes(_ERROR + error.encode("utf-8", "replace"))
    else:
        send.send_bytes(_NONE if value is None else _VALUE + value)
    send.close()


class TimedOutError(Exception):
    """A task ran past its deadline and was killed."""


class ChildCrashedError(Exception):
    """A task's child process failed with a bug (its traceback is the message) or died."""


class ChildDiedError(ChildCrashedError):
    """A task's child process died before it could answer (killed by a signal, or a
    crash inside native code, such as a stack overflow in the query engine)."""


def run_timed(prepare: Callable[[], S], task: Callable[[S], T], seconds: float | None) -> T:
    """`task(prepare())` in a forked child process, killed once `task` has run `seconds`
    (the clock starts when `prepare` returns; None: no limit). A query in Rust cannot be
    interrupted from Python, a process can. Where processes cannot fork, it runs here.

    Raises:
        TimedOutError: the task ran past the deadline (its child is gone).
        KgError: the one the child raised.
        ChildDiedError: the child died before it answered.
        ChildCrashedError: the child failed otherwise.
    """
    if not can_fork():
        return task(prepare())
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(
        target=_timed_child, args=(prepare, task, send, os.getpid()), daemon=True
    )
    child.start()
    send.close()
    try:
        kind, value = _receive(receive)
        if kind == "ready":
            if seconds is not None and not receive.poll(seconds):
                raise TimedOutError(f"the task ran past {seconds:g} s")
            kind, value = _receive(receive)
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    if kind == "error":
        assert isinstance(value, KgError)
        raise value
    if kind == "bug":
        raise ChildCrashedError(value)
    return value  # type: ignore[return-value]


def _receive(receive: Connection) -> tuple[str, object]:
    try:
        return receive.recv()  # type: ignore[no-any-return]
    except EOFError:  # the child died before it could say
        raise ChildDiedError("the task's process died") from None


def _timed_child(
    prepare: Callable[[], object], task: Callable[[object], object], send: Connection, parent: int
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # a crash here (a query past the engine's stack) is the parent's one line to report,
    # without the dump faulthandler (PYTHONFAULTHANDLER, pytest) would add to stderr
    faulthandler.disable()
    exit_with(parent)
    try:
        state = prepare()
        send.send(("ready", None))
        send.send(("ok", task(state)))
    except KgError as error:
        send.send(("error", error))
    except Exception:
        send.send(("bug", traceback.format_exc()))
    send.close()


# Run in a small Python before the server: ask the kernel to kill it when its parent ends
# (PR_SET_PDEATHSIG = 1; kept across exec), then become the server.
_TIED = """\
import ctypes, os, signal, sys
try:
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
except (OSError, AttributeError):
    pass
if os.getppid() != int(sys.argv[1]):
    sys.exit(1)
os.execv(sys.argv[2], sys.argv[2:])
"""


def tied(argv: Sequence[str]) -> list[str]:
    """A command line that runs `argv` as a child the kernel kills (SIGKILL) when this
    process ends, even killed with SIGKILL. Linux only; elsewhere `argv` as it is.

    Some kernels take the thread that starts the child for its parent: start such children
    from a thread that lives as long as they should."""
    if not sys.platform.startswith("linux"):
        return list(argv)
    return [sys.executable, "-I", "-S", "-c", _TIED, str(os.getpid()), *argv]
