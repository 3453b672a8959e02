"""Write the exports: all files rendered first, then each written to a temporary file
beside its target and renamed over it, so a failed run leaves the previous exports whole;
the files the last build wrote and this one did not are removed, and no other
(`kg.export.manifest`)."""

from __future__ import annotations

import ctypes
import logging
import os
import secrets
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO

from kg.errors import ExportError
from kg.export.manifest import MANIFEST, TEMPORARY, claim, is_temporary, manifest_text
from kg.processes import signals_deferred

log = logging.getLogger(__name__)
#: how many names `ExportWriter` tries for one temporary before it gives up
_ATTEMPTS = 100
#: how `ExportWriter` opens a temporary: a new file, never one that exists
_NEW = (
    os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
)


def fill(path: Path, produce: Callable[[BinaryIO], object]) -> None:
    """Let `produce` write into the file `path`, which must exist (a temporary that
    `ExportWriter.reserve` made: this never makes a file)."""
    with open(path, "r+b") as handle:
        produce(handle)


class ExportWriter:
    """Writes exports one by one to temporary files beside their targets, then flushes them
    to disk and renames them all at `commit`; on any failure the temporaries go and the
    previous exports stay.

    Writing each file as soon as it is rendered keeps one large export in memory at a time.
    A file whose bytes are already those of its target is left as it is (a rebuild rewrites
    only the pages that changed). Temporaries left by a build that was killed are removed
    from each folder written to.

    Args:
        out: the exports directory.
        force: write into `out` even though it holds files and no manifest says kg wrote them.

    Raises:
        ExportError: `out` holds files kg did not write (see `kg.export.manifest.claim`).
    """

    def __init__(self, out: Path, force: bool = False) -> None:
        self.out = out
        self.before = claim(out, force)  #: what the last build into `out` wrote
        #: whether `commit` has put the exports in place (an interruption after it leaves
        #: the new exports, not the previous ones)
        self.committed = False
        self.temps: list[tuple[Path, Path]] = []
        #: files written beside the exports and not among them (`stream(aside=True)`), by
        #: name: the caller takes them after `commit`; removed with the rest on failure
        self.aside: dict[str, Path] = {}
        self.kept: list[Path] = []  #: targets that already held what was written
        #: each file `commit` put in place (or kept), as it was then: what this build wrote
        self.placed: dict[Path, os.stat_result] = {}
        self._swept: set[Path] = set()
        self._made: set[Path] = set()  #: folders made (or found) by this build
        #: what names this writer's temporaries: its process and a random part, so that two
        #: writers of one process never share one (a second build into the same folder
        #: sweeps the first's temporaries, and the first's commit then fails, loudly)
        self._token = f"{os.getpid()}.{secrets.token_hex(4)}"
        #: every temporary this writer may have made, recorded before the file is: Ctrl-C
        #: between a file's creation and its record left it behind an interrupted build
        self._opened: list[str] = []
        # folders by name, not by Path: a build has written 29,000 files
        folders = {os.path.dirname(name) for name in self.before}
        for folder in sorted({out / name for name in folders} | {out}):
            self._sweep(folder)

    def _sweep(self, folder: Path) -> None:
        """Remove the temporaries a killed build left in `folder`, once per build."""
        if folder in self._swept:
            return
        self._swept.add(folder)
        for stale in folder.glob(f"{TEMPORARY[0]}*{TEMPORARY[1]}"):
            if is_temporary(stale.name):
                stale.unlink(missing_ok=True)

    def __enter__(self) -> ExportWriter:
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is not None:
            self.abort()

    def write(self, name: str, data: bytes | str) -> None:
        """Write one export (a path relative to the exports directory) to its temporary."""
        payload = data.encode("utf-8") if isinstance(data, str) else data
        target = self.out / name
        if _holds(target, payload):
            self.kept.append(target)
            return
        try:  # as `stream` does, with fewer calls: a build writes 29,000 pages
            fd, tmp = self._temporary(target)
            self.temps.append((Path(tmp), target))
            try:
                view = memoryview(payload)
                while view:
                    view = view[os.write(fd, view) :]
                os.fchmod(fd, 0o644)
            finally:
                os.close(fd)
        except OSError as error:
            raise self._failed(error) from None

    def keep(self, name: str) -> None:
        """Keep the export `name` as it is, as part of this build's exports (not pruned)."""
        self.kept.append(self.out / name)

    def stream(self, name: str, produce: Callable[[BinaryIO], object], aside: bool = False) -> Path:
        """Let `produce` write one export into its temporary file; the temporary's path.

        For large exports: nothing needs to be held in memory whole. With `aside` the file
        is no export: it stays a temporary, in `self.aside`, which `commit` leaves alone.
        """
        target = self.out / name
        try:
            fd, tmp = self._temporary(target)
            if aside:
                self.aside[name] = Path(tmp)
            else:
                self.temps.append((Path(tmp), target))
            with os.fdopen(fd, "wb") as handle:
                produce(handle)
            os.chmod(tmp, 0o644)
            return Path(tmp)
        except OSError as error:
            raise self._failed(error) from None

    def _temporary(self, target: Path) -> tuple[int, str]:
        """A new temporary file beside `target` (its folder made, once), open for writing."""
        folder = target.parent
        if folder not in self._made:  # made and swept once a build
            folder.mkdir(parents=True, exist_ok=True)
            self._sweep(folder)
            self._made.add(folder)
        # named by the target and this writer: one open, where mkstemp's random names
        # cost half of writing a page (29,000 pages: 2.7 of 5.4 s). A name taken (another
        # build's) is followed by random ones, as mkstemp does, as is Windows' refusal of
        # a name whose file is being deleted (a folder that refuses files refuses them all:
        # the last error is raised). Each name is recorded before its file is made, so that
        # `abort` finds every file this writer made
        stem = os.path.join(folder, f"{TEMPORARY[0]}{target.name}.{self._token}")
        path = stem + TEMPORARY[1]
        for attempt in range(_ATTEMPTS):
            self._opened.append(path)
            try:
                return os.open(path, _NEW, 0o600), path
            except (FileExistsError, PermissionError):
                self._opened.pop()  # not this writer's file: never removed by it
                if attempt == _ATTEMPTS - 1:
                    raise
            path = f"{stem}.{secrets.token_hex(4)}{TEMPORARY[1]}"
        raise AssertionError("unreachable")

    def _failed(self, error: OSError) -> ExportError:
        """Remove the temporaries; the error to raise."""
        self.abort()
        where = error.filename or self.out
        return ExportError(
            f"{where}: cannot write the exports ({error.strerror}); "
            "the previous exports are unchanged"
        )

    def leave_out(self, name: str) -> None:
        """This build writes no export `name` (one of kg's names): a file of that name goes
        at `commit` with those the last build wrote, so no stale copy of the graph is read
        beside this build's (after `--force`, with no manifest to name it)."""
        if (self.out / name).is_file():
            self.before = self.before | {name}

    def reserve(self, name: str) -> Path:
        """A temporary for one export that another process writes; committed with the rest
        (and removed with them on failure)."""
        return self.stream(name, lambda handle: None)

    def commit(self) -> list[Path]:
        """Put every written export in place and remove the files the last build wrote and
        this one did not (no page of a paper no longer read, no Turtle older than the
        N-Triples); the paths of this build's files, sorted.

        Only files the manifest says kg wrote are removed: files of yours stay. The manifest
        names this build's files from before any is renamed until the last build's are gone,
        so a build killed meanwhile leaves none of its files unrecorded.
        """
        written = {target for _, target in self.temps} | set(self.kept)
        names = _names(self.out, written)
        try:  # every temporary on disk before any is renamed
            _fsync_all([*(tmp for tmp, _ in self.temps), *self.aside.values()])
            if not names <= self.before:
                self._write_manifest(self.before | names)
            self.placed = _stats(self.kept) | {t: tmp.stat() for tmp, t in self.temps}
        except OSError as error:
            raise self._failed(error) from None
        # Ctrl-C or SIGTERM between two renames left some exports new and the rest old,
        # and the build said the previous ones were unchanged: signals wait for the end
        with signals_deferred():
            try:
                for tmp, target in self.temps:
                    os.replace(tmp, target)
            except OSError as error:  # a temporary gone: another build swept it (no lock)
                self.abort()
                raise ExportError(
                    f"{error.filename or self.out}: cannot put the exports in place "
                    f"({error.strerror}); did another build write there? Some exports are "
                    "this build's: build again"
                ) from None
            self.committed = True
            self.temps, self.kept = [], []
            self._opened = [str(tmp) for tmp in self.aside.values()]
            root = self.out.resolve()
            for name in sorted(self.before - names):
                path = self.out / name
                # only inside the exports: a linked folder on the way may lead elsewhere
                if not path.parent.resolve().is_relative_to(root):
                    continue
                if path.is_symlink() or path.is_file():
                    path.unlink(missing_ok=True)
            try:
                self._write_manifest(names)
            except OSError as error:  # the exports are in place; the next build prunes
                log.warning("%s: cannot write the manifest (%s)", self.out, error.strerror)
            self.before = frozenset(names)
        return sorted(written, key=_parts)  # as Paths sort, with fewer calls

    def _write_manifest(self, names: set[str] | frozenset[str]) -> None:
        """Write the manifest of `names`, atomically and on disk."""
        payload = manifest_text(names)
        target = self.out / MANIFEST
        if _holds(target, payload):
            return
        fd, tmp = self._temporary(target)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(payload)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)
            os.replace(tmp, target)
        except OSError:
            Path(tmp).unlink(missing_ok=True)
            raise

    def abort(self) -> None:
        """Remove the temporaries; the previous exports are untouched."""
        for tmp in self._opened:  # those put in place are gone from these names
            try:  # one that cannot go (Windows: a file still open) leaves the rest to go
                Path(tmp).unlink(missing_ok=True)
            except OSError as error:
                log.warning("%s: cannot remove a temporary (%s)", tmp, error.strerror)
        self.temps, self.aside, self._opened = [], {}, []


