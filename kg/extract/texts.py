"""Token texts, read once per Doc: a spaCy Token object made for each read costs more
than the text, and the rules read them many times."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from spacy.attrs import IDX, ORTH, SPACY
from spacy.strings import StringStore
from spacy.tokens import Doc

#: the words between the names of a plain list ("A, B and C", "A or B")
LIST_WORDS = frozenset({",", "and", "or"})


def offsets(doc: Doc) -> list[int]:
    """The character offset of every token (`Token.idx`)."""
    found = doc.user_data.get("kg_offsets")
    if found is None:
        found = doc.user_data["kg_offsets"] = doc.to_array(IDX).tolist() if len(doc) else []
    return found


def words(doc: Doc) -> list[str]:
    """The text of every token."""
    found = doc.user_data.get("kg_words")
    if found is None:
        strings = doc.vocab.strings
        texts = _TEXTS.get(strings)
        if texts is None:
            if len(_TEXTS) >= 4:
                _TEXTS.clear()
            texts = _TEXTS[strings] = Known(strings.__getitem__)
        # the offsets too, in the same call (every Doc's are read)
        hashes, at = doc.to_array([ORTH, IDX]).T.tolist() if len(doc) else ([], [])
        doc.user_data.setdefault("kg_offsets", at)
        found = doc.user_data["kg_words"] = list(map(texts.__getitem__, hashes))
    return found


def lowers(doc: Doc) -> list[str]:
    """The lower-case text of every token (`Token.lower_`, which is `str.lower`)."""
    found = doc.user_data.get("kg_lowers")
    if found is None:
        found = doc.user_data["kg_lowers"] = list(map(_LOWERS.__getitem__, words(doc)))
    return found


def positions(tokens: list[str], wanted: frozenset[str] | set[str]) -> list[int]:
    """The indices of the tokens that are in `wanted`, in order (the tokens are scanned in
    C: by the set intersection, then by `list.index` for each word found)."""
    out: list[int] = []
    for word in wanted.intersection(tokens):
        i = tokens.index(word)
        while True:
            out.append(i)
            try:
                i = tokens.index(word, i + 1)
            except ValueError:
                break
    out.sort()
    return out


class Known(dict):
    """`make(key)` by key, made once and kept (all forgotten when the cache is full): most
    words of an abstract were read before."""

    LIMIT = 1 << 18  #: as many as the largest lru_cache of the extractor keeps

    def __init__(self, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> Any:
        if len(self) > self.LIMIT:
            self.clear()
        value = self[key] = self.make(key)
        return value


#: a word's text by its hash, per StringStore (a string read from the store is decoded anew
#: each time, its hash not yet known), and a word's lower case
_TEXTS: dict[StringStore, Known] = {}
_LOWERS = Known(str.lower)


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
    parts = doc.user_data.get("kg_span_parts")
    if parts is None:  # what every call reads, looked up once per Doc
        parts = doc.user_data["kg_span_parts"] = (words(doc), offsets(doc), text(doc))
    token, at, body = parts
    if end - start == 1:
        return token[start]
    # the Doc's text from the first token to the end of the last (a Doc's text is its
    # tokens, each with the one space that follows it, if any)
    return body[at[start] : at[end - 1] + len(token[end - 1])]


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
