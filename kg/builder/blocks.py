"""Paper blocks of the large exports, reused from the last build when a paper did not change:
a layer around the RDF and JSON Lines stages (`kg.rdf`, `kg.export.extractions`), which
know nothing of it.

kg.nt, kg.ttl and kg.jsonld hold a block of what papers share (entities, collections, the
relations between entities), then one block per paper; extractions.jsonl one line per paper.
A paper's block and line are made from the paper as read (text, source, line, metadata) and
the entity each of its names links to: its extraction follows from its text and the
extractor, which the memo's fingerprint covers (`kg.builder.memo`). So a paper with the same
`block_keys` digest has the same bytes, and a rebuild copies them from the last build's
files instead of making, sorting and converting them again. The shared block is made anew
by every build: one abstract can change any entity.

kg.nt is what the others are converted from and what a rebuild copies blocks from, so a
build that does not export it (`kg build --rdf`) still writes it, as a temporary beside the
exports that `BlockMemo.save` moves into the cache beside the memo (`kept_aside`), or
removes without a cache.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import shutil
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TypeVar

from kg.builder import memo
from kg.export.extractions import extraction_line
from kg.export.outputs import BLOCK_FILES, EXTRACTIONS, N_TRIPLES
from kg.export.writer import ExportWriter
from kg.model import Extraction, KnowledgeGraph

log = logging.getLogger(__name__)
T = TypeVar("T")

#: the exports made of paper blocks
FILES = BLOCK_FILES


def block_keys(kg: KnowledgeGraph) -> dict[str, str]:
    """Each paper's digest of what its blocks are made from, by paper id."""
    links: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for paper, name, key in kg.links:
        links[paper].append((name, key))
    return {
        p.id: hashlib.sha256(repr((p.digest, links[p.id])).encode()).hexdigest()[:32]
        for p in kg.papers
    }


