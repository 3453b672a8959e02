"""The `kg` program ends without freeing, object by object, what its command made.

A build holds its papers, extractions, linked graph and memos until it returns. At 25,000
abstracts, freeing them one object at a time took 0.45 s when `build` returned, and the
interpreter's own teardown (every module's objects: the lexicon, the views' data) 0.3 s
more, of a 10 s rebuild; the operating system takes a process's memory back at once. So
the program (`kg.cli.run`, never a caller of the library, whose objects are freed as
usual) keeps what a build made (`keep`) and, once its command is done, flushes its output,
runs the `atexit` handlers (multiprocessing's, logging's) and ends the process
(`end_process`), as Clang's `-disable-free` does. Every export is in place and synced by
then, and the extraction cache committed.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn

#: what `keep` holds to the end of the process; None while the program has not armed it
_kept: list[object] | None = None


def arm() -> None:
    """From now on `keep` holds what it is given to the end of the process (`kg.cli.run`
    calls it first: only a process that ends with `end_process` should keep anything)."""
    global _kept
    if _kept is None:
        _kept = []


def keep(*objects: object) -> None:
    """Hold `objects` to the end of the process, if `arm` was called; else do nothing (a
    caller of the library frees them as usual)."""
    if _kept is not None:
        _kept.extend(objects)


def kept() -> int:
    """How many objects `keep` holds (for tests)."""
    return len(_kept) if _kept is not None else 0


def end_process(code: int) -> NoReturn:
    """End the process with exit status `code`, without the interpreter's teardown: its
    output flushed and its `atexit` handlers run first. Where a thread that is neither the
    main one nor a daemon is still running, Python would wait for it, and where a profiler or
    tracer is set (`python -m cProfile -m kg`, coverage), it writes what it gathered once
    the program returns: then the process exits as usual."""
    code = _flushed(code)
    if sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(code)  # a profiler, tracer or debugger (cProfile, coverage) writes at exit
    main = threading.main_thread()
    if any(t is not main and t.is_alive() and not t.daemon for t in threading.enumerate()):
        sys.exit(code)
    atexit._run_exitfuncs()
    _flushed(code)
    os._exit(code)


def _flushed(code: int) -> int:
    """Flush stdout and stderr; the exit status, 120 (as Python's own) where one of them
    cannot be written any more (a closed pipe) and the command had succeeded."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            code = code or 120
    return code
