"""kg's spaCy components, registered with `@Language.factory`; the logic lives in helpers.

Pipeline order: kg_sentences → kg_abbreviations → kg_lexicon → kg_candidates → kg_entities.
Each component reads and writes `doc.spans[...]` or `doc.user_data` (candidates, groups and
the chosen entities as plain records), so any of them can be inspected on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy
from spacy.attrs import SENT_START
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span
from spacy.util import filter_spans

from kg.extract.abbreviations import find_abbreviations
from kg.extract.candidates import Abbreviation, Candidate, CandidateFinder
from kg.extract.classifier import Models, load_models
from kg.extract.cues import load_cues
from kg.extract.entities import Decision, complete_lists, complete_slashes, decide, rule_type
from kg.extract.entities import select as select_spans
from kg.extract.entity_features import context, group_features
from kg.extract.groups import Group, build_groups
from kg.extract.sentences import SENTENCE_BOUNDS
from kg.extract.texts import Known
from kg.extract.texts import words as token_texts
from kg.extract.wordclass import word_classes
from kg.lexicon import Concept, default_lexicon, load_lexicon
from kg.model import EntityType
from kg.names import fold

ABBREVIATIONS = "kg_abbreviations"
LEXICON = "kg_lexicon"
#: doc.user_data key of every lexicon concept's folded labels (a reference, not a copy)
LABEL_FOLDS = "kg_label_folds"
#: doc.user_data key of the concept each folded lexicon label names (`LexiconMatcher.folded`)
FOLDED_CONCEPTS = "kg_folded_concepts"
CANDIDATES = "kg_candidates"
#: doc.user_data key of the kg_entities verdicts (`Chosen`), read by the records
CHOSEN = "kg_chosen"
#: doc.user_data key of every group with its features and decision (for training)
GROUPS = "kg_groups"

_CASED = re.compile("c")

if not Doc.has_extension("abbreviations"):
    Doc.set_extension("abbreviations", default=[])


@Language.factory("kg_sentences")
def make_sentences(nlp: Language, name: str) -> SentenceSplitter:
    """Sentence starts after sentence-final punctuation, as spaCy's `sentencizer` sets them."""
    return SentenceSplitter()


#: the longest sentence, in tokens (the longest of ICML 2024's 18,927 has about 130)
MAX_SENTENCE_TOKENS = 256


class SentenceSplitter:
    """spaCy's `Sentencizer` rule, as a regular expression over one character per token: a
    token that is no punctuation, after a sentence-final character, starts a sentence.

    A run of more than `MAX_SENTENCE_TOKENS` tokens without one (a list of thousands of
    names) is cut after its last comma or semicolon in the second half of that many tokens,
    else at that many: what is read per sentence, and the evidence of a relation, stays
    bounded.
    """

    def __call__(self, doc: Doc) -> Doc:
        if not len(doc):
            return doc
        classes = word_classes(doc).sentence
        starts = [0] + [m.end() - 1 for m in _SENTENCE_START.finditer(classes)]
        starts = _bounded(starts, len(doc), token_texts(doc))
        flags = numpy.empty((len(doc), 1), dtype=numpy.uint64)
        flags.fill(_NO_START)
        flags[starts] = 1
        doc.from_array([SENT_START], flags)  # type: ignore[arg-type]
        # the bounds `sentence_bounds` would read back from the flags set here
        doc.user_data[SENTENCE_BOUNDS] = list(zip(starts, [*starts[1:], len(doc)], strict=True))
        return doc


_SENTENCE_START = re.compile(r"f[fp]*w")
#: SENT_START -1 (no sentence starts here) as the unsigned value `Doc.from_array` reads
_NO_START = numpy.uint64(2**64 - 1)
_BREAKS = frozenset({",", ";", ":"})


