"""Reported results: which numbers are scores, who scored them and on what (made-up
sentences in the style of abstracts, one per pattern of kg/extract/results.py and
kg/extract/figures.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from kg.extract import extract
from kg.extract.cues import load_cues
from kg.extract.figures import Figure, cue_features
from kg.model import Paper


def results(nlp, text: str) -> set[tuple[str | None, str, str | None]]:
    (ex,) = extract([Paper(id="p1", text=text, source="t.txt", line=1, index=1)], nlp)
    return {(r.subject, str(r.value), r.benchmark) for r in ex.results}


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("We propose FooNet. FooNet outperforms BarNet by 3.2% on MATH500.", "3.2"),
        ("We propose FooNet. It brings a 13.5% relative gain on GSM8K.", "13.5"),
        ("We propose FooNet. FooNet scores 4.5% higher than BarNet on GSM8K.", "4.5"),
        ("We propose FooNet, with an improvement of 6.1% on GSM8K.", "6.1"),
        ("We propose FooNet. On GSM8K, FooNet reaches +2.4% over BarNet.", "2.4"),
        (
            "We propose FooNet. It raises the accuracy of BarNet from 53.5% to 63.8% on AQuA.",
            "53.5",
        ),  # where a range starts
        (
            "We propose FooNet. Over 100 videos, its accuracy rises from 45.2% (first 10) to "
            "61.8% (last 10) on BarQA.",
            "45.2",
        ),  # and past an aside
        (
            "We propose FooPrompt. FooPrompt outperforms existing methods (e.g., up to 25% "
            "on BBH).",
            "25",
        ),  # "up to" a figure after a comparison, no score verb between: a gain
        # (`compared_gain`; the retrained model of 2026-12-08 took it without the rule)
        (
            "We propose FooNAS. Experiments on over 1.5 million architectures of "
            "NAS-Bench-101 show that FooNAS reaches 94.3% accuracy.",
            "1.5",
        ),  # a count (the gold pool abstract icml2024:fqPH6ejwGi)
    ],
)
def test_differences_and_range_starts_are_no_scores(nlp, text, unwanted):
    assert unwanted not in {value for _, value, _ in results(nlp, text)}


@pytest.mark.parametrize(
    "text",
    [
        "We propose FooNet. FooNet outperforms BarNet by 14.5%, 15.1%, and 13.0% on Kodak.",
        "We propose FooNet. FooNet brings 18.9% and 32.7% relative improvements on WebArena.",
    ],
)
def test_a_difference_is_shared_along_its_list(nlp, text):
    """The cue stands at one end of the list: the other figures are differences too."""
    assert results(nlp, text) == set()


def test_a_score_before_an_apposed_difference_is_kept(nlp):
    text = (
        "We propose FooNet. FooNet achieves 38.1% accuracy on FooBench, a 22.1% improvement "
        "over the base model."
    )
    assert results(nlp, text) == {("FooNet", "38.1", "FooBench")}


def test_a_score_after_a_difference_of_another_list_is_kept(nlp):
    text = (
        "We propose FooNet. FooNet improves accuracy from 4.0% to 26.2% on ProofNet and "
        "from 2.4% to 9.6% on MiniF2F."
    )
    got = results(nlp, text)
    assert {("FooNet", "26.2", "ProofNet"), ("FooNet", "9.6", "MiniF2F")} <= got, got


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "We propose FooNet. In zero-shot ImageNet classification, FooNet achieves 70.8% "
            "accuracy, surpassing CLIP's 68.3% accuracy.",
            {("FooNet", "70.8", "ImageNet"), ("CLIP", "68.3", "ImageNet")},
        ),  # a rival's possessive owns the figure after it
        (
            "We propose FooSQL. FooSQL achieves an execution accuracy of 43.9%, compared to "
            "46.4% for vanilla GPT-4.",
            {("FooSQL", "43.9", None), ("GPT-4", "46.4", None)},
        ),  # "for" a few words before the system
        (
            "We propose FooPrompt, a prompting method. In experiments using ChatGPT, the "
            "accuracy on AQuA reaches 63.8%.",
            {("FooPrompt", "63.8", "AQuA")},
        ),  # a system named only as a means: the paper's own scored
        (
            "We propose FooCopilot. FooCopilot outperforms ChatGPT, achieving 90.5% preference "
            "in citation quality.",
            {("FooCopilot", "90.5", None)},
        ),  # the system after a comparison verb is a rival
        (
            "We introduce Step-level Reward Shaping (SRS) and FooMath-7B. SRS is a training "
            "algorithm, while FooMath-7B is a language model. Experiments show that our "
            "model achieves an accuracy of 68.1% on GSM8K.",
            {("FooMath-7B", "68.1", "GSM8K")},
        ),  # "our model": the paper's own Model, where it proposes a Method too
        (
            "We introduce Step-level Reward Shaping (SRS) and FooMath-7B. SRS is a training "
            "algorithm, while FooMath-7B is a language model. Experiments show that our "
            "method achieves an accuracy of 68.1% on GSM8K.",
            {("Step-level Reward Shaping", "68.1", "GSM8K")},
        ),  # "our method": its Method
        (
            "We introduce Step-level Reward Shaping (SRS) and FooMath-7B. SRS is a training "
            "algorithm, while FooMath-7B is a language model. Experiments show an accuracy "
            "of 68.1% on GSM8K.",
            {("Step-level Reward Shaping", "68.1", "GSM8K")},
        ),  # no kind said: the first system the paper proposes
        (
            "We introduce Step-level Reward Shaping (SRS) and FooMath-7B. SRS is a training "
            "algorithm, while FooMath-7B is a language model. Experiments show that our "
            "proposed model achieves an accuracy of 68.1% on GSM8K.",
            {("FooMath-7B", "68.1", "GSM8K")},
        ),  # a word or two between "our" and the kind
        (
            "We introduce FooMath-7B and Step-level Reward Shaping (SRS). FooMath-7B is a "
            "language model, while SRS is a training algorithm. Experiments show that our "
            "method achieves an accuracy of 68.1% on GSM8K.",
            {("Step-level Reward Shaping", "68.1", "GSM8K")},
        ),  # "our method" where the Model is proposed first
        (
            "We introduce FooMath-7B and Step-level Reward Shaping (SRS). FooMath-7B is a "
            "language model, while SRS is a training algorithm. FooMath-7B, trained with our "
            "method, achieves an accuracy of 68.1% on GSM8K.",
            {("FooMath-7B", "68.1", "GSM8K")},
        ),  # the sentence names its own system before the figure: "our method" a means
        (
            "We introduce FooMath-7B and Step-level Reward Shaping (SRS). FooMath-7B is a "
            "language model, while SRS is a training algorithm. Our method trains our "
            "proposed model, which achieves an accuracy of 68.1% on GSM8K.",
            {("FooMath-7B", "68.1", "GSM8K")},
        ),  # the "our" nearest the figure
    ],
)
def test_who_scored(nlp, text, expected):
    assert results(nlp, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "We propose FooNet. FooNet reaches 40.1% on HotpotQA, outperforming baselines "
            "such as E5-Mistral-7B-Instruct (15.0%) and BM25 (9.8%).",
            {
                ("FooNet", "40.1", "HotpotQA"),
                ("E5-Mistral-7B-Instruct", "15.0", "HotpotQA"),
                ("BM25", "9.8", "HotpotQA"),
            },
        ),
        # a difference shares itself along a list whose figures are labelled in parentheses
        (
            "We propose FooNet. FooNet improves accuracy by 41% (Qwen2.5-7B) and 20% "
            "(Qwen2.5-3B) over RAG baselines on HotpotQA.",
            set(),
        ),
    ],
)
def test_a_list_of_figures_each_with_its_name_in_parentheses(nlp, text, expected):
    assert results(nlp, text) == expected


def test_a_list_of_figures_on_names_with_a_suffix_written_on(nlp):
    """ "1.77 on CelebA-64×64, 1.93 on AFHQv2-Wild-64×64": what is written onto a name
    (a resolution, a split) is the name's, and the figures stay one list."""
    from kg.extract.figures import figures, list_pairs
    from kg.extract.records import FOUND, doc_to_extraction

    text = (
        "We propose FooDiff. We achieve FID scores of 1.77 on FooFaces-64×64, 1.93 on "
        "BarFaces-64×64, and 2.72 on BazPics-256×256."
    )
    doc = nlp(text)
    doc_to_extraction(doc, Paper(id="p1", text=text, source="t.txt", line=1, index=1))
    found = doc.user_data[FOUND]
    pairs = list_pairs(doc, figures(doc, found), found)
    assert [(str(a.value), str(b.value)) for a, b, _ in pairs] == [
        ("1.77", "1.93"),
        ("1.93", "2.72"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "We propose FooNet. FooNet outperforms BarNet by 3.2% on GSM8K, and BarNet's "
            "64.1% on MATH is lower.",
            {("BarNet", "64.1", "MATH")},
        ),
        (
            "We propose FooNet. FooNet outperforms BarNet by 3.2% on GSM8K—and 71.2% on MATH.",
            {("FooNet", "71.2", "MATH")},
        ),
    ],
)
def test_what_follows_a_name_unspaced_is_not_always_the_names(nlp, text, expected):
    """A review's cases: "'s" and a dash after a name are not written onto it, so the
    difference before them makes no list with the score after them."""
    assert results(nlp, text) == expected


