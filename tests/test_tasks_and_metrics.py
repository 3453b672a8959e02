"""Tasks and metrics are typed as such, not as the methods, models or resources the scorer
counts: "NLI datasets" name no dataset, "the phoneme error rate" scores nothing of its own.

The task names are the lexicon's (ontology/lexicon.ttl, section Task: problems the field
names in many abstracts); a name the text defines as something else keeps its own meaning.
"""

from __future__ import annotations

import pytest

from kg.extract import extract
from kg.model import EntityType, Paper


def paper(text: str) -> Paper:
    return Paper(id="p1", text=text, source="t.txt", line=1, index=1)


def extraction(nlp, text: str):  # noqa: ANN201
    (ex,) = extract([paper(text)], nlp)
    return ex


def types(nlp, text: str) -> dict[str, EntityType]:
    return {e.name: e.type for e in extraction(nlp, text).entities}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # a task before a resource's or a model's head noun
        ("Crowdworker-constructed NLI datasets have been found to contain artifacts.", "NLI"),
        (
            "We find that state-of-the-art Natural Language Inference (NLI) models assign "
            "the same labels to permuted examples.",
            "Natural Language Inference",
        ),
        ("We fine-tune BERT for NER and report results on CoNLL-2003.", "NER"),
        # in lower case, as most abstracts write it
        ("We study question answering over long documents with FooNet.", "question answering"),
        (
            "Experiments on semantic textual similarity show gains for FooNet.",
            "semantic textual similarity",
        ),
        (
            "FooNet improves grammatical error correction on two benchmarks.",
            "grammatical error correction",
        ),
        ("Text-to-speech (TTS) systems have improved rapidly.", "Text-to-speech"),
    ],
)
def test_a_known_task_is_a_task(nlp, text, name):
    assert types(nlp, text).get(name) is EntityType.TASK


def test_a_task_is_no_system_and_no_resource_of_the_graph(nlp):
    """A task takes part in no relation and reports no result."""
    ex = extraction(
        nlp,
        "We propose FooNet. FooNet achieves 81.2% accuracy on word sense disambiguation, "
        "outperforming BERT.",
    )
    tasks = {e.name for e in ex.entities if e.type is EntityType.TASK}
    assert "word sense disambiguation" in tasks
    named = {r.head for r in ex.relations} | {r.tail for r in ex.relations}
    assert not tasks & named
    assert {r.subject for r in ex.results} <= {"FooNet"}


def test_an_acronym_the_text_defines_otherwise_keeps_its_meaning(nlp):
    """ASR is speech recognition to the lexicon; this text coins it for its own method."""
    ex = extraction(
        nlp,
        "We propose Accelerated Spectral Ranking (ASR), a ranking algorithm. ASR converges "
        "faster than rank centrality.",
    )
    (entity,) = [e for e in ex.entities if "ASR" in e.aliases]
    assert entity.name == "Accelerated Spectral Ranking" and entity.type is EntityType.METHOD


def test_a_task_a_system_is_evaluated_on_is_no_benchmark(nlp):
    """ "evaluated on question answering": a task, not the benchmark "on" usually names."""
    assert (
        types(nlp, "FooNet is evaluated on question answering.").get("question answering")
        is EntityType.TASK
    )


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("FooNet reaches an 18.6% phoneme error rate (PER) on TIMIT.", "phoneme error rate"),
        ("FooNet lowers the Word Error Rate on LibriSpeech.", "Word Error Rate"),
        ("We report METEOR and BERTScore for FooNet.", "BERTScore"),
        ("FooNet raises the Attack Success Rate (ASR) against GPT-4.", "Attack Success Rate"),
    ],
)
def test_a_measure_is_a_metric(nlp, text, name):
    assert types(nlp, text).get(name) is EntityType.METRIC


@pytest.mark.parametrize(
    ("text", "name", "etype"),
    [
        # a task's name inside a resource's name (a review, 2026-12-07)
        (
            "We evaluate FooNet on the Semantic Textual Similarity Benchmark (STS-B) and MRPC.",
            "Semantic Textual Similarity Benchmark",
            EntityType.BENCHMARK,
        ),
        # acronyms and words that name systems as often as tasks or measures are no entries
        ("We propose a Joint Detection and Tracking model (MOT) for crowds.", "MOT", None),
        ("We present Meteor, a Mamba-based multimodal model.", "Meteor", None),
        ("We propose CIDER, a representation learning framework.", "CIDER", None),
        # a measure optimised is a training objective, a method (stop 57's leftover)
        (
            "We train the recogniser with Minimum Word Error Rate (MWER) training on LibriSpeech.",
            "Minimum Word Error Rate",
            None,
        ),
        (
            "Minimum Error Rate Training (MERT) tunes the weights of FooMT on WMT14.",
            "Minimum Error Rate Training",
            None,
        ),
    ],
)
def test_names_of_systems_and_resources_are_no_tasks_or_metrics(nlp, text, name, etype):
    found = types(nlp, text)
    assert name in found
    assert found[name] not in (EntityType.TASK, EntityType.METRIC)
    if etype is not None:
        assert found[name] is etype
