"""kg's spaCy components, registered with `@Language.factory`; the logic lives in helpers.

Pipeline order: sentencizer → kg_abbreviations → kg_lexicon → kg_candidates → kg_entities.
Each component reads and writes `doc.spans[...]` or `doc.ents`, so any of them can be
inspected on its own.
"""

from __future__ import annotations

import re
from pathlib import Path

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span, Token
from spacy.util import filter_spans

from kg.extract.abbreviations import find_abbreviations
from kg.extract.cues import load_cues
from kg.extract.sentences import sentence_of
from kg.extract.shapes import is_name_shape, is_weak_name_shape
from kg.extract.texts import text as doc_text
from kg.extract.texts import words as token_texts
from kg.extract.typing_rules import decide_type
from kg.lexicon import Concept, default_lexicon, load_lexicon
from kg.model import EntityType
from kg.names import fold

_URL = re.compile(r"(https?://|www\.)\S+")

ABBREVIATIONS = "kg_abbreviations"
LEXICON = "kg_lexicon"
CANDIDATES = "kg_candidates"
TYPE_EVIDENCE = "kg_type_evidence"

if not Doc.has_extension("abbreviations"):
    Doc.set_extension("abbreviations", default=[])


@Language.factory("kg_abbreviations")
def make_abbreviations(nlp: Language, name: str) -> AbbreviationDetector:
    """Schwartz–Hearst "Long Form (LF)" pairs into `doc._.abbreviations`."""
    return AbbreviationDetector()


class AbbreviationDetector:
    """Finds acronym definitions; long and short forms go to `doc.spans["kg_abbreviations"]`."""

    def __call__(self, doc: Doc) -> Doc:
        pairs = find_abbreviations(doc)
        doc._.abbreviations = [(long.start, long.end, short.start) for long, short in pairs]
        doc.spans[ABBREVIATIONS] = [long for long, _ in pairs] + [s for _, s in pairs]
        return doc


@Language.factory("kg_lexicon", default_config={"path": ""})
def make_lexicon(nlp: Language, name: str, path: str) -> LexiconMatcher:
    """Known entities of ontology/lexicon.ttl (or `path`) into `doc.spans["kg_lexicon"]`."""
    concepts = load_lexicon(Path(path)) if path else default_lexicon()
    return LexiconMatcher(nlp, concepts)


class LexiconMatcher:
    """Exact matches of lexicon labels, plus single tokens that fold to a label (MATH-500)."""

    def __init__(self, nlp: Language, concepts: tuple[Concept, ...]) -> None:
        self.concepts = {c.key: c for c in concepts}
        self.matcher = PhraseMatcher(nlp.vocab, attr="ORTH")
        self.folded: dict[str, Concept] = {}
        for concept in concepts:
            self.matcher.add(concept.key, [nlp.make_doc(label) for label in concept.labels])
            for label in concept.labels:
                # folding is case-blind: only names with a digit or a separator fold safely
                if not label.isalpha() and len(fold(label)) > 2:
                    self.folded.setdefault(fold(label), concept)

    def __call__(self, doc: Doc) -> Doc:
        spans = []
        for match_id, start, end in self.matcher(doc):
            key = doc.vocab.strings[match_id]
            spans.append(Span(doc, start, end, label=self.concepts[key].type.value, kb_id=key))
        for token in doc:
            if token.is_alpha or token.is_punct or token.is_space:
                continue  # folded labels hold a digit or a separator
            concept = self.folded.get(fold(token.text))
            if concept is not None and any(c.isupper() or c.isdigit() for c in token.text):
                spans.append(
                    Span(doc, token.i, token.i + 1, label=concept.type.value, kb_id=concept.key)
                )
        doc.spans[LEXICON] = filter_spans(spans)
        return doc


@Language.factory("kg_candidates")
def make_candidates(nlp: Language, name: str) -> CandidateFinder:
    """Coined names by shape and context into `doc.spans["kg_candidates"]`."""
    return CandidateFinder(frozenset(nlp.Defaults.stop_words))