@pytest.mark.parametrize(
    "aside",
    ["(a gain of 4.1%)", "(std 1.3%)", "(previously 77.0%)", "(up 7.3%)", "(+ 4.1%)"],
)
def test_a_figure_in_an_aside_makes_no_list(nlp, aside):
    """A review's cases: a parenthesis between two figures pairs them only when it holds
    a name alone, each figure's the same way; an aside neither drops the score after it
    nor becomes one."""
    text = f"We propose FooNet. FooNet reaches 84.2% on HotpotQA {aside} and 71.4% on TriviaQA."
    assert results(nlp, text) == {("FooNet", "84.2", "HotpotQA"), ("FooNet", "71.4", "TriviaQA")}


def test_an_unnamed_rivals_figure_is_no_ones(nlp):
    text = "We propose FooRetrieval. FooRetrieval reaches 65.1% recall (vs. previous SOTA 24.7%)."
    assert results(nlp, text) == {("FooRetrieval", "65.1", None)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "We propose FooNoise. Fine-tuning LLaMA-2-7B on Alpaca yields a 29.8% score on "
            "AlpacaEval. FooNoise reaches a 69.2% score.",
            ("FooNoise", "69.2", "AlpacaEval"),
        ),  # no benchmark in its sentence: the one of the figures before
        (
            "We propose FooLM. On GSM8K, FooLM reaches 81.2% accuracy, outperforming BarNet "
            "trained on MATH.",
            ("FooLM", "81.2", "GSM8K"),
        ),  # a resource named after a rival is not where the figure was measured
        (
            "We propose FooAgent. On WebArena, FooAgent improves (14.9% to 33.5%) over prior "
            "agents, while on MiniWoB++, FooAgent matches them with less data.",
            ("FooAgent", "33.5", "WebArena"),
        ),  # nor one named in the next clause ("while on X")
        (
            "We introduce BarBench, a benchmark of long code. Models fine-tuned on ImageNet "
            "and CIFAR-10 do not transfer. Claude 3.5 Sonnet reaches only 30.2% accuracy.",
            ("Claude 3.5 Sonnet", "30.2", "BarBench"),
        ),  # no benchmark named near it, several in the abstract: the one the paper introduces
    ],
)
def test_on_what(nlp, text, expected):
    got = results(nlp, text)
    assert expected in got, got


