"""Look-ups by token, computed once per Doc: sentences (spaCy's `Span.sent` walks each
time), and token texts (a spaCy Token object made for each read costs more than the text;
the rules read them many times)."""

from __future__ import annotations

from spacy.attrs import LOWER, ORTH, SPACY
from spacy.tokens import Doc


def words(doc: Doc) -> list[str]:
    """The text of every token."""
    return _strings(doc, ORTH, "kg_words")


def lowers(doc: Doc) -> list[str]:
    """The lower-case text of every token (`Token.lower_`)."""
    return _strings(doc, LOWER, "kg_lowers")


def _strings(doc: Doc, attr: int, key: str) -> list[str]:
    found = doc.user_data.get(key)
    if found is None:
        strings = doc.vocab.strings
        found = doc.user_data[key] = [strings[h] for h in doc.to_array(attr).tolist()]
    return found


def text(doc: Doc) -> str:
    """The Doc's text (`Doc.text`, which joins a Token object per token)."""
    spaces = doc.to_array(SPACY).tolist() if len(doc) else []
    return "".join(w + " " if space else w for w, space in zip(words(doc), spaces, strict=True))


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
