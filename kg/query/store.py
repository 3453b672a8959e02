"""Oxigraph stores of the exports kept on disk, so that a query need not load the graph.

Loading kg.ttl into a fresh store is most of a cold `kg query` (about 4 s for 25,000
abstracts, where the query itself takes milliseconds). A store written once for a set of
RDF files, in the cache directory, opens read-only in a few milliseconds. It is keyed by
each file's resolved path, size and modification time: a rebuild, or any change to a file,
names another store, and a query never reads a stale one. `kg build` writes the store of
its exports when it is done; a query of files with no store loads them in memory as before.
The most recent `KEEP` stores are kept, older ones removed, and so are the temporary
folders of builds that were killed (`sweep`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from kg.errors import InputError
from kg.query.rdf_errors import syntax_reason

log = logging.getLogger(__name__)

#: stores kept in the cache directory (one per exports directory queried recently)
KEEP = 4
_COMPLETE = "kg-complete"


def _formats() -> dict[str, Any]:
    """Oxigraph's format of each RDF syntax kg writes, by file suffix (kg/export/outputs.py)."""
    import pyoxigraph as ox

    from kg.export.outputs import by_suffix

    return {x: ox.RdfFormat.from_media_type(s.media_type) for x, s in by_suffix().items()}


def stores_dir(cache_dir: Path | None = None) -> Path:
    """Where the stores live: `cache_dir`/stores, by default $KG_CACHE_DIR/stores."""
    from kg.builder.cache import default_cache_dir

    return (cache_dir or default_cache_dir()) / "stores"


#: how a store lays out its graphs: a store of an older layout is not opened
_LAYOUT = b"ontology and VoID in named graphs\x1e"


#: what names a file's store: its resolved path, size and modification time (ns)
FileState = tuple[str, int, int]


def file_state(file: Path, stat: os.stat_result | None = None) -> FileState:
    """`file`'s `FileState`: from `stat` where given (taken earlier), else as it is now."""
    stat = stat or file.stat()
    return (str(file.resolve()), stat.st_size, stat.st_mtime_ns)


def key_of(states: Sequence[FileState]) -> str:
    """The name of the store of files in these states."""
    digest = hashlib.sha256(_LAYOUT)
    for path, size, mtime in states:
        digest.update(f"{path}\x1f{size}\x1f{mtime}\x1e".encode())
    return digest.hexdigest()[:24]


def store_key(files: Sequence[Path]) -> str:
    """The name of the store of `files`: their paths, sizes and modification times."""
    return key_of([file_state(file) for file in files])


def complete_store(path: Path) -> Path | None:
    """`path` if a store was written there completely, else None."""
    return path if (path / _COMPLETE).is_file() else None


def open_store(files: Sequence[Path]) -> Any | None:
    """The store written for exactly these files, read-only; None when there is none."""
    import pyoxigraph as ox

    path = stores_dir() / store_key(files)
    if not (path / _COMPLETE).is_file():
        return None
    try:
        store = ox.Store.read_only(str(path))
    except OSError as error:  # being removed: load the files instead
        log.info("%s: cannot open the stored graph (%s)", path, error)
        return None
    except RuntimeError as error:  # RocksDB's "Corruption: ...": damaged, load the files
        log.warning(
            "the stored graph %s is damaged (%s): the exports are read instead "
            "(`kg cache clear` removes it)",
            path,
            str(error).split("  ")[0][:200],
        )
        return None
    os.utime(path)  # recently used: kept longest
    return store


def load_into(store: Any, files: Sequence[Path]) -> None:
    """Bulk-load `files` (Turtle, N-Triples or JSON-LD by suffix) into `store`, each into
    its graph (`kg.query.load.graph_of`: the ontology and VoID into named graphs).

    Raises:
        InputError: a file is not valid RDF.
    """
    import pyoxigraph as ox

    from kg.query.load import graph_of

    formats = _formats()
    for file in files:
        name = graph_of(file)
        graph = ox.NamedNode(name) if name else ox.DefaultGraph()
        try:
            fmt = formats.get(file.suffix, ox.RdfFormat.TURTLE)
            store.bulk_load(path=str(file), format=fmt, to_graph=graph)
        except (SyntaxError, ValueError, OSError) as error:
            raise InputError(file, f"not valid RDF: {syntax_reason(error)}") from None


