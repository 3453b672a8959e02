"""The whole pipeline in one call: inputs → extract → link → graph → RDF → exports."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path

import networkx as nx

from kg import teardown
from kg.builder.blocks import BlockMemo, Layout, write_jsonl
from kg.builder.cache import ExtractionCache, default_cache_dir
from kg.builder.engines import auto_workers, run_extraction, warm_workers
from kg.builder.old_objects import collector_paused_kept_old
from kg.builder.pages import (
    PageMemo,
    draw_all,
    drawn_ahead,
    signs_ahead,
    views_ahead,
)
from kg.builder.rdf_blocks import write_rdf
from kg.builder.snapshot import load_snapshot, save_snapshot, snapshot_path
from kg.builder.store_step import placed_states, start_store, store_for_queries
from kg.errors import ExportError
from kg.export import outputs
from kg.export.convert import Conversion, ConversionError, Target
from kg.export.graphml import write_graphml
from kg.export.manifest import claim
from kg.export.outputs import CONVERTED, EXTRACTIONS, GRAPHML, listed
from kg.export.views import Pages, render_views
from kg.export.views.data import counted
from kg.export.writer import ExportWriter, fill, held
from kg.extract import EXTRACTOR_VERSION
from kg.graph import to_networkx
from kg.ingest import read_inputs
from kg.ingest.remembered import RememberedLines
from kg.link import Linker
from kg.model import Extraction, KnowledgeGraph, Paper
from kg.namespaces import PREFIXES
from kg.processes import Forked, ForkedError
from kg.query.store import StoreJob, key_of

log = logging.getLogger(__name__)


#: called with a stage's name, the units done and the units in all (see `build`)
Progress = Callable[[str, int, int], None]


def _no_progress(stage: str, done: int, total: int) -> None:
    pass


@contextmanager
def _stage(name: str, progress: Progress) -> Iterator[None]:
    """Report a stage's start and end (`progress`) and how long it took (`kg -v build`)."""
    start = time.perf_counter()
    progress(name, 0, 1)
    yield
    progress(name, 1, 1)
    log.info("%s: %.1f s", name, time.perf_counter() - start)


@dataclass(frozen=True)
class BuildSummary:
    """What a build read and wrote."""

    papers: int
    entities_by_type: dict[str, int]
    relations_by_type: dict[str, int]
    results: int
    triples: int
    files: tuple[Path, ...]
    cached: int = 0  #: extractions reused from the cache
    pages_kept: int = 0  #: pages left as the last build wrote them (their view is the same)
    blocks_reused: int = 0  #: papers whose RDF and JSON Lines the last build wrote
    left_out: tuple[str, ...] = ()  #: copies of the graph not written (`--rdf`)

    @property
    def entities(self) -> int:
        """Number of linked entities of every type."""
        return sum(self.entities_by_type.values())


