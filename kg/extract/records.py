"""Turn a processed Doc into an `Extraction`: entities, what is proposed, relations, results."""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import cached_property

from spacy.tokens import Doc

from kg.extract.classifier import Models, load_models
from kg.extract.components import CHOSEN, Chosen
from kg.extract.found import Found
from kg.extract.markup import Cleaned
from kg.extract.proposals import decide_proposed
from kg.extract.relations import decide_relations
from kg.extract.results import Reported, find_results
from kg.extract.sentences import sentence_bounds, sentence_of
from kg.extract.texts import offsets, words
from kg.extract.texts import urls as doc_urls
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

#: what marks a name written in TeX: math or a command
_TEX = re.compile(r"[$\\]")
#: what marks HTML or an entity in a mention: no TeX form
_HTML = re.compile(r"[<>&]")
#: doc.user_data keys of the proposed and relation features (read by training/train.py)
PROPOSED_FEATURES = "kg_proposed_features"
PAIR_FEATURES = "kg_pair_features"
FOUND = "kg_found"
RESULT_FEATURES = "kg_result_features"


def doc_to_extraction(
    doc: Doc, paper: Paper, cleaned: Cleaned | None = None, models: Models | None = None
) -> Extraction:
    """Group the kept entities (an acronym and its expansion are one), add what the paper
    proposes, relations and results.

    `doc` is of `cleaned.text`, the abstract without markup (`paper.text` when None): names
    are read from it, mentions and sentences at the offsets `cleaned` maps back to.
    """
    where = _Where(doc, paper, cleaned or Cleaned(paper.text))
    chosen: list[Chosen] = doc.user_data.get(CHOSEN, [])
    found = [
        Found(
            c.start,
            c.end,
            c.name,
            c.key,
            EntityType(c.label),
            bool(c.concept) or c.evidence == "model family",
            where.sentence[c.start],
            c.probability,
        )
        for c in chosen
    ]
    models = models or load_models()
    urls = " ".join(fold(url) for _, _, url in doc_urls(doc))
    proposed, proposed_features = decide_proposed(doc, found, urls, models.proposed)
    relations, pair_features = decide_relations(doc, found, proposed, models.relation)
    types = {f.key: f.type for f in found}
    subject = next(
        (k for k in proposed if types[k] in (EntityType.METHOD, EntityType.MODEL)),
        proposed[0] if proposed else None,
    )
    reported, featured = find_results(doc, found, subject, frozenset(proposed), models.result)
    doc.user_data[FOUND] = found
    doc.user_data[PROPOSED_FEATURES] = proposed_features
    doc.user_data[PAIR_FEATURES] = pair_features
    doc.user_data[RESULT_FEATURES] = featured
    entities, name_of = _entities(chosen, proposed, where)
    first_sentence: dict[str, int] = {}
    for f in found:
        first_sentence.setdefault(f.key, f.sent)
    out_relations = [
        ExtractedRelation(name_of[h], rel, name_of[t], s) for (h, rel, t), s in relations.items()
    ]
    out_relations += [
        ExtractedRelation(paper.id, RelationType.PROPOSES, name_of[k], first_sentence[k])
        for k in proposed
    ]
    return Extraction(
        paper=paper,
        sentences=where.sentences(),
        entities=tuple(sorted(entities, key=lambda e: e.mentions[0].start)),
        relations=tuple(out_relations),
        results=tuple(_result(r, name_of, where) for r in reported),
    )


