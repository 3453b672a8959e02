"""Schwartz & Hearst (2003) acronym detection: "Long Form Words (LFW)" pairs in a Doc.

Pure helpers; the spaCy component lives in `components.py`.
"""

from __future__ import annotations

from spacy.tokens import Doc, Span

from kg.extract.texts import words


def _valid_short(text: str) -> bool:
    return (
        2 <= len(text) <= 12
        and text[0].isalnum()
        and any(c.isalpha() for c in text)
        and any(c.isupper() for c in text)
        and " " not in text
    )


def best_long_form(short: str, long: str) -> int | None:
    """Start index (in `long`) of the shortest suffix whose letters spell `short`.

    The Schwartz–Hearst rule: each character of the short form, right to left, is found in
    the long form; the first one must begin a word. Returns None when none spells it.
    """
    s, j = len(short) - 1, len(long) - 1
    while s >= 0:
        c = short[s].lower()
        if not c.isalnum():
            s -= 1
            continue
        while j >= 0 and (long[j].lower() != c or (s == 0 and j > 0 and long[j - 1].isalnum())):
            j -= 1
        if j < 0:
            return None
        j -= 1
        s -= 1
    start = long.rfind(" ", 0, j + 1) + 1
    return start


def find_abbreviations(doc: Doc) -> list[tuple[Span, Span]]:
    """Every (long form, short form) pair written as "long form (SHORT)" in `doc`."""
    pairs: list[tuple[Span, Span]] = []
    word = words(doc)
    for i, text in enumerate(word):
        if text != "(" or i + 2 >= len(doc) or word[i + 2] not in ");,":
            continue
        token, short = doc[i], doc[i + 1]
        if not _valid_short(short.text) or token.i == 0:
            continue
        sent_start = token.sent.start if doc.has_annotation("SENT_START") else 0
        n_chars = len([c for c in short.text if c.isalnum()])
        window_start = max(sent_start, token.i - min(n_chars + 5, n_chars * 2))
        # never reach back over punctuation that closes a clause
        for i in range(token.i - 1, window_start - 1, -1):
            if doc[i].text in {",", ";", ":", "(", ")", "."} or doc[i].text.startswith("*"):
                window_start = i + 1
                break
        window = doc[window_start : token.i]
        if not len(window):
            continue
        start_char = best_long_form(short.text, window.text)
        if start_char is None:
            continue
        long = doc.char_span(
            window.start_char + start_char, window.end_char, alignment_mode="expand"
        )
        if long is None or len(long) < 2 and long.text.lower() == short.text.lower():
            continue
        if long.text.lower().startswith(("the ", "a ", "an ", "our ", "we ")):
            long = long[1:]
        if len(long) and long[0].is_lower and long[0].text in {"of", "and", "for", "in", "on"}:
            continue
        if len(long):
            pairs.append((long, doc[short.i : short.i + 1]))
    return pairs
