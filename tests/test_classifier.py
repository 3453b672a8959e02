"""The extractor's linear models: scoring, thresholds, the shipped file, the training script."""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import pytest
from conftest import DATA, need_module

from kg.extract.classifier import STAGES, LinearModel, Models, load_models, models_from_json

ROOT = Path(__file__).resolve().parents[1]


def test_scores_and_probabilities():
    model = LinearModel(("O", "Method", "Model"), (1.0, 0.0, 0.0), {"a": (0.0, 2.0, 0.0)})
    assert model.scores(["a", "unknown"]) == [1.0, 2.0, 0.0]
    probs = model.probabilities(["a"])
    assert math.isclose(sum(probs.values()), 1.0)
    assert probs["Method"] > probs["O"] > probs["Model"]


def test_the_threshold_decides_for_the_first_class():
    model = LinearModel(("no", "yes"), (0.0, 0.0), {"a": (0.0, 0.5)}, threshold=0.3)
    p_no = model.probabilities(["a"])["no"]  # 0.38: above the threshold, "no" wins
    assert p_no >= 0.3 and model.predict(["a"])[0] == "no"
    lenient = LinearModel(("no", "yes"), (0.0, 0.0), {"a": (0.0, 0.5)}, threshold=0.5)
    assert lenient.predict(["a"])[0] == "yes"
    assert lenient.best(["a"])[:2] == ("yes", "yes")


def test_a_binary_model_scores_as_the_general_one():
    weights = {"a": (0.0, 0.7), "b": (0.0, -1.2)}
    binary = LinearModel(("no", "yes"), (0.0, 0.3), weights)
    general = LinearModel(("no", "yes"), (0.0, 0.3), {**weights, "c": (0.1, 0.0)})
    assert binary.scores(["a", "b"]) == pytest.approx(general.scores(["a", "b"]))


def test_json_round_trip_is_stable():
    model = LinearModel(("O", "uses"), (0.1, -0.2), {"b": (0.0, 1.0), "a": (0.0, -1.0)}, 0.6)
    data = model.to_json()
    assert list(data["weights"]) == ["a", "b"]
    assert LinearModel.from_json(json.loads(json.dumps(data))) == model


def test_the_shipped_models_load_with_their_classes():
    models = load_models()
    for stage in STAGES:
        model = getattr(models, stage)
        assert model is not None, stage
        assert model.classes[0] in {"O", "no"}, stage
        assert all(len(w) == len(model.classes) for w in model.weights.values())
    assert set(models.entity.classes) == {"O", "Method", "Model", "Dataset", "Benchmark"}
    assert set(models.relation.classes) == {"O", "uses", "evaluated_on", "outperforms", "part_of"}


@pytest.mark.slow
def test_the_training_script_trains_every_stage(tmp_path):
    """training/train.py on a few gold abstracts: four models that the extractor loads."""
    need_module("sklearn")
    sys.path.insert(0, str(ROOT / "training"))
    from train import train

    records = [
        json.loads(line)
        for name in ("train.jsonl", "dev.jsonl")
        for line in (DATA / name).read_text(encoding="utf-8").splitlines()
    ]
    trained = train(records, log=False)
    models = models_from_json({name: m.to_json() for name, m in trained.items()})
    assert all(getattr(models, stage) is not None for stage in STAGES)
    assert isinstance(models, Models) and models.entity.weights


