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


def test_markup_is_blanked_without_moving_offsets():
    from kg.extract.markup import blank_markup

    text = r"We introduce \textbf{LINGUA}, reaching 82.4\% on <b>NExT-QA</b> at $128\times$."
    clean = blank_markup(text)
    assert len(clean) == len(text)
    assert clean.index("LINGUA") == text.index("LINGUA")
    assert "\\" not in clean and "<b>" not in clean and "$" not in clean


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=200))
def test_blanking_keeps_length_and_only_adds_spaces(text):
    from kg.extract.markup import blank_markup

    clean = blank_markup(text)
    assert len(clean) == len(text)
    assert all(a == b or b == " " for a, b in zip(text, clean, strict=True))


@pytest.mark.parametrize(
    ("text", "name", "etype"),
    [
        (
            "In this work, we introduce derivation graphs, which represent rules.",
            "derivation graphs",
            EntityType.METHOD,
        ),  # proposal phrase
        (
            "To address this, we introduce **E-commerce Video Ads Benchmark**, which is new.",
            "E-commerce Video Ads Benchmark",
            EntityType.BENCHMARK,
        ),  # emphasis + own head noun
        (r"We introduce \textbf{LINGUA}, a memory-based agent.", "LINGUA", EntityType.METHOD),
        (
            "We propose a novel time-series grounded policy optimization (TimerPO) for it.",
            "time-series grounded policy optimization",
            EntityType.METHOD,
        ),  # coined acronym
        (
            "To bridge this, we introduce **3ViewSense**, a framework.",
            "3ViewSense",
            EntityType.METHOD,
        ),  # a name may start with a digit
    ],
)
def test_proposed_names_beyond_shapes(nlp, text, name, etype):
    found = entities(nlp, text)
    assert name in found, found
    assert found[name].type is etype and found[name].proposed


@pytest.mark.parametrize(
    "text",
    [
        "Time series forecasting (TSF) is hard and TSF models fail.",  # generic expansion
        "Diffusion LMs (DLMs) and DAGs are common.",  # plural acronyms name classes
        "A PC-inspired procedure and LLM-based agents.",  # adjectives built on names
        "Code is at https://github.com/AlphaLab-USTC/RRTokenIntervention.",  # a URL
        r"\textbf{L}anguage-based \textbf{IN}ference over $(L+1)$-layer models.",
        "E-commerce videos are rendered in YAML files.",
    ],
)
def test_generic_words_are_not_entities(nlp, text):
    assert entities(nlp, text) == {}


@pytest.mark.parametrize(
    ("text", "name", "etype"),
    [
        ("We pre-train BioBERT on abstracts.", "BioBERT", EntityType.MODEL),  # lexicon
        ("We train KLUE-RoBERTa on news.", "KLUE-RoBERTa", EntityType.MODEL),  # family suffix
        ("Our model, dubbed FooLM, is small.", "FooLM", EntityType.MODEL),  # naming head
        (
            "We reach 10.8 on FooText (ppl) and BarText (66.5%) datasets.",
            "BarText",
            EntityType.DATASET,
        ),  # the head noun that closes a list
        (
            "It improves the FooTables denotation accuracy to 57.5%.",
            "FooTables",
            EntityType.BENCHMARK,
        ),  # a metric after the name
        ("It reaches 42.3% Acc@GQA on NExT-GQA.", "Acc@GQA", EntityType.METRIC),
    ],
)
def test_typing_from_context(nlp, text, name, etype):
    found = entities(nlp, text)
    assert name in found, found
    assert found[name].type is etype


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            r"We propose FooNet. On MATH500, FooNet attains 80.6\% exact-match accuracy with it.",
            [("FooNet", "exact-match accuracy", "80.6", "MATH500")],
        ),
        (
            "We propose FooNet. It reaches 48.3% scenario pass rate.",
            [("FooNet", "scenario pass rate", "48.3", None)],
        ),
        ("We propose FooNet, with gains of up to +12.2% on MATH500.", []),  # a difference
        ("We propose FooNet, robust on OxfordPets at a 75% noise rate.", []),  # a setting
        (
            "Even GPT-4o reaches only 30% accuracy on GSM8K.",
            [("GPT-4o", "accuracy", "30", "GSM8K")],
        ),  # no proposal: the system named
    ],
)
def test_results(nlp, text, expected):
    (ex,) = extract([paper(text)], nlp)
    assert [(r.subject, r.metric, str(r.value), r.benchmark) for r in ex.results] == expected


@pytest.mark.parametrize(
    ("text", "name", "etype"),
    [
        ("VideoQA models fail. It wins on five VideoQA benchmarks.", "VideoQA", EntityType.TASK),
        (
            "We present **Implicit Intelligence**, an evaluation framework for agents.",
            "Implicit Intelligence",
            EntityType.BENCHMARK,
        ),
    ],
)
def test_kinds_of_things_and_evaluation_frameworks(nlp, text, name, etype):
    found = entities(nlp, text)
    assert found[name].type is etype


def test_a_paper_proposing_only_a_dataset_states_no_uses(nlp):
    text = "We construct the FooPref dataset and train a Thinking Reward Model (TRM) on it."
    (ex,) = extract([paper(text)], nlp)
    assert {r.relation for r in ex.relations} <= {RelationType.PROPOSES}
