"""Groups of candidate spans: every span of one name in an abstract, an acronym and its
long form together; the unit the entity model decides on."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from spacy.tokens import Doc, Span

from kg.extract.candidates import Abbreviation, Candidate
from kg.extract.texts import span_text
from kg.extract.texts import words as token_texts
from kg.model import EntityType
from kg.names import fold


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
    doc: Doc, candidates: list[Candidate], pairs: list[Abbreviation], lexicon: list[Span]
) -> list[Group]:
    """Group candidate and lexicon spans by the name they stand for."""
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
    for p in pairs:
        long_key = _key(doc, (p.start, p.end), concept, names)
        short_key = fold(words[p.short])
        if short_key and short_key != long_key:
            short_to_long.setdefault(short_key, long_key)
            long_of.setdefault(long_key, (p.start, p.end))
    keys = {span: _key(doc, span, concept, names) for span in spans}
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
        key, short = canonical(key) if span not in concept else (key, False)
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