def test_a_relation_to_a_name_that_is_no_entity_is_taught_as_none():
    """training/train.py: a pair with an end that is no gold entity (nor optional) is an
    "O" example, since the scorer counts any relation to it as a false positive; a pair of
    gold entities has the gold relation; an optional end gives no example."""
    sys.path.insert(0, str(ROOT / "training"))
    from train import Gold, pair_label

    gold = Gold(
        {
            "text": "We propose FooNet, evaluated on BazQA, QuxBench and MNIST.",
            "entities": [
                {"name": "FooNet", "type": "Method", "proposed": True},
                {"name": "BazQA", "type": "Benchmark", "aliases": ["Baz-QA"]},
                {"name": "MNIST", "type": "Dataset"},
            ],
            "relations": [["FooNet", "evaluated_on", "BazQA"]],
            "optional": ["QuxBench suite"],
        }
    )
    assert pair_label(gold, {"foonet"}, {"bazqa"}) == "evaluated_on"
    assert pair_label(gold, {"foonet"}, {"mnist"}) == "O"  # gold entities, no relation
    assert pair_label(gold, {"foonet"}, {"foobench"}) == "O"  # no entity at all
    assert pair_label(gold, {"foonet"}, {"quxbench"}) is None  # optional: not scored
    assert pair_label(gold, {"bazqa"}, {"bazqa"}) is None  # one entity


EXTRA = ROOT / "training" / "annotations" / "results_extra.jsonl"
SHARED_DATA = ROOT.parent / "shared" / "data"


def _results_in_gold_shape(lines: list[dict]) -> list[dict]:
    """Every result of `lines` (annotations of results alone), each checked for the gold
    shape: a subject, a number, a benchmark or None, and nothing else."""
    results = [x for r in lines for x in r["results"]]
    for x in results:
        assert isinstance(x["subject"], str) and x["subject"]
        assert isinstance(x["value"], int | float)
        assert x["benchmark"] is None or isinstance(x["benchmark"], str)
        assert set(x) == {"subject", "metric", "value", "unit", "benchmark"}
    return results


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_the_result_annotations_are_well_formed():
    """training/annotations/results_extra.jsonl: an id of a SciREX or NLP-TDMS abstract, and
    its results in the gold shape (texts stay in ../shared/data)."""
    lines = _lines(EXTRA)
    ids = [r["id"] for r in lines]
    assert len(ids) == len(set(ids)) >= 100
    assert all(i.split(":", 1)[0] in {"scirex", "tdms"} for i in ids)
    assert len(_results_in_gold_shape(lines)) >= 100


EXTRA_ACL = ROOT / "training" / "annotations" / "results_acl.jsonl"
ACL_FILES = ("paperlists_acl.jsonl", "paperlists_naacl.jsonl", "paperlists_coling.jsonl")
HAS_ACL_TEXTS = all((SHARED_DATA / "ml_abstracts" / name).exists() for name in ACL_FILES)


def test_the_acl_result_annotations_are_well_formed():
    """training/annotations/results_acl.jsonl: ids of ACL Anthology abstracts (of
    ../shared/data/ml_abstracts) that are neither in the held-out ACL set nor in the pool,
    and their results in the gold shape."""
    lines = _lines(EXTRA_ACL)
    ids = [r["id"] for r in lines]
    assert len(ids) == len(set(ids)) >= 500
    assert all(i.split(":", 1)[0][:-4] in {"acl", "naacl", "coling"} for i in ids)
    annotations = ROOT / "training" / "annotations"
    apart = {r["id"] for name in ("acl.jsonl", "pool.jsonl") for r in _lines(annotations / name)}
    assert apart.isdisjoint(ids)
    assert len(_results_in_gold_shape(lines)) >= 100


def _is_a_figure_of(value: float, text: str) -> bool:
    """Whether `value` is written in `text` as a number of its own, not a digit of another
    ("1" in "2019"); thousands' commas aside."""
    text = text.replace(",", "")
    written = {str(value), f"{value:g}", f"{value:.1f}", f"{value:.2f}"}
    return any(re.search(rf"(?<![\d.]){re.escape(w)}(?![\d])", text) for w in written)


