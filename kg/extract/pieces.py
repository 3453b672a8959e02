"""Very long texts read in pieces, so that extraction stays linear in a text's length.

An abstract is at most a few thousand characters (the longest of the 25,514 in
../shared/data/ml_abstracts has 4,927). A text far longer — a whole file on one line, a
list of thousands of names — is cut at sentence ends into pieces of at most `PIECE_CHARS`
characters; each piece is read as an abstract would be and their extractions are joined
into one, at the offsets of the whole text. No abstract of normal length is cut.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kg.model import (
    ExtractedEntity,
    ExtractedRelation,
    Extraction,
    Mention,
    Paper,
    Result,
    Sentence,
)

#: the longest text read as one piece (twice the longest abstract of ml_abstracts)
PIECE_CHARS = 10_000

_SENTENCE_END = re.compile(r"[.!?][\"')\]]*\s+")
_SPACE = re.compile(r"\s+")


def cut_points(text: str, limit: int = PIECE_CHARS) -> list[int]:
    """Where the pieces of `text` start: [0] for a text of at most `limit` characters.

    A piece ends after the last sentence end in its second half, else after its last
    white space there, else at `limit` characters.
    """
    starts = [0]
    while len(text) - starts[-1] > limit:
        start = starts[-1]
        window = text[start + limit // 2 : start + limit]
        cut = None
        for pattern in (_SENTENCE_END, _SPACE):
            ends = [m.end() for m in pattern.finditer(window)]
            if ends:
                cut = ends[-1]
                break
        starts.append(start + limit // 2 + (cut if cut is not None else len(window)))
    return starts


def pieces(paper: Paper, limit: int = PIECE_CHARS) -> list[tuple[int, Paper]]:
    """(offset, paper with that piece as its text) for each piece of `paper`'s text."""
    starts = cut_points(paper.text, limit)
    if len(starts) == 1:
        return [(0, paper)]
    ends = [*starts[1:], len(paper.text)]
    return [(a, replace(paper, text=paper.text[a:b])) for a, b in zip(starts, ends, strict=True)]


def join(paper: Paper, parts: list[tuple[int, Extraction]]) -> Extraction:
    """One extraction of `paper` from the extractions of its pieces (offset, extraction).

    An entity named in several pieces is one entity: its first piece's name, type and
    evidence, every mention, proposed if any piece proposes it.
    """
    if len(parts) == 1 and parts[0][0] == 0:
        return parts[0][1]  # an abstract read whole: its piece is the paper itself
    sentences: list[Sentence] = []
    entities: dict[str, ExtractedEntity] = {}
    relations: dict[tuple[str, str, str], ExtractedRelation] = {}
    results: list[Result] = []
    for offset, part in parts:
        first = len(sentences)
        sentences += [Sentence(s.start + offset, s.end + offset) for s in part.sentences]
        for e in part.entities:
            mentions = tuple(
                Mention(m.start + offset, m.end + offset, m.text, m.sentence + first)
                for m in e.mentions
            )
            known = entities.get(e.name)
            if known is None:
                entities[e.name] = replace(e, mentions=mentions)
            else:
                entities[e.name] = replace(
                    known,
                    mentions=known.mentions + mentions,
                    aliases=tuple(dict.fromkeys(known.aliases + e.aliases)),
                    proposed=known.proposed or e.proposed,
                    concept=known.concept or e.concept,
                )
        for r in part.relations:
            relations.setdefault(
                (r.head, r.relation.value, r.tail), replace(r, sentence=r.sentence + first)
            )
        results += [
            replace(r, sentence=r.sentence + first, start=r.start + offset, end=r.end + offset)
            for r in part.results
        ]
    return Extraction(
        paper=paper,
        sentences=tuple(sentences),
        entities=tuple(entities.values()),
        relations=tuple(relations.values()),
        results=tuple(results),
    )
