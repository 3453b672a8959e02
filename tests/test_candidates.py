"""Candidate generators and acronym patterns: a sentence per pattern and cue."""

from __future__ import annotations

import pytest

from kg.extract.components import CANDIDATES
from kg.extract.markup import strip_markup
from kg.extract.texts import span_text


def candidates(nlp, text: str) -> dict[str, set[str]]:
    """The candidates of `text`: span text (or the name it stands for) → generator labels."""
    cleaned = strip_markup(text)
    doc = nlp.make_doc(cleaned.text)
    if cleaned.emphasis:
        doc.user_data["kg_emphasis"] = cleaned.emphasis
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    found, _ = doc.user_data[CANDIDATES]
    out: dict[str, set[str]] = {}
    for c in found:
        out.setdefault(c.name or span_text(doc, c.start, c.end), set()).update(c.labels)
    return out


@pytest.mark.parametrize(
    ("text", "name", "label"),
    [
        ("We train ReaForest on proofs.", "ReaForest", "SHAPE"),  # camel case
        ("It beats GRPO and Sora-2.", "Sora-2", "SHAPE"),  # a word and a version
        ("Results on Video-Holmes hold.", "Video-Holmes", "WEAK"),  # only in context
        ("We propose Vector Heat Network for meshes.", "Vector Heat Network", "TITLE"),
        ("We use the Unified Alignment for Agents rules.", "Unified Alignment for Agents", "TITLE"),
        ("We evaluate it on Kodak and others.", "Kodak", "CAPWORD"),
        ("It runs the Sinkhorn method twice.", "Sinkhorn method", "HEADED"),
        ("We fine-tune Llama 2 7B on it.", "Llama 2 7B", "FAMILY"),
        ("We compare with GPT 3.5 Turbo here.", "GPT 3.5 Turbo", "FAMILY"),
        ("It beats Claude 3.5-Haiku here.", "Claude 3.5-Haiku", "FAMILY"),  # version-variant
        ("It beats gpt-3.5-turbo here.", "gpt-3.5-turbo", "FAMILY"),  # a model in lower case
        ("Unlike o1-preview, it is open.", "o1-preview", "FAMILY"),
        ("We fine-tune Code Llama 7B on it.", "Code Llama 7B", "VERSIONED"),  # a run + size
        ("It beats Stable Diffusion 2.1 here.", "Stable Diffusion 2.1", "VERSIONED"),
        ("Models such as AceGPT 7B and Jais 13B fail.", "Jais 13B", "VERSIONED"),  # + size
        ("It beats ERNIE-ViLG 2.0 here.", "ERNIE-ViLG 2.0", "VERSIONED"),  # coined + version
        ("We compare with Dolly-v2 here.", "Dolly-v2", "SHAPE"),  # a word and a v-version
        (
            "a new method, dubbed iterative hypothesis refinement, is fast",
            "iterative hypothesis refinement",
            "NAMED",
        ),
        ('We call it "expanding window matching" here.', "expanding window matching", "QUOTE"),
        (
            "We call our approach loss shaping constraints because it works.",
            "loss shaping constraints",
            "NAMED",
        ),
        ("a new objective called the anchor loss which is fast", "anchor loss", "NAMED"),
        (
            "an attack, termed as stop-reasoning attack, that fools it",
            "stop-reasoning attack",
            "NAMED",
        ),
        (
            "tricks which we refer to as soft-weighted regularization.",
            "soft-weighted regularization",
            "NAMED",
        ),
        ("We propose a diagnosis method called MD tree based on metrics.", "MD tree", "NAMED"),
        (
            "This paper proposes time-dependent importance reweighting to mitigate it.",
            "time-dependent importance reweighting",
            "PROPOSAL",
        ),
        (
            "In this work, we introduce derivation graphs, which help.",
            "derivation graphs",
            "PROPOSAL",
        ),
        (
            "To address this, we introduce **E-commerce Video Ads Benchmark**.",
            "E-commerce Video Ads Benchmark",
            "EMPHASIS",
        ),
        ("Scores on AIME24/25 rise.", "AIME25", "SLASH"),  # a slash abbreviates a name
        ("We use Qwen2.5-VL-3B/7B-Instruct.", "Qwen2.5-VL-7B-Instruct", "SLASH"),
        ("We use Qwen2.5-VL-3B/7B-Instruct.", "Qwen2.5-VL-3B-Instruct", "SLASH"),
        ("We prune LLaMA-V1/V2 and OPT.", "LLaMA-V2", "SLASH"),  # a letter-and-digit version
        ("Scores on AIME 2024/2025 rise.", "AIME 2025", "SLASH"),  # a name ending in a year
        (
            "We propose sparse token routing. Sparse token routing is fast.",
            "Sparse token routing",
            "REPEAT",
        ),  # a descriptive name used again
        (
            "We propose Adaptive Sequential Monte Carlo (ASMC).",
            "Adaptive Sequential Monte Carlo",
            "LONG",
        ),
        ("We propose Adaptive Sequential Monte Carlo (ASMC).", "ASMC", "SHORT"),
        # two names of several words joined by "and" in one Title Case run: each is one
        (
            "Two frameworks: Conjugate Integrators and Splitting Integrators.",
            "Conjugate Integrators",
            "TITLE_PART",
        ),
        (
            "Two frameworks: Conjugate Integrators and Splitting Integrators.",
            "Splitting Integrators",
            "TITLE_PART",
        ),
        # the second of two names after a naming cue, where the list ends after it
        (
            "We introduce two methods, namely node intervention and node merging, to fix it.",
            "node merging",
            "NAMED",
        ),
        # LaTeX's em-dash ("---") is no part of the name before it
        ("Families such as GPT and Mamba---end-to-end---fail.", "Mamba", "CAPWORD"),
    ],
)
def test_generator(nlp, text, name, label):
    found = candidates(nlp, text)
    assert label in found.get(name, set()), found


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("We compare Qwen3-4B and Llama on it.", "Qwen3-4B and Llama"),  # a list, not a name
        ("We propose FooNet on MATH500 here.", "FooNet on MATH500"),  # two names
        ("Code is at https://github.com/AlphaLab/RRTokenIntervention.", "RRTokenIntervention"),
        ("We use the FooPref dataset.", "FooPref dataset"),  # the scorer's folding names it
        ("However, *(a)* we find that IL fails.", "(a)"),  # an enumeration marker
        ("It sparsifies more, **(II)** preserves more.", "(II)"),  # a roman numeral
        ("It wins across **53** tasks.", "53"),  # an emphasised count
        ("It needs the cluster number $\\textit{K}$ here.", "K"),  # a variable
        ("We prune LLaMA-V1/V2 and OPT.", "V2"),  # the version of the name before the slash
        ("Our work builds off this past literature here.", "off this past literature"),
        ("Agents differ, namely how many resources they demand.", "how many resources they demand"),
        ("It, referred to as BRAIn - Bayesian Inference, acts.", "BRAIn - Bayesian Inference"),
        ("We call the resulting model FlowNet and test it.", "model FlowNet"),
        ("We call the GPT-4 API once per example.", "API once per example"),  # "call" = invoke
        ("We call this Monte Carlo Tree Search variant fast.", "Carlo Tree Search variant"),
        ("It was shown at ICLR 2024 first.", "ICLR 2024"),  # a year is no version
        ("As Table 2 shows, it wins.", "Table 2"),  # a plain word and a number
        ("It handles 8k tokens, as LongLoRA 8k does.", "LongLoRA 8k"),  # a count, no version
        ("We opt-in to it.", "opt-in"),  # a lower-case word, no model's variant
        ("Training Llama 2 70B takes long.", "Training Llama 2 70B"),  # Llama 2 70B's version
        ("It beats Stable Diffusion 2.1 512x512 here.", "Stable Diffusion 2.1 512x512"),
        ("Models such as Jais 13B 2023 fail.", "Jais 13B 2023"),  # a year is no version
        ("Unlike ERNIE-ViLG 2.0 it is open.", "ERNIE-ViLG 2.0 it"),  # "it" is a pronoun
        ("As shown in Figure 3b, it wins.", "Figure 3b"),  # a numbered part of the text
        ("In contrast, Our 7B model wins.", "Our 7B"),  # a stop word and a size
        ("We tune the Base 7B model.", "Base 7B"),  # a variant word and a size
        ("It reaches BLEU 28.4 on WMT.", "BLEU 28.4"),  # a metric and its score
        ("Results in Supplementary Table 2 hold.", "Supplementary Table 2"),
        ("We propose a model called FooNet and evaluate it on MATH.", "evaluate it"),  # a clause
    ],
)
def test_no_candidate(nlp, text, absent):
    assert absent not in candidates(nlp, text)


