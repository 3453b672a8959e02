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


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        # TeX's `$128\times$.`, cleaned to "128×.": the evidence of "ASMC evaluated_on
        # MATH500" in seed 000 was two sentences, the baseline's and the proposal's
        (
            "It reaches p95 = 1318s on MATH500 at 128×. We propose ASMC, a sampler.",
            ["It reaches p95 = 1318s on MATH500 at 128×.", "We propose ASMC, a sampler."],
        ),
        ("FooNet is 2.5× faster than BarNet by 3.1×. It wins.", None),
        ("The error bound holds in L∞. FooNet meets it.", None),
        ("The code is at https://foo.github.io/. FooNet is fast.", None),
        # a variable ends a sentence: spaCy's "n." (a list's "a. … b. …") had held it
        ("The bound has no polynomial dependence on n. Furthermore, it is tight.", None),
        ("It needs a factor of d. We show FooNet avoids it.", None),
    ],
)
def test_a_period_after_a_symbol_or_a_variable_ends_its_sentence(nlp, text, sentences):
    got = [s.text for s in nlp(text).sents]
    assert len(got) == 2 and (sentences is None or got == sentences), got