@pytest.mark.skipif(
    not (SHARED_DATA / "scirex").is_dir() or not (SHARED_DATA / "nlp_tdms").is_dir(),
    reason="needs ../shared/data/scirex and ../shared/data/nlp_tdms",
)
def test_each_annotated_result_is_a_figure_of_its_abstract():
    sys.path.insert(0, str(ROOT / "training"))
    from goldsets import extra_results

    records = [r for r in extra_results() if r["source"].split(":")[0] in {"scirex", "tdms"}]
    assert 0 < len(records) < len(_lines(EXTRA))  # a paper in SciREX and NLP-TDMS is read once
    for r in records:
        assert r["entities"] == [] and r["relations"] == []
        for x in r["results"]:
            assert _is_a_figure_of(x["value"], r["text"]), (r["source"], x["value"])


@pytest.mark.skipif(
    not HAS_ACL_TEXTS, reason="needs ../shared/data/ml_abstracts (its ACL Anthology files)"
)
def test_each_acl_annotated_result_is_a_figure_of_its_abstract():
    """Every id of results_acl.jsonl is an abstract of ../shared/data/ml_abstracts, read by
    training (`goldsets.extra_results`), and each of its results' values is written in it."""
    sys.path.insert(0, str(ROOT / "training"))
    from goldsets import extra_results

    records = {r["source"]: r for r in extra_results()}
    lines = _lines(EXTRA_ACL)
    assert all(r["id"] in records for r in lines)
    for r in lines:
        record = records[r["id"]]
        assert record["results"] == r["results"] and record["entities"] == []
        for x in r["results"]:
            assert _is_a_figure_of(x["value"], record["text"]), (r["id"], x["value"])


def test_results_only_annotations_teach_the_result_model_alone(monkeypatch):
    """train.train(..., extra={stage: records}): records whose results alone are annotated
    are read by the result stage and by no other (they name no entity: they would teach
    "O")."""
    sys.path.insert(0, str(ROOT / "training"))
    import train as trainer

    seen: dict[str, list[str]] = {}

    def examples(stage: str):  # type: ignore[no-untyped-def]
        def read(runs):  # type: ignore[no-untyped-def]
            seen[stage] = [record["source"] for record, _ in runs]
            return [["f"], ["g"]], ["no", "yes"], [0, 1], [1.0, 1.0]

        return read

    for stage in ("entity", "proposed", "relation", "result"):
        monkeypatch.setattr(trainer, f"{stage}_examples", examples(stage))
    monkeypatch.setattr(trainer, "run", lambda records, models: [(r, None) for r in records])
    monkeypatch.setattr(trainer, "choose", lambda *a: (1.0, 0.5))
    monkeypatch.setattr(trainer, "fit", lambda *a, **k: LinearModel(("no", "yes"), (0.0, 0.0), {}))
    trainer.train([{"source": "gold"}], log=False, extra={"result": [{"source": "scirex:1"}]})
    assert seen["result"] == ["gold", "scirex:1"]
    assert seen["entity"] == seen["proposed"] == seen["relation"] == ["gold"]


TDMS = ROOT / "training" / "annotations" / "tdms.jsonl"