class CandidateFinder:
    """Tokens shaped like names (ReaForest, GRPO, Sora-2), acronym long forms, list members.

    Works on the token texts, read once per document; shape and stop-list checks are cached
    by text, since names repeat across abstracts.
    """

    _STOP_PHRASE = frozenset(
        {
            "which",
            "that",
            "to",
            "for",
            "with",
            "and",
            "as",
            "by",
            "in",
            "on",
            "of",
            "from",
            "where",
            "whose",
            "based",
        }
    )
    _AFTER_PHRASE = frozenset({",", ".", "(", "which", "that", ";", ":", "—", "to", "for"})
    _SEPARATORS = frozenset({",", "and", "or", "&"})

    def __init__(self, stop_words: frozenset[str] = frozenset()) -> None:
        self.cues = load_cues()
        self.stop_words = stop_words
        self._generic_cache: dict[str, bool] = {}

    def _generic(self, text: str) -> bool:
        found = self._generic_cache.get(text)
        if found is None:
            found = self._generic_cache[text] = self._is_generic(text)
        return found

    def _is_generic(self, text: str) -> bool:
        lower = re.sub(r"['’]s$", "", text.lower())
        if lower in self.cues.generic_terms or lower.rstrip("s") in self.cues.generic_terms:
            return True
        parts = re.split(r"[-–]", lower)
        # "PC-inspired", "LLM-based": an adjective built on a name, not a name
        if len(parts) > 1 and parts[-1] in self.cues.adjective_suffixes:
            return True
        if text.isupper() and lower in self.stop_words:
            return True  # "IN", "ON": a shouted function word
        if re.fullmatch(r"[A-Z]{2,6}s", text):
            return True  # "DLMs", "DAGs": a plural acronym names a class of things
        return bool(re.fullmatch(r"[a-z]-\d+", lower))  # "L-1": an index, not a name

    def __call__(self, doc: Doc) -> Doc:
        words = token_texts(doc)
        sentence = [0] * len(words)
        for n, sent in enumerate(doc.sents):
            sentence[sent.start : sent.end] = [n] * (sent.end - sent.start)
        spans: list[Span] = []
        rejected: set[str] = set()
        for start, end, short_i in doc._.abbreviations:
            long, short = doc[start:end], words[short_i]
            if self._generic(short) or not (
                self._named_long_form(long) or self._coined(doc, long, short)
            ):
                rejected.add(short)  # "Time series forecasting (TSF)": TSF is no name
                continue
            spans.append(Span(doc, start, end, label="LONG"))
            spans.append(Span(doc, short_i, short_i + 1, label="SHORT"))
        strong = {
            i
            for i, w in enumerate(words)
            if is_name_shape(w) and not self._generic(w) and w not in rejected
        }
        spans.extend(Span(doc, i, i + 1, label="SHAPE") for i in sorted(strong))
        spans.extend(self._proposal_phrases(doc, words))
        spans.extend(self._emphasised(doc, words))
        for i, w in enumerate(words):
            if i in strong or not is_weak_name_shape(w):
                continue
            following = words[i + 1].lower() if i + 1 < len(words) else ""
            if self._in_list_with(words, sentence, i, strong) or following in {
                "benchmark",
                "benchmarks",
                "dataset",
            }:
                spans.append(Span(doc, i, i + 1, label="LIST"))
        urls = [m.span() for m in _URL.finditer(doc_text(doc))]
        doc.spans[CANDIDATES] = [
            s for s in spans if not any(a < s.end_char and s.start_char < b for a, b in urls)
        ]
        return doc

    def _emphasised(self, doc: Doc, words: list[str]) -> list[Span]:
        """ "we introduce **E-commerce Video Ads Benchmark**": a bold name after a verb."""
        out = []
        marks = [i for i, w in enumerate(words) if w.startswith("**")]
        for open_, close in zip(marks[::2], marks[1::2], strict=False):
            start, end = open_ + 1, close
            end = next((j for j in range(start, end) if words[j] == "("), end)
            if not 0 < end - start <= 8 or not words[start][:1].isalnum():
                continue
            before = words[open_ - 1].lower() if open_ > 0 else ""
            if before in {"a", "an", "the", "our"} or not any(
                c.isupper() for w in words[start:end] for c in w
            ):
                continue
            out.append(Span(doc, start, end, label="EMPHASIS"))
        return out

    def _proposal_phrases(self, doc: Doc, words: list[str]) -> list[Span]:
        """ "we introduce derivation graphs, which ...": the short noun phrase a proposal
        verb introduces, when no determiner says it is a description ("a new method")."""
        out = []
        n = len(words)
        for i in range(1, n - 1):
            if words[i].lower() not in self.cues.proposal_verbs:
                continue
            if words[i - 1].lower() not in {"we", "also", "further", "then", "first"}:
                continue
            start = i + 1
            while start < n and words[start].startswith("*"):
                start += 1
            end = start
            while end < n and end - start < 6 and (words[end].isalpha() or "-" in words[end]):
                if words[end].lower() in self._STOP_PHRASE:
                    break
                end += 1
            if end == start or words[start].lower() in self.cues.proposal_np_stop:
                continue
            first = words[start]
            if first.islower() and first.endswith("ing") and end - start > 1:
                continue  # "we propose using X": a verb phrase
            if (words[end] if end < n else ".") not in self._AFTER_PHRASE:
                continue
            if end - start == 1 and first.islower():
                continue  # a single common word is no name
            out.append(Span(doc, start, end, label="PROPOSAL"))
        return out

    def _coined(self, doc: Doc, long: Span, short: str) -> bool:
        """A lower-case expansion still names a new thing when its acronym is coined
        (TimerPO) or the paper introduces it ("a novel ... (X)")."""
        if not short.isupper() and any(c.islower() for c in short[1:]):
            return True
        before = {t.lower_ for t in doc[max(0, long.start - 3) : long.start]}
        return bool(
            before & ({"novel", "new", "our", "called", "termed"} | self.cues.proposal_verbs)
        )

    def _named_long_form(self, long: Span) -> bool:
        small = {"of", "for", "and", "the", "with", "in", "on", "to", "a", "via", "from", "by"}
        words = [t for t in long if (t.is_alpha or "-" in t.text) and t.lower_ not in small]
        if not words or any(not t.text[:1].isupper() for t in words):
            # "reinforcement learning (RL)", "Time series forecasting (TSF)": a generic term
            return False
        # "Large Language Models (LLMs)": a class of things, not one thing
        return not (
            long[-1].text.endswith("s")
            and long[-1].text.lower() not in {"process"}
            and long[-1].lower_ in self.cues.type_heads
        )

    def _in_list_with(
        self, words: list[str], sentence: list[int], i: int, strong: set[int]
    ) -> bool:
        """Is token i an item of a comma/and list that holds a strong name?"""
        for direction in (-1, 1):
            j = i + direction
            while 0 <= j < len(words) and sentence[j] == sentence[i]:
                if words[j] in self._SEPARATORS:
                    j += direction
                    continue
                if j in strong:
                    return True
                break
        return False


