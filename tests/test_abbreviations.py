"""Acronyms before their long form ("SHORT (Long Form)") are pairs as "Long Form (SHORT)" are,
and link into one entity named by the long form."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.builder.pipeline import build
from kg.query.explain import explain


@pytest.mark.parametrize(
    ("text", "long", "short"),
    [
        (
            "In this paper, we propose TICL (Test-time Interventional Causal Learning), a method.",
            "Test-time Interventional Causal Learning",
            "TICL",
        ),
        (
            "We propose ReED (Relation-aware Encoder-Decoder), a model.",  # hyphenated words
            "Relation-aware Encoder-Decoder",
            "ReED",
        ),
        (
            "We study MFTPL-P (abbreviation for Mixed Follow the Perturbed Leader with Poisson "
            "perturbations) here.",
            "Mixed Follow the Perturbed Leader with Poisson perturbations",
            "MFTPL-P",
        ),
        (
            "we propose SCOPE (short for Scalable Contrastive Pretraining), a method",
            "Scalable Contrastive Pretraining",
            "SCOPE",
        ),
    ],
)
def test_short_form_first(nlp, text, long, short):
    doc = nlp(text)
    assert (long, short) in {(doc[a:b].text, doc[s].text) for a, b, s in doc._.abbreviations}


def test_no_pair_when_the_parenthesis_does_not_spell_it(nlp):
    doc = nlp("We use GPT (a strong language model) on it.")
    assert not doc._.abbreviations


@pytest.mark.parametrize(
    "sentence",
    [
        "To address this, we propose TICL (Test-time Interventional Causal Learning), a novel "
        "method that synergizes test-time training with causal inference.",
        "To address this, we propose Test-time Interventional Causal Learning (TICL), a novel "
        "method that synergizes test-time training with causal inference.",
    ],
)
def test_either_order_links_one_entity_named_by_the_long_form(tmp_path: Path, sentence):
    seeds = tmp_path / "in.txt"
    seeds.write_text(
        "ICML 2026 Papers\n"
        f"Causal discovery struggles when targets are unknown. {sentence} "
        "Experiments on bnlearn show that TICL is accurate.\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    build([seeds], out)
    e = explain("TICL", out)
    assert e.name == "Test-time Interventional Causal Learning"
    assert "TICL" in e.aliases
    assert {o.text for o in e.occurrences} >= {"TICL", "Test-time Interventional Causal Learning"}
