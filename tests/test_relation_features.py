"""The features the proposed and relation models read (kg/extract/proposals.py,
relations.py): one made-up sentence per cue and rule, with its entities given by hand, so
that each feature is checked apart from what the entity stage finds."""

from __future__ import annotations

import pytest
import spacy

import kg.extract.components  # noqa: F401  (registers kg_sentences)
from kg.extract.cues import load_cues
from kg.extract.found import Found
from kg.extract.proposals import proposed_features
from kg.extract.relations import _pairs, find_relations, other_relations, pair_features
from kg.extract.tokenizer import customize_tokenizer
from kg.model import EntityType, RelationType

M, D, B = EntityType.METHOD, EntityType.DATASET, EntityType.BENCHMARK


@pytest.fixture(scope="module")
def tokens():
    nlp = spacy.blank("en")
    customize_tokenizer(nlp)
    nlp.add_pipe("kg_sentences")
    return nlp


def entities(doc, named: dict[str, EntityType]) -> list[Found]:
    """A Found for every mention of each name (one token each) in `doc`."""
    sentence = {t.i: n for n, s in enumerate(doc.sents) for t in s}
    return [
        Found(t.i, t.i + 1, t.text, t.text, named[t.text], False, sentence[t.i])
        for t in doc
        if t.text in named
    ]


def test_rules_of_a_second_proposed_system_in_its_own_sentences(tokens):
    doc = tokens("We propose FooNet for proofs. We also introduce BarNet, evaluated on BazQA.")
    found = entities(doc, {"FooNet": M, "BarNet": M, "BazQA": B})
    proposed = ["FooNet", "BarNet"]
    assert ("BarNet", RelationType.EVALUATED_ON, "BazQA") in other_relations(doc, found, proposed)
    # the main system's rules read every sentence; the second system's only its own
    assert ("FooNet", RelationType.EVALUATED_ON, "BazQA") in find_relations(doc, found, proposed)
    assert other_relations(doc, found, ["FooNet"]) == {}


def test_a_pair_read_by_a_second_system_rule(tokens):
    doc = tokens("We propose FooNet for proofs. We also introduce BarNet, evaluated on BazQA.")
    found = entities(doc, {"FooNet": M, "BarNet": M, "BazQA": B})
    proposed = ["FooNet", "BarNet"]
    shared = _pairs(doc, found, proposed, find_relations(doc, found, proposed))
    assert "rule2:evaluated_on" in pair_features(doc, "BarNet", "BazQA", shared)
    assert "rule2:evaluated_on" not in pair_features(doc, "FooNet", "BazQA", shared)


def test_a_system_named_only_before_the_proposal_is_background(tokens):
    doc = tokens("Methods like OldNet are slow. We propose FooNet. FooNet is tested on BazQA.")
    found = entities(doc, {"OldNet": M, "FooNet": M, "BazQA": B})
    shared = _pairs(doc, found, ["FooNet"], find_relations(doc, found, ["FooNet"]))
    assert "t_background|Method" in pair_features(doc, "FooNet", "OldNet", shared)
    assert not any(
        f.startswith("t_background") for f in pair_features(doc, "FooNet", "BazQA", shared)
    )


def test_an_evaluation_sentence_is_flagged(tokens):
    doc = tokens("We propose FooNet. Experiments show gains on BazQA.")
    found = entities(doc, {"FooNet": M, "BazQA": B})
    shared = _pairs(doc, found, ["FooNet"], {})
    assert "s:eval" in pair_features(doc, "FooNet", "BazQA", shared)


def features_of(tokens, text: str, key: str) -> list[str]:
    doc = tokens(text)
    found = entities(doc, {key: M})
    return proposed_features(doc, found, key, {}, "")


@pytest.mark.parametrize(
    "text", ["In our method, FooNet, rewards are dense.", "We build our system: FooNet."]
)
def test_our_x_comma_name_is_the_papers(tokens, text):
    assert "our_appos" in features_of(tokens, text, "FooNet")