def write_store(
    files: Sequence[Path], load_from: Sequence[Path] | None = None, cache_dir: Path | None = None
) -> Path:
    """Write the store of `files` (if it is not there yet) and return its folder.

    `load_from` are files of the same graph that load faster (kg.nt for kg.ttl). Written
    into a temporary folder beside it and renamed when complete, so a query never opens
    half a store; older stores beyond `KEEP` are removed.
    """
    import pyoxigraph as ox

    root = stores_dir(cache_dir)
    path = root / store_key(files)
    if (path / _COMPLETE).is_file():
        return path
    tmp = _temporary(root)
    try:
        store = ox.Store(str(tmp / "db"))
        load_into(store, load_from or files)
        store.flush()
        store.optimize()
        del store
        (tmp / "db" / _COMPLETE).write_text("")
        try:
            os.replace(tmp / "db", path)
        except OSError:
            if not (path / _COMPLETE).is_file():  # else another process wrote it meanwhile
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _prune(root)
    return path


class StoreError(Exception):
    """The store could not be written: its message says why (the exports are unaffected)."""


@dataclass(frozen=True)
class Delta:
    """How a build's graph differs from the last build's, whose store is `base`: N-Triples
    lines to take out and to put in (the default graph; named graphs are replaced whole)."""

    base: Path
    remove: bytes
    add: bytes


#: the store's child yields the processor to the build (views, conversions) and takes what
#: is left over: it finishes during the commit, which waits on the disk
NICE = 10


class StoreJob:
    """The store of a build's graph, written by a child process (kg/query/store_child.py)
    while the build goes on, into a temporary folder beside the stores: from the N-Triples
    `nt` (opened now: the build may move it), or from the last build's store and a `delta`;
    `graphs` (named graph IRI, media type, content) replaced whole. `finish` names it after
    the exports this build put in place; `cancel` stops it and leaves nothing behind."""

    def __init__(
        self,
        nt: Path,
        graphs: Sequence[tuple[str, str, bytes]],
        cache_dir: Path | None = None,
        delta: Delta | None = None,
        nice: int = NICE,
    ) -> None:
        self.root = stores_dir(cache_dir)
        self.delta = delta
        self._process: subprocess.Popen[bytes] | None = None
        self._errors: BinaryIO | None = None
        self.tmp = _temporary(self.root)
        try:
            self._start(nt, graphs, nice)
        except BaseException:  # nothing left behind: no folder, open file nor child
            self.cancel()
            raise

    def _start(self, nt: Path, graphs: Sequence[tuple[str, str, bytes]], nice: int) -> None:
        plan: dict[str, object] = {"db": str(self.tmp / "db"), "parent": os.getpid(), "nice": nice}
        named = []
        for i, (iri, media_type, content) in enumerate(graphs):
            (self.tmp / f"graph{i}").write_bytes(content)
            named.append([iri, media_type, str(self.tmp / f"graph{i}")])
        plan["graphs"] = named
        fds: tuple[int, ...] = ()
        if self.delta is not None:
            (self.tmp / "remove.nt").write_bytes(self.delta.remove)
            (self.tmp / "add.nt").write_bytes(self.delta.add)
            plan.update(
                base=str(self.delta.base),
                remove=str(self.tmp / "remove.nt"),
                add=str(self.tmp / "add.nt"),
            )
        else:
            fds = (os.open(nt, os.O_RDONLY),)
            plan["nt_fd"] = fds[0]
        self._errors = open(self.tmp / "stderr", "w+b")  # noqa: SIM115 (closed by finish/cancel)
        try:
            self._process = subprocess.Popen(
                [sys.executable, str(Path(__file__).with_name("store_child.py"))],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=self._errors,
                pass_fds=fds,
            )
        finally:
            for fd in fds:
                os.close(fd)
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(plan).encode("utf-8"))  # a few hundred bytes
        self._process.stdin.close()

    def finish(self, files: Sequence[Path], placed: Sequence[FileState]) -> Path:
        """Wait for the child; the store's folder, named for `placed` (`key_of`: the states
        of the files this build put in place, taken as it did). Not named when `files` (the
        exports now) are no longer in those states: another build or an edit replaced them
        meanwhile, and a store of this build's graph filed under theirs would answer for
        them. The last build's store, which an update copied, is stale and removed.

        Raises:
            StoreError: the child failed (its message), or the exports changed meanwhile.
        """
        assert self._process is not None and self._errors is not None
        code = self._process.wait()
        try:
            self._errors.seek(0)
            message = self._errors.read().decode("utf-8", "replace").strip().splitlines()
            if code != 0:
                raise StoreError(
                    message[-1] if message else f"the store's child exited with {code}"
                )
            if [file_state(file) for file in files] != list(placed):
                raise StoreError("the exports changed while their store was written")
            path = self.root / key_of(placed)
            (self.tmp / "db" / _COMPLETE).write_text("")
            if complete_store(path) is None:  # else written meanwhile for the same files
                shutil.rmtree(path, ignore_errors=True)  # half a store a crash left
                os.replace(self.tmp / "db", path)
        finally:
            self.cancel()
        if self.delta is not None and self.delta.base != path:
            shutil.rmtree(self.delta.base, ignore_errors=True)
        _prune(self.root)
        return path

    def cancel(self) -> None:
        """Stop the child if it still runs and remove what it wrote."""
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                process.kill()
            process.wait()
            if process.stdin is not None:
                with contextlib.suppress(OSError):  # a pipe the child no longer reads
                    process.stdin.close()
        if self._errors is not None:
            self._errors.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