@pytest.mark.parametrize(
    ("text", "present"),
    [
        ("We call the resulting model FlowNet and test it.", "FlowNet"),  # two words before
        ("We name the resulting dataset Pile-Clean here.", "Pile-Clean"),
        ("We fine-tune Flan-T5/T5 models on it.", "T5"),  # a name of its own, not Flan-T5 again
        ("We study instrumental variable (IV) estimation.", "IV"),  # an acronym, no numeral
    ],
)
def test_candidate_found(nlp, text, present):
    assert present in candidates(nlp, text)


@pytest.mark.parametrize(
    "text",
    [
        "We use the Gated Query Transformation module.",  # no "and"
        "We combine Self-Rubrics and Contrastive Filtering here.",  # a part of one word
        "We test on the Abstraction and Reasoning Corpus.",  # one name with "and" in it
        "Lidar (Light Detection and Ranging) helps.",
        "It tops Natural Language Processing and Computer Vision and Speech Recognition.",
    ],
)
def test_no_title_parts(nlp, text):
    """A Title Case run is split at "and" only into two parts of two words or more, at its
    one "and": "Global and Local Understanding Evaluation of Code" is one name."""
    assert not any("TITLE_PART" in labels for labels in candidates(nlp, text).values())


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("a setting named keyphrase generation and we contribute two datasets, X.", "we"),
        ("We propose a model called FooNet and show it works.", "show it works"),
        ("It is referred to as BRAIn---Bayesian Reasoning here.", "BRAIn---Bayesian Reasoning"),
    ],
)
def test_no_second_named_clause(nlp, text, absent):
    assert not any(name.startswith(absent) for name in candidates(nlp, text))


