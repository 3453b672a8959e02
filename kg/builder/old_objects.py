"""The cycle collector paused while a build works, and what the build made counted as old
objects when it is enabled again (`collector_paused_kept_old`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from kg.collector import collector_paused


@contextmanager
def collector_paused_kept_old() -> Iterator[None]:
    """The cycle collector paused for the block (`kg.collector.collector_paused`), and the
    objects made meanwhile in its oldest generation when it is enabled again: else the
    first allocation after the block collects the young generation, which is every object
    the build made (0.4 s at 10,000 abstracts, a rebuild's twentieth), for nothing (kg's
    stages make no cycles). Objects a caller froze (`gc.freeze`) stay frozen."""
    age = gc.get_freeze_count() == 0
    try:
        with collector_paused():
            try:
                yield
            finally:
                if age:
                    gc.freeze()  # the young generations emptied into the permanent one ...
    finally:
        if age:
            gc.unfreeze()  # ... which goes into the oldest, the collector enabled again
