"""Token texts, read once per Doc: a spaCy Token object made for each read costs more
than the text, and the rules read them many times."""

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
