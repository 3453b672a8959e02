"""What the last build into an exports directory read, kept in the cache for the next: the
papers of its JSON Lines lines (`kg.ingest.remembered`). A rebuild after one abstract of
25,000 changed parses that line alone and takes every other paper from here (0.1 s), where
parsing the file again took a second of its 8-10 s. (Their extractions come from the
extraction cache, as before: unpickling them took as long as the cache, and writing them
at the end of each build longer.)

The snapshot is a pickle in the cache directory (`--no-cache` neither reads nor writes one),
as the memos are JSON files there (`kg.builder.memo`): it is written atomically while a
rebuild waits for its views (a line's paper is the same whether the build then fails or
not), kept for the four exports directories built last (as kg.nt kept aside:
`kg.builder.memo.keep_latest`), and trusted only when the code that wrote it is this
build's (and the Python, whose Unicode tables made the ids). It is read by an
unpickler that makes nothing but `Paper`s (and the builtins they hold): a file put there by
someone else cannot run code as the build's loads it.
"""

from __future__ import annotations

import logging
import os
import pickle
import sys
import tempfile
import unicodedata
from pathlib import Path

from kg.builder.memo import SNAPSHOTS, keep_latest, memo_path
from kg.builder.memo import fingerprint as code_fingerprint
from kg.ingest.remembered import LineKey, RememberedLines
from kg.model import Paper

log = logging.getLogger(__name__)


def snapshot_path(cache_dir: Path, out: Path) -> Path:
    """Where the snapshot of the builds into `out` lives."""
    return memo_path(cache_dir, SNAPSHOTS, out).with_suffix(".pickle")


def _stamp() -> tuple[str, ...]:
    """What the papers of a line depend on besides it: kg's code and the Unicode tables that
    normalise the texts their ids are made from."""
    return ("kg snapshot 2", code_fingerprint(), unicodedata.unidata_version, sys.version)


class _PapersOnly(pickle.Unpickler):
    """An unpickler that makes `Paper`s and builtins, and refuses every other class."""

    def find_class(self, module: str, name: str) -> type:
        if (module, name) == ("kg.model", "Paper"):
            return Paper
        raise pickle.UnpicklingError(f"{module}.{name} is no part of a snapshot")


def load_snapshot(path: Path | None) -> dict[LineKey, Paper]:
    """The papers of the snapshot at `path` by line; none when there is none, it is
    unreadable or other code wrote it."""
    if path is None:
        return {}
    try:
        with path.open("rb") as handle:
            # a small header, read first; each pickle by an unpickler of its own (one
            # unpickler reading two would number the second's objects after the first's)
            if _PapersOnly(handle).load() != _stamp():
                return {}
            lines = _PapersOnly(handle).load()
    except FileNotFoundError:
        return {}
    except Exception as error:  # noqa: BLE001 - a broken cache file is only a slower build
        log.info("%s: snapshot not read (%s); every line is read again", path, error)
        return {}
    return lines if isinstance(lines, dict) else {}


def save_snapshot(path: Path | None, lines: RememberedLines) -> None:
    """Write the snapshot of this build: the papers of the lines it read (`lines.now`); none,
    and the last one removed, where it read no JSON Lines. One that cannot be written is
    skipped with a warning (the next build reads every line)."""
    if path is None:
        return
    if not lines.now:
        try:
            path.unlink(missing_ok=True)
        except OSError as error:
            log.warning("%s: cannot remove the snapshot (%s); skipped", path, error.strerror)
        return
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".snapshot.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(_stamp(), handle, protocol=pickle.HIGHEST_PROTOCOL)
            pickle.dump(lines.now, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
        tmp = None
        keep_latest(path)
    except OSError as error:
        log.warning("%s: cannot write the snapshot (%s); skipped", path, error.strerror)
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