class BlockMemo:
    """Where each paper's block is in the last build's files, and what its triples count.

    Args:
        path: the memo's file; None remembers nothing (every block is made).
        out: the exports directory.
    """

    def __init__(self, path: Path | None, out: Path) -> None:
        self.path = path
        self.out = out
        data = memo.load(path)
        files, blocks = data.get("files", {}), data.get("blocks", {})
        aside = data.get("aside", [])
        #: where the last build left each of its files (an export, or aside in the cache)
        self._was = {
            name: (self.kept_aside(name) if name in aside else None) or out / name for name in FILES
        }
        #: the files as the last build left them, which blocks may be copied from
        self.valid = {
            name
            for name, stamp in (files.items() if isinstance(files, dict) else ())
            if name in FILES and memo.stamp(self._was[name]) == stamp
        }
        classes = data.get("classes")
        before = _Columns.read(blocks, classes) if self.valid else None
        #: the last build's blocks, or None where none can be copied
        self._before = before
        self._classes: list[str] = before.classes if before is not None else []
        #: the last build's query store and shared block (its range in kg.nt)
        self._store: object = data.get("store") if before else None
        self._shared: object = data.get("shared") if before else None
        self.shared: tuple[int, int] | None = None  #: this build's, once kg.nt is written
        #: this build's blocks: where each is in each file, by block key ...
        self._spans: dict[str, dict[str, tuple[int, int]]] = {name: {} for name in FILES}
        #: ... and its triples and typed subjects by class (kg.nt's)
        self._counts: dict[str, tuple[int, Mapping[str, int]]] = {}
        #: the memo's JSON of the blocks, once all are remembered (`settle`)
        self._settled: dict[str, str] | None = None
        self._files: dict[str, int] = {}  #: descriptors of the last build's files, by name
        self.reused = 0  #: paper blocks copied into kg.nt

    @classmethod
    def in_cache(cls, cache_dir: Path, out: Path) -> BlockMemo:
        """The memo of the exports directory `out`, kept under `cache_dir`."""
        return cls(memo.memo_path(cache_dir, "blocks", out), out)

    def kept_aside(self, name: str) -> Path | None:
        """Where a file of blocks that is not an export is kept between builds (beside the
        memo), or None without a cache."""
        return None if self.path is None else self.path.with_name(f"{self.path.stem}.{name}")

    def where(self, key: str, name: str) -> tuple[int, int] | None:
        """The byte range of block `key` in the last build's file `name`, if it can be
        copied from there."""
        if name not in self.valid or self._before is None:
            return None
        return self._before.span(key, name)

    def base_store(self) -> Path | None:
        """The last build's query store, if it holds the graph of the last build's kg.nt as
        this memo describes it (an update of it is this build's store: `kg.builder.delta`)."""
        from kg.query.store import complete_store, stores_dir

        if N_TRIPLES.file not in self.valid or self.path is None:
            return None
        if not isinstance(self._store, str) or not _is_span(self._shared):
            return None
        return complete_store(stores_dir(self.path.parent.parent) / self._store)

    def old_blocks(self, keys: Iterable[str]) -> Iterator[bytes]:
        """The bytes in the last build's kg.nt of its shared block and of the blocks whose
        key is not in `keys` (the papers that changed or left)."""
        assert isinstance(self._shared, list) and _is_span(self._shared)
        assert self._before is not None
        wanted = set(keys)
        gone = [key for key in self._before.keys if key not in wanted]
        spans = [(self._shared[0], self._shared[1])]
        for key in gone:
            span = self._before.span(key, N_TRIPLES.file)
            if span is not None:
                spans.append(span)
        for span in spans:
            yield self._bytes(N_TRIPLES.file, span)

    def counts(self, key: str) -> tuple[int, dict[str, int]]:
        """The triples and typed subjects by class of block `key` in the last build."""
        assert self._before is not None
        n, types = self._before.counts(key)
        return n, {self._classes[i]: count for i, count in types}

    def reader(self, name: str, keys: Mapping[str, str]) -> Callable[[str], OldBytes | None]:
        """A function giving where the last build's bytes of a paper's block are in file
        `name`, by paper id (`keys` maps paper ids to block keys), or None when there are
        none: `write_blocks` copies them."""

        def read(paper: str) -> OldBytes | None:
            span = self.where(keys[paper], name)
            return None if span is None else OldBytes(self._fd(name), str(self._was[name]), *span)

        return read

    def _fd(self, name: str) -> int:
        """The last build's file `name`, open for reading (once)."""
        fd = self._files.get(name)
        if fd is None:
            fd = self._files[name] = os.open(self._was[name], os.O_RDONLY)
        return fd

    def _bytes(self, name: str, span: tuple[int, int]) -> bytes:
        """The bytes of `span` in the last build's file `name`, read with `pread`: a mapped
        file counts in the build's resident memory for every page read (a rebuild at
        25,000 abstracts peaked 430 MB higher than the build, the old kg.nt and
        extractions.jsonl mapped whole), read ones do not."""
        data = os.pread(self._fd(name), span[1] - span[0], span[0])
        if len(data) != span[1] - span[0]:
            raise OSError(f"{self._was[name]}: ends before byte {span[1]}")
        return data

    def remember(
        self,
        key: str,
        spans: Mapping[str, tuple[int, int]],
        triples: int | None = None,
        types: Mapping[str, int] | None = None,
    ) -> None:
        """Note where block `key` is in this build's files (and, for kg.nt, its counts)."""
        self._settled = None
        for name, span in spans.items():
            if name in self._spans:
                self._spans[name][key] = (span[0], span[1])
        if triples is not None:
            self._counts[key] = triples, dict(types or {})

    def remember_all(
        self, name: str, keys: Iterable[str], spans: Iterable[tuple[int, int]]
    ) -> None:
        """Note where each block of `keys` is in this build's file `name` (`remember`, for
        every paper at once: 25,000 calls took 0.2 s)."""
        self._settled = None
        self._spans[name].update(zip(keys, spans, strict=True))

    def close(self) -> None:
        """Let go of the last build's files."""
        for fd in self._files.values():
            os.close(fd)
        self._files = {}

    def settle(self) -> None:
        """Every block is remembered: make the memo's record of them now, while the build
        waits for its views, for `save` to write after the commit. A block remembered
        later makes it again."""
        keys = sorted(set(self._counts).union(*self._spans.values()))
        classes = sorted({c for _, types in self._counts.values() for c in types})
        self._settled = {
            "classes": memo.encoded(classes),
            "blocks": memo.encoded(_Columns.of(keys, self._spans, self._counts, classes)),
        }

    def save(self, aside: Mapping[str, Path], store: str | None = None) -> None:
        """Remember this build's blocks, once its files are in place (after the commit);
        keep its files of blocks that are no export (`aside`: their temporaries, from
        `kg.export.writer.ExportWriter.aside`) in the cache, or remove them without one;
        `store`: the name of the query store this build's graph is written into."""
        self.close()
        now = {name: self._keep(name, aside.get(name)) for name in FILES}
        files = {name: memo.stamp(path) for name, path in now.items() if path is not None}
        if self._settled is None:
            self.settle()
        assert self._settled is not None
        memo.save(
            self.path,
            {
                "files": {name: stamp for name, stamp in files.items() if stamp is not None},
                "aside": sorted(name for name in aside if now[name] is not None),
                "store": store,
                "shared": list(self.shared) if self.shared else None,
            },
            self._settled,
        )

    def _keep(self, name: str, tmp: Path | None) -> Path | None:
        """Where this build's file `name` now is: an export, or its temporary `tmp` moved
        aside into the cache (the last build's copy aside goes, once it is not this
        build's); None when it is neither."""
        kept = self.kept_aside(name)
        if tmp is None:
            if kept is not None:
                kept.unlink(missing_ok=True)
            return self.out / name
        if kept is None:
            tmp.unlink(missing_ok=True)
            return None
        try:
            kept.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(tmp, kept)  # a rename, or a copy where the cache is on another disk
        except OSError as error:
            tmp.unlink(missing_ok=True)
            kept.unlink(missing_ok=True)
            log.warning("%s: cannot keep %s (%s)", kept, name, error.strerror)
            return None
        memo.keep_latest(kept)
        return kept


