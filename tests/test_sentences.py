"""Sentence ends: a period that belongs to an abbreviation ends no sentence."""

from __future__ import annotations

import pytest

from kg.extract.cues import load_cues


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        (
            "Unlike Smith et al. (2020), we propose FooNet. It is fast.",
            ["Unlike Smith et al. (2020), we propose FooNet.", "It is fast."],
        ),
        (
            "The gradient w.r.t. the input vanishes. We fix it.",
            ["The gradient w.r.t. the input vanishes.", "We fix it."],
        ),
        (
            "Accuracy (resp. F1) rises on GSM8K. FooNet wins.",
            ["Accuracy (resp. F1) rises on GSM8K.", "FooNet wins."],
        ),
        (
            "See Fig. 2 and Eq. 4 for FooNet. It wins.",
            ["See Fig. 2 and Eq. 4 for FooNet.", "It wins."],
        ),
        # an ordinary period still ends its sentence
        ("We propose FooNet. It beats BarNet.", ["We propose FooNet.", "It beats BarNet."]),
    ],
)
def test_an_abbreviations_period_ends_no_sentence(nlp, text, sentences):
    assert [s.text for s in nlp(text).sents] == sentences


def test_every_listed_abbreviation_is_one_token(nlp):
    for abbreviation in load_cues().dotted_abbreviations:
        doc = nlp(f"As in X {abbreviation} we go")
        assert abbreviation in [t.text for t in doc], abbreviation
