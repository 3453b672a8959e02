"""Candidate names of an abstract, by how abstracts write names: many on purpose.

Each generator proposes spans and labels them with how it found them (SHAPE, LONG, TITLE,
...); the spans may overlap. Which of them are entities, and of what type, is decided
later from these labels and the words around them (`kg/extract/entity_features.py`).

Pure helpers over a Doc and its token texts; the spaCy component lives in `components.py`.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc

from kg.extract.abbreviations import find_abbreviations
from kg.extract.cues import load_cues
from kg.extract.name_forms import expand_slash, is_marker
from kg.extract.sentences import sentence_bounds
from kg.extract.shapes import is_name_shape
from kg.extract.texts import lowers, offsets, positions, text, urls
from kg.extract.texts import words as token_texts
from kg.extract.versions import run_version_end, versioned_names
from kg.extract.wordclass import OPEN_QUOTES, word_classes

#: doc.user_data key of the emphasised character ranges (`kg.extract.markup.Cleaned`)
EMPHASIS = "kg_emphasis"
#: head nouns that `kg.names.fold` drops from a name: "X dataset" is X
_NAMED_BY_FOLDING = load_cues().folded_name_suffixes  # kg/data/cues.json


#: what may follow the last name of a list
_LIST_ENDS = frozenset({".", ",", ";", ":", "(", ")"})


@dataclass(frozen=True)
class Candidate:
    """A span that may name an entity, and the generators that proposed it."""

    start: int  #: token offsets, end exclusive
    end: int
    labels: frozenset[str]
    name: str | None = None  #: a name the span stands for, where it is not its text


@dataclass(frozen=True)
class Abbreviation:
    """ "Long Form (LF)": token offsets of the long form and of the short form."""

    start: int
    end: int
    short: int


#: a lower-case word that ends a name's phrase: a modal verb or an adverb ("called neural
#: channel expansion can adapt …", "we introduce GlyphSynth publicly available, a dataset",
#: "we design reward functions related specifically to …")
_MODALS = frozenset({"can", "could", "may", "might", "will", "would", "should", "must"})
_ADVERB = re.compile(r"[a-z]{3,}(?:ally|ively|ously|ately|ently|antly|ibly|ably|icly)")


def _ends_phrase(word: str) -> bool:
    """Whether `word` (as written) ends the phrase of a name before it (first in a phrase,
    an adverb is part of the name: "distributionally robust value iteration")."""
    return word in _MODALS or bool(_ADVERB.fullmatch(word))


_YEAR = re.compile(r"(?:19|20)\d\d[a-z]?")


def _cites_authors(lower: list[str], end: int) -> bool:
    """Whether the words before token `end` are authors cited: a year in parentheses or
    "et al." follows them ("Zhang and Bansal (2021)"); no name of a method, model or
    dataset is written so."""
    after = lower[end : end + 3]
    if len(after) >= 2 and after[0] == "et" and after[1] in ("al.", "al"):
        return True
    return (
        len(after) == 3 and after[0] == "(" and after[2] == ")" and bool(_YEAR.fullmatch(after[1]))
    )


class CandidateFinder:
    """Every generator over one Doc; `find` returns candidates and acronym pairs."""

    def __init__(self) -> None:
        self.cues = load_cues()

    def find(self, doc: Doc) -> tuple[list[Candidate], list[Abbreviation]]:
        """The candidates of `doc` (sorted, one per span) and its acronym definitions."""
        words = token_texts(doc)
        lower = lowers(doc)
        starts = {s for s, _ in sentence_bounds(doc)}
        found: dict[tuple[int, int], set[str]] = {}
        names: dict[tuple[int, int], str] = {}

        def add(start: int, end: int, label: str, name: str | None = None) -> None:
            if 0 <= start < end <= len(words):
                found.setdefault((start, end), set()).add(label)
                if name is not None:
                    names[(start, end)] = name

        if Doc.has_extension("abbreviations"):
            pairs = [Abbreviation(*triple) for triple in doc._.abbreviations]
        else:
            pairs = [
                Abbreviation(long.start, long.end, short.start)
                for long, short in find_abbreviations(doc)
            ]
        for pair in pairs:
            add(pair.start, pair.end, "LONG")
            add(pair.short, pair.short + 1, "SHORT")
        # the token scans run as regular expressions over one character per token
        classes = word_classes(doc)
        shapes = classes.shape
        for m in _SHAPED.finditer(shapes):
            add(m.start(), m.start() + 1, _SHAPE_LABELS[m.group()])
        for start, end, label in self._phrases(words, lower, starts, classes.phrase):
            add(start, end, label)
        for start, end in self._proposal_phrases(words, lower, classes.role):
            add(start, end, "PROPOSAL")
        for start, end, label in self._called(words, lower):
            add(start, end, label)
        for start, end in _emphasised(doc):
            add(start, end, "EMPHASIS")
        if "/" in shapes:
            for start, end, name in self._slashed(words):
                add(start, end, "SLASH", name)
        # a descriptive name "used again": the other places its words are written
        repeated = [s for s, labels in found.items() if s[1] - s[0] > 1 and labels & _REPEATED]
        if repeated:
            body = text(doc).lower()
            at = offsets(doc)
            for start, end in repeated:
                for i in _repeats(body, at, lower, start, end):
                    add(i, i + end - start, "REPEAT")
        spans = [(a, b) for a, b, _ in urls(doc)]
        out = []
        for (start, end), labels in sorted(found.items()):
            own = names.get((start, end))
            short = "SHORT" in labels  # "instrumental variable (IV)": an acronym, no marker
            marker = end - start <= 3 and is_marker("".join(words[start:end]))
            if own is None and marker and not short:
                continue  # "(a)", "**(II)**", "**53** tasks", "$K$": no name
            if _cites_authors(lower, end):
                continue  # "Papernot and Steinke (2022) proposed", "Smith et al. show"
            if spans:
                at = offsets(doc)
                a, b = at[start], at[end - 1] + len(words[end - 1])
                if any(u < b and a < v for u, v in spans):
                    continue  # names only in a URL are not entities
            out.append(Candidate(start, end, frozenset(labels), own))
        return out, pairs

    def _phrases(
        self, words: list[str], lower: list[str], starts: set[int], classes: str
    ) -> Iterator[tuple[int, int, str]]:
        """Multi-word names: Title Case runs, model names with their variants (Llama 2
        7B), a capitalised name with its head noun (Sinkhorn method), names after
        "called"/"termed", quoted names, and capitalised words inside a sentence."""
        n = len(words)
        heads = self.cues.candidate_heads
        pos = 0
        while True:
            m = _RUN.search(classes, pos)
            if m is None:
                break
            i = m.start()
            last = _run_end(words, classes, i, m.end())
            if last > i:
                yield i, last + 1, "TITLE"
                # "Conjugate Integrators and Splitting Integrators": two names, each of
                # several words, joined by one "and" into one run: each is a candidate too
                # (not "Abstraction and Reasoning Corpus", "Light Detection and Ranging")
                joins = [k for k in range(i + 1, last) if lower[k] == "and"]
                if len(joins) == 1 and joins[0] - i > 1 and last - joins[0] > 1:
                    yield i, joins[0], "TITLE_PART"
                    yield joins[0] + 1, last + 1, "TITLE_PART"
                # Code Llama 7B, Stable Diffusion 2.1, Flash Attention 2: a version after it
                j = run_version_end(words, lower, i, last)
                if j is not None:
                    yield i, j, "VERSIONED"
            elif i not in starts and words[i].isalpha() and len(words[i]) > 2:
                yield i, i + 1, "CAPWORD"
            # a capitalised name and the generic noun it names: "Wilson Reject algorithm"
            # ("the X dataset" and "the X benchmark" name X, as the scorer folds them)
            if (
                last + 1 < n
                and lower[last + 1] in heads
                and words[last + 1].islower()
                and lower[last + 1] not in _NAMED_BY_FOLDING
            ):
                yield i, last + 2, "HEADED"
            pos = last + 1
        # Llama 2 7B, GPT 3.5-Turbo, Jais 13B, ERNIE-ViLG 2.0, WMT 2014: a name's version
        capitals = (m.start() for m in _CAPITAL.finditer(classes, 0, max(0, n - 1)))
        yield from versioned_names(words, lower, starts, capitals)
        for m in _CUE.finditer(classes, 0, max(0, n - 1)):
            i = m.start()
            if m.group() in "nN":
                yield from self._named(words, lower, i + 1)
            else:
                close = OPEN_QUOTES[words[i]]
                for j in range(i + 2, min(n, i + 8)):
                    if words[j] == close:
                        yield i + 1, j, "QUOTE"
                        break

    def _named(
        self, words: list[str], lower: list[str], start: int
    ) -> Iterator[tuple[int, int, str]]:
        """ "called X", "dubbed X", "termed as X", "called the X loss": the name that follows."""
        n = len(words)
        while start < n - 1 and lower[start] in self.cues.named_skip:
            start += 1
        if start < n and words[start] in OPEN_QUOTES:
            return  # the quoted name is found as a QUOTE
        if start < n and lower[start] in self.cues.proposal_np_stop:
            return  # "namely how many resources they demand": a clause, not a name
        end = start
        stop = self.cues.named_stop
        while end < n and end - start < 6:
            w = words[end]
            if not (w[:1].isalnum() or w.startswith(("-", "'"))) or lower[end] in stop:
                break
            if end > start and _ends_phrase(w):
                break
            if w in _DASHES:  # "referred to as BRAIn - Bayesian …": the name ends at a dash
                break
            end += 1
        if end > start:
            yield start, end, "NAMED"
            if end + 1 < n and lower[end] == "and":
                yield from self._named_second(words, lower, end + 1)

    def _named_second(
        self, words: list[str], lower: list[str], start: int
    ) -> Iterator[tuple[int, int, str]]:
        """ "namely node intervention and node merging, designed …": the second name after
        "and", when the list ends after it (a comma, a period, a parenthesis) and no word of
        it is a stop word ("called FooNet and show it works", "named X and we contribute two
        datasets" are clauses)."""
        n = len(words)
        while start < n - 1 and lower[start] in self.cues.named_skip:
            start += 1  # "namely the average loss and the maximum loss"
        stop = self.cues.named_stop
        end = start
        while end < n and end - start < 6 and words[end][:1].isalnum() and lower[end] not in stop:
            if lower[end] in STOP_WORDS or (end > start and _ends_phrase(words[end])):
                return
            end += 1
        if end > start and (end == n or words[end] in _LIST_ENDS):
            yield start, end, "NAMED"

    def _called(self, words: list[str], lower: list[str]) -> Iterator[tuple[int, int, str]]:
        """ "we call our approach X", "we name it X", "which we refer to as X": the name after
        a naming verb and its object."""
        n = len(words)
        for i in (i for i in positions(lower, self.cues.calling_verbs) if 1 <= i < n - 2):
            if lower[i] == "as":
                if lower[i - 1] == "to" and i > 1 and lower[i - 2] in self.cues.refer_verbs:
                    yield from self._named(words, lower, i + 1)
                continue
            if lower[i - 1] != "we":
                continue
            j = i + 1
            if lower[j] == "such" and lower[j + 1] in {"a", "an"}:
                j += 3  # "such a representation"
            elif lower[j] in {"our", "the", "this", "these"}:
                # "our approach X", "the resulting model X": one to three lower-case words,
                # then a capitalised name, else the words after the first ("our approach
                # loss shaping"); none ("we call the GPT-4 API once", "we call this Monte
                # Carlo Tree Search variant"), no name
                k = j + 1
                while k < n and k - j <= 3 and words[k].isalpha() and words[k].islower():
                    k += 1
                if k == j + 1:
                    continue
                j = k if k < n and _starts_name(words[k]) else j + 2
            elif lower[j] in {"it", "them"}:
                j += 1
            else:
                continue
            if j < n and (words[j][:1].isalnum() or words[j] in OPEN_QUOTES):
                yield from self._named(words, lower, j)

    def _proposal_phrases(
        self, words: list[str], lower: list[str], roles: str
    ) -> Iterator[tuple[int, int]]:
        """ "we introduce derivation graphs, which ...": the short noun phrase a proposal
        verb introduces, when no determiner says it is a description ("a new method")."""
        n = len(words)
        stop = self.cues.proposal_phrase_stop
        after = self.cues.proposal_phrase_after
        verbs = self.cues.proposal_verbs
        documents = self.cues.document_nouns
        proposers = self.cues.proposer_words | documents
        # a proposal verb's role class is v, or o, p, s for the words whose role comes first
        at = (m.start() for m in _ROLE_OF_VERB.finditer(roles, 1, max(1, n - 1)))
        for i in (i for i in at if lower[i] in verbs):
            if lower[i - 1] not in proposers:
                continue
            if lower[i - 1] in documents and lower[i] not in self.cues.document_verbs:
                continue  # "this paper proposes X", not "our work builds off …"
            start = i + 1
            end = start
            while end < n and end - start < 6 and _phrase_word(words[end]):
                if lower[end] in stop or (end > start and _ends_phrase(words[end])):
                    break
                end += 1
            if end == start or lower[start] in self.cues.proposal_np_stop:
                continue
            first = words[start]
            if first.islower() and first.endswith("ing") and end - start > 1:
                continue  # "we propose using X": a verb phrase
            if (lower[end] if end < n else ".") not in after:
                continue
            if end - start == 1 and first.islower():
                continue  # a single common word is no name
            yield start, end

    def _slashed(self, words: list[str]) -> Iterator[tuple[int, int, str]]:
        """AIME24/25 → AIME25, Qwen2.5-VL-3B/7B-Instruct → Qwen2.5-VL-7B-Instruct, AIME
        2024/2025 → AIME 2025: the name a slash abbreviates, on the span of its second
        part."""
        n = len(words)
        for i in range(1, n - 1):
            if words[i] != "/":
                continue
            first, second = words[i - 1], words[i + 1]
            if _EDITION.fullmatch(first) and _EDITION.fullmatch(second) and i >= 2:
                # AIME 2024/2025 → AIME 2025: a name whose last word is a year (not "1/8")
                if is_name_shape(words[i - 2]) and not words[i - 2][-1:].isdigit():
                    yield i + 1, i + 2, words[i - 2] + " " + second
                continue
            if not is_name_shape(first) or not second[:1].isalnum():
                continue
            name = expand_slash(first, second)
            if name is not None:
                yield i + 1, i + 2, name
                if "-" in second and name != first:
                    # the first part takes the second's tail: 3B/7B-Instruct → 3B-Instruct
                    tail = second[second.index("-") :]
                    if not first.endswith(tail):
                        yield i - 1, i, first + tail


#: a year, the last word of a name coordinated by a slash ("AIME 2024/2025")
_EDITION = re.compile(r"(19|20)\d\d")
#: a run of capitalised words: it starts at one that is no stop word, goes on over
#: capitalised words and compounds, and over "of", "for", "and" before a capitalised word
_RUN = re.compile(r"[ABN](?:[AaBbN]|[jk](?=[AaN]))*")
_CAPITAL = re.compile(r"[AaBbN]")
_CUE = re.compile(r"[nNq]")
_SHAPED = re.compile(r"[swm]")
_SHAPE_LABELS = {"s": "SHAPE", "w": "WEAK", "m": "FAMILY"}
_ROLE_OF_VERB = re.compile(r"[vops]")


def _starts_name(word: str) -> bool:
    """Whether a name may start with `word`: a capital, a digit or a quote ("FlowNet",
    "3D-Mol", "“Simulate-and-Reason”"), not a common word."""
    return word[:1].isupper() or any(c.isdigit() for c in word) or word in OPEN_QUOTES


def _phrase_word(word: str) -> bool:
    """A word of a proposal's noun phrase: letters, or a hyphenated compound."""
    return word.isalpha() or ("-" in word and len(word) > 1)


_DASHES = frozenset({"-", "–", "—", "--", "---"})

#: generators of multi-word names whose other occurrences are found too
_REPEATED = frozenset({"PROPOSAL", "LONG", "NAMED", "QUOTE", "EMPHASIS"})


def _repeats(body: str, at: list[int], lower: list[str], start: int, end: int) -> Iterator[int]:
    """Where else the words lower[start:end] are written, in any case (`body` is the
    lower-case text, `at` the tokens' offsets)."""
    phrase = lower[start:end]
    first = lower[start]
    pos = body.find(first)
    while pos >= 0:
        i = bisect_left(at, pos)
        if i < len(at) and at[i] == pos and i != start and lower[i : i + end - start] == phrase:
            yield i
        pos = body.find(first, pos + 1)


def _run_end(words: list[str], classes: str, start: int, end: int) -> int:
    """The last token of the run that `_RUN` found at [start, end): at most ten tokens,
    ending on a capitalised word, and cut before a joiner next to a coined name ("Qwen3-4B
    and Llama" is a list, "FooNet on MATH500" two names; "Modal-Preserving and
    Interaction-Driven Fusion Network" is one)."""
    last = start
    for j in range(start + 1, min(end, start + 10)):
        c = classes[j]
        if c in "jk" and (is_name_shape(words[j - 1]) or is_name_shape(words[j + 1])):
            break  # "FooNet on MATH500": a joiner between coined names parts them
        if c not in "jk":
            last = j
    return last


def _emphasised(doc: Doc) -> Iterator[tuple[int, int]]:
    """Tokens under `**…**`, `\\textbf{…}`: a whole emphasised phrase, or the words whose
    letters are emphasised one by one (**Temp**oral **M**otifs **E**xplainer)."""
    ranges = doc.user_data.get(EMPHASIS) or ()
    if not ranges:
        return
    partial: set[int] = set()
    for a, b in ranges:
        span = doc.char_span(a, b, alignment_mode="expand")
        if span is None or not len(span):
            continue
        whole = span.start_char == a and span.end_char == b
        if whole and len(span) <= 8:
            yield span.start, span.end
        elif not whole and len(span) <= 2:
            partial.update(range(span.start, span.end))
    run: list[int] = []
    for i in sorted(partial):
        if run and i != run[-1] + 1:
            if len(run) > 1:
                yield run[0], run[-1] + 1
            run = []
        run.append(i)
    if len(run) > 1:
        yield run[0], run[-1] + 1