def test_second_named_name_at_the_end_and_after_an_article(nlp):
    found = candidates(nlp, "We compare two methods, namely node intervention and node merging")
    assert "NAMED" in found["node merging"]
    found = candidates(nlp, "It reads two losses, namely the average loss and the maximum loss.")
    assert "NAMED" in found["maximum loss"]


@pytest.mark.parametrize(
    ("text", "long", "short"),
    [
        (
            "We propose Adaptive Sequential Monte Carlo (ASMC) here.",
            "Adaptive Sequential Monte Carlo",
            "ASMC",
        ),
        (
            "We propose TICL (Test-time Interventional Causal Learning).",
            "Test-time Interventional Causal Learning",
            "TICL",
        ),
        (
            "we propose the Trustworthy Retrieval Augmented Question Answering, or TRAQ, which",
            "Trustworthy Retrieval Augmented Question Answering",
            "TRAQ",
        ),
        (
            "BERT, which stands for Bidirectional Encoder Representations from Transformers",
            "Bidirectional Encoder Representations from Transformers",
            "BERT",
        ),
        (
            "We introduce SlowFast-LLaVA-1.5 (abbreviated as SF-LLaVA-1.5), a family",
            "SlowFast-LLaVA-1.5",
            "SF-LLaVA-1.5",
        ),
        (
            "coined Prompt to Transfer (P2T), that",
            "Prompt to Transfer",
            "P2T",
        ),  # a digit for a word
    ],
)
def test_acronym_patterns(nlp, text, long, short):
    doc = nlp(strip_markup(text).text)
    pairs = {(doc[a:b].text, doc[s].text) for a, b, s in doc._.abbreviations}
    assert (long, short) in pairs


