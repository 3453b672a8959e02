"""Texts far longer than an abstract: read in pieces, sentences bounded, cost linear."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.extract import extract
from kg.extract.components import MAX_SENTENCE_TOKENS
from kg.extract.found import Found
from kg.extract.pieces import PIECE_CHARS, cut_points, pieces
from kg.extract.relations import candidate_pairs
from kg.ingest import read_file
from kg.model import EntityType, Paper

SEEDS = Path(__file__).resolve().parents[1] / "seeds"


def seed_papers() -> list[Paper]:
    return [p for path in sorted(SEEDS.glob("*.txt")) for p in read_file(path)]


def paper(text: str) -> Paper:
    return Paper(id="p1", text=text, source="long.txt", line=1, index=1)


def test_no_abstract_is_cut():
    for p in seed_papers():
        assert pieces(p) == [(0, p)]


def test_pieces_cover_the_text_and_end_at_sentence_ends():
    text = " ".join(p.text for p in seed_papers())  # about 60,000 characters
    starts = cut_points(text)
    assert len(starts) > 3
    ends = [*starts[1:], len(text)]
    assert "".join(text[a:b] for a, b in zip(starts, ends, strict=True)) == text
    for a, b in zip(starts, ends, strict=True):
        assert b - a <= PIECE_CHARS
    for cut in starts[1:]:
        assert text[:cut].rstrip()[-1] in ".!?)", text[cut - 20 : cut]


def test_a_text_of_many_abstracts_is_read_as_its_abstracts_are(nlp):
    abstracts = seed_papers()[:24]
    text = " ".join(p.text for p in abstracts)
    assert len(text) > 2 * PIECE_CHARS
    (whole,) = extract([paper(text)], nlp)
    for e in whole.entities:
        for m in e.mentions:
            assert text[m.start : m.end] == m.text
            s = whole.sentences[m.sentence]
            assert s.start <= m.start and m.end <= s.end
    assert len({e.name for e in whole.entities}) == len(whole.entities)
    # every name the abstracts yield one by one is found in the whole
    alone = {e.name for ex in extract(abstracts, nlp) for e in ex.entities}
    found = {e.name for e in whole.entities}
    assert len(alone & found) >= 0.9 * len(alone), sorted(alone - found)
    assert any(e.proposed for e in whole.entities) and whole.relations


@pytest.mark.slow
def test_a_list_of_thousands_of_names_stays_bounded(nlp):
    names = ", ".join(f"Net{i}-X" for i in range(3000))
    text = f"We propose {names}. They outperform ResNet-50 on ImageNet."
    (ex,) = extract([paper(text)], nlp)
    assert len(ex.entities) > 2000
    doc = nlp(names)
    sentence_lengths = [len(s) for s in doc.sents]
    assert max(sentence_lengths) <= MAX_SENTENCE_TOKENS
    # a relation's evidence is a bounded sentence, not the whole list
    longest = max(s.end - s.start for s in ex.sentences)
    assert longest < 20 * MAX_SENTENCE_TOKENS


@pytest.mark.parametrize("n", [1000])
def test_pairs_grow_linearly_with_the_entities(n):
    def found(count: int) -> list[Found]:
        return [
            Found(
                start=2 * i,
                end=2 * i + 1,
                name=f"N{i}",
                key=f"n{i}",
                type=EntityType.METHOD,
                known=False,
                sent=i // 100,
            )
            for i in range(count)
        ]

    small = len(list(candidate_pairs(found(n), [f"n{i}" for i in range(n)])))
    large = len(list(candidate_pairs(found(2 * n), [f"n{i}" for i in range(2 * n)])))
    assert 0 < large <= 2.2 * small  # all pairs would be 4x