@pytest.mark.parametrize(
    ("words", "feature"),
    [
        ("FooNet achieves an accuracy of 68.1 on GSM8K", "verb_before"),
        ("FooNet reaches 38.2 BLEU@4 on COCO", "metric_at"),
        ("an execution accuracy of 59.6 on BIRD", "metric_at"),
        ("it surpasses BarNet by up to 4.2 on BIRD", "by_before"),
        ("a relative improvement of 7.8 on BIRD", "delta_before"),
        ("FooNet brings 13.5 points higher accuracy", "delta_after"),
        ("FooNet reaches 34.8 ( +9.1 ) on LVIS", "delta_follows"),
        # after a comparison, "up to" says by how much it was won (the EvoPrompt pool abstract)
        ("FooNet outperforms BarNet ( e.g. , up to 25 on BBH )", "compared_gain"),
        ("FooNet reaches 1.5 million users on BBH", "count_after"),
    ],
)
def test_cue_features(words, feature):
    lower = words.lower().split()
    at = next(i for i, w in enumerate(lower) if w[:1].isdigit())
    fig = Figure(at, at + 1, Decimal(lower[at]), None, 0)
    assert feature in cue_features(lower, fig, load_cues())


@pytest.mark.parametrize(
    "words",
    [
        "FooNet reaches success rates up to 98.1 on BBH",  # no comparison: a score
        "FooNet outperforms BarNet , achieving up to 81.2 on BBH",  # a score verb between
        "FooNet outperforms BarNet . It reaches up to 81.2 on BBH",  # another sentence
    ],
)
def test_up_to_a_figure_is_a_gain_only_after_a_comparison(words):
    lower = words.lower().split()
    at = next(i for i, w in enumerate(lower) if w[:1].isdigit())
    fig = Figure(at, at + 1, Decimal(lower[at]), None, 0)
    assert "compared_gain" not in cue_features(lower, fig, load_cues())