def build(
    inputs: Sequence[Path],
    out: Path,
    *,
    on_progress: Progress | None = None,
    views: str = "all",
    fmt: str | None = None,
    strict: bool = False,
    engine: str = "local",
    scheduler: str | None = None,
    cache: bool = True,
    cache_dir: Path | None = None,
    rdf_formats: str = "auto",
    force: bool = False,
) -> BuildSummary:
    """Read abstracts from `inputs` and write the knowledge graph's exports into `out`.

    Args:
        inputs: files or directories of abstracts.
        out: the exports directory (created if missing).
        on_progress: called with (stage, done, in all) as the build goes: "extract" counts
            papers, "views" pages; "read", "link", "RDF", "extractions.jsonl" and "GraphML,
            Turtle and JSON-LD" go from 0 of 1 to 1 of 1.
        views: which HTML views to write: "all", "overview" (index.html only) or "none".
        fmt: the input format (see `kg.ingest.FORMATS`), or None to detect it per file.
        strict: stop at the first bad record instead of skipping it with a warning.
        engine: where extraction runs: "local" or "dask" (see `kg.builder.engines`).
        scheduler: the Dask scheduler address for engine "dask".
        cache: reuse extractions of abstracts already read by this extractor version, and
            keep the pages whose view did not change since the last build into `out`.
        cache_dir: where the cache lives (default: `kg.builder.cache.default_cache_dir()`).
        rdf_formats: which copies of the graph to write (`kg.export.outputs.selected`):
            "auto" (kg.ttl, kg.nt, kg.jsonld and kg.graphml up to `EVERY_COPY_UP_TO`
            triples, kg.ttl alone above), "all", or a comma list ("nt", "turtle,graphml").
        force: write into `out` even though it holds files no earlier build wrote there
            (files of the names kg writes are replaced; no other file is removed).

    Returns:
        A `BuildSummary` of counts and the files written.

    Raises:
        InputError: an input is missing or malformed; nothing is written.
        ExportError: an export cannot be written, the previous exports are unchanged; or
            `out` holds files kg did not write (checked first) and not `force`.
    """
    claim(out, force)  # before the work, not after it
    outputs.selected(rdf_formats, small=True)  # a bad choice: ValueError now, not after it
    progress = on_progress or _no_progress
    # one build at a time into `out`, from before it reads what the last one left there
    with held(out) as waited, collector_paused_kept_old():
        if waited:  # another build has written there meanwhile
            claim(out, force)
        where = snapshot_path(cache_dir or default_cache_dir(), out) if cache else None
        with warm_workers(inputs, engine) as warm:
            lines = RememberedLines(load_snapshot(where)) if cache else None
            papers = _read(inputs, fmt, strict, progress, lines)
            store = ExtractionCache(cache_dir) if cache else None
            linker = Linker()
            extractions, cached = _extract(
                papers, engine, scheduler, store, progress, warm, partial(_ahead, linker)
            )
        kg = _link(extractions, progress, linker)
        memo, blocks = _memos(out, cache_dir, cache)
        remember = partial(save_snapshot, where, lines) if lines is not None else None
        triples, files, written = _export(
            kg, out, force, memo, blocks, views, rdf_formats, progress, cache_dir, cache, remember
        )
    # the program ends without freeing them one by one (`kg.teardown`): 0.45 s at 25,000
    teardown.keep(kg, extractions, papers, lines, linker, memo, blocks)
    return BuildSummary(
        papers=len(kg.papers),
        entities_by_type=dict(sorted(Counter(e.type.value for e in kg.entities).items())),
        relations_by_type=dict(sorted(Counter(a.relation.value for a in kg.assertions).items())),
        results=len(kg.results),
        triples=triples,
        files=tuple(written),
        cached=cached,
        pages_kept=memo.kept,
        blocks_reused=blocks.reused,
        left_out=tuple(e.file for e in outputs.COPIES.values() if e.file not in files),
    )


#: `--rdf auto` writes every copy of the graph (kg.ttl, kg.nt, kg.jsonld, kg.graphml) up to
#: this many triples, kg.ttl alone above: the copies were 74 MB of ICML 2024's 107 (221,000
#: triples, 28x its input); ~1,000 abstracts keep them all in ~35 MB, the seeds (4,400) too
EVERY_COPY_UP_TO = 100_000


