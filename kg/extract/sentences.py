"""Sentence look-ups by token, computed once per Doc (spaCy's `Span.sent` walks each time)."""

from __future__ import annotations

from spacy.attrs import SENT_START
from spacy.tokens import Doc

#: doc.user_data key of the sentence bounds (set by kg_sentences, else read off SENT_START)
SENTENCE_BOUNDS = "kg_sentence_bounds"


def sentence_bounds(doc: Doc) -> list[tuple[int, int]]:
    """(start, end) token offsets of every sentence, in order (read off the SENT_START
    array: iterating `doc.sents` makes a Token object per token)."""
    bounds = doc.user_data.get(SENTENCE_BOUNDS)
    if bounds is None:
        if not len(doc):
            bounds = []
        elif doc.has_annotation("SENT_START"):
            flags = doc.to_array(SENT_START).tolist()
            starts = [0] + [i for i in range(1, len(flags)) if flags[i] == 1]
            bounds = list(zip(starts, [*starts[1:], len(doc)], strict=True))
        else:
            bounds = [(0, len(doc))]
        doc.user_data[SENTENCE_BOUNDS] = bounds
    return bounds


def sentence_of(doc: Doc) -> list[int]:
    """The sentence number of every token."""
    index = doc.user_data.get("kg_sentence_of")
    if index is None:
        index = [0] * len(doc)
        for n, (start, end) in enumerate(sentence_bounds(doc)):
            index[start:end] = [n] * (end - start)
        doc.user_data["kg_sentence_of"] = index
    return index