@pytest.mark.parametrize("verb", ["fine-tunes", "trains", "pre-trains", "finetunes"])
def test_a_training_verb_before_a_dataset_makes_it_used(tokens, verb):
    """ "FooNet fine-tunes Llama on BazData": BazData is FooNet's training data, not what it
    is evaluated on (every form of the verb, not only "trained")."""
    doc = tokens(f"We propose FooNet. FooNet {verb} Llama on BazData.")
    found = entities(doc, {"FooNet": M, "Llama": M, "BazData": D})
    assert ("FooNet", RelationType.USES, "BazData") in find_relations(doc, found, ["FooNet"])


def test_our_x_before_the_proposal_sentence_is_no_background(tokens):
    """ "Our method, FooNet, …" needs no proposal verb: named before "We also propose", it
    is the paper's own all the same, where a name plainly before the proposal is not."""
    text = "Our method, FooNet, beats OldNet. We also propose BarQA, a benchmark."
    doc = tokens(text)
    found = entities(doc, {"FooNet": M, "OldNet": M, "BarQA": B})
    assert "before_proposal" not in proposed_features(doc, found, "FooNet", {}, "")
    assert "before_proposal" in proposed_features(doc, found, "OldNet", {}, "")


@pytest.mark.parametrize("word", sorted(load_cues().prior_work_words))
def test_a_prior_work_word_before_a_name(tokens, word):
    assert "prior_before" in features_of(tokens, f"The {word} FooNet is slow.", "FooNet")


@pytest.mark.parametrize(
    "text",
    [
        "We propose FooNet.",
        "We propose FooNet. It beats existing attacks, FooNet being faster.",  # a later mention
        "Unlike existing attacks, FooNet is fast.",  # another clause
    ],
)
def test_no_prior_work_word_before_the_first_mention_no_feature(tokens, text):
    assert "prior_before" not in features_of(tokens, text, "FooNet")


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("Methods such as FooNet are slow.", "example_before"),
        ("We compare against FooNet.", "versus_before"),
    ],
)
def test_an_example_or_a_rival_before_a_name(tokens, text, feature):
    assert feature in features_of(tokens, text, "FooNet")


def test_a_system_named_after_a_prior_work_word_is_someone_elses(tokens):
    doc = tokens("We propose FooNet. Existing methods such as OldNet fail, unlike FooNet on BazQA.")
    found = entities(doc, {"OldNet": M, "FooNet": M, "BazQA": B})
    shared = _pairs(doc, found, ["FooNet"], find_relations(doc, found, ["FooNet"]))
    old = pair_features(doc, "FooNet", "OldNet", shared)
    assert {"t_prior_before|Method", "t_example_before|Method"} <= set(old)
    assert not any(f.startswith("t_prior") for f in pair_features(doc, "FooNet", "BazQA", shared))


def test_the_entity_models_confidence_in_each_end(tokens):
    doc = tokens("We propose FooNet. FooNet is tested on BazQA.")
    found = [
        Found(
            f.start, f.end, f.name, f.key, f.type, False, f.sent, 0.55 if f.key == "BazQA" else 0.95
        )
        for f in entities(doc, {"FooNet": M, "BazQA": B})
    ]
    shared = _pairs(doc, found, ["FooNet"], {})
    features = pair_features(doc, "FooNet", "BazQA", shared)
    assert {"h_conf:high", "t_conf:low"} <= set(features)


MO = EntityType.MODEL


