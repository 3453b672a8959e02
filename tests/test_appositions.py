"""The features that read how an abstract calls a name (kg/extract/appositions.py) and the
name features beside them. Sentences made up, in the style of abstracts."""

from __future__ import annotations

import pytest

from kg.extract.appositions import FEATURE, called
from kg.extract.components import GROUPS
from kg.extract.texts import lowers
from kg.extract.wordclass import word_classes


def _at(doc, name: str) -> tuple[int, int]:
    words = [t.text for t in doc]
    parts = name.split()
    for i in range(len(words)):
        if words[i : i + len(parts)] == parts:
            return i, i + len(parts)
    raise AssertionError(f"{name} not in {words}")


def _call(nlp, text: str, name: str) -> str | None:
    doc = nlp.make_doc(text)
    a, b = _at(doc, name)
    lower, heads = lowers(doc), word_classes(doc).head
    found = called(lower, heads, a, b, 0, len(doc))
    return FEATURE[found] if found is not None else None


@pytest.mark.parametrize(
    ("text", "name", "called"),
    [
        # the head noun is the phrase's last type word, however long the phrase
        (
            "We propose Lantern, a highly efficient and accurate model for linking.",
            "Lantern",
            "Model",
        ),
        # "Transformer" is a model word, but the phrase is an architecture
        (
            "We introduce Trellis, a novel Transformer architecture with bounded memory.",
            "Trellis",
            "Method",
        ),
        ("We release Quarry, a family of open-source foundation models.", "Quarry", "Model"),
        # a group's noun ("series", "suite", "set") is named by what it holds
        (
            "We introduce Lumen, a series of self-supervised image retrieval models.",
            "Lumen",
            "Model",
        ),
        ("We release Quarry, a suite of models for chemistry.", "Quarry", "Model"),
        # modifiers joined by a comma: the phrase goes on to its head noun
        (
            "We propose MR-Foo, a multiregion, switching nonlinear state space model.",
            "MR-Foo",
            "Model",
        ),
        # a comma after the head noun still ends the phrase
        ("We propose FooRoute, a routing algorithm, and a model.", "FooRoute", "Method"),
        (
            "We build CodeCave, a suite of benchmarks for repository repair.",
            "CodeCave",
            "Benchmark",
        ),
        ("We present Gauge, an evaluation framework that scores agents.", "Gauge", "Benchmark"),
        # the parenthesis of an acronym is skipped
        ("We introduce the Folded Ridge Bridge (FRB) model.", "Folded Ridge Bridge", "Model"),
        (
            "We propose the Sparse Token Router (STR), a routing algorithm.",
            "Sparse Token Router",
            "Method",
        ),
        ("WaveKit is a library for audio.", "WaveKit", "Method"),
        ("PlanBench is a benchmark of planning problems.", "PlanBench", "Benchmark"),
        # a noun phrase before a naming word
        (
            "We present a term-guided diffusion model for legal texts, named LexDiff.",
            "LexDiff",
            "Model",
        ),
        ("We collect a corpus of clinical notes called NoteBank.", "NoteBank", "Dataset"),
        # a framework for evaluating is an evaluation framework (GUIDELINE.md): a Benchmark
        (
            "We propose Gauge, a framework for evaluating the honesty of LLMs.",
            "Gauge",
            "Benchmark",
        ),
        # the noun phrase before the name
        (
            "We propose a framework, Gauge, for evaluating psychological aspects of LLMs.",
            "Gauge",
            "Benchmark",
        ),
        ("We propose a novel routing framework, FooRoute, that learns.", "FooRoute", "Method"),
        ("We release a new benchmark, PlanBench, of planning problems.", "PlanBench", "Benchmark"),
        ("We train a compact model, TinyFoo, on it.", "TinyFoo", "Model"),
        # a group's noun named by a head of its own is not named by what it holds
        ("We release QuxSuite, a benchmark suite of 20 language models.", "QuxSuite", "Benchmark"),
        # two -ing words joined by "and" go on to the head noun after them
        ("We introduce PlanQA, an LLM reasoning and planning benchmark.", "PlanQA", "Benchmark"),
        # a long form that fills a parenthesis is apposed after it; a list's last name is not
        (
            "We build FooDocs (Retrieval with Ambiguous Documents), a new dataset.",
            "Retrieval with Ambiguous Documents",
            "Dataset",
        ),
        ("We pretrain on two corpora (QuxText and QuxCode), a model of code.", "QuxCode", None),
        # a preposition before any head noun: the phrase has no head of its own
        ("We study FooAttack, a class of attacks against language models.", "FooAttack", None),
        # "X based" before the head noun is "X-based" written apart; "based on" ends it
        (
            "This paper proposes a novel capsule network based model called FooCL for it.",
            "FooCL",
            "Model",
        ),
        ("We propose FooCL, a graph network based model for parsing.", "FooCL", "Model"),
        ("We propose a framework based on transformers called FooCL.", "FooCL", "Method"),
        # a review's cases: what opens what it is based on ends the phrase too
        ("We propose FooCL, a framework based largely upon language models.", "FooCL", "Method"),
        ("We propose FooCL, a benchmark based around language models.", "FooCL", "Benchmark"),
        ("We propose FooCL, a dataset based off model outputs.", "FooCL", "Dataset"),
        # no apposition: a list, a verb
        ("We compare FooNet, BarNet and BazNet on it.", "BarNet", None),
        ("We evaluate Lantern, Quarry and WaveKit on three tasks.", "Lantern", None),
        ("Lantern outperforms a strong model on every task.", "Lantern", None),
    ],
)
def test_what_the_text_calls_a_name(nlp, text, name, called):
    assert _call(nlp, text, name) == called


def test_a_lexicon_name_carries_its_concept(nlp):
    """The model learns how the field writes a known concept ("Transformer" is mostly a
    generic word, LoRA a method); a coined name has no concept feature."""
    doc = nlp("We adapt the model with LoRA and propose FooRoute, a routing method.")
    features = {group.key: feats for group, feats, _ in doc.user_data[GROUPS]}
    assert "lex:=lora" in features["lora"]
    assert not any(f.startswith("lex:=") for f in features["fooroute"])
    assert "appos:Method" in features["fooroute"]


def test_a_name_joined_by_and_is_marked(nlp):
    """ "Direct Reasoner and Indirect Reasoner" may be a list or one name ("Modal-Preserving
    and Interaction-Driven Fusion Network"): the entity model reads that it is joined."""
    doc = nlp("We build the Direct Reasoner and Indirect Reasoner modules for it.")
    features = {group.key: feats for group, feats, _ in doc.user_data[GROUPS]}
    assert "joined" in features["directreasonerandindirectreasoner"]


def test_a_name_that_ends_the_text_after_an_apposed_noun(nlp):
    """ "a new framework, FooNet" with nothing after it: no token is read past the end (it
    raised IndexError before 2026-12-05)."""
    doc = nlp("We introduce a new framework, FooNet")
    assert "foonet" in {group.key for group, _, _ in doc.user_data[GROUPS]}
