"""Schwartz & Hearst (2003) acronym detection: "Long Form Words (LFW)" pairs in a Doc.

Pure helpers; the spaCy component lives in `components.py`.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

from spacy.tokens import Doc, Span

from kg.extract.cues import load_cues
from kg.extract.sentences import sentence_bounds
from kg.extract.texts import offsets, positions, span_text, words


@lru_cache(maxsize=65536)
def _valid_short(text: str) -> bool:
    """Whether a token may be a short form (read for the word before every comma and
    parenthesis: kept by word)."""
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


#: words a long form may pass over without spelling a letter of its short form
_SKIPPED = frozenset(
    {"of", "for", "and", "in", "on", "with", "to", "the", "a", "an", "by", "from", "&"}
)
#: digits of a short form that stand for a word: T2T "Training to Testing", P4 "for"
_DIGIT_WORDS = {"2": frozenset({"to", "two"}), "4": frozenset({"for", "four"})}


@lru_cache(maxsize=65536)
def _letters(short: str) -> str:
    """What a short form's initials spell: its capitals and digits when it mixes cases
    (AraDiCE: ADCE, LLMs: LLM), else every letter and digit."""
    alnum = [c for c in short if c.isalnum()]
    if any(c.isupper() for c in alnum) and any(c.islower() for c in alnum):
        return "".join(c.lower() for c in alnum if c.isupper() or c.isdigit())
    return "".join(alnum).lower()


def spelled_by_initials(short: str, tokens: list[str]) -> int | None:
    """How many of `tokens` spell `short` by their initials, from the first ("Annotator Aware
    Representations for Texts" for AART, "Multi - Objective Prompt Optimization" for MOPO,
    "Chinese Dynamic QA" for CDQA, "Training to Testing" for T2T), or None.

    Each word gives its first letter (or all of an upper-case word's); the parts of a
    hyphenated word are words; "of", "for", "and" ... may give none; a digit may stand for
    a word ("2": to). The first token spells; no token is left between letters."""
    letters = _letters(short)
    if len(letters) < 2:
        return None
    stack = [(0, 0)]  # (letters spelled, tokens read): depth-first, the shortest first
    seen: set[tuple[int, int]] = set()
    while stack:
        i, j = stack.pop()
        if i == len(letters):
            return j
        if j >= len(tokens) or (i, j) in seen:
            continue
        seen.add((i, j))
        token = tokens[j]
        if token == "-" and j > 0:
            stack.append((i, j + 1))
            continue
        if not token[:1].isalnum():
            continue
        lower = token.lower()
        if i > 0 and lower in _SKIPPED:
            stack.append((i, j + 1))
        for spelled in _spellings(token, lower):
            if letters.startswith(spelled, i):
                stack.append((i + len(spelled), j + 1))
        if lower in _DIGIT_WORDS.get(letters[i], ()):
            stack.append((i + 1, j + 1))
    return None


def _spellings(token: str, lower: str) -> list[str]:
    """What one token may spell, the longest first: all of an upper-case word (QA), its
    parts' initials (Multi-Objective: mo), its initial. The search takes the last first, so
    the initial alone is tried first ("KPrune (Knowledge-preserving pruning)" is spelled by
    both words); a fixed order, not a set's, so that the same text is read the same way in
    every process (a set of strings is ordered by the process's hash seed)."""
    out = [lower[0]]
    if "-" in token:
        parts = "".join(part[0] for part in lower.split("-") if part)
        if parts not in out:
            out.append(parts)
    if token.isupper() and len(token) > 1 and lower not in out:
        out.append(lower)
    return sorted(out, key=len, reverse=True)


def _initials_before(word: list[str], short: str, first: int, before: int) -> int | None:
    """The start of the long form that ends at `before` and spells `short` by its initials,
    the nearest such start at or after `first`. Only for a short form in capitals (AART): the
    capitals of fMRI or pNML leave out what their small letters spell ("functional"), so
    Schwartz–Hearst's letters read those; a lower-case word never starts a long form whose
    other words are capitalised ("we propose Graph Attention ...")."""
    if _mixed_case(short):
        return None
    for k in range(before - 1, first - 1, -1):
        if spelled_by_initials(short, word[k:before]) == before - k:
            if word[k][:1].islower() and any(w[:1].isupper() for w in word[k + 1 : before]):
                return None
            return k
    return None


def _mixed_case(short: str) -> bool:
    """Whether a short form mixes cases other than a plural's s (fMRI, AraDiCE; not LLMs)."""
    body = short[:-1] if len(short) > 2 and short.endswith("s") else short
    return any(c.isupper() for c in body) and any(c.islower() for c in body)


def _spells(short: str, long: str) -> int | None:
    """`best_long_form`, and again without the short form's digits (A2PR, P2T: a digit
    often stands for a repeated letter or a word such as "to")."""
    found = best_long_form(short, long)
    if found is None and any(c.isdigit() for c in short):
        letters = "".join(c for c in short if not c.isdigit())
        if sum(c.isalpha() for c in letters) >= 2:
            found = best_long_form(letters, long)
    return found


#: words that introduce a short form after its long form: "X, or Y", "(abbreviated as Y)"
_SHORT_INTRODUCERS = load_cues().short_form_introducers  # kg/data/cues.json


#: the quotes a short form may stand in: 'Long Form ("SHORT")'
_QUOTES = frozenset({'"', "'", "“", "”", "‘", "’", "``", "''"})
#: words that give a short form after its long form and a comma: "Long Form, or SHORT",
#: "Long Form, dubbed SHORT"; fewer than cues.json's naming cues: "named" and "namely"
#: name a thing more often than they define an acronym ("a principled offline-to-online
#: IL method, named OLLIE", "pixel-level learning framework, namely PiXL": 4 pool abstracts)
_NAMERS = frozenset({"or", "Or", "dubbed", "termed", "called", "coined", "abbreviated"})

#: the tokens a pattern starts at
_TRIGGERS = frozenset({"(", "stands", ",", *_NAMERS})


def find_abbreviations(doc: Doc) -> list[tuple[Span, Span]]:
    """Every (long form, short form) pair: "Long Form (SHORT)", "SHORT (Long Form)",
    "SHORT (short for Long Form)", "Long Form, or SHORT", "Long Form (abbreviated as SHORT)"."""
    pairs: list[tuple[Span, Span]] = []
    word = words(doc)
    n = len(word)
    triggers = positions(word, _TRIGGERS)
    if not triggers:
        return pairs
    starts = [start for start, _ in sentence_bounds(doc)]
    for i in triggers:
        text = word[i]
        if text == "(" and 0 < i and i + 1 < n:
            close = next((j for j in range(i + 1, min(n, i + 16)) if word[j] in ");"), None)
            if close is None:
                continue
            inner = [
                j
                for j in range(i + 1, close)
                if word[j].lower() not in _SHORT_INTRODUCERS and word[j] not in _QUOTES
            ]
            quoted = close - i == 4 and word[i + 1] in _QUOTES and word[close - 1] in _QUOTES
            if (
                close == i + 2
                or quoted
                or (len(inner) == 1 and inner[0] == close - 1 and close - i <= 4)
            ):
                # "Long Form (SHORT)", "Long Form (abbreviated as SHORT)", "Long Form
                # ("SHORT")", "Long Form, (SHORT)"
                before = i - 1 if word[i - 1] == "," else i
                at = close - 2 if quoted else close - 1
                pair = _long_before(doc, word, at, before, _start_of(starts, i))
                if pair is not None:
                    pairs.append(pair)
            elif close - i - 1 >= 2 and (short_i := _short_before(word, i)) is not None:
                # "SHORT (Long Form)", "SHORT (short for Long Form)", "the SHORT method
                # (Long Form)": the parenthesis spells the name before it
                pair = _long_inside(doc, short_i, _after_introducer(word, i + 1, close), close)
                if pair is not None:
                    pairs.append(pair)
        elif text == "," and 0 < i < n - 2 and _valid_short(word[i - 1]):
            # "MOPO, a Multi-Objective Prompt Optimization methodology", "AraDiCE, a
            # benchmark for Arabic Dialect and Cultural Evaluation": spelled by initials
            pair = _long_apposed(doc, word, i - 1, i + 1)
            if pair is not None:
                pairs.append(pair)
        elif text == "stands" and i + 2 < n and word[i + 1].lower() == "for":
            # "BERT, which stands for Bidirectional Encoder Representations from Transformers"
            short_i = next(
                (j for j in range(i - 1, max(-1, i - 4), -1) if _valid_short(word[j])), None
            )
            pair = _long_after(doc, word, short_i, i + 2) if short_i is not None else None
            if pair is not None:
                pairs.append(pair)
        elif (
            text in _NAMERS
            and i > 1
            and word[i - 1] == ","
            and i + 1 < n
            and _valid_short(word[i + 1])
            and (i + 2 >= n or not word[i + 2][:1].isalnum())
        ):
            # "Long Form, or SHORT", "Structured Activation Sparsification, dubbed SAS, ..."
            pair = _long_before(doc, word, i + 1, i - 1, _start_of(starts, i))
            if pair is not None:
                pairs.append(pair)
    return pairs


#: words that open a parenthesis giving the long form of the name before it:
#: "MFTPL-P (abbreviation for Mixed Follow the Perturbed Leader)", "NSFW (i.e. not safe …)"
_LONG_INTRODUCERS = (
    ("short", "for"),
    ("abbreviation", "for"),
    ("abbreviated", "from"),
    ("stands", "for"),
    ("standing", "for"),
    ("i.e.",),
    ("i.e", "."),
    ("ie",),
    ("ie", "."),
)


def _after_introducer(word: list[str], start: int, end: int) -> int:
    """The token after the words that introduce a long form at `start` (`start` if none)."""
    for words_ in _LONG_INTRODUCERS:
        stop = start + len(words_)
        if stop < end and tuple(w.lower() for w in word[start:stop]) == words_:
            return stop + (word[stop] == ",")
    return start


def _start_of(starts: list[int], i: int) -> int:
    """The start of the sentence of token `i`, of the sentences that start at `starts`."""
    return starts[bisect_right(starts, i) - 1]


def _long_before(
    doc: Doc, word: list[str], short_i: int, before: int, sent_start: int
) -> tuple[Span, Span] | None:
    """The long form that ends at token `before` (exclusive) and spells token `short_i`."""
    short = word[short_i]
    if not _valid_short(short) or before <= 0:
        return None
    n_chars = len([c for c in short if c.isalnum()])
    window_start = max(sent_start, before - min(n_chars + 5, n_chars * 2))
    # never reach back over punctuation that closes a clause
    for k in range(before - 1, window_start - 1, -1):
        if word[k] in {",", ";", ":", "(", ")", "."} or word[k].startswith("*"):
            window_start = k + 1
            break
    if window_start >= before:
        return None
    initial = _initials_before(word, short, window_start, before)
    long: Span | None
    if initial is not None:  # "Annotator Aware Representations for Texts (AART)"
        long = doc[initial:before]
    else:  # Schwartz–Hearst: "vector quantization variational autoencoder (VQ-VAE)"
        # the window's text and character offsets, read without making its Span and Tokens
        start_char = _spells(short, span_text(doc, window_start, before))
        if start_char is None:
            return None
        at = offsets(doc)
        long = doc.char_span(
            at[window_start] + start_char,
            at[before - 1] + len(word[before - 1]),
            alignment_mode="expand",
        )
        # "Decomposed Prompt Tuning framework (DePT)": a head noun after the words that
        # spell the short form is no part of its long form
        if (
            long is not None
            and len(long) > 2
            and word[long.end - 1].lower() in _HEADS
            and _spells(short, long[:-1].text) == 0
        ):
            long = long[:-1]
    if long is None or len(long) < 2 and long.text.lower() == short.lower():
        return None
    if long.text.lower().startswith(("the ", "a ", "an ", "our ", "we ")):
        long = long[1:]
    if len(long) and long[0].is_lower and long[0].text in {"of", "and", "for", "in", "on"}:
        return None
    return (long, doc[short_i : short_i + 1]) if len(long) else None


def _long_after(doc: Doc, word: list[str], short_i: int, start: int) -> tuple[Span, Span] | None:
    """The long form from token `start` that spells token `short_i`, up to the last word
    that begins with one of its letters, before any punctuation."""
    short = word[short_i]
    letters = {c.lower() for c in short if c.isalpha()}
    best = None
    for end in range(start + 1, min(len(word), start + 13) + 1):
        if not word[end - 1][:1].isalnum():
            break
        if word[end - 1][:1].lower() in letters and _spells(short, doc[start:end].text) == 0:
            best = end
    if best is None or best - start < 2:
        return None
    return doc[start:best], doc[short_i : short_i + 1]


_HEADS = frozenset(load_cues().type_heads)
_ARTICLES = load_cues().articles  # kg/data/cues.json


def _short_before(word: list[str], open_: int) -> int | None:
    """The short form a parenthesis at `open_` may spell: the token before it, or the one
    before a head noun ("the DORA method (Dynamic and Optimized Reflection Advice)")."""
    if _valid_short(word[open_ - 1]):
        return open_ - 1
    if open_ > 1 and word[open_ - 1] in _HEADS and _valid_short(word[open_ - 2]):
        return open_ - 2
    return None


def _long_apposed(doc: Doc, word: list[str], short_i: int, start: int) -> tuple[Span, Span] | None:
    """ "SHORT, a Long Form ...": the long form after an article, and after a head noun with
    "for" or "of", spelled by its initials and capitalised."""
    if word[start].lower() not in _ARTICLES:  # "On MATH, Minerva Achieves Top Human ..."
        return None
    at = start + 1
    if at + 2 < len(word) and word[at] in _HEADS and word[at + 1] in ("for", "of"):
        at += 2
    end = next((j for j in range(at, min(len(word), at + 14)) if word[j] in _CLAUSE_ENDS), None)
    tokens = word[at : end if end is not None else min(len(word), at + 14)]
    if not tokens or not tokens[0][:1].isupper() or tokens[0] == word[short_i]:
        return None
    if len(_letters(word[short_i])) < 3:  # "AdaR, an Adaptive Recurrent graph model": AR
        return None  # is too little to tell an acronym from a name that shares two initials
    spelled = spelled_by_initials(word[short_i], tokens)
    if spelled is None or spelled < 2:
        return None
    return doc[at : at + spelled], doc[short_i : short_i + 1]


_CLAUSE_ENDS = frozenset({",", ";", ":", "(", ")", ".", "!", "?"})


def _part_spells(short: str, long: str) -> bool:
    """Whether `long` spells the part of `short` after its last hyphen, in two capitals or
    more: "CLIP-MAD (Manipulating Assumed Difference)" names what MAD builds on."""
    last = short.rsplit("-", 1)[-1]
    return last != short and sum(c.isupper() for c in last) >= 2 and _spells(last, long) == 0


def _long_inside(doc: Doc, short_i: int, start: int, end: int) -> tuple[Span, Span] | None:
    """ "SHORT (Long Form)": the parenthesis from its first word spells the short form."""
    short = doc[short_i]
    inside = doc[start:end]
    if _spells(short.text, inside.text) != 0 and not _part_spells(short.text, inside.text):
        spelled = spelled_by_initials(short.text, words(doc)[start:end])
        if spelled is None:  # "T2T (Training to Testing)"
            return None
        inside = doc[start : start + spelled]
    # a word is any token with a letter: "Relation-aware Encoder-Decoder (ReED)" has two
    if sum(1 for t in inside if any(c.isalpha() for c in t.text)) < 2 or inside[-1].is_punct:
        return None
    return inside, doc[short_i : short_i + 1]