@pytest.mark.parametrize(
    ("text", "head", "tail", "chained"),
    [
        # a system, then "on", then the tail within the list "on" opens
        ("We verify it with ResNets on MNIST, CIFAR10 and ImageNet.", "ResNets", "ImageNet", True),
        (
            "We test Whisper across the VoxPopuli and CommonVoice datasets.",
            "Whisper",
            "CommonVoice",
            True,
        ),
        ("We propose FooNet. FooNet scores 81.2 on BazQA.", "FooNet", "BazQA", True),
        # another system opens its own "on": the tail is that one's
        ("We run Whisper on VoxPopuli and MMS on CommonVoice.", "Whisper", "CommonVoice", False),
        # no "on" between them
        ("We train Whisper with CommonVoice data.", "Whisper", "CommonVoice", False),
        # the tail is far past the list's words
        (
            "ResNets on MNIST are slow when the images of ImageNet are used.",
            "ResNets",
            "ImageNet",
            False,
        ),
    ],
)
def test_a_system_on_a_list_of_resources(tokens, text, head, tail, chained):
    doc = tokens(text)
    named = {"ResNets": MO, "Whisper": MO, "MMS": MO, "FooNet": M, "MNIST": D, "CIFAR10": D}
    named |= {"ImageNet": D, "VoxPopuli": D, "CommonVoice": D, "BazQA": B}
    found = entities(doc, {k: v for k, v in named.items() if k in doc.text})
    proposed = ["FooNet"] if "FooNet" in doc.text else []
    shared = _pairs(doc, found, proposed, find_relations(doc, found, proposed))
    features = pair_features(doc, head, tail, shared)
    assert ("on_chain" in features) is chained


@pytest.mark.parametrize(
    ("text", "ways"),
    [
        # the sentence lists the parts and names the main system
        ("We propose FooNet. FooNet consists of BarNet and BazNet.", {"cue", "named"}),
        # it refers back to it: "our framework", "it", "the algorithm, which"
        ("We propose FooNet. Our framework comprises BarNet and BazNet.", {"cue", "self"}),
        ("We propose FooNet. It introduces BarNet and BazNet.", {"cue", "anaphor"}),
        (
            "We propose FooNet. The algorithm, which incorporates BarNet, is fast.",
            {"cue", "anaphor", "self"},
        ),
        # a part word is needed: naming both is not enough
        ("We propose FooNet. FooNet and BarNet are fast.", set()),
    ],
)
def test_a_sentence_that_lists_the_parts_of_the_main_system(tokens, text, ways):
    doc = tokens(text)
    found = entities(doc, {"FooNet": M, "BarNet": M, "BazNet": M})
    proposed = [k for k in ("FooNet", "BarNet", "BazNet") if k in doc.text]
    shared = _pairs(doc, found, proposed, find_relations(doc, found, proposed))
    features = pair_features(doc, "BarNet", "FooNet", shared)
    assert {f.split(":", 1)[1] for f in features if f.startswith("part_sent:")} == ways
    # only a proposed part and the main system: never the other way round
    assert not any(
        f.startswith("part_sent:") for f in pair_features(doc, "FooNet", "BarNet", shared)
    )


def test_a_system_under_study_and_a_paper_that_proposes_only_a_dataset(tokens):
    doc = tokens("We introduce BazQA. We then analyze GPT4 and PaLM2 on this dataset.")
    found = entities(doc, {"BazQA": D, "GPT4": MO, "PaLM2": MO})
    shared = _pairs(doc, found, ["BazQA"], find_relations(doc, found, ["BazQA"]))
    features = pair_features(doc, "PaLM2", "BazQA", shared)
    assert "h_studied|hntp" in features
    assert "no_system|hntp|Model>Dataset" in features
    doc = tokens("We propose FooNet. GPT4 and PaLM2 are strong on BazQA.")
    found = entities(doc, {"FooNet": M, "BazQA": D, "GPT4": MO, "PaLM2": MO})
    shared = _pairs(doc, found, ["FooNet"], find_relations(doc, found, ["FooNet"]))
    features = pair_features(doc, "PaLM2", "BazQA", shared)
    assert not any(f.startswith(("h_studied", "no_system")) for f in features)


def test_a_relation_word_further_before_the_tail(tokens):
    doc = tokens("We propose FooNet, pretrained with a large and diverse web corpus such as BazQA.")
    found = entities(doc, {"FooNet": M, "BazQA": D})
    shared = _pairs(doc, found, ["FooNet"], {})
    features = pair_features(doc, "FooNet", "BazQA", shared)
    assert "far:pretrained|Dataset" in features
    assert "c:pretrained" not in features  # the near window is five words


