from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.extract import extract
from kg.extract.abbreviations import best_long_form
from kg.extract.shapes import is_name_shape
from kg.model import EntityType, Paper, RelationType


def paper(text: str) -> Paper:
    return Paper(id="p1", text=text, source="t.txt", line=1, index=1)


def entities(nlp, text: str) -> dict[str, object]:
    (ex,) = extract([paper(text)], nlp)
    return {e.name: e for e in ex.entities}


def test_tokenizer_keeps_hyphenated_model_names_whole(nlp):
    doc = nlp.make_doc("We fine-tune Qwen2.5-Math-7B-Instruct and Gemma3-4B on **MATH-500**.")
    words = [t.text for t in doc]
    assert "Qwen2.5-Math-7B-Instruct" in words and "Gemma3-4B" in words
    assert "MATH-500" in words  # the markdown stars are split off


def test_schwartz_hearst_long_form():
    long = "we use Reflective Entropy-Aware Test-Time Scaling"
    start = best_long_form("ReaTTS", long)
    assert long[start:] == "Reflective Entropy-Aware Test-Time Scaling"
    assert best_long_form("XYZ", "nothing matches here") is None


def test_acronym_and_expansion_are_one_entity(nlp):
    found = entities(nlp, "We propose Adaptive Sequential Monte Carlo (ASMC). ASMC is fast.")
    asmc = found["Adaptive Sequential Monte Carlo"]
    assert asmc.aliases == ("ASMC",)
    assert len(asmc.mentions) == 3 and asmc.proposed


def test_generic_acronym_definitions_are_dropped(nlp):
    found = entities(nlp, "Large Language Models (LLMs) and reinforcement learning (RL) help.")
    assert found == {}


@pytest.mark.parametrize(
    ("text", "name", "etype"),
    [
        ("We evaluate on MATH-500 and GSM8K.", "MATH-500", EntityType.BENCHMARK),  # lexicon
        ("We fine-tune Qwen3-4B-Base.", "Qwen3-4B-Base", EntityType.MODEL),  # family + size
        ("We release FooData-27k, a dataset of proofs.", "FooData-27k", EntityType.DATASET),
        ("We introduce ZebraBench to test it.", "ZebraBench", EntityType.BENCHMARK),  # suffix
        ("We propose FlashFoo, a framework for X.", "FlashFoo", EntityType.METHOD),  # head noun
        ("It beats Sora-2 at video.", "Sora-2", EntityType.MODEL),  # lexicon alt label
        (
            "Results on NExTQA, Video-Holmes and VRBench improve.",
            "Video-Holmes",
            EntityType.BENCHMARK,
        ),  # list member typed by its siblings' context
    ],
)
def test_typing(nlp, text, name, etype):
    found = entities(nlp, text)
    assert name in found, found
    assert found[name].type is etype


def test_shapes_accept_names_and_reject_prose():
    for name in ["ReaForest", "GRPO", "Sora-2", "CLIP-MAD", "V₁-Infer", "CPMöbius", "R-zero"]:
        assert is_name_shape(name), name
    for word in ["Standard", "In", "https://github.com/x/Y", "4B", "state-of-the-art", "(i)"]:
        assert not is_name_shape(word), word


def test_proposed_and_relations(nlp):
    text = (
        "We propose FooNet, a framework that fine-tunes Qwen3-4B-Base. "
        "FooNet comprises two components: BarData-10k and BazModule. "
        "On MATH500 and GSM8K, FooNet outperforms GRPO."
    )
    (ex,) = extract([paper(text)], nlp)
    proposed = {e.name for e in ex.entities if e.proposed}
    assert proposed == {"FooNet", "BarData-10k", "BazModule"}
    rels = {(r.head, r.relation, r.tail) for r in ex.relations}
    assert ("FooNet", RelationType.USES, "Qwen3-4B-Base") in rels
    assert ("FooNet", RelationType.OUTPERFORMS, "GRPO") in rels
    assert ("FooNet", RelationType.EVALUATED_ON, "MATH500") in rels
    assert ("BarData-10k", RelationType.PART_OF, "FooNet") in rels
    assert ("p1", RelationType.PROPOSES, "FooNet") in rels


def test_result_from_percentages(nlp):
    text = "We propose FooNet. FooNet improves accuracy on HMMT 2025 from 40% to 70%."
    (ex,) = extract([paper(text)], nlp)
    assert [(r.subject, str(r.value), r.unit, r.benchmark) for r in ex.results] == [
        ("FooNet", "70", "%", "HMMT 2025")
    ]


@settings(max_examples=80, deadline=None)
@given(st.text(min_size=1, max_size=300))
def test_any_text_gives_grounded_offsets(nlp, text):
    (ex,) = extract([paper(text)], nlp)
    for e in ex.entities:
        assert e.name in text or any(a in text for a in e.aliases)
        for m in e.mentions:
            assert 0 <= m.start < m.end <= len(text)
            assert text[m.start : m.end] == m.text
            s = ex.sentences[m.sentence]
            assert s.start <= m.start and m.end <= s.end
