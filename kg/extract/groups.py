"""Groups of candidate spans: every span of one name in an abstract, an acronym and its
long form together; the unit the entity model decides on."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from spacy.tokens import Doc, Span

from kg.extract.candidates import Abbreviation, Candidate
from kg.extract.texts import span_text
from kg.extract.texts import words as token_texts
from kg.model import EntityType
from kg.names import fold

if TYPE_CHECKING:
    from kg.lexicon import Concept


@dataclass
class Group:
    """The candidate spans of one name in one abstract."""

    key: str  #: the lexicon key, or the folded name (of the long form, for an acronym)
    spans: list[tuple[int, int]] = field(default_factory=list)
    labels: set[str] = field(default_factory=set)
    concept: str | None = None  #: lexicon concept key
    lexicon_type: EntityType | None = None
    names: dict[tuple[int, int], str] = field(default_factory=dict)  #: a span's own name
    long: tuple[int, int] | None = None  #: the long form, for an acronym pair
    short: bool = False

    def name_of(self, doc: Doc, span: tuple[int, int]) -> str:
        """The name a span stands for: its text, or the name a slash abbreviates."""
        return self.names.get(span) or span_text(doc, *span)

    def main(self) -> tuple[int, int]:
        """The span that names the group best: the long form, else its first span of the
        most frequent length (spans of one key differ in spelling, not in words, but for
        a lexicon name and its alternative labels)."""
        if len(self.spans) == 1:
            return self.spans[0]
        if self.long is not None and self.long in self.spans:
            return self.long
        lengths = Counter(s[1] - s[0] for s in self.spans)
        return min(self.spans, key=lambda s: (-lengths[s[1] - s[0]], -(s[1] - s[0]), s[0]))


def build_groups(
    doc: Doc,
    candidates: list[Candidate],
    pairs: list[Abbreviation],
    lexicon: list[Span],
    label_folds: Mapping[str, frozenset[str]] | None = None,
    folded_concepts: Mapping[str, Concept] | None = None,
) -> list[Group]:
    """Group candidate and lexicon spans by the name they stand for.

    An acronym the text defines is one group with its long form, also where the lexicon
    knows the acronym: the long form joins the lexicon's concept when it is one of the
    concept's labels ("Byte Pair Encoding (BPE)"), else the text's own definition wins and
    the acronym leaves the concept ("Sharpness-Aware Minimization (SAM)" is no Segment
    Anything Model). `label_folds`: each concept's folded labels; `folded_concepts`: the
    concept each folded label names, which a name a slash abbreviates joins ("AIME25" of
    "AIME24/25" is the lexicon's AIME 2025)."""
    words = token_texts(doc)
    spans: dict[tuple[int, int], set[str]] = {}
    names: dict[tuple[int, int], str] = {}
    for c in candidates:
        spans.setdefault((c.start, c.end), set()).update(c.labels)
        if c.name:
            names[(c.start, c.end)] = c.name
    concept: dict[tuple[int, int], Span] = {}
    for s in lexicon:
        spans.setdefault((s.start, s.end), set()).add("LEX")
        concept[(s.start, s.end)] = s
    short_to_long: dict[str, str] = {}
    long_of: dict[str, tuple[int, int]] = {}
    #: long forms that join the lexicon concept of their acronym
    joins: dict[str, str] = {}
    #: (concept, folded acronym) of acronyms the text defines as another long form
    defined: dict[tuple[str, str], str] = {}
    for p in pairs:
        long_span = (p.start, p.end)
        long_key = _key(doc, long_span, concept, names)
        short_key = fold(words[p.short])
        known_short = concept.get((p.short, p.short + 1))
        if known_short is not None and known_short.kb_id_ != long_key:
            labels = (label_folds or {}).get(known_short.kb_id_, frozenset())
            if long_span not in concept and fold(span_text(doc, *long_span)) in labels:
                joins.setdefault(long_key, known_short.kb_id_)
                long_of.setdefault(known_short.kb_id_, long_span)
                continue
            defined.setdefault((known_short.kb_id_, short_key), long_key)
        if short_key and short_key != long_key:
            short_to_long.setdefault(short_key, long_key)
            long_of.setdefault(long_key, long_span)
    keys = {span: _key(doc, span, concept, names) for span in spans}
    named_as = folded_concepts or {}
    for span in names:
        if span not in concept and keys[span] in named_as:
            keys[span] = named_as[keys[span]].key
    known = set(keys.values())

    def canonical(key: str) -> tuple[str, bool]:
        """The group key of a span key, and whether it is an acronym: NFPs and NFP are the
        short forms of one long form; EP-GFlowNets is the plural of EP-GFlowNet."""
        for k in (key, key + "s", key[:-1] if key.endswith("s") else None):
            if k and k in short_to_long:
                return short_to_long[k], True
        if key.endswith("s") and len(key) > 3 and key[:-1] in known:
            return key[:-1], False
        return key, False

    groups: dict[str, Group] = {}
    for span in sorted(spans):
        key = keys[span]
        if not key:
            continue
        if span not in concept:
            key, short = canonical(key)
            key = joins.get(key, key)
        elif (key, fold(words[span[0]])) in defined and span[1] - span[0] == 1:
            key, short = defined[(key, fold(words[span[0]]))], True
            concept.pop(span)  # the text's definition, not the lexicon's concept
        else:
            short = False
        group = groups.get(key)
        if group is None:
            group = groups[key] = Group(key)
        group.spans.append(span)
        group.labels |= spans[span]
        group.short |= short
        if span in names:
            group.names[span] = names[span]
        if span in concept and group.concept is None:
            group.concept = concept[span].kb_id_
            group.lexicon_type = EntityType(concept[span].label_)
    for key, group in groups.items():
        group.long = long_of.get(key)
    return list(groups.values())


def _key(
    doc: Doc,
    span: tuple[int, int],
    concept: dict[tuple[int, int], Span],
    names: dict[tuple[int, int], str],
) -> str:
    if span in concept:
        return concept[span].kb_id_
    return fold(names.get(span) or span_text(doc, *span))
