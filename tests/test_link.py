from __future__ import annotations

import random

import pytest
from conftest import SEEDS

from kg.extract import extract
from kg.link import Linker, link
from kg.model import EntityType, ExtractedEntity, Extraction, Mention, Paper, Sentence


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


# an acronym means one thing across papers


def test_an_acronym_joins_the_expansion_most_abstracts_give_it(nlp):
    kg = graph_of(
        nlp,
        "We propose Dynamic Sparse Training (DST), a method for sparse networks.",
        "We study dialogue state tracking (DST) with large language models.",
        "Dialogue state tracking (DST) is hard for small models.",
        "Our FooNet model improves DST accuracy on MultiWOZ.",
    )
    tracking = next(e for e in kg.entities if e.name.lower() == "dialogue state tracking")
    sparse = next(e for e in kg.entities if e.name == "Dynamic Sparse Training")
    assert tracking.key != sparse.key
    assert tracking.papers == ("p2", "p3", "p4")  # the bare DST of p4 is the common one
    assert sparse.papers == ("p1",)
    assert "DST" in sparse.aliases  # its own abstract's acronym stays its name


def test_an_acronym_that_is_a_lexicon_name_is_no_other_things(nlp):
    kg = graph_of(
        nlp,
        "We evaluate on the Schema-Guided Dialogue (SGD) dataset.",
        "We train ResNet-50 with SGD and Adam.",
    )
    sgd = next(e for e in kg.entities if e.key == "sgd")
    dialogue = next(e for e in kg.entities if e.key == "schemaguideddialogue")
    assert sgd.papers == ("p2",) and sgd.type is EntityType.METHOD
    assert dialogue.papers == ("p1",)
    # each abstract's SGD is its own entity's: names resolve within their paper
    assert ("p1", "SGD", "schemaguideddialogue") in kg.links
    assert ("p2", "SGD", "sgd") in kg.links


def test_singular_and_plural_expansions_are_one_for_an_acronym(nlp):
    kg = graph_of(
        nlp,
        "We propose Spiking Neural Networks (SNNs) for vision.",
        "We train a Spiking Neural Network (SNNs) on CIFAR-10.",
        "We propose Sparse Neural Networks (SNNs) for speed.",
    )
    keys = keys_by_name(kg)
    assert keys["Spiking Neural Networks"] == keys["Spiking Neural Network"]
    assert keys["Sparse Neural Networks"] != keys["Spiking Neural Network"]  # two to one


def test_a_later_abstract_that_changes_what_an_acronym_means_relinks(nlp):
    texts = (
        "We propose Dynamic Sparse Training (DST), a method for sparse networks.",
        "Dynamic sparse training (DST) prunes and regrows weights.",
        "We study dialogue state tracking (DST) with large language models.",
        "Dialogue state tracking (DST) is hard for small models.",
        "Dialogue state tracking (DST) needs schemas.",
    )
    extractions = list(extract([paper(f"p{i}", t, i) for i, t in enumerate(texts, 1)], nlp))
    linker = Linker()
    linker.ahead(extractions[:3])  # DST is dynamic sparse training, two to one
    assert linker.link(extractions) == link(extractions)  # then tracking, three to two


ACRONYMS = (
    "We propose Dynamic Sparse Training (DST), a method for sparse networks.",
    "Dynamic sparse training (DST) prunes and regrows weights.",
    "We study dialogue state tracking (DST) with large language models.",
    "Dialogue state tracking (DST) is hard for small models.",
    "Our FooNet model improves DST accuracy on MultiWOZ.",
    "We evaluate on the Schema-Guided Dialogue (SGD) dataset.",
    "We train ResNet-50 with SGD and Adam.",
    "We propose Spiking Neural Networks (SNNs) for vision.",
    "We train a Spiking Neural Network (SNNs) on CIFAR-10.",
    "We propose Sparse Neural Networks (SNNs) for speed.",
)


@pytest.mark.parametrize("seed", range(8))
def test_linking_ahead_gives_the_graph_of_all_whatever_an_acronym_comes_to_mean(nlp, seed):
    texts = list(ACRONYMS)
    random.Random(seed).shuffle(texts)
    extractions = list(extract([paper(f"q{i}", t, i) for i, t in enumerate(texts, 1)], nlp))
    linker = Linker()
    linker.ahead(extractions[: 2 + seed % 7])
    assert linker.link(extractions) == link(extractions)