@dataclass(frozen=True)
class Layout:
    """The blocks of this build's kg.nt in order (the shared block first, id ""), and each
    paper's block key."""

    order: tuple[str, ...]
    keys: Mapping[str, str]
    spans: tuple[tuple[int, int], ...]  #: each block's byte range in kg.nt

    def reuse(self, memo: BlockMemo, name: str) -> list[tuple[int, int] | None]:
        """For each block, its range in the last build's file `name` if it can be copied."""
        return [memo.where(self.keys[b], name) if b else None for b in self.order]

    def remember(self, memo: BlockMemo, name: str, spans: Sequence[tuple[int, int]]) -> None:
        """Note where each paper's block went in this build's file `name`."""
        pairs = [(self.keys[b], span) for b, span in zip(self.order, spans, strict=True) if b]
        memo.remember_all(name, (key for key, _ in pairs), (span for _, span in pairs))


def _is_span(span: object) -> bool:
    return (
        isinstance(span, list)
        and len(span) == 2
        and all(type(i) is int for i in span)
        and 0 <= span[0] <= span[1]
    )


@dataclass(frozen=True)
class _Columns:
    """The blocks as a memo holds them, a column each: the blocks' keys, sorted; for each
    file, the start and end of each block in it (-1 and -1 where it is not); each block's
    triples, and its typed subjects as (class index, count) pairs laid flat. Columns of
    numbers: `json` writes and reads them five times as fast as a mapping per block."""

    keys: list[str]
    spans: dict[str, list[int]]
    triples: list[int]
    types: list[list[int]]
    index: dict[str, int]
    classes: list[str]  #: the classes the types' indices name

    @staticmethod
    def of(
        keys: list[str],
        spans: Mapping[str, Mapping[str, tuple[int, int]]],
        counts: Mapping[str, tuple[int, Mapping[str, int]]],
        classes: list[str],
    ) -> dict[str, object]:
        """The columns of `keys`' blocks, as the memo writes them."""
        at = {c: i for i, c in enumerate(classes)}
        files = {}
        for name, where in spans.items():
            if where:
                files[name] = [i for key in keys for i in where.get(key, _NO_SPAN)]
        no_counts: tuple[int, Mapping[str, int]] = (0, {})
        gathered = [counts.get(key, no_counts) for key in keys]
        return {
            "keys": keys,
            "spans": files,
            "triples": [n for n, _ in gathered],
            "types": [[i for c, n in sorted(t.items()) for i in (at[c], n)] for _, t in gathered],
        }

    @classmethod
    def read(cls, data: object, classes: object) -> _Columns | None:
        """The columns of a memo's blocks (their typed subjects' `classes` by index), or None
        where they are not as `of` writes them: then no block is copied (a memo damaged
        otherwise would stop every rebuild, or count the wrong classes in void.ttl)."""
        if not (isinstance(classes, list) and all(isinstance(c, str) for c in classes)):
            return None
        if not isinstance(data, dict):
            return None
        keys, spans = data.get("keys"), data.get("spans")
        triples, types = data.get("triples"), data.get("types")
        if not (isinstance(keys, list) and all(isinstance(k, str) for k in keys)):
            return None
        if not (isinstance(spans, dict) and isinstance(triples, list) and isinstance(types, list)):
            return None
        n = len(keys)
        columns = [*spans.values(), triples, *types]
        if len(triples) != n or len(types) != n or not all(isinstance(t, list) for t in types):
            return None
        if not all(isinstance(c, list) and len(c) == 2 * n for c in spans.values()):
            return None
        if not all(type(i) is int for column in columns for i in column):
            return None
        if not all(_spans_of(column) for column in spans.values()) or min(triples, default=0) < 0:
            return None
        if not all(_types_of(row, len(classes)) for row in types):
            return None
        return cls(keys, spans, triples, types, {k: i for i, k in enumerate(keys)}, classes)

    def span(self, key: str, name: str) -> tuple[int, int] | None:
        """Where block `key` is in file `name`, if it is."""
        at, column = self.index.get(key), self.spans.get(name)
        if at is None or column is None or column[2 * at] < 0:
            return None
        return column[2 * at], column[2 * at + 1]

    def counts(self, key: str) -> tuple[int, list[tuple[int, int]]]:
        """Block `key`'s triples, and its typed subjects as (class index, count) pairs."""
        at = self.index[key]
        flat = self.types[at]
        return self.triples[at], list(zip(flat[::2], flat[1::2], strict=True))