def _export(
    kg: KnowledgeGraph,
    out: Path,
    force: bool,
    memo: PageMemo,
    blocks: BlockMemo,
    views: str,
    rdf_formats: str,
    progress: Progress,
    cache_dir: Path | None,
    cache: bool,
    remember: Callable[[], None] | None = None,
) -> tuple[int, frozenset[str], list[Path]]:
    """Steps 5 and 6: every export written and put in place, the memos saved (and
    `remember` called: the snapshot of what was read, saved while a rebuild waits for its
    views), and with `cache` the graph's store for queries (its child started once kg.nt
    is written); how many triples, which copies of the graph and the files written."""
    job: StoreJob | None = None
    writer: ExportWriter | None = None
    try:
        with ExportWriter(out, force) as writer:  # each export written once it is rendered
            triples, files, job = _write_exports(
                kg, writer, memo, blocks, views, rdf_formats, progress, cache_dir, cache, remember
            )
            start = time.perf_counter()
            written = writer.commit()
            memo.save(writer.placed)
            # kg.nt when it is no export goes aside, in the cache; the store is named for
            # the exports this build put in place, the name kept for the next to update it
            placed = placed_states(out, writer.placed) if job is not None else None
            blocks.save(writer.aside, key_of(placed) if placed is not None else None)
        log.info("exports in place, memos written in %.1f s", time.perf_counter() - start)
        if job is not None:
            with _stage("store", progress):
                store_for_queries(job, out, placed)
            job = None
    except KeyboardInterrupt as interrupt:  # Ctrl-C, SIGTERM: say which exports are there
        if writer is not None and writer.committed:
            interrupt.exports_written = True  # type: ignore[attr-defined]
        raise
    finally:
        if job is not None:
            job.cancel()
    return triples, files, written


def _read(
    inputs: Sequence[Path],
    fmt: str | None,
    strict: bool,
    progress: Progress,
    lines: RememberedLines | None = None,
) -> list[Paper]:
    """Step 1: the papers of every input (with `lines`, those of lines the last build read
    as it read them)."""
    with _stage("read", progress):
        papers = read_inputs(inputs, fmt, strict, lines)
    log.info("read %d abstracts from %d input(s)", len(papers), len(inputs))
    if lines is not None and lines.reused:
        log.info("%d of them from lines the last build read", lines.reused)
    return papers


def _extract(
    papers: Sequence[Paper],
    engine: str,
    scheduler: str | None,
    store: ExtractionCache | None,
    progress: Progress,
    warm: ProcessPoolExecutor | None = None,
    meanwhile: Callable[[list[Extraction]], None] | None = None,
) -> tuple[list[Extraction], int]:
    """Step 2: each paper's extraction, and how many came from the cache `store` (closed
    here); `warm`: extraction workers started before the papers were read; `meanwhile`:
    given the cached extractions while the warm worker extracts a few others."""
    total = len(papers)
    try:
        with _stage("extract", _no_progress):  # counted in papers instead
            return run_extraction(
                papers,
                engine=engine,
                scheduler=scheduler,
                cache=store,
                on_progress=lambda done: progress("extract", done, total),
                warm=warm,
                meanwhile=meanwhile,
            )
    finally:
        if store is not None:
            store.close()


def _ahead(linker: Linker, cached: list[Extraction]) -> None:
    """Link the cached extractions while a worker extracts the others (a rebuild)."""
    start = time.perf_counter()
    linker.ahead(cached)
    log.info(
        "link: %d cached extractions linked ahead in %.1f s, while the rest were extracted",
        len(cached),
        time.perf_counter() - start,
    )


def _link(
    extractions: Sequence[Extraction], progress: Progress, linker: Linker | None = None
) -> KnowledgeGraph:
    """Step 3: the linked knowledge graph (its NetworkX graph is made where it is needed:
    `_graph_of`); `linker` may have linked the cached extractions ahead."""
    with _stage("link", progress):
        return (linker or Linker()).link(extractions)


def _graph_of(kg: KnowledgeGraph) -> Callable[[], nx.MultiDiGraph]:
    """The NetworkX graph of `kg` (`to_networkx`), made once in a process, when it is first
    needed there: the views and GraphML need it, and a rebuild makes the views in a child
    (`views_ahead`), so a rebuild that writes GraphML (a small graph) makes it twice."""

    @cache
    def graph() -> nx.MultiDiGraph:
        start = time.perf_counter()
        made = to_networkx(kg)
        log.info("NetworkX graph: %.1f s", time.perf_counter() - start)
        return made

    return graph