#: the folders this process holds (`held`): a forked child closes them, so that a child
#: left behind holds no folder
_HELD: set[int] = set()


def _close_held() -> None:
    for fd in list(_HELD):
        os.close(fd)
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_held)


@contextmanager
def held(out: Path) -> Iterator[bool]:
    """Hold the exports folder `out` (made if missing) for one build, from before it reads
    what the last build left there (its manifest, memos and snapshot) to after it has put
    its exports in place: an exclusive `flock` of the folder, waited for (with a warning)
    while another build holds it. Yields whether it waited. Where the file system has no
    flock (some network file systems) or there is no fcntl (Windows), a warning and no lock.

    A second build into the folder swept the first's temporaries as they were renamed (a
    traceback, the exports of both mixed); one that waited after reading the last build's
    memos copied the wrong bytes from the files the other had just written.

    Raises:
        ExportError: `out` cannot be made or opened.
    """
    try:
        import fcntl
    except ImportError:
        yield False
        return
    made = not out.exists()
    waited = False
    while True:
        try:
            out.mkdir(parents=True, exist_ok=True)
            fd = os.open(out, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | os.O_CLOEXEC)
        except OSError as error:
            raise ExportError(f"{out}: cannot write the exports there ({error.strerror})") from None
        _HELD.add(fd)
        try:
            if not _locked(fd, out, fcntl, warn=not waited):
                waited = True
                fcntl.flock(fd, fcntl.LOCK_EX)  # Ctrl-C stops waiting
            # the folder the lock is on is still `out` (the build waited for may have
            # removed it, having written nothing): else lock the one there now
            if _same_folder(fd, out):
                break
        except BaseException:
            _HELD.discard(fd)
            os.close(fd)
            raise
        _HELD.discard(fd)
        os.close(fd)
    try:
        yield waited
    finally:
        if made:  # a build that wrote nothing leaves no empty folder of its own
            with suppress(OSError):
                out.rmdir()
        _HELD.discard(fd)
        os.close(fd)  # and with it the lock