def test_an_acronym_the_lexicon_knows_joins_its_own_expansions(nlp):
    kg = graph_of(
        nlp,
        "We fine-tune Contrastive Language-Image Pre-training (CLIP) on COCO.",  # no long label
        "We compare with CLIP and BERT.",
        "We propose Generative Adversarial Networks (GAN) for images.",  # a plural long form
        "A GAN generates images.",
    )
    keys = keys_by_name(kg)
    assert keys["Contrastive Language-Image Pre-training"] == keys["CLIP"] == "clip"
    assert keys["Generative Adversarial Networks"] == keys["GAN"] == "gan"


def made(pid: str, *entities: tuple[str, tuple[str, ...]]) -> Extraction:
    """An extraction of `entities` ((name, aliases), each a Method), as the linker reads it."""
    text = " ".join(n for n, _ in entities)
    return Extraction(
        paper=paper(pid, text, int(pid[1:])),
        sentences=(Sentence(0, len(text)),),
        entities=tuple(
            ExtractedEntity(n, EntityType.METHOD, (Mention(0, len(n), n, 0),), aliases, False)
            for n, aliases in entities
        ),
        relations=(),
        results=(),
    )


def test_of_two_expansions_given_alike_the_acronym_joins_the_one_named_more():
    extractions = [
        made("p1", ("Reinforced Leaf Sequencer", ("RL",))),
        made("p2", ("Reinforcement Learning", ("RL",))),
        made("p3", ("Reinforcement Learning", ())),
        made("p4", ("RL", ())),
    ]
    links = link(extractions).links
    assert ("p1", "Reinforced Leaf Sequencer", "reinforcedleafsequencer") in links
    assert {key for pid, _, key in links if pid == "p4"} == {"reinforcementlearning"}
    alike = extractions + [made("p5", ("Reinforced Leaf Sequencer", ()))]
    links = link(alike).links
    assert ("p2", "Reinforcement Learning", "reinforcementlearning") in links
    assert {key for pid, _, key in links if pid == "p4"} == {"reinforcedleafsequencer"}


def test_an_acronym_some_abstracts_expand_otherwise_names_the_common_entity(tmp_path):
    """`kg explain` and `kg query --param` read a name shared by two entities (DST, an alias
    of each) as the entity more papers name."""
    import json

    from kg.builder.pipeline import build
    from kg.query.explain import explain
    from kg.query.library import entity_named

    source = tmp_path / "abstracts.jsonl"
    texts = (
        "We propose Deep Sparse Training (DST), a method for sparse networks.",
        "We study dialogue state tracking (DST) with large language models.",
        "Dialogue state tracking (DST) is hard for small models.",
        "Our FooNet model improves DST accuracy on MultiWOZ.",
    )
    source.write_text("".join(json.dumps({"abstract": t}) + "\n" for t in texts))
    out = tmp_path / "out"
    build([source], out, views="none", cache=False)
    sparse = explain("Deep Sparse Training", out)  # first in order, but of one paper
    assert "DST" in sparse.aliases  # its abstract's acronym, and the others' too
    tracking = explain("DST", out)
    assert tracking.key == "dialoguestatetracking" != sparse.key
    iri = entity_named("DST", [out], "oxigraph", None)
    assert iri is not None and iri.endswith("/dialoguestatetracking")


def test_longer_and_stemmed_forms_of_an_expansion_join_its_acronym():
    extractions = [
        made("p1", ("Quantum Field Transport", ("QFT",))),
        made("p2", ("Quantum Field Transport", ("QFT",))),
        made("p3", ("Quantum Field Transport Sampling", ("QFT",))),  # longer
        made("p4", ("Quick Fourier Trick", ("QFT",))),
        made("p5", ("Generative Adversarial Nets", ("GAN",))),  # the lexicon's GAN, stemmed
        made("p6", ("Grade School Math 8K", ("GSM8K",))),  # spells a lexicon acronym
    ]
    links = link(extractions).links
    assert ("p3", "QFT", "quantumfieldtransport") in links
    assert ("p4", "QFT", "quickfouriertrick") in links
    assert ("p5", "GAN", "gan") in links
    assert ("p6", "GSM8K", "gsm8k") in links
