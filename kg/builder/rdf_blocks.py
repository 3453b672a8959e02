"""The RDF stage of a build, in paper blocks (`kg.builder.blocks`): kg.nt written block by
block, each paper's block made, written and let go, or copied from the last build's file
when the paper did not change; void.ttl; and how the graph differs from the last build's
query store (`kg.builder.delta`)."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from kg.builder.blocks import BlockMemo, Layout, OldBytes, block_keys, write_blocks
from kg.builder.delta import DeltaMaker
from kg.export.outputs import N_TRIPLES, VOID
from kg.export.writer import ExportWriter
from kg.model import KnowledgeGraph, Paper
from kg.query.store import Delta
from kg.rdf import Block, Counts, PaperBlocks, Triples, block_ntriples, shared_rdf, void_description

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rdf:
    """What `write_rdf` wrote."""

    nt: Path  #: the N-Triples' temporary (an export's, or aside: `ExportWriter.aside`)
    layout: Layout
    triples: int
    files: frozenset[str]  #: the copies of the graph to write
    void: bytes  #: void.ttl
    delta: Delta | None  #: how the graph differs from the last build's store, if that pays


def write_rdf(
    kg: KnowledgeGraph,
    writer: ExportWriter,
    blocks: BlockMemo,
    extractor: str,
    copies: Callable[[bool], frozenset[str]],
    small_up_to: int,
) -> Rdf:
    """Write kg.nt and void.ttl, copying the blocks of papers that did not change from the
    last build's kg.nt (only the other papers' blocks are made: `kg.rdf.shared_rdf`), each
    paper's block let go once written (the million lines of a large graph are never held
    together); the copies of the graph to write are `copies(small)`, small when it has at
    most `small_up_to` triples (blocks are made ahead until that is known)."""
    keys = block_keys(kg)
    reuse = {paper for paper, key in keys.items() if blocks.where(key, N_TRIPLES.file)}
    rdf, papers = shared_rdf(kg, extractor)
    counts = rdf.counts()
    before = {paper: blocks.counts(keys[paper]) for paper in sorted(reuse)}
    for n, types in before.values():
        counts.add(n, types)
    maker = _Maker(papers, {p.id: p for p in kg.papers}, counts)
    maker.ahead([p for p in kg.papers if p.id not in reuse], small_up_to)
    files = copies(counts.triples <= small_up_to)
    delta = _delta_maker(blocks, keys, counts.triples, rdf.blocks[0])
    copy = blocks.reader(N_TRIPLES.file, keys)

    def chunks(paper: str) -> Iterable[bytes | OldBytes]:
        if not paper:
            return block_ntriples(rdf.blocks[0])
        if paper in reuse:
            data = copy(paper)
            if data is None:
                raise ValueError(f"block {paper} is reused but no bytes were given")
            return (data,)
        block = maker.take(paper)
        if delta is not None:
            delta.add_new(block.lines)
        return block_ntriples(block)

    order = ("", *(p.id for p in kg.papers))
    spans: list[tuple[int, int]] = []
    nt = writer.stream(
        N_TRIPLES.file,
        lambda handle: spans.extend(write_blocks(handle, order, chunks)),
        N_TRIPLES.file not in files,
    )
    for paper, span in zip(order, spans, strict=True):
        if paper:
            n, types = before[paper] if paper in reuse else maker.made[paper]
            blocks.remember(keys[paper], {N_TRIPLES.file: span}, n, types)
        else:
            blocks.shared = span
    authors = any(p.authors for p in kg.papers)
    void = void_description(counts, extractor, authors).serialize(format="turtle")
    writer.write(VOID, void)
    blocks.reused = len(reuse)
    log.info("RDF: %d of %d paper blocks as the last build wrote them", len(reuse), len(keys))
    layout = Layout(order, keys, tuple(spans))
    changes = delta.delta() if delta is not None else None
    return Rdf(nt, layout, counts.triples, files, void.encode("utf-8"), changes)


class _Maker:
    """Makes the blocks of papers (`PaperBlocks.add`), each on its own, and counts them."""

    def __init__(self, papers: PaperBlocks, by_id: Mapping[str, Paper], counts: Counts) -> None:
        self.papers, self.by_id, self.counts = papers, by_id, counts
        self.made: dict[str, tuple[int, Counter[str]]] = {}  #: triples and types by paper
        self._ahead: dict[str, Block] = {}

    def make(self, paper: Paper) -> Block:
        one = Triples()
        self.papers.add(one, paper)
        block = one.blocks[-1]
        self.made[paper.id] = len(block.lines), block.types
        self.counts.add(len(block.lines), block.types)
        return block

    def ahead(self, papers: Iterable[Paper], up_to: int) -> None:
        """Make blocks in advance while the count is at most `up_to`."""
        for paper in papers:
            if self.counts.triples > up_to:
                break
            self._ahead[paper.id] = self.make(paper)

    def take(self, paper: str) -> Block:
        """The block of `paper`, made ahead or now."""
        block = self._ahead.pop(paper, None)
        return block if block is not None else self.make(self.by_id[paper])


def _delta_maker(
    blocks: BlockMemo, keys: Mapping[str, str], triples: int, shared: Block
) -> DeltaMaker | None:
    """What gathers the delta from the last build's store (`kg.builder.delta`), given the
    last build's blocks that may be gone (its shared block, the blocks of papers that
    changed or left) and this build's `shared` block; None without a store to update."""
    base = blocks.base_store()
    if base is None:
        return None
    old = blocks.old_blocks(keys.values())
    delta = DeltaMaker(base, triples, next(old), shared.lines)
    for data in old:
        delta.add_old(data)
    return delta