class _Where:
    """Token spans of a Doc of the clean text, as mentions and sentences of `paper.text`."""

    def __init__(self, doc: Doc, paper: Paper, clean: Cleaned) -> None:
        self.doc, self.paper, self.clean = doc, paper, clean
        self.sentence = sentence_of(doc)
        self.at, self.word = offsets(doc), words(doc)

    def mention(self, first: int, last: int) -> Mention:
        """The mention of tokens [first, last), at its offsets in `paper.text`."""
        at, word = self.at, self.word
        start, end = self.clean.original(at[first], at[last - 1] + len(word[last - 1]))
        return Mention(start, end, self.paper.text[start:end], self.sentence[first])

    def name_mention(self, first: int, last: int) -> Mention:
        """The mention of a name: `mention`, widened to the math it starts or ends inside
        ("FUSH$^2$", not "FUSH$^2"; "$\\tau$-bench", not "\\tau$-bench") when that makes it a
        whole TeX form (`_is_tex_form`)."""
        m = self.mention(first, last)
        marks = self.dollars
        if not marks:
            return m
        text = self.paper.text
        start, end = m.start, m.end
        before = bisect_left(marks, start)  # the math marks before the mention
        if before % 2 and not any(c.isspace() for c in text[marks[before - 1] : start]):
            start = marks[before - 1]  # it starts inside math: back to the math's opening
        after = bisect_left(marks, end)  # the first math mark at or past its end
        if (after - bisect_left(marks, start)) % 2 and after < len(marks):
            if not any(c.isspace() for c in text[end : marks[after]]):
                end = marks[after] + 1  # it ends inside math: on to its closing
        if (start, end) == (m.start, m.end) or not _is_tex_form(text[start:end]):
            return m
        return Mention(start, end, text[start:end], m.sentence)

    @cached_property
    def dollars(self) -> list[int]:
        """The offsets of the `$` that open or close math in `paper.text` (not `\\$`)."""
        text = self.paper.text
        if "$" not in text:
            return []
        return [i for i, c in enumerate(text) if c == "$" and text[i - 1 : i] != "\\"]

    def sentences(self) -> tuple[Sentence, ...]:
        at, word = self.at, self.word
        return tuple(
            Sentence(*self.clean.original(at[a], at[b - 1] + len(word[b - 1])))
            for a, b in sentence_bounds(self.doc)
        )


def _entities(
    chosen: list[Chosen], proposed: list[str], where: _Where
) -> tuple[list[ExtractedEntity], dict[str, str]]:
    """One entity per key (its long form as its name, when it has one), and each key's name."""
    groups: dict[str, list[Chosen]] = {}
    for c in chosen:
        groups.setdefault(c.key, []).append(c)
    entities = []
    name_of: dict[str, str] = {}
    for key, spans in groups.items():
        names = list(dict.fromkeys(c.name for c in spans))
        long = [c.name for c in spans if c.long]
        name = long[0] if long else names[0]
        name_of[key] = name
        mentions = tuple(where.name_mention(c.start, c.end) for c in spans)
        # the name as the abstract writes it in TeX ("A$^3$T" for A³T), so that it is found
        # by the text's own form
        names += [m.text for m in mentions if _is_tex_form(m.text)]
        entities.append(
            ExtractedEntity(
                name=name,
                type=EntityType(spans[0].label),
                mentions=mentions,
                aliases=tuple(dict.fromkeys(n for n in names if n != name)),
                proposed=key in proposed,
                concept=spans[0].concept,
                evidence=spans[0].evidence,
            )
        )
    return entities, name_of


def _is_tex_form(text: str) -> bool:
    """Whether a mention is a name written in TeX, whole: its math closed, its braces
    paired, no Markdown emphasis nor HTML ("A$^3$T", "$k$-means", "Q$^*$Net"; not
    "UA**$^2$", "P_{T}^{\\gamma", "Bar<sub>2</sub>$^2$")."""
    if not _TEX.search(text) or "**" in text or _dollars(text) % 2 or _HTML.search(text):
        return False
    depth = 0
    for c in text:
        depth += (c == "{") - (c == "}")
        if depth < 0:
            return False
    return depth == 0


def _dollars(text: str) -> int:
    """How many `$` of a text open or close math (an escaped `\\$` does neither)."""
    return text.count("$") - text.count("\\$")


def _result(reported: Reported, name_of: dict[str, str], where: _Where) -> Result:
    subject, metric, value, unit, bench, (first, last) = reported
    figure = where.mention(first, last)
    return Result(
        subject=name_of[subject] if subject else None,
        metric=metric,
        value=value,
        unit=unit,
        benchmark=name_of[bench] if bench else None,
        sentence=figure.sentence,
        start=figure.start,
        end=figure.end,
        text=figure.text,
    )
