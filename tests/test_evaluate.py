"""kg's scorer agrees with the reference score.py, and extraction keeps its figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA, write

from kg.cli import main
from kg.evaluate.score import evaluate, extract_gold_texts, load_jsonl

DEV = DATA / "dev.jsonl"
TRAIN = DATA / "train.jsonl"
GSAP = DATA / "gsap_abstracts.jsonl"


def reference(gold, predicted) -> dict:
    done = subprocess.run(
        [sys.executable, str(DATA / "score.py"), str(gold), str(predicted), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def _predicted(tmp_path_factory, gold):
    path = tmp_path_factory.mktemp(gold.stem) / "predicted.jsonl"
    records = extract_gold_texts(load_jsonl(gold))
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def gsap_predicted(tmp_path_factory):
    return _predicted(tmp_path_factory, GSAP)


@pytest.fixture(scope="module")
def train_predicted(tmp_path_factory):
    return _predicted(tmp_path_factory, TRAIN)


@pytest.mark.parametrize("which", ["dev", "train", "gsap"])
def test_figures_agree_with_score_py(built, gsap_predicted, train_predicted, which):
    """Every figure, results included (dev and train carry them), and relations in either
    form ({"head", "relation", "tail"} or [head, relation, tail])."""
    gold, predicted = {
        "dev": (DEV, built / "extractions.jsonl"),
        "train": (TRAIN, train_predicted),
        "gsap": (GSAP, gsap_predicted),
    }[which]
    ours = evaluate(load_jsonl(gold), load_jsonl(predicted)).as_json()
    assert ours == reference(gold, predicted)
    assert ("result" in ours) == (which != "gsap")


def test_the_printed_figures_are_score_py_s_to_the_digit(train_predicted):
    """`kg eval` printed 0.982 where score.py printed 0.983 (Model F1 on train): score.py
    rounds to four places before it prints three (a review, 2026-12-07)."""
    from kg.evaluate.score import format_report

    done = subprocess.run(
        [sys.executable, str(DATA / "score.py"), str(TRAIN), str(train_predicted)],
        capture_output=True,
        text=True,
        check=True,
    )
    ours = format_report(evaluate(load_jsonl(TRAIN), load_jsonl(train_predicted)))
    assert ours == done.stdout


def test_results_and_gold_form_relations_are_scored(tmp_path):
    gold = [r for r in load_jsonl(TRAIN) if r.get("results")][:1]
    as_gold = [{**gold[0], "relations": gold[0]["relations"]}]  # lists, as the gold writes
    figures = evaluate(gold, as_gold).as_json()
    assert figures["result"]["f1"] == 1.0 and figures["strict"]["f1"] == 1.0
    wrong = [
        {**as_gold[0], "results": [{**r, "value": r["value"] + 1} for r in gold[0]["results"]]}
    ]
    assert evaluate(gold, wrong).as_json()["result"]["f1"] == 0.0


def test_a_wrong_prediction_is_counted(tmp_path):
    gold = load_jsonl(DEV)[:1]
    wrong = [
        {
            "text": gold[0]["text"],
            "entities": [
                {"name": "ReaForest", "type": "Model"},
                {"name": "Verbal", "type": "Method"},
            ],
            "relations": [],
        }
    ]
    figures = evaluate(gold, wrong).as_json()
    assert figures["name"]["p"] == 0.5  # ReaForest right by name, "Verbal" is no entity
    assert figures["strict"]["p"] == 0.0  # and ReaForest is a Method, not a Model


def test_dev_figures_do_not_regress(built):
    """Floors at the figures reached on seed 000 (strict 0.939, proposed 0.930, relation
    0.807, result 0.5 since the entity model read lists whole, 2026-12-06, late evening:
    "including Mamba, DeltaNet, etc." types DeltaNet a Method with Mamba; strict 0.918
    before, and the strict floor 0.91; the floors were 0.90 and 0.78 at 0.909 and 0.793
    before the acronym rules of 2026-12-03 made CLIP-MAD and its long form one entity;
    training/README.md has every figure; the floors were 0.94 and 0.82 at
    0.949 and 0.828: the model retrained on 2026-12-01's acronym and apposition rules drops
    do-calculus, a lexicon name, and its relation; the relation floor was 0.80 at 0.807
    before the relation model learnt that a relation to a non-entity is wrong, which costs
    ReaGen-27k part_of ReaForest here and gains on the held-out train halves; the floors
    were 0.93 and 0.94 at 0.938 and 0.952 before the models were retrained on 2026-12-02's
    versioned names, which keep Coach–Player, proposed; the strict floor was 0.92 at 0.928
    before the models learnt from 300 more pool abstracts on 2026-12-02, which type
    DeltaNet a Model: 0.909, while pool-test and the cross-validation gained)."""
    figures = reference(DEV, built / "extractions.jsonl")
    assert figures["unmatched_abstracts"] == 0
    assert figures["strict"]["f1"] >= 0.93
    assert figures["proposed"]["f1"] >= 0.92
    assert figures["relation"]["f1"] >= 0.80
    assert figures["result"]["f1"] >= 0.5


def test_seed_004_figures_do_not_regress(built):
    """Floors at the figures on seed 004 as a helper annotated it blind by GUIDELINE.md
    (training/annotations/seed004.jsonl, never trained on: strict 0.929, proposed 0.960,
    relation 0.929, result 0.667 since the entity model read lists whole,
    2026-12-06, late evening (the strict floor was 0.90; result 0.727 before); strict
    0.909, proposed 0.960, relation 0.929, result 0.727 since the typing rules read an
    apposition to its head noun
    on 2026-12-05: "AdaR, an Adaptive Recurrent graph model" is a Model, and a sentence
    about others' systems gives the paper's none of its figures; before, strict 0.889,
    result 0.667: 5 results, one is 0.1; 0.727 before the models were
    retrained on 2026-12-03's generic terms, links, arrows and name phrases, the
    cross-validated result 0.529 → 0.526; a model trained in between took 0.939 proposed;
    the floors were 0.87 and 0.92 at
    0.878 and 0.933; the result floor was 0.7 at 0.800, before the result model learnt from
    SciREX and NLP-TDMS results: cross-validated 0.490 → 0.500, here a right figure, 61.8,
    on the benchmark of an earlier sentence where the gold has none, and a model of 0.667
    gave the paper's system an unnamed model's 48.3%)."""
    gold = Path(__file__).resolve().parents[1] / "training" / "annotations" / "seed004.jsonl"
    figures = reference(gold, built / "extractions.jsonl")
    assert figures["unmatched_abstracts"] == 0
    assert figures["strict"]["f1"] >= 0.92
    assert figures["proposed"]["f1"] >= 0.94
    assert figures["relation"]["f1"] >= 0.91
    assert figures["result"]["f1"] >= 0.6


def test_train_figures_do_not_regress(train_predicted):
    """Floors at the shipped models' figures on train.jsonl (strict 0.955, proposed 0.925,
    relation 0.868, result 1.0 since the models were retrained on 2026-12-07's typing rules;
    strict 0.965, proposed 0.925,
    relation 0.881, result 1.0 since the entity model read lists whole, 2026-12-06, late
    evening, when the strict floor was 0.94 at 0.950; proposed was 0.935
    before 2026-12-03's retraining, relation 0.878 before the parts and study features; the
    relation floor was 0.86 at 0.870). The models learn from these abstracts: the held-out
    figures, each half scored by models trained without it, are in training/README.md (the
    strict floor was 0.93 at 0.934; in sample it moves with the retrained model, held out
    train-even went 0.817 → 0.826)."""
    figures = reference(TRAIN, train_predicted)
    assert figures["strict"]["f1"] >= 0.95
    assert figures["proposed"]["f1"] >= 0.91
    assert figures["relation"]["f1"] >= 0.85
    assert figures["result"]["f1"] >= 0.8


def test_gsap_figures_do_not_regress(gsap_predicted):
    """Floors at the figures reached on GSAP-NER abstracts (lenient 0.730 since the entity
    model reads a name that ends in a lexicon name, 2026-12-07, late afternoon; 0.733 since
    a group is typed by the mention that says what it is, 2026-12-07; 0.729 since the entity
    model read lists whole, 2026-12-06, late evening: STS Benchmark and RF no longer found, while
    the cross-validation's strict went 0.823 → 0.829 and the floor was 0.73; lenient 0.737
    since 2026-12-06,
    when "CIFAR-10/100" began to give CIFAR-100 too, which GSAP does not annotate; lenient
    0.742, Model 0.700 on 2026-12-05; lenient 0.726 before the apposition rules; the
    floors were 0.73 and 0.71 at 0.747 and 0.717 before the models learnt from 300 more
    pool abstracts, annotated by GUIDELINE.md, whose typing GSAP's guideline does not
    share)."""
    figures = reference(GSAP, gsap_predicted)
    assert figures["lenient"]["f1"] >= 0.72
    assert figures["Model"]["f1"] >= 0.69


def test_cli_eval(runner, built, tmp_path):
    result = runner.invoke(main, ["eval", str(DEV), str(built / "extractions.jsonl"), "--verbose"])
    assert result.exit_code == 0
    assert "strict" in result.stdout and "FN" in result.stdout
    as_json = runner.invoke(main, ["eval", str(DEV), str(built / "extractions.jsonl"), "--json"])
    gold = DEV.read_text(encoding="utf-8").splitlines()  # one abstract a line
    assert json.loads(as_json.stdout)["abstracts"] == len(gold)
    bad = write(tmp_path / "bad.jsonl", '{"text": "x"}\n{not json\n')
    failed = runner.invoke(main, ["eval", str(DEV), str(bad)])
    assert failed.exit_code == 2 and "bad.jsonl:2: not JSON" in failed.stderr


def test_a_predictions_file_given_as_gold_names_the_file_and_line(runner, built, tmp_path):
    predicted = built / "extractions.jsonl"
    result = runner.invoke(main, ["eval", str(predicted)])
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert result.stderr == (
        f"Error: {predicted}:1: the record has `paper` and `sentences`, as kg's extractions do; "
        "is this a predictions file? `kg eval GOLD PREDICTED` takes the gold file first\n"
    )
    record = json.loads(DEV.read_text(encoding="utf-8").splitlines()[0])
    record["relations"] = [{"head": "a", "relation": "uses", "tail": "b"}]
    gold = write(tmp_path / "gold.jsonl", "\n" + json.dumps(record) + "\n")
    result = runner.invoke(main, ["eval", str(gold), str(predicted)])
    assert result.exit_code == 2
    assert f"Error: {gold}:2: relation 1 is {{'head': 'a'," in result.stderr
    listed = write(tmp_path / "list.jsonl", "[1, 2]\n")
    result = runner.invoke(main, ["eval", str(DEV), str(listed)])
    assert result.exit_code == 2
    assert result.stderr == f"Error: {listed}:1: a predicted record is a JSON object, not list\n"


def _gold_record(**changes) -> str:
    record = json.loads(DEV.read_text(encoding="utf-8").splitlines()[0])
    return json.dumps({**record, **changes}) + "\n"


def _predicted_records(built, **changes) -> str:
    lines = (built / "extractions.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    for field, value in changes.items():
        first[field] = value(first[field]) if callable(value) else value
    return "\n".join([json.dumps(first), *lines[1:]]) + "\n"


@pytest.mark.parametrize(
    ("gold", "message"),
    [
        (_gold_record(optional=5), "`optional` is 5, not a list"),
        (_gold_record(results=[{"value": "1"}]), "result 1 is {'value': '1'}, not an object with"),
        (_gold_record(results=[{"subject": "X"}]), "result 1 has no `value`"),
        (_gold_record(relations="uses"), "`relations` is 'uses', not a list"),
        ("", "holds no gold record: nothing to score against"),
    ],
)
def test_a_gold_record_of_the_wrong_shape_is_one_line(runner, built, tmp_path, gold, message):
    """Each was a traceback (an adversarial review, 2026-12-07)."""
    path = write(tmp_path / "gold.jsonl", gold)
    result = runner.invoke(main, ["eval", str(path), str(built / "extractions.jsonl")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert message in result.stderr and str(path) in result.stderr


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"entities": 5}, ":1: `entities` is 5, not a list"),
        (
            {"entities": lambda es: [{**e, "aliases": 5} for e in es]},
            ":1: entity 1 has `aliases` that are not a list of strings",
        ),
        ({"results": [5]}, ":1: `results` holds something that is not an object"),
    ],
)
def test_a_predicted_record_of_the_wrong_shape_is_one_line(
    runner, built, tmp_path, changes, message
):
    path = write(tmp_path / "predicted.jsonl", _predicted_records(built, **changes))
    result = runner.invoke(main, ["eval", str(DEV), str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{path}{message}" in result.stderr


def test_a_gold_file_may_begin_with_a_byte_order_mark(runner, built, tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + DEV.read_bytes())
    as_is = runner.invoke(main, ["eval", str(DEV), str(built / "extractions.jsonl"), "--json"])
    with_bom = runner.invoke(main, ["eval", str(path), str(built / "extractions.jsonl"), "--json"])
    assert with_bom.exit_code == 0 and with_bom.stdout == as_is.stdout
