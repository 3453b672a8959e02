"""Turn a processed Doc into an `Extraction`: group mentions into entities, read relations."""

from __future__ import annotations

from collections import Counter

from spacy.tokens import Doc, Span

from kg.extract.components import TYPE_EVIDENCE
from kg.extract.relations import Found, find_relations, proposed_keys
from kg.extract.results import find_results
from kg.extract.sentences import sentence_bounds, sentence_of
from kg.model import (
    EntityType,
    ExtractedEntity,
    ExtractedRelation,
    Extraction,
    Mention,
    Paper,
    RelationType,
    Result,
    Sentence,
)
from kg.names import fold


def _group_key(span: Span, aliases: dict[str, str]) -> str:
    key = span.kb_id_ or fold(span.text)
    return aliases.get(key, key)


def doc_to_extraction(doc: Doc, paper: Paper) -> Extraction:
    """Group `doc.ents` into entities (an acronym and its expansion are one), add relations.

    `doc` may be of a copy of the text with markup blanked out; names and mentions are read
    from `paper.text` at the same offsets.
    """

    def original(span: Span) -> str:
        return paper.text[span.start_char : span.end_char]

    why_typed = doc.user_data[TYPE_EVIDENCE]
    bounds = sentence_bounds(doc)
    sentence = sentence_of(doc)
    aliases: dict[str, str] = {}
    for start, end, short in doc._.abbreviations:
        long_span, short_span = doc[start:end], doc[short : short + 1]
        if any(e.start == start and e.end == end for e in doc.ents):
            aliases[fold(short_span.text)] = fold(long_span.text)
    groups: dict[str, list[Span]] = {}
    for ent in doc.ents:
        groups.setdefault(_group_key(ent, aliases), []).append(ent)

    found: list[Found] = []
    types: dict[str, EntityType] = {}
    for key, spans in groups.items():
        # a lexicon entity or a variant of a known model family exists already
        known = bool(spans[0].kb_id_) or why_typed[(spans[0].start, spans[0].end)] == (
            "model family"
        )
        votes = Counter(EntityType(s.label_) for s in spans)
        # the expansion's own type beats its acronym's; then the majority
        long_forms = [s for s in spans if fold(s.text) == key and len(s) > 1]
        types[key] = EntityType(long_forms[0].label_) if long_forms else votes.most_common(1)[0][0]
        found.extend(Found(s, key, types[key], known, sentence[s.start]) for s in spans)
    found.sort(key=lambda f: f.span.start)

    proposed = proposed_keys(doc, found)
    entities = []
    for key, spans in groups.items():
        names = list(dict.fromkeys(original(s) for s in spans))
        expansions = [original(s) for s in spans if fold(s.text) == key]
        name = expansions[0] if expansions else names[0]
        entities.append(
            ExtractedEntity(
                name=name,
                type=types[key],
                mentions=tuple(
                    Mention(s.start_char, s.end_char, original(s), sentence[s.start]) for s in spans
                ),
                aliases=tuple(n for n in names if n != name),
                proposed=key in proposed,
                concept=spans[0].kb_id_ or None,
                evidence=why_typed[(spans[0].start, spans[0].end)],
            )
        )
    name_of = {key: e.name for key, e in zip(groups, entities, strict=True)}
    relations = [
        ExtractedRelation(name_of[h], rel, name_of[t], s)
        for h, rel, t, s in find_relations(doc, found, proposed)
    ]
    relations += [
        ExtractedRelation(paper.id, RelationType.PROPOSES, name_of[k], _first_sentence(k, found))
        for k in proposed
    ]
    subject = next(
        (k for k in proposed if types[k] in (EntityType.METHOD, EntityType.MODEL)),
        proposed[0] if proposed else None,
    )
    results = [
        Result(
            subject=name_of[subj] if subj else None,
            metric=metric,
            value=value,
            unit=unit,
            benchmark=name_of[bench] if bench else None,
            sentence=sentence[span.start],
            start=span.start_char,
            end=span.end_char,
            text=original(span),
        )
        for subj, metric, value, unit, bench, span in find_results(
            doc, found, subject, frozenset(proposed)
        )
    ]
    return Extraction(
        paper=paper,
        sentences=tuple(
            Sentence(doc[start].idx, doc[end - 1].idx + len(doc[end - 1].text))
            for start, end in bounds
        ),
        entities=tuple(sorted(entities, key=lambda e: e.mentions[0].start)),
        relations=tuple(relations),
        results=tuple(results),
    )


def _first_sentence(key: str, found: list[Found]) -> int:
    return next(f.sent for f in found if f.key == key)