_NO_SPAN = (-1, -1)


def _spans_of(column: list[int]) -> bool:
    """Whether a column of spans (start, end, start, end, ...) holds only spans of bytes
    (0 <= start <= end) and `_NO_SPAN`s."""
    starts, ends = column[::2], column[1::2]
    return all(0 <= a <= b or a == b == -1 for a, b in zip(starts, ends, strict=True))


def _types_of(row: list[int], classes: int) -> bool:
    """Whether a row of typed subjects holds (class index, count) pairs, each index one of
    `classes`, each count at least 0."""
    return (
        len(row) % 2 == 0 and all(0 <= i < classes for i in row[::2]) and min(row, default=0) >= 0
    )


def write_jsonl(
    kg: KnowledgeGraph, writer: ExportWriter, blocks: BlockMemo, layout: Layout
) -> None:
    """Write extractions.jsonl, copying the lines of papers that did not change."""
    copy = blocks.reader(EXTRACTIONS, layout.keys)
    keys: dict[tuple[str, str], str] | None = None  # made once a line is not copied

    def chunks(ex: Extraction) -> Iterable[bytes | OldBytes]:
        nonlocal keys
        old = copy(ex.paper.id)
        if old is not None:
            return (old,)
        keys = kg.entity_key_of() if keys is None else keys
        return (extraction_line(ex, keys),)

    spans: list[tuple[int, int]] = []
    writer.stream(
        EXTRACTIONS, lambda handle: spans.extend(write_blocks(handle, kg.extractions, chunks))
    )
    blocks.remember_all(EXTRACTIONS, (layout.keys[ex.paper.id] for ex in kg.extractions), spans)


@dataclass(frozen=True)
class OldBytes:
    """Bytes `start` to `end` of the last build's file `path`, open as `fd`: a block that
    `write_blocks` copies as it is."""

    fd: int
    path: str
    start: int
    end: int


def write_blocks(
    handle: BinaryIO, order: Iterable[T], chunks: Callable[[T], Iterable[bytes | OldBytes]]
) -> list[tuple[int, int]]:
    """Write each block's chunks in `order`; each block's byte range.

    Blocks copied from the last build's file (`OldBytes`) that follow one another there as
    here are copied in one run: a rebuild's 25,000 unchanged blocks are one or two copies
    of hundreds of MB, made by the kernel (`copy_file_range`), not 25,000 reads and writes.
    """
    spans = []
    at = 0
    run: OldBytes | None = None
    for block in order:
        start = at
        for data in chunks(block):
            if isinstance(data, OldBytes):
                if run is not None and run.fd == data.fd and run.end == data.start:
                    run = OldBytes(run.fd, run.path, run.start, data.end)
                else:
                    if run is not None:
                        _copy(run, handle)
                    run = data
                at += data.end - data.start
                continue
            if run is not None:
                _copy(run, handle)
                run = None
            handle.write(data)
            at += len(data)
        spans.append((start, at))
    if run is not None:
        _copy(run, handle)
    return spans


def _copy(old: OldBytes, handle: BinaryIO) -> None:
    """Append `old`'s bytes to `handle`: by `os.copy_file_range` where the system has it
    and the file allows it, else (or for what it left) read and written a MB at a time.

    Raises:
        OSError: the old file ends before `old.end`.
    """
    if old.end < old.start:
        raise OSError(f"{old.path}: no bytes from {old.start} to {old.end}")
    at = old.start
    target = _file_number(handle)
    if target is not None:
        handle.flush()
        try:
            while at < old.end:
                copied = os.copy_file_range(old.fd, target, old.end - at, at)
                if not copied:
                    break
                at += copied
        except OSError:  # no such call here, or not between these files: read and write
            pass
        if at > old.start:  # the file grew under the handle's buffer: where it now is
            handle.seek(os.lseek(target, 0, os.SEEK_CUR))
    while at < old.end:
        data = os.pread(old.fd, min(old.end - at, _PIECE), at)
        if not data:
            raise OSError(f"{old.path}: ends before byte {old.end}")
        handle.write(data)
        at += len(data)


_PIECE = 1 << 20


def _file_number(handle: BinaryIO) -> int | None:
    """The descriptor of a plain file handle that `os.copy_file_range` may write to, or
    None (an in-memory file, a handle that transforms what it is given, a system without
    the call)."""
    if not hasattr(os, "copy_file_range"):
        return None
    if not isinstance(handle, io.BufferedWriter | io.BufferedRandom | io.FileIO):
        return None
    try:
        return handle.fileno()
    except (OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return None