def test_a_score_has_no_difference_feature():
    lower = "foonet achieves 70.8 % accuracy on imagenet".split()
    features = cue_features(lower, Figure(2, 4, Decimal("70.8"), "%", 0), load_cues())
    assert "verb_before" in features
    assert not {"delta_after", "by_before", "delta_before"} & set(features)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "We propose FooNet. FooNet improves GSM8K (5.9%→10.9%) and MATH (36.3%→47.2%).",
            {("FooNet", "10.9", "GSM8K"), ("FooNet", "47.2", "MATH")},
        ),
    ],
)
def test_a_figure_in_parentheses_is_on_the_benchmark_before_them(nlp, text, expected):
    assert results(nlp, text) == expected


def test_of_before_a_figure_is_no_skip_cue():
    """ "an accuracy of 68.1%" is a score: "of" is no cue of a difference or a setting
    (training/README.md: it cost the cross-validated result F1 0.019)."""
    assert "of" not in load_cues().result_skip_cues
    assert {"by", "over", "up"} <= load_cues().result_skip_cues


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a sentence about a class of others' systems, naming none: the figure is theirs
        (
            "We propose FooBench. Experiments on frontier LLMs reveal a gap: performance "
            "drops from an F1-score of 1.0 at depth 2 to approximately 0.2 at depth 100.",
            set(),
        ),
        # the paper's own, unnamed: still its system's
        (
            "We propose FooNet. Our method reaches an accuracy of 81.8% on GSM8K.",
            {("FooNet", "81.8", "GSM8K")},
        ),
        # a class of systems no word marks as others': it may be the paper's
        (
            "We propose FooNet. Fine-tuned models reach an accuracy of 81.8% on GSM8K.",
            {("FooNet", "81.8", "GSM8K")},
        ),
        # a class marked as others' in an earlier sentence marks nothing here
        (
            "We propose FooNet, unlike existing models. It reaches 81.8% on GSM8K.",
            {("FooNet", "81.8", "GSM8K")},
        ),
    ],
)
def test_a_figure_of_a_sentence_that_names_no_system(nlp, text, expected):
    assert results(nlp, text) == expected
