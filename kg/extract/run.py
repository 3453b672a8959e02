"""Running the pipeline: abstracts in, `Extraction` records out, in order."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc

from kg.collector import collector_paused
from kg.extract.candidates import EMPHASIS
from kg.extract.markup import Cleaned, strip_markup
from kg.extract.pieces import join, pieces
from kg.extract.pipeline import make_nlp, models_of
from kg.extract.records import doc_to_extraction
from kg.extract.texts import TEXT
from kg.model import Extraction, Paper


def iter_extract(
    papers: Iterable[Paper], nlp: Language | None = None, *, batch_size: int = 64
) -> Iterator[Extraction]:
    """Extractions of `papers`, one by one and in order, as the pipeline reads them."""
    nlp = nlp or make_nlp()
    papers = list(papers)
    # a very long text is read in pieces (kg/extract/pieces.py); an abstract is one piece
    cut = [pieces(p) for p in papers]
    flat = [piece for parts in cut for _, piece in parts]
    cleaned = [strip_markup(p.text) for p in flat]
    docs = nlp.pipe(_make_docs(nlp, cleaned), batch_size=batch_size)
    models = models_of(nlp)
    read = zip(flat, cleaned, docs, strict=True)
    for paper, parts in zip(papers, cut, strict=True):
        done = []
        for (offset, _), (piece, clean, doc) in zip(parts, read, strict=False):
            done.append((offset, doc_to_extraction(doc, piece, clean, models)))
            # the Spans kept in user_data refer back to their Doc: without them the Doc is
            # freed now, not by a garbage collection that grows with the build
            doc.user_data.clear()
        yield join(paper, done)


def _make_docs(nlp: Language, cleaned: Iterable[Cleaned]) -> Iterator[Doc]:
    """Tokenised clean texts, each with its emphasised runs (`**X**`, `\\textbf{X}`)."""
    for clean in cleaned:
        doc = nlp.make_doc(clean.text)
        doc.user_data[TEXT] = clean.text  # Doc.text joins a Token object per token
        if clean.emphasis:
            doc.user_data[EMPHASIS] = clean.emphasis
        yield doc


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
    with collector_paused():
        for done, ex in enumerate(iter_extract(papers, nlp, batch_size=batch_size), 1):
            out.append(ex)
            if on_progress is not None:
                on_progress(done)
    return out