def test_plurals_and_acronyms_are_one_group(nlp):
    from kg.extract.components import GROUPS

    text = (
        "We introduce training generalizable Neural Fields incorporating scene Priors (NFPs). "
        "The NFP network maps any image into a field. NFPs are fast."
    )
    doc = nlp(text)
    names = [{doc[a:b].text for a, b in g.spans} for g, _, _ in doc.user_data[GROUPS]]
    assert {"Neural Fields incorporating scene Priors", "NFPs", "NFP"} in names


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("gpt-3.5-turbo", "gpt35"),  # one word in lower case, with a version: any case
        ("o1-preview", "o1"),
        ("Llama 2 7B", "llama2"),
        ("whisper large", None),  # lower-case words, no version: no model's name
        ("opt it", None),
        ("opt-in", None),
        # lexicon names of two characters start variants too (the test of a name's first
        # characters before the loop over its cuts keeps them)
        ("T5-base", "t5"),
        ("R1-Zero", "deepseekr1"),
        ("Yi-34B", "yi"),
        ("Qwen3-4B-Base", "qwen3"),
        ("Yield", None),
    ],
)
def test_model_families_in_lower_case(name, family):
    from kg.extract.families import model_family

    assert model_family(name) == family


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("BioBERT", "bert"),
        ("KLUE-RoBERTa", "roberta"),
        ("NAS-BERT", "bert"),
        ("BioBERTv2", "bert"),  # a version after the family
        ("T5x", None),  # too short a stem to end with a family of three letters or more
        ("Rotten", None),
    ],
)
def test_a_coined_name_ending_with_a_model_family(name, family):
    from kg.extract.families import family_suffix

    assert family_suffix(name) == family


@pytest.mark.parametrize(
    ("text", "cited", "kept"),
    [
        ("Recently, Papernot and Steinke (2022) proposed DP tuning.", "Papernot and Steinke", "DP"),
        ("As Smith et al. show, FooNet is fast.", "Smith", "FooNet"),
        ("Vaswani et al. (2017) proposed the Transformer.", "Vaswani", "Transformer"),
        ("Zhang and Bansal (2021a) show that BERT helps.", "Zhang and Bansal", "BERT"),
    ],
)
def test_authors_cited_are_no_candidates(nlp, text, cited, kept):
    """A name followed by a year in parentheses or "et al." is the authors of a citation."""
    found = candidates(nlp, text)
    assert cited not in found and kept in found


@pytest.mark.parametrize(
    ("text", "name", "overrun"),
    [
        (
            "We introduce GlyphSynth publicly available, a specialized dataset.",
            "GlyphSynth",
            "GlyphSynth publicly available",
        ),
        (
            "The search method called neural channel expansion can adapt several networks.",
            "neural channel expansion",
            "neural channel expansion can adapt several",
        ),
        # "here" is an adverb no suffix shows: named_stop of cues.json
        ("We name the resulting dataset Pile-Clean here.", "Pile-Clean", "Pile-Clean here"),
    ],
)
def test_a_name_phrase_ends_at_an_adverb_or_a_modal(nlp, text, name, overrun):
    found = candidates(nlp, text)
    assert name in found and overrun not in found


def test_an_adverb_that_opens_a_name_is_its_own(nlp):
    text = "We propose an algorithm called distributionally robust value iteration for MDPs."
    assert "distributionally robust value iteration" in candidates(nlp, text)