@pytest.mark.parametrize(
    "text",
    [
        "FooNet gains a 29.7% relative improvement over OldNet on BazQA.",
        "FooNet is 2x faster than OldNet on BazQA.",
        "FooNet improves upon OldNet on BazQA.",
    ],
)
def test_a_gain_over_a_system_is_a_comparison(tokens, text):
    doc = tokens("We propose FooNet. " + text)
    found = entities(doc, {"FooNet": M, "OldNet": M, "BazQA": B})
    rules = find_relations(doc, found, ["FooNet"])
    assert ("FooNet", RelationType.OUTPERFORMS, "OldNet") in rules
    shared = _pairs(doc, found, ["FooNet"], rules)
    assert "t_gain_over" in pair_features(doc, "FooNet", "OldNet", shared)


def test_more_than_is_no_gain(tokens):
    """ "more than" counts things; the system named after it is not beaten."""
    doc = tokens("We propose FooNet. FooNet runs on more than OldNet on BazQA.")
    found = entities(doc, {"FooNet": M, "OldNet": M, "BazQA": B})
    rules = find_relations(doc, found, ["FooNet"])
    assert ("FooNet", RelationType.OUTPERFORMS, "OldNet") not in rules


@pytest.mark.parametrize(
    "text",
    [
        "FooNet gains an improvement over the strong OldNet and BarNet on BazQA.",
        "FooNet brings improvements over other methods, including OldNet and BarNet.",
    ],
)
def test_a_gain_beats_the_systems_of_the_phrase_after_over(tokens, text):
    doc = tokens("We propose FooNet. " + text)
    found = entities(doc, {"FooNet": M, "OldNet": M, "BarNet": M, "BazQA": B})
    rules = find_relations(doc, found, ["FooNet"])
    assert ("FooNet", RelationType.OUTPERFORMS, "OldNet") in rules
    assert ("FooNet", RelationType.OUTPERFORMS, "BarNet") in rules


@pytest.mark.parametrize(
    "text",
    [
        "FooNet improves accuracy by over 10% when applied to OldNet.",
        "FooNet shows improvements over training steps for OldNet.",
        "FooNet is faster than usual and initialized from OldNet.",
        "FooNet improves robustness against OldNet attacks.",
    ],
)
def test_a_gain_beats_no_system_outside_its_phrase(tokens, text):
    """A gain's "over" opens the phrase of what it beats: a number after it is a size, and
    a preposition or a clause ends the phrase; "against" is no gain's."""
    doc = tokens("We propose FooNet. " + text)
    found = entities(doc, {"FooNet": M, "OldNet": M})
    rules = find_relations(doc, found, ["FooNet"])
    assert ("FooNet", RelationType.OUTPERFORMS, "OldNet") not in rules


@pytest.mark.parametrize(
    ("text", "verbs"),
    [
        # the first proposal verb after the first subject of each sentence
        ("We propose FooNet. Prior work introduced BarNet.", ["propose", None]),
        ("In this paper, we first study X and then present FooNet.", ["present"]),
        ("Here we build FooBench and release it.", ["build"]),
        ("Our proposed FooNet is fast.", ["proposed"]),
        ("Introduced by others, it is used here.", [None]),
    ],
)
def test_the_proposal_verb_of_each_sentence(tokens, text, verbs):
    from kg.extract.proposals import proposal_verbs_of

    doc = tokens(text)
    words = [t.text.lower() for t in doc]
    found = [words[i] if i is not None else None for i in proposal_verbs_of(doc)]
    assert found == verbs


def test_every_proposal_word_has_its_role_class():
    """The proposal verb scan reads the role classes: every subject and verb of cues.json
    must have its class there."""
    from kg.extract.wordclass import _classes

    cues = load_cues()
    role = {w: _classes(w)[2] for w in cues.proposal_subjects | cues.proposal_verbs}
    assert all(role[w] in "so" for w in cues.proposal_subjects)
    assert all(role[w] in "vp" for w in cues.proposal_verbs)
