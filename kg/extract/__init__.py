"""Extraction: abstracts in, `Extraction` records out. No spaCy object leaves this package."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from spacy.language import Language

from kg.extract.markup import blank_markup
from kg.extract.pipeline import EXTRACTOR_VERSION, make_nlp
from kg.extract.records import doc_to_extraction
from kg.model import Extraction, Paper

__all__ = ["EXTRACTOR_VERSION", "extract", "iter_extract", "make_nlp"]


def iter_extract(
    papers: Iterable[Paper], nlp: Language | None = None, *, batch_size: int = 64
) -> Iterator[Extraction]:
    """Extractions of `papers`, one by one and in order, as the pipeline reads them."""
    nlp = nlp or make_nlp()
    papers = list(papers)
    docs = nlp.pipe((blank_markup(p.text) for p in papers), batch_size=batch_size)
    for paper, doc in zip(papers, docs, strict=True):
        yield doc_to_extraction(doc, paper)


def extract(
    papers: Iterable[Paper],
    nlp: Language | None = None,
    *,
    batch_size: int = 64,
    on_progress: Callable[[int], None] | None = None,
) -> list[Extraction]:
    """Run the pipeline over `papers`, in order.

    Args:
        papers: the abstracts to read.
        nlp: a pipeline from `make_nlp` (built here when None).
        batch_size: documents per `nlp.pipe` batch.
        on_progress: called with the number of papers done so far.

    Returns:
        One `Extraction` per paper, in the order given.
    """
    out = []
    for done, ex in enumerate(iter_extract(papers, nlp, batch_size=batch_size), 1):
        out.append(ex)
        if on_progress is not None:
            on_progress(done)
    return out
