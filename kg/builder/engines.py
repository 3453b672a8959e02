"""Where extraction runs: in this process (the default) or on a Dask cluster; with or
without the extraction cache. Both engines give the same extractions in the same order."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from functools import lru_cache, partial
from pathlib import Path

from kg.errors import KgError
from kg.extract.serial import dump, load
from kg.model import Extraction, Paper
from kg.processes import spawn_pool

log = logging.getLogger(__name__)

ENGINES = ("local", "dask")
#: abstracts a cache commit holds: a killed build loses at most this many extractions
COMMIT_EVERY = 256

Progress = Callable[[int], None]


#: below this many abstracts, worker processes cost more than they save
PARALLEL_FROM = 2000
#: abstracts a worker process takes at a time
CHUNK = 500


def auto_workers(papers: int) -> int:
    """Worker processes for a local build: one per core (at most 8) for large builds."""
    return 1 if papers < PARALLEL_FROM else max(1, min(os.cpu_count() or 1, 8))


#: inputs of at least this many bytes (some 850 abstracts) start an extraction worker
#: before they are read (`warm_workers`)
WARM_FROM_BYTES = 1_000_000


@contextmanager
def warm_workers(inputs: Sequence[Path], engine: str) -> Iterator[ProcessPoolExecutor | None]:
    """An extraction worker started before the inputs are read, where they are large and
    there is a core to spare (else None): it imports spaCy and builds the pipeline (about
    1.8 s) while the build reads the abstracts and looks them up in the cache, instead of
    after. A rebuild that finds all but a few abstracts in the cache extracts those at
    once; one that finds them all does not wait for it to start. (Two such workers on two
    cores slowed the reading as much as they saved.)"""
    if engine != "local" or (os.cpu_count() or 1) < 2 or input_bytes(inputs) < WARM_FROM_BYTES:
        yield None
        return
    with spawn_pool(1, _start_worker, wait=False) as pool:
        yield pool


def input_bytes(paths: Sequence[Path]) -> int:
    """About how much the inputs hold: the sizes of the files given and of the input files
    in the directories given. Nothing is refused here: reading them reports what is wrong."""
    from kg.ingest import SUFFIXES
    from kg.ingest.files import directory_candidates

    total = 0
    for path in paths:
        try:
            files = directory_candidates(path, SUFFIXES) if path.is_dir() else [path]
            total += sum(f.stat().st_size for f in files if f.is_file())
        except OSError:
            continue
    return total


#: an extraction, and its cached form where a worker process made it (`dump`)
Extracted = tuple[Extraction, dict | None]


def _local(
    papers: Sequence[Paper],
    workers: int,
    warm: ProcessPoolExecutor | None,
    meanwhile: Callable[[], None] | None = None,
) -> Iterator[Extracted]:
    if not papers:
        return  # every extraction came from the cache: no pipeline, no spaCy
    if warm is not None:  # one worker, started before the abstracts were read
        if workers <= 1:  # a few abstracts: this process is free while the worker starts
            yield from _in_pools([warm], papers, meanwhile)
            return
        with spawn_pool(workers - 1, _start_worker) as more:
            yield from _in_pools([warm, *[more] * (workers - 1)], papers)
        return
    if workers <= 1:
        from kg.extract import iter_extract  # spaCy loads only when something is extracted

        for ex in iter_extract(papers, _worker_nlp()):
            yield ex, None
        return
    # each worker builds the pipeline once and sends back plain dicts, not spaCy Docs
    # (spaCy's own n_process pickles whole Docs and was twice as slow here); the cache
    # stores those dicts as they came (dumping each again cost the build's process 0.8 s
    # of CPU at 25,000 abstracts, while the workers needed both cores)
    with spawn_pool(workers, _start_worker) as pool:
        yield from _in_pools([pool] * workers, papers)


def _in_pools(
    slots: Sequence[ProcessPoolExecutor],
    papers: Sequence[Paper],
    meanwhile: Callable[[], None] | None = None,
) -> Iterator[Extracted]:
    """The extractions of `papers`, in order, made by worker processes: `slots` names the
    pool of each worker (a pool of n workers n times). The abstracts go in chunks of `CHUNK`,
    fewer where that gives every worker some; each worker has two chunks at a time and gets
    the next as one comes back, so one that started later (a pool added once the input was
    read) takes fewer, and none waits for the others at the end. `meanwhile` runs here once
    the first chunks are given out."""
    size = max(1, min(CHUNK, -(-len(papers) // len(slots))))
    chunks = [list(papers[i : i + size]) for i in range(0, len(papers), size)]
    waiting = iter(range(len(chunks)))
    running: dict[Future[list[dict]], tuple[int, ProcessPoolExecutor]] = {}

    def give(pool: ProcessPoolExecutor) -> None:
        n = next(waiting, None)
        if n is not None:
            running[pool.submit(_extract_dumped, chunks[n])] = (n, pool)

    for pool in [*slots, *slots]:
        give(pool)
    if meanwhile is not None:
        meanwhile()
    made: dict[int, list[dict]] = {}
    ready = 0  # the first chunk not yet given out in order
    while running:
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in done:
            n, pool = running.pop(future)
            made[n] = future.result()
            give(pool)
        while ready in made:
            for paper, data in zip(chunks[ready], made.pop(ready), strict=True):
                yield load(data, paper), data
            ready += 1


def _extract_dumped(papers: list[Paper]) -> list[dict]:
    from kg.extract import iter_extract

    return [dump(ex) for ex in iter_extract(papers, _worker_nlp())]


def _start_worker() -> None:
    """Build the pipeline once per worker (which leaves when the build does: `spawn_pool`)."""
    _worker_nlp()


@lru_cache(maxsize=1)
def _worker_nlp():  # noqa: ANN202 - a spaCy Language, built once per worker process
    from kg.extract import make_nlp

    return make_nlp()


def _extract_partition(papers: list[Paper]) -> list[Extraction]:
    """Run on a Dask worker: the pipeline is built once per worker, not shipped per item."""
    from kg.extract import iter_extract

    return list(iter_extract(papers, _worker_nlp()))


def _dask(papers: Sequence[Paper], scheduler: str | None) -> Iterator[Extracted]:
    try:
        import dask.bag as db
        from distributed import Client, LocalCluster
    except ImportError:
        raise KgError(
            "the dask engine needs dask and distributed: pip install 'kg[dask]'"
        ) from None
    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout="10s")
        else:
            cluster = LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = Client(cluster)
    except OSError as error:
        raise KgError(f"cannot reach the Dask scheduler {scheduler}: {error}") from None
    try:
        workers = max(1, len(client.scheduler_info()["workers"]))
        bag = db.from_sequence(list(papers), npartitions=max(1, min(len(papers), workers * 4)))
        results = bag.map_partitions(_extract_partition).compute()
        for ex in results:
            yield ex, None
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_extraction(
    papers: Sequence[Paper],
    *,
    engine: str = "local",
    scheduler: str | None = None,
    cache: object | None = None,
    on_progress: Progress | None = None,
    workers: int | None = None,
    warm: ProcessPoolExecutor | None = None,
    meanwhile: Callable[[list[Extraction]], None] | None = None,
) -> tuple[list[Extraction], int]:
    """Extractions of `papers` in order, and how many came from the cache.

    Args:
        papers: the abstracts.
        engine: "local" (this process) or "dask" (a Dask cluster; a local one of two
            worker processes when no `scheduler` address is given).
        scheduler: a Dask scheduler address such as tcp://10.0.0.5:8786.
        cache: an `ExtractionCache`, or None to extract everything.
        on_progress: called with the number of papers done so far.
        workers: processes for the local engine (default: `auto_workers`).
        warm: workers of the local engine started ahead (`warm_workers`): they extract
            whatever the cache does not hold, however little.
        meanwhile: called with the cached extractions (in order) while the one warm worker
            extracts the few others (a rebuild: `kg.link.Linker.ahead`); not called
            otherwise.
    """
    from kg.builder.cache import cache_key

    if engine not in ENGINES:
        raise KgError(f"unknown engine {engine!r}: use one of {', '.join(ENGINES)}")
    keys = [cache_key(p.text) for p in papers] if cache is not None else []
    hits = cache.get_many(keys) if cache is not None else {}  # type: ignore[attr-defined]
    done: dict[int, Extraction] = {}
    damaged = 0
    for i, paper in enumerate(papers):
        if cache is not None and keys[i] in hits:
            try:
                done[i] = load(hits[keys[i]], paper)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                damaged += 1  # a row of the wrong shape (a damaged cache): extracted again
    if damaged:
        log.warning("%d cached extractions could not be read: made again", damaged)
    todo = [i for i in range(len(papers)) if i not in done]
    if done:
        log.info("%d of %d extractions from the cache", len(done), len(papers))
    if on_progress is not None:
        on_progress(len(done))
    chosen = [papers[i] for i in todo]
    ahead = None
    if meanwhile is not None and done:  # the cached extractions, in order
        ahead = partial(meanwhile, [done[i] for i in sorted(done)])
    if engine == "local":
        count = workers if workers is not None else auto_workers(len(chosen))
        stream = _local(chosen, count, warm, ahead)
    else:
        stream = _dask(chosen, scheduler)
    pending: dict[str, dict] = {}
    for n, (ex, dumped) in enumerate(stream):
        index = todo[n]
        done[index] = ex
        if cache is not None:
            pending[keys[index]] = dumped if dumped is not None else dump(ex)
            if len(pending) >= COMMIT_EVERY:
                cache.put_many(pending)  # type: ignore[attr-defined]
                pending = {}
        if on_progress is not None:
            on_progress(len(done))
    if cache is not None and pending:
        cache.put_many(pending)  # type: ignore[attr-defined]
    return [done[i] for i in range(len(papers))], len(papers) - len(todo)