def _bounded(starts: list[int], length: int, text: list[str]) -> list[int]:
    """`starts` with a start added wherever a sentence would exceed the longest."""
    limit = MAX_SENTENCE_TOKENS
    out: list[int] = []
    for start, end in zip(starts, [*starts[1:], length], strict=True):
        out.append(start)
        while end - out[-1] > limit:
            at = out[-1]
            cut = next(
                (i + 1 for i in range(at + limit - 1, at + limit // 2, -1) if text[i] in _BREAKS),
                at + limit,
            )
            out.append(cut)
    return out


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
    """Exact matches of lexicon labels, single tokens that fold to a label (MATH-500), and
    names written in another case (Xsum for XSum, Alfworld for ALFWorld), a name of several
    words among them when it is a model's or a resource's and keeps a capital or a digit
    ("Code llama", "Google research football", "Pascal VOC"): all in lower case, or a
    method's, such a name is as often a generic phrase ("a vision transformer", "mixture of
    experts")."""

    def __init__(self, nlp: Language, concepts: tuple[Concept, ...]) -> None:
        self.concepts = {c.key: c for c in concepts}
        self.matcher = PhraseMatcher(nlp.vocab, attr="ORTH")
        self.any_case = PhraseMatcher(nlp.vocab, attr="LOWER")
        self.folded: dict[str, Concept] = {}
        self.label_folds = {c.key: frozenset(fold(label) for label in c.labels) for c in concepts}
        for concept in concepts:
            self.matcher.add(concept.key, [nlp.make_doc(label) for label in concept.labels])
            if concept.type in _ANY_CASE:
                several = [nlp.make_doc(label) for label in concept.labels if _several(label)]
                if several:
                    self.any_case.add(concept.key, several)
            for label in concept.labels:
                # case-blind folding is safe for names with a digit or a separator, and for
                # long one-word names
                if len(fold(label)) > 2 and (not label.isalpha() or len(label) >= 5):
                    self.folded.setdefault(fold(label), concept)
        #: the concept a word folds to, or None, by word
        self.folded_word = Known(lambda word: self.folded.get(fold(word)))

    def __call__(self, doc: Doc) -> Doc:
        spans = []
        words = token_texts(doc)
        # a name in another case keeps a capital or a digit ("Code llama", "Pascal VOC"):
        # in lower case it is as often a phrase ("a vision transformer", "a residual network")
        written = [
            (match_id, start, end)
            for match_id, start, end in self.any_case(doc)
            if any(c.isupper() or c.isdigit() for w in words[start:end] for c in w)
        ]
        for match_id, start, end in [*self.matcher(doc), *written]:
            key = doc.vocab.strings[match_id]
            kind = self.concepts[key].type
            if kind is EntityType.TASK and end < len(words) and words[end].lower() in _NAMED_BY:
                continue  # "the Semantic Textual Similarity Benchmark": a resource's name
            spans.append(Span(doc, start, end, label=kind.value, kb_id=key))
        classes = word_classes(doc)
        # folded matches are of names (shaped, capitalised): the class strings find them
        folded = self.folded_word
        for m in _CASED.finditer(classes.cased):
            i = m.start()
            concept = folded[words[i]]
            if concept is not None:
                spans.append(Span(doc, i, i + 1, label=concept.type.value, kb_id=concept.key))
        doc.spans[LEXICON] = filter_spans(spans)
        doc.user_data[LABEL_FOLDS] = self.label_folds
        doc.user_data[FOLDED_CONCEPTS] = self.folded
        return doc


_ARTICLES = load_cues().articles  # kg/data/cues.json
#: the head nouns after a task's name that make it part of a resource's name ("the CoNLL-2003
#: Named Entity Recognition dataset"); a plural names resources of the task ("NLI datasets")
_NAMED_BY = frozenset({"benchmark", "dataset", "corpus", "suite", "challenge", "treebank"})
#: the types whose names of several words are matched in any case
_ANY_CASE = frozenset({EntityType.MODEL, EntityType.DATASET, EntityType.BENCHMARK})


def _several(label: str) -> bool:
    """Whether a label is a name of several words, the first no article ("The Pile" in lower
    case is any pile), written with a capital (a proper name)."""
    parts = label.split()
    return len(parts) > 1 and parts[0].lower() not in _ARTICLES and any(c.isupper() for c in label)


@Language.factory("kg_candidates")
def make_candidates(nlp: Language, name: str) -> CandidateComponent:
    """Candidate names by shape and context into `doc.user_data["kg_candidates"]`."""
    return CandidateComponent(CandidateFinder())


class CandidateComponent:
    """Runs the generators of `kg.extract.candidates`; spans are labelled by generator."""

    def __init__(self, finder: CandidateFinder) -> None:
        self.finder = finder

    def __call__(self, doc: Doc) -> Doc:
        # plain records, not Spans: a Span per candidate costs more than finding it
        doc.user_data[CANDIDATES] = self.finder.find(doc)
        return doc


@dataclass(frozen=True)
class Chosen:
    """A span kg_entities keeps: the entity it names and why it has its type."""

    start: int
    end: int
    key: str  #: the group: an acronym and its long form share one
    label: str  #: an EntityType value
    name: str  #: the name the span stands for (its text, or a name a slash abbreviates)
    concept: str | None
    evidence: str
    long: bool  #: the span is the group's long form
    #: the entity model's probability of its type (1.0 when rules decided)
    probability: float = 1.0


@Language.factory("kg_entities")
def make_entities(nlp: Language, name: str) -> EntityResolver:
    """Typed, non-overlapping entities into `doc.user_data["kg_chosen"]`, decided by the
    entity model."""
    return EntityResolver()


class EntityResolver:
    """Groups candidates, decides each group's type (or none), keeps the best spans."""

    def __init__(self, models: Models | None = None) -> None:
        self.models = models or load_models()

    def __call__(self, doc: Doc) -> Doc:
        candidates: list[Candidate]
        pairs: list[Abbreviation]
        candidates, pairs = doc.user_data.get(CANDIDATES, ([], []))
        groups = build_groups(
            doc,
            candidates,
            pairs,
            list(doc.spans.get(LEXICON, [])),
            doc.user_data.get(LABEL_FOLDS, {}),
            doc.user_data.get(FOLDED_CONCEPTS, {}),
        )
        model = self.models.entity
        rules = [rule_type(doc, g) for g in groups]
        ctx = context(doc, groups, rules)
        features = [group_features(doc, g, ctx, r) for g, r in zip(groups, rules, strict=True)]
        decisions = [decide(r, f, model) for r, f in zip(rules, features, strict=True)]
        if model is not None:
            decisions = complete_lists(groups, decisions, features, ctx)
            decisions = complete_slashes(groups, decisions, ctx)
        doc.user_data[GROUPS] = list(zip(groups, features, decisions, strict=True))
        chosen = []
        for span, g in select_spans(groups, decisions):
            group: Group = groups[g]
            decision: Decision = decisions[g]
            chosen.append(
                Chosen(
                    span[0],
                    span[1],
                    group.key,
                    decision.label,
                    group.name_of(doc, span),
                    group.concept,
                    decision.evidence,
                    span == group.long,
                    decision.probability,
                )
            )
        # not also as doc.ents: setting them costs more than deciding them, and no Doc
        # leaves the extraction package
        doc.user_data[CHOSEN] = chosen
        return doc
