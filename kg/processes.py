"""Worker processes that leave with the build that started them."""

from __future__ import annotations

import os
import threading
import time


def exit_with(parent: int) -> None:
    """Exit this worker process as soon as the process `parent` is gone: a build killed with
    SIGKILL cannot stop its workers, which would otherwise wait forever to send results.
    Call it first thing in a worker (a pool's initializer)."""
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(1)
