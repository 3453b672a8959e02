"""Worker processes that leave with the build that started them, and tasks run in a
forked child while the build goes on."""

from __future__ import annotations

import multiprocessing
import multiprocessing.process
import os
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection


def exit_with(parent: int) -> None:
    """Exit this worker process as soon as the process `parent` is gone: a build killed with
    SIGKILL cannot stop its workers, which would otherwise wait forever to send results.
    Call it first thing in a worker (a pool's initializer)."""
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(1)


class ForkedError(Exception):
    """A forked task failed: its message says why (the file and the cause)."""


class Forked:
    """`task` run in a forked child process, which inherits the build's objects (a graph of
    a million edges is not pickled): the build goes on meanwhile. Where processes cannot
    fork, `task` runs here, at once.

    The task's OSError (a file that cannot be written) comes back as a `ForkedError` from
    `wait`; any other failure as the child's exit status. The child's reply is the error's
    text as bytes (any size; no unpickling), and one cut short is a `ForkedError` too.
    """

    def __init__(self, task: Callable[[], object]) -> None:
        self._process: multiprocessing.process.BaseProcess | None = None
        self._error: str | None = None
        if "fork" not in multiprocessing.get_all_start_methods():
            self._error = _run(task)
            return
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(target=_child, args=(task, send), daemon=True)
        self._process.start()
        send.close()

    def wait(self) -> None:
        """Wait for the task to end.

        Raises:
            ForkedError: it failed.
        """
        if self._process is not None:
            cut_short = False
            try:
                self._error = self._receive.recv_bytes().decode("utf-8", "replace") or None
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

    def cancel(self) -> None:
        """Stop the child if it is still running (the build failed or was interrupted)."""
        if self._process is not None and self._process.is_alive():
            self._process.kill()
            self._process.join()


def _run(task: Callable[[], object]) -> str | None:
    try:
        task()
    except OSError as error:
        return f"{error.filename or 'a forked task'}: {error.strerror}"
    return None


def _child(task: Callable[[], object], send: Connection) -> None:
    send.send_bytes((_run(task) or "").encode("utf-8", "replace"))
    send.close()