def test_the_nlp_tdms_annotations_are_well_formed():
    """training/annotations/tdms.jsonl: every NLP-TDMS abstract annotated whole by the
    guideline: typed entities, relations between them, results by a name of them."""
    lines = [json.loads(line) for line in TDMS.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == len({r["id"] for r in lines}) >= 250
    relations = {"uses", "evaluated_on", "outperforms", "part_of"}
    for r in lines:
        assert set(r) == {"id", "entities", "optional", "relations", "results"}
        names = {n for e in r["entities"] for n in (e["name"], *(e.get("aliases") or ()))}
        assert all(e["type"] in {"Method", "Model", "Dataset", "Benchmark"} for e in r["entities"])
        assert all(h in names and t in names and rel in relations for h, rel, t in r["relations"])
        assert all(x["subject"] and isinstance(x["value"], int | float) for x in r["results"])
    assert sum(len(r["entities"]) for r in lines) >= 400


@pytest.mark.skipif(not (SHARED_DATA / "nlp_tdms").is_dir(), reason="needs ../shared/data/nlp_tdms")
def test_every_nlp_tdms_name_occurs_in_its_abstract():
    sys.path.insert(0, str(ROOT / "training"))
    from goldsets import gold, stage_extra

    records = gold("tdms")
    assert len(records) == len(TDMS.read_text(encoding="utf-8").splitlines())
    for r in records:
        for e in r["entities"]:
            assert all(n in r["text"] for n in (e["name"], *(e.get("aliases") or ()))), e
    # a paper is read once for its results, by its text: an abstract annotated whole is not
    # read again from the results-only annotation, nor its SciREX copy
    results = stage_extra()["result"]
    endings = ["".join(c for c in r["text"] if c.isalnum())[-200:].lower() for r in results]
    assert len(endings) == len(set(endings)) and len(results) > len(records)


ACL = ROOT / "training" / "annotations" / "acl.jsonl"


def test_the_acl_annotations_have_the_pool_shape():
    """acl.jsonl (training/README.md): 480 ACL Anthology abstracts annotated whole by the
    guideline, none of them a pool abstract, relations and results by a name of an entity."""
    lines = [json.loads(line) for line in ACL.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == len({r["id"] for r in lines}) == 480
    pool = ROOT / "training" / "annotations" / "pool.jsonl"
    pooled = {json.loads(line)["id"] for line in pool.read_text(encoding="utf-8").splitlines()}
    assert not pooled & {r["id"] for r in lines}
    relations = {"uses", "evaluated_on", "outperforms", "part_of"}
    types = {"Method", "Model", "Dataset", "Benchmark", "Task", "Metric"}
    for r in lines:
        assert set(r) == {"id", "entities", "optional", "relations", "results"}
        assert r["id"].split(":")[0].startswith(("acl", "naacl", "coling")), r["id"]
        names = {n for e in r["entities"] for n in (e["name"], *(e.get("aliases") or ()))}
        assert all(e["type"] in types for e in r["entities"])
        assert all(h in names and t in names and rel in relations for h, rel, t in r["relations"])
        assert all(x["subject"] in names for x in r["results"])


@pytest.mark.skipif(
    not (SHARED_DATA / "ml_abstracts").is_dir(), reason="needs ../shared/data/ml_abstracts"
)
def test_every_acl_name_occurs_in_its_abstract_and_is_trained_on_only_when_asked():
    sys.path.insert(0, str(ROOT / "training"))
    from goldsets import acl, stage_extra

    records = acl()
    assert len(records) == 480
    for r in records:
        for e in r["entities"]:
            assert all(n in r["text"] for n in (e["name"], *(e.get("aliases") or ()))), e
    texts = {r["text"] for r in records}
    asked = stage_extra(whole=True)
    assert all(texts <= {r["text"] for r in asked[stage]} for stage in asked)
    assert not texts & {r["text"] for rs in stage_extra().values() for r in rs}


def test_the_result_oracle_says_yes_to_the_gold_values_only(nlp):
    """result_cv.py --oracle: every number's features carry its value, and the stand-in
    model keeps the numbers the gold reports, so the rules alone are scored."""
    sys.path.insert(0, str(ROOT / "training"))
    import result_cv

    import kg.extract.results as stage
    from kg.extract.records import RESULT_FEATURES, doc_to_extraction
    from kg.model import Paper

    plain = stage.figure_features
    try:
        result_cv._with_value()
        text = "We propose FooNet. FooNet reaches 71.3% on BarQA and 64.0% on BazQA."
        doc = nlp(text)
        doc_to_extraction(doc, Paper(id="p1", text=text, source="t.txt", line=1, index=1))
        oracle = result_cv._Oracle({71.3})
        said = {str(fig.value): oracle.predict(f)[0] for fig, f in doc.user_data[RESULT_FEATURES]}
        assert said == {"71.3": "yes", "64.0": "no"}
    finally:
        stage.figure_features = plain