@Language.factory("kg_entities")
def make_entities(nlp: Language, name: str) -> EntityResolver:
    """Resolve lexicon hits and candidates into typed, non-overlapping `doc.ents`."""
    return EntityResolver()


class EntityResolver:
    """Lexicon hits win; then longest candidates; each span gets a type and its evidence."""

    def __call__(self, doc: Doc) -> Doc:
        lexicon = list(doc.spans.get(LEXICON, []))
        candidates = [s for s in doc.spans.get(CANDIDATES, []) if not _overlaps(s, lexicon)]
        chosen = sorted(filter_spans(lexicon + candidates), key=lambda s: s.start)
        typed = [(span, *decide_type(span, doc)) for span in chosen]
        # why each entity got its type, read later by the records (no second typing pass)
        doc.user_data[TYPE_EVIDENCE] = {(s.start, s.end): why for s, _, why in typed}
        labels = _propagate_in_lists(doc, typed)
        doc.ents = [
            Span(doc, span.start, span.end, label=label, kb_id=span.kb_id_)
            for (span, _, _), label in zip(typed, labels, strict=True)
        ]
        return doc


def _separator_only(doc: Doc, start: int, end: int) -> bool:
    """Only list separators (and parenthetical asides) between two names."""
    depth = 0
    for token in doc[start:end]:
        if token.text == "(":
            depth += 1
        elif token.text == ")":
            depth -= 1
        elif depth == 0 and not token.is_space and token.text not in {",", "and", "or", "&", "the"}:
            return False
    return depth == 0


def _after_list(doc: Doc, end: int) -> Token | None:
    """The token after a list, past a closing parenthetical: "X (10.8) and Y (66.5%) datasets"."""
    i = end
    if i < len(doc) and doc[i].text == "(":
        while i < len(doc) and doc[i].text != ")":
            i += 1
        i += 1
    return doc[i] if i < len(doc) else None


def _propagate_in_lists(doc: Doc, typed: list) -> list[str]:
    """In "on NExTQA, Video-Holmes and VRBench", a name typed by default takes the type its
    siblings agree on (Benchmark or Dataset), or the head noun that closes the list."""
    heads = load_cues().type_heads
    labels = [t.value for _, t, _ in typed]
    sentence = sentence_of(doc)
    groups: list[list[int]] = []
    for i, (span, _, _) in enumerate(typed):
        if groups:
            prev = typed[groups[-1][-1]][0]
            if sentence[prev.start] == sentence[span.start] and _separator_only(
                doc, prev.end, span.start
            ):
                groups[-1].append(i)
                continue
        groups.append([i])
    for group in groups:
        weak = [i for i in group if typed[i][2] == "default"]
        if not weak:
            continue
        closing = _after_list(doc, typed[group[-1]][0].end)
        head = heads.get(closing.lower_) if closing is not None else None
        strong = {labels[i] for i in group if typed[i][2] != "default"}
        if head in (EntityType.BENCHMARK, EntityType.DATASET):
            chosen = head.value
        elif len(strong) == 1 and strong <= {"Benchmark", "Dataset"}:
            chosen = next(iter(strong))
        else:
            continue
        for i in weak:
            labels[i] = chosen
    return labels


def _overlaps(span: Span, others: list[Span]) -> bool:
    # a long form may contain a lexicon name ("Joint Causal Inference"): the longer wins
    return any(o.start < span.end and span.start < o.end and len(o) >= len(span) for o in others)