def _locked(fd: int, out: Path, fcntl: Any, warn: bool) -> bool:
    """Lock `fd` if no other build holds it: True when it did, or when this file system
    has no flock (a warning: two builds into `out` would mix); False, with a warning the
    first time, when another build holds it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        if warn:
            log.warning(
                "%s: another kg build is writing there (or was stopped); waiting for it to "
                "end (Ctrl-C stops waiting)",
                out,
            )
        return False
    except OSError as error:  # no flock here (NFS: EBADF, ENOLCK; Lustre: ENOSYS)
        log.warning("%s: cannot lock it (%s); two builds into it would mix", out, error)
    return True


def _same_folder(fd: int, out: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(out))
    except OSError:
        return False


#: from how many files one `syncfs` of their file system flushes them (`_fsync_all`)
SYNCFS_FROM = 1000


def _fsync_all(paths: Sequence[Path]) -> None:
    """Flush files to disk: with many, one `syncfs(2)` per file system they are on (29,000
    pages: 0.5-0.7 s against 3-4 s of fsyncs in 16 threads); else, or where there is no
    syncfs, each file's fsync, many at a time (the file system commits waiting fsyncs
    together: 28,000 pages, 0.37 ms a file one by one, 0.14 ms in 16 threads)."""
    if len(paths) >= SYNCFS_FROM and _syncfs_all(paths):
        return
    _fsync_each(paths)


def _syncfs_all(paths: Sequence[Path]) -> bool:
    """`syncfs` on the file system of each of `paths` (Linux); False where it is not there,
    and the files must be flushed one by one. A write error it reports raises OSError."""
    syncfs = _syncfs()
    if syncfs is None:
        return False
    folders: dict[int, str] = {}  # a folder of the files on each device
    seen: set[str] = set()
    for path in paths:
        folder = os.path.dirname(path)
        if folder not in seen:
            seen.add(folder)
            folders.setdefault(os.stat(folder).st_dev, folder)
    for folder in folders.values():
        fd = os.open(folder, os.O_RDONLY)
        try:
            if syncfs(fd) != 0:
                number = ctypes.get_errno()
                raise OSError(number, os.strerror(number), folder)
        finally:
            os.close(fd)
    return True


@cache
def _syncfs() -> Callable[[int], int] | None:
    """libc's `syncfs`, or None (not Linux, no such call)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).syncfs  # type: ignore[no-any-return]
    except (OSError, AttributeError):
        return None


