"""Sentence look-ups by token, computed once per Doc (spaCy's `Span.sent` walks each time)."""

from __future__ import annotations

from spacy.tokens import Doc


def sentence_bounds(doc: Doc) -> list[tuple[int, int]]:
    """(start, end) token offsets of every sentence, in order."""
    bounds = doc.user_data.get("kg_sentence_bounds")
    if bounds is None:
        bounds = doc.user_data["kg_sentence_bounds"] = [(s.start, s.end) for s in doc.sents]
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
