"""kg's scorer agrees with the reference score.py, and extraction keeps its figures."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import DATA, write

from kg.cli import main
from kg.evaluate import evaluate, extract_gold_texts, load_jsonl

DEV = DATA / "dev.jsonl"
GSAP = DATA / "gsap_abstracts.jsonl"


def reference(gold, predicted) -> dict:
    done = subprocess.run(
        [sys.executable, str(DATA / "score.py"), str(gold), str(predicted), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def gsap_predicted(tmp_path_factory):
    path = tmp_path_factory.mktemp("gsap") / "predicted.jsonl"
    records = extract_gold_texts(load_jsonl(GSAP))
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.mark.parametrize("which", ["dev", "gsap"])
def test_figures_agree_with_score_py(built, gsap_predicted, which):
    gold, predicted = (
        (DEV, built / "extractions.jsonl") if which == "dev" else (GSAP, gsap_predicted)
    )
    ours = evaluate(load_jsonl(gold), load_jsonl(predicted)).as_json()
    assert ours == reference(gold, predicted)


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
    """Floors at the figures reached (strict 0.990, proposed 0.976, relation 0.915)."""
    figures = reference(DEV, built / "extractions.jsonl")
    assert figures["unmatched_abstracts"] == 0
    assert figures["strict"]["f1"] >= 0.99
    assert figures["proposed"]["f1"] >= 0.97
    assert figures["relation"]["f1"] >= 0.91
    for core in ("Method", "Model", "Dataset", "Benchmark"):
        assert figures[core]["f1"] >= 0.95, core


def test_gsap_figures_do_not_regress(gsap_predicted):
    """Floors at the figures reached on GSAP-NER abstracts (lenient 0.671, Dataset 0.649)."""
    figures = reference(GSAP, gsap_predicted)
    assert figures["lenient"]["f1"] >= 0.67
    assert figures["Dataset"]["f1"] >= 0.64


def test_cli_eval(runner, built, tmp_path):
    result = runner.invoke(main, ["eval", str(DEV), str(built / "extractions.jsonl"), "--verbose"])
    assert result.exit_code == 0
    assert "strict" in result.stdout and "FN" in result.stdout
    as_json = runner.invoke(main, ["eval", str(DEV), str(built / "extractions.jsonl"), "--json"])
    assert json.loads(as_json.stdout)["abstracts"] == 19
    bad = write(tmp_path / "bad.jsonl", '{"text": "x"}\n{not json\n')
    failed = runner.invoke(main, ["eval", str(DEV), str(bad)])
    assert failed.exit_code == 2 and "bad.jsonl:2: not JSON" in failed.stderr
