from __future__ import annotations

import random

import pytest
from conftest import SEEDS

from kg.extract import extract
from kg.link import Linker, link
from kg.model import EntityType, Paper


def graph_of(nlp, *texts: str):
    papers = [
        Paper(id=f"p{i}", text=t, source="t.txt", line=i, index=i) for i, t in enumerate(texts, 1)
    ]
    return link(extract(papers, nlp))


def keys_by_name(kg) -> dict[str, str]:
    return {n: e.key for e in kg.entities for n in (e.name, *e.aliases)}


def test_spelling_variants_are_one_entity(nlp):
    kg = graph_of(
        nlp,
        "We evaluate on MATH-500 and NExT-QA.",
        "Results on MATH500 and NExTQA.",
        "Scores on AIME'24 rise.",
        "Scores on AIME’24 fall.",
    )
    keys = keys_by_name(kg)
    assert keys["MATH-500"] == keys["MATH500"] == "math500"
    assert keys["NExT-QA"] == keys["NExTQA"]
    assert keys["AIME'24"] == keys["AIME’24"]
    math500 = next(e for e in kg.entities if e.key == "math500")
    assert math500.papers == ("p1", "p2")


def test_look_alikes_stay_apart(nlp):
    kg = graph_of(
        nlp,
        "We evaluate on MATH and MATH500.",
        "We use Qwen3 and Qwen3-VL.",
        "Unlike RLHF, we use GRPO.",
    )
    keys = keys_by_name(kg)
    assert keys["MATH"] != keys["MATH500"]
    assert keys["Qwen3"] != keys["Qwen3-VL"]


def test_acronym_in_one_paper_links_expansion_in_another(nlp):
    kg = graph_of(
        nlp, "We propose Visual Gradient Steering (VGS).", "Our method outperforms VGS on MATH500."
    )
    keys = keys_by_name(kg)
    assert keys["VGS"] == keys["Visual Gradient Steering"] == "visualgradientsteering"
    (vgs,) = [e for e in kg.entities if e.key == "visualgradientsteering"]
    assert vgs.papers == ("p1", "p2")
    assert any("alias" in reason for reason in vgs.merge_reasons)


def test_lexicon_identity_and_model_family(nlp):
    kg = graph_of(nlp, "We fine-tune Qwen2.5-Math-7B-Instruct with GRPO.")
    by_key = {e.key: e for e in kg.entities}
    assert by_key["grpo"].concept == "grpo"
    model = by_key["qwen25math7binstruct"]
    assert (
        model.type is EntityType.MODEL and model.broader == "qwen25math7b"
    )  # whose family is Qwen2.5-Math


def test_links_are_deterministic(nlp):
    texts = ("We propose FooNet on MATH500.", "FooNet beats GRPO on GSM8K.")
    assert graph_of(nlp, *texts) == graph_of(nlp, *texts)


@pytest.mark.slow
def test_seed_graph_has_no_duplicates_and_no_false_merges(built):
    """Tricky pairs found in the seeds: each side names one entity, different things apart."""
    from kg.names import fold
    from kg.query.explain import explain

    same = [
        ("MATH500", "MATH-500"),
        ("AIME 2024", "AIME’24"),
        ("AIME 2024", "AIME24"),
        ("AIME 2025", "AIME25"),
        ("HMMT 2025", "HMMT25"),
        ("NExT-QA", "NExTQA"),
        ("Reflective Entropy-Aware Test-Time Scaling", "ReaTTS"),
        ("Gemma 3", "Gemma-3"),
        ("Adaptive Sequential Monte Carlo", "ASMC"),
        ("Critique Fine-Tuning", "CFT"),
    ]
    for a, b in same:
        assert explain(a, built).key == explain(b, built).key, (a, b)
    apart = [
        ("MATH", "MATH500"),
        ("Qwen3", "Qwen3-VL"),
        ("Qwen3", "Qwen3-4B-Base"),
        ("NExT-QA", "NExT-GQA"),
        ("Gemma 3", "Gemma3-4B"),
        ("AIME 2024", "AIME 2025"),
        ("CG-Bench-Reasoning", "VRBench"),
    ]
    for a, b in apart:
        assert explain(a, built).key != explain(b, built).key, (a, b)
    import networkx as nx

    graph = nx.read_graphml(built / "kg.graphml")
    names = [fold(d["label"]) for _, d in graph.nodes(data=True) if d["kind"] == "entity"]
    assert len(names) == len(set(names))


# `Linker`: the cached extractions linked ahead, the rest after, give `link`'s graph


def seed_extractions(nlp) -> list:
    from kg.ingest import read_inputs

    return list(extract(read_inputs(sorted(SEEDS.glob("*.txt"))), nlp))


def paper(pid: str, text: str, line: int) -> Paper:
    return Paper(id=pid, text=text, source="t.txt", line=line, index=line)


ALIASED = (
    "We propose Reflective Test-Time Scaling (ReTTS), evaluated on MATH-500.",
    "ReTTS outperforms GRPO on MATH500 and AIME 2024.",
    "Group Relative Policy Optimization (GRPO) is compared with FooNet on GSM8K.",
)


@pytest.mark.parametrize("seed", range(6))
def test_linking_ahead_then_the_rest_gives_the_graph_of_all_at_once(nlp, seed):
    more = [paper(f"a{i}", t, i) for i, t in enumerate(ALIASED, 1)]
    extractions = seed_extractions(nlp) + list(extract(more, nlp))
    rng = random.Random(seed)
    ahead = [ex for ex in extractions if rng.random() < (0.95, 0.5, 0.05)[seed % 3]]
    linker = Linker()
    linker.ahead(ahead)
    assert linker.link(extractions) == link(extractions)


def test_a_later_alias_that_joins_two_groups_remakes_their_entity(nlp):
    texts = (
        "We propose ReTTS, evaluated on MATH500.",
        "We introduce Reflective Test-Time Scaling, a method evaluated on GSM8K.",
        "We propose Reflective Test-Time Scaling (ReTTS), evaluated on GSM8K.",
    )
    extractions = list(extract([paper(f"p{i}", t, i) for i, t in enumerate(texts, 1)], nlp))
    linker = Linker()
    linker.ahead(extractions[:2])  # ReTTS and its long form: two groups, made ahead
    kg = linker.link(extractions)  # the third joins them
    assert kg == link(extractions)
    retts = next(e for e in kg.entities if "ReTTS" in (e.name, *e.aliases))
    assert {"ReTTS", "Reflective Test-Time Scaling"} <= {retts.name, *retts.aliases}
    assert retts.papers == ("p1", "p2", "p3")


def test_a_linker_links_afresh_what_was_linked_ahead_and_is_not_all_there(nlp):
    extractions = seed_extractions(nlp)
    linker = Linker()
    linker.ahead(extractions[:20])
    assert linker.link(extractions[5:]) == link(extractions[5:])  # five linked ahead, gone
    twice = Linker()
    twice.ahead(extractions[:20])
    doubled = extractions + extractions[:1]
    assert twice.link(doubled) == link(doubled)  # one given twice


def test_each_step_of_a_linker_runs_once(nlp):
    extractions = seed_extractions(nlp)
    linker = Linker()
    linker.ahead(extractions[:3])
    with pytest.raises(RuntimeError, match="once"):
        linker.ahead(extractions[3:])
    linker.link(extractions)
    with pytest.raises(RuntimeError, match="once"):
        linker.link(extractions)