def _fsync_each(paths: Sequence[Path]) -> None:
    """Each file's fsync, in 16 threads."""

    def fsync(path: Path) -> None:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    with ThreadPoolExecutor(max_workers=16) as pool:
        for _ in pool.map(fsync, paths):  # the first error is raised here
            pass


def _names(out: Path, targets: Iterable[Path]) -> set[str]:
    """The names of `targets` (files below `out`) relative to it, as the manifest writes
    them: a file's name is its path's end past `out`'s (`Path.relative_to`, which costs
    ten times as much, where it is not)."""
    root = str(out)
    start = len(root) + (0 if root.endswith("/") else 1)
    names = set()
    for target in targets:
        text = str(target)
        if root != "." and text.startswith(root) and text[start - 1 : start] == "/":
            names.add(text[start:])
        else:
            names.add(target.relative_to(out).as_posix())
    return names


def _parts(path: Path) -> tuple[str, ...]:
    return path.parts


def _stats(paths: Sequence[Path]) -> dict[Path, os.stat_result]:
    """The stat of each of `paths` there is."""
    found = {}
    for path in paths:
        try:
            found[path] = path.stat()
        except FileNotFoundError:
            continue
    return found


def _holds(target: Path, payload: bytes) -> bool:
    """Whether `target` is a file holding exactly `payload`."""
    try:
        return target.stat().st_size == len(payload) and target.read_bytes() == payload
    except OSError:
        return False


def write_files(out: Path, files: Mapping[str, bytes | str], force: bool = False) -> list[Path]:
    """Write every file under `out` atomically: all to temporaries first, then rename; the
    files the last call wrote there and this one did not are removed (`ExportWriter`).

    Raises:
        ExportError: a file cannot be written, the files already in `out` are unchanged; or
            `out` holds files kg did not write and not `force`.
    """
    with ExportWriter(out, force) as writer:
        for name in sorted(files):
            writer.write(name, files[name])
        return writer.commit()