#: a store's temporary folder (`_temporary`), and the file in it naming its process
_TEMPORARY, _OWNER = ".store-", "owner"
#: a temporary folder this old is a killed build's, whichever process has its number now
#: (a store of 25,000 abstracts is written in under a minute)
STALE_AFTER = 6 * 3600


def _temporary(root: Path) -> Path:
    """A new temporary folder in `root` for a store, naming the process that writes it, so
    that one a killed build left can be told from one being written (`sweep`)."""
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=_TEMPORARY, dir=root))
    try:
        (tmp / _OWNER).write_text(str(os.getpid()))
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return tmp


def _abandoned(tmp: Path, now: float) -> bool:
    """Whether the temporary folder `tmp` is no live process's: its process is gone, or it
    is older than `STALE_AFTER` (or names none and is older than a minute: just made)."""
    try:
        age = now - tmp.stat().st_mtime
    except OSError:  # removed meanwhile
        return False
    try:
        owner = int((tmp / _OWNER).read_text())
    except FileNotFoundError:
        return age > 60  # its owner not written yet, or by an older kg
    except (OSError, ValueError):
        return age > STALE_AFTER
    if age > STALE_AFTER or owner <= 0:
        return True
    try:
        os.kill(owner, 0)
    except ProcessLookupError:
        return True
    except OSError:  # another user's live process
        return False
    return False


def sweep(cache_dir: Path | None = None) -> int:
    """Remove the temporary folders killed builds left among the stores; how many."""
    root = stores_dir(cache_dir)
    if not root.is_dir():
        return 0
    now = time.time()
    gone = [p for p in root.glob(f"{_TEMPORARY}*") if _abandoned(p, now)]
    for tmp in gone:
        shutil.rmtree(tmp, ignore_errors=True)
    return len(gone)


def _prune(root: Path) -> None:
    sweep(root.parent)
    stores = sorted(stored(root.parent), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in stores[KEEP:]:
        shutil.rmtree(old, ignore_errors=True)


def stored(cache_dir: Path | None = None) -> list[Path]:
    """The stores in the cache."""
    root = stores_dir(cache_dir)
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


def clear_stores(cache_dir: Path | None = None) -> int:
    """Remove every store, and the temporaries of killed builds; how many stores there were."""
    sweep(cache_dir)
    gone = stored(cache_dir)
    for path in gone:
        shutil.rmtree(path, ignore_errors=True)
    return len(gone)