def _pages(kg: KnowledgeGraph, graph: Callable[[], nx.MultiDiGraph], views: str) -> Pages:
    """The pages of the views (`render_views`); how long listing them took is logged."""
    made = graph()
    start = time.perf_counter()
    pages = render_views(kg, made, _title(kg), EXTRACTOR_VERSION, views)
    log.info("views: %d pages listed in %.1f s", len(pages), time.perf_counter() - start)
    return pages


def _memos(out: Path, cache_dir: Path | None, cache: bool) -> tuple[PageMemo, BlockMemo]:
    """Step 4: what the last build into `out` wrote: pages and paper blocks that did not
    change are kept or copied, not made again (nothing is remembered without `cache`)."""
    if not cache:
        return PageMemo(None, out), BlockMemo(None, out)
    where = cache_dir or default_cache_dir()
    return PageMemo.in_cache(where, out), BlockMemo.in_cache(where, out)


def _title(kg: KnowledgeGraph) -> str:
    """The views' title: the venues read, each with its year where it has one (up to
    `TITLE_VENUES` of them, else how many venues and their years: a dump of 33 venue-years
    made a title of three lines), "and others" where some papers have none, and how many
    papers."""
    placed = [p for p in kg.papers if p.venue]
    venues = sorted({f"{p.venue} {p.year}" if p.year else str(p.venue) for p in placed})
    if len(venues) > TITLE_VENUES:
        names = len({p.venue for p in placed})
        years = sorted({p.year for p in placed if p.year is not None})
        span = f"{years[0]}–{years[-1]}" if len(years) > 1 else "".join(map(str, years))
        named = counted(names, "venue") + (f", {span}" if span else "")
    else:
        named = ", ".join(venues) or "knowledge graph"
    if venues and len(placed) < len(kg.papers):
        named += " and others"
    return f"kg: {named} ({counted(len(kg.papers), 'paper')})"


#: the most venues (and years) the views' title names one by one
TITLE_VENUES = 3


#: the last stage: waiting for the exports written by other processes
_BACKGROUND = listed(["GraphML", *(s.label for s in CONVERTED)])


def _write_exports(
    kg: KnowledgeGraph,
    writer: ExportWriter,
    memo: PageMemo,
    blocks: BlockMemo,
    views: str,
    rdf_formats: str,
    progress: Progress,
    cache_dir: Path | None,
    store: bool,
    remember: Callable[[], None] | None = None,
) -> tuple[int, frozenset[str], StoreJob | None]:
    """Step 5: every export to its temporary (`writer`); how many triples the graph holds,
    which copies of it were written (`rdf_formats`) and, with `store`, the child writing
    its store for queries meanwhile (`start_store`; stopped here if the build fails).

    GraphML is written by a forked child meanwhile (networkx's writer: 1.6 s at 25,000
    abstracts), as are Turtle and JSON-LD by Oxigraph, a child process each; a rebuild's
    views are listed and drawn by another (`views_ahead`); whatever happens, none outlives
    this call.

    Raises:
        ExportError: an export cannot be written (a child failed).
    """
    conversions: list[tuple[list[str], Conversion]] = []
    graphml: Forked | None = None
    signs: Forked | None = None
    job: StoreJob | None = None
    graph = _graph_of(kg)
    # a rebuild's pages, listed and drawn meanwhile; else listed here, now
    ahead = views_ahead(partial(_pages, kg, graph, views), memo, auto_workers)
    pages = _pages(kg, graph, views) if ahead is None else None
    try:
        if pages is not None:  # a first build's node signatures, made meanwhile
            signs = signs_ahead(pages, memo, auto_workers(len(pages)))
        with _stage("RDF", progress):
            rdf = write_rdf(
                kg,
                writer,
                blocks,
                EXTRACTOR_VERSION,
                _copies(rdf_formats),
                EVERY_COPY_UP_TO,
            )
        nt, layout, files = rdf.nt, rdf.layout, rdf.files
        for left_out in sorted(set(outputs.COPIES_FILES) - files):
            writer.leave_out(left_out)
        if GRAPHML in files:
            produce = partial(fill, writer.reserve(GRAPHML), partial(write_graphml, graph()))
            graphml = Forked(produce)
        _start_conversions(nt, layout, writer, blocks, conversions, files)
        job = start_store(rdf, cache_dir) if store else None
        with _stage(EXTRACTIONS, progress):
            write_jsonl(kg, writer, blocks, layout)
        if remember is not None:  # a line's paper is the same whether this build fails or not
            remember()
        rebuild = ahead is not None
        if rebuild:  # the children converting end before the child drawing the views
            _background(graphml, conversions, layout, blocks, progress)
            blocks.settle()  # while it draws
        with _stage("views", _no_progress):  # counted in pages instead
            drawn = drawn_ahead(ahead, memo)
            ahead = None  # done: what it sent is not held twice
            if drawn is not None:
                _write_views(drawn, len(drawn), writer, memo, progress)
            else:  # drawn here, each page written as it comes
                pages = pages if pages is not None else _pages(kg, graph, views)
                here = draw_all(pages, memo, auto_workers(len(pages)), signs)
                _write_views(here, len(pages), writer, memo, progress)
        if not rebuild:
            _background(graphml, conversions, layout, blocks, progress)
    except (ConversionError, ForkedError) as error:
        if job is not None:
            job.cancel()
        raise ExportError(
            f"{error}: cannot write the exports; the previous exports are unchanged"
        ) from None
    except BaseException:
        if job is not None:
            job.cancel()
        raise
    finally:
        for child in (graphml, signs, ahead):
            if child is not None:
                child.cancel()
        for _, conversion in conversions:
            conversion.cancel()
        blocks.close()
    return rdf.triples, files, job


