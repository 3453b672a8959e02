"""Token texts, read once per Doc: a spaCy Token object made for each read costs more
than the text, and the rules read them many times."""

from __future__ import annotations

import re

from spacy.attrs import IDX, ORTH, SPACY
from spacy.tokens import Doc


def offsets(doc: Doc) -> list[int]:
    """The character offset of every token (`Token.idx`)."""
    found = doc.user_data.get("kg_offsets")
    if found is None:
        found = doc.user_data["kg_offsets"] = doc.to_array(IDX).tolist() if len(doc) else []
    return found


def words(doc: Doc) -> list[str]:
    """The text of every token."""
    return _strings(doc, ORTH, "kg_words")


def lowers(doc: Doc) -> list[str]:
    """The lower-case text of every token (`Token.lower_`, which is `str.lower`)."""
    found = doc.user_data.get("kg_lowers")
    if found is None:
        found = doc.user_data["kg_lowers"] = [w.lower() for w in words(doc)]
    return found


def _strings(doc: Doc, attr: int, key: str) -> list[str]:
    found = doc.user_data.get(key)
    if found is None:
        strings = doc.vocab.strings
        found = doc.user_data[key] = [strings[h] for h in doc.to_array(attr).tolist()]
    return found


def _with_space(doc: Doc) -> list[str]:
    """Every token's text with the whitespace after it."""
    found = doc.user_data.get("kg_with_space")
    if found is None:
        spaces = doc.to_array(SPACY).tolist() if len(doc) else []
        found = doc.user_data["kg_with_space"] = [
            w + " " if space else w for w, space in zip(words(doc), spaces, strict=True)
        ]
    return found


#: doc.user_data key of the Doc's text, where its maker knows it
TEXT = "kg_text"


def text(doc: Doc) -> str:
    """The Doc's text (`Doc.text`, which joins a Token object per token)."""
    known = doc.user_data.get(TEXT)
    if known is None:
        known = doc.user_data[TEXT] = "".join(_with_space(doc))
    return known


def span_text(doc: Doc, start: int, end: int) -> str:
    """The text of tokens [start, end) (`doc[start:end].text`, without a Span)."""
    if end - start == 1:
        return words(doc)[start]
    return "".join(_with_space(doc)[start : end - 1]) + words(doc)[end - 1]


_URL = re.compile(r"(https?://|www\.)\S+")


def urls(doc: Doc) -> list[tuple[int, int, str]]:
    """(start, end, text) of every URL in the Doc's text, found once."""
    found = doc.user_data.get("kg_urls")
    if found is None:
        body = text(doc)
        found = doc.user_data["kg_urls"] = (
            [(m.start(), m.end(), m.group(0)) for m in _URL.finditer(body)]
            if "http" in body or "www." in body
            else []
        )
    return found