def _background(
    graphml: Forked | None,
    conversions: list[tuple[list[str], Conversion]],
    layout: Layout,
    blocks: BlockMemo,
    progress: Progress,
) -> None:
    """Wait for the children writing GraphML and converting kg.nt, and note where each
    paper's block is in the files converted."""
    with _stage(_BACKGROUND, progress):
        if graphml is not None:
            graphml.wait()
        for names, conversion in conversions:
            for name, spans in zip(names, conversion.wait(), strict=True):
                layout.remember(blocks, name, spans)


def _start_conversions(
    nt: Path,
    layout: Layout,
    writer: ExportWriter,
    blocks: BlockMemo,
    started: list[tuple[list[str], Conversion]],
    files: frozenset[str],
) -> None:
    """Start converting the N-Triples `nt` into each syntax of `CONVERTED` among `files`,
    in one child that parses each block once for all of them, added to `started` (so that
    a failure cancels it)."""
    names = [s.file for s in CONVERTED if s.file in files]
    targets = [
        Target(s.name, writer.reserve(s.file), writer.out / s.file, layout.reuse(blocks, s.file))
        for s in CONVERTED
        if s.file in files
    ]
    if targets:
        started.append((names, Conversion(nt, targets, PREFIXES, layout.spans)))


def _write_views(
    drawn: Iterable[tuple[str, bytes | None]],
    total: int,
    writer: ExportWriter,
    memo: PageMemo,
    progress: Progress,
) -> None:
    """Write the `total` pages of the HTML views as they are drawn (`draw_all`,
    `drawn_ahead`), keeping those that did not change (content None)."""
    html = 0
    for done, (name, content) in enumerate(drawn, 1):
        if content is None:
            writer.keep(name)
        else:
            writer.write(name, content)
        html += name.endswith(".html")
        progress("views", done, total)
    log.info("views: %d of %d pages unchanged, not drawn", memo.kept, html)


def _copies(rdf_formats: str) -> Callable[[bool], frozenset[str]]:
    """The copies of the graph `--rdf rdf_formats` writes, given whether it is small (at
    most `EVERY_COPY_UP_TO` triples)."""
    return lambda small: outputs.selected(rdf_formats, small=small)
