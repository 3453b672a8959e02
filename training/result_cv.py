"""Cross-validation of the result stage alone, fast enough to tune its rules and features.

    python training/crossval.py --models /tmp/folds          # each fold's four models, once
    python training/result_cv.py --models /tmp/folds --cache /tmp/rc   # run them, once
    python training/result_cv.py --cache /tmp/rc [--verbose] [--save DIR]
    python training/result_cv.py --cache /tmp/rc --oracle    # the gold picks the scores

The first two steps keep what the earlier stages decide for every abstract under each
fold's models (its entities, what it proposes, its clean text); the last re-runs only the
result stage over that: for each fold, the result model is trained on the other folds'
numbers and decides the fold's. The result F1 is score.py's, as training/crossval.py's is
(within a few results: crossval.py links the fold's records, this does not).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # the repository's kg, not an installed one

from folds import fold_caches, options  # noqa: E402
from goldsets import score, stage_extra  # noqa: E402
from train import choose, fit, result_examples, result_values  # noqa: E402

from kg.export.extractions import extraction_record, written_forms  # noqa: E402
from kg.extract import make_nlp  # noqa: E402
from kg.extract.candidates import EMPHASIS  # noqa: E402
from kg.extract.classifier import LinearModel, Models  # noqa: E402
from kg.extract.components import CHOSEN  # noqa: E402
from kg.extract.found import Found  # noqa: E402
from kg.extract.markup import strip_markup  # noqa: E402
from kg.extract.records import FOUND, _entities, _Where, doc_to_extraction  # noqa: E402
from kg.extract.results import find_results  # noqa: E402
from kg.extract.texts import TEXT  # noqa: E402
from kg.ingest import paper_id  # noqa: E402
from kg.model import Paper  # noqa: E402


@dataclass
class Kept:
    """What the result stage reads of one abstract under one fold's models."""

    clean: str
    bounds: list[tuple[int, int]]
    found: list[Found]
    subject: str | None
    proposed: frozenset[str]
    name_of: dict[str, str]
    record: dict  #: the extraction in the scorer's shape


def keep(records: list[dict], models: Models) -> list[Kept]:
    """Every record's extraction under `models`, as the result stage sees it."""
    import kg.extract.records as stage

    nlp = make_nlp(models=models)
    seen: dict[str, tuple] = {}
    real = stage.find_results

    def spy(doc, found, subject, proposed, model):  # type: ignore[no-untyped-def]
        seen["args"] = (subject, proposed)
        return real(doc, found, subject, proposed, model)

    stage.find_results = spy  # type: ignore[assignment]
    out = []
    try:
        for n, r in enumerate(records, 1):
            paper = Paper(id=paper_id(r["text"]), text=r["text"], source="gold", line=n, index=n)
            clean = strip_markup(r["text"])
            doc = nlp.make_doc(clean.text)
            doc.user_data[TEXT] = clean.text
            if clean.emphasis:
                doc.user_data[EMPHASIS] = clean.emphasis
            for _, proc in nlp.pipeline:
                doc = proc(doc)
            ex = doc_to_extraction(doc, paper, clean, models)
            subject, proposed = seen["args"]
            where = _Where(doc, paper, clean)
            _, name_of = _entities(doc.user_data[CHOSEN], list(proposed), where)
            out.append(
                Kept(
                    clean.text,
                    list(doc.user_data["kg_sentence_bounds"]),
                    list(doc.user_data[FOUND]),
                    subject,
                    frozenset(proposed),
                    name_of,
                    extraction_record(ex, {}),
                )
            )
            doc.user_data.clear()
    finally:
        stage.find_results = real  # type: ignore[assignment]
    return out


def rerun(nlp, kept: Kept, model: LinearModel | None):  # type: ignore[no-untyped-def]
    """The result stage over one kept abstract: its results and its numbers' features."""
    doc = nlp.make_doc(kept.clean)
    doc.user_data[TEXT] = kept.clean
    doc.user_data["kg_sentence_bounds"] = kept.bounds
    return find_results(doc, kept.found, kept.subject, kept.proposed, model)


def evaluate(
    records: list[dict],
    cache: list[list[Kept]],
    out: Path,
    verbose: bool,
    extra: list[dict] | None = None,
    extra_cache: list[list[Kept]] | None = None,
) -> str:
    """Each fold's result model trained on the other folds (and on `extra`, the records
    whose results alone are annotated, as the fold's models see them); score.py's listing."""
    nlp = make_nlp()
    folds = len(cache)
    preds: list[dict] = [{} for _ in records]
    for k in range(folds):
        rest = [i for i in range(len(records)) if i % folds != k]
        runs = []
        for i in rest:
            doc = _Doc(rerun(nlp, cache[k][i], None)[1])
            runs.append((records[i], doc))
        for r, kept in zip(extra or [], extra_cache[k] if extra_cache else [], strict=True):
            runs.append((r, _Doc(rerun(nlp, kept, None)[1])))
        xs, ys, groups, weights = result_examples(runs)
        c, threshold = choose(xs, ys, groups, weights)
        model = fit(xs, ys, c, threshold, weights)
        for i in range(k, len(records), folds):
            kept = cache[k][i]
            reported, _ = rerun(nlp, kept, model)
            preds[i] = _record(kept, reported)
    return score(records, preds, out, verbose)


def _record(kept: Kept, reported: list) -> dict:
    """The extraction of `kept` with the results the stage `reported`, named as
    extraction_record names them: as the text writes them."""
    record = dict(kept.record)
    written = written_forms(record["text"], ((e["name"], e["aliases"]) for e in record["entities"]))
    record["results"] = [
        {
            "subject": written.get(kept.name_of[s], kept.name_of[s]) if s else None,
            "metric": m,
            "value": float(v),
            "unit": u,
            "benchmark": written.get(kept.name_of[b], kept.name_of[b]) if b else None,
        }
        for s, m, v, u, b, _ in reported
    ]
    return record


class _Oracle:
    """A stand-in for the result model that says "yes" to the numbers whose value the
    gold record reports (`values`), read from the feature `_with_value` adds."""

    def __init__(self, values: set[float]) -> None:
        self.values = values

    def predict(self, features: list[str]) -> tuple[str, float]:
        value = next(f for f in features if f.startswith(_VALUE))[len(_VALUE) :]
        return ("yes" if float(value) in self.values else "no"), 1.0


_VALUE = "oracle-value="


def _with_value() -> None:
    """Give every number's features its value, for `_Oracle` (result_cv.py --oracle only)."""
    import kg.extract.results as stage

    plain = stage.figure_features

    def valued(doc, fig, found, proposed):  # type: ignore[no-untyped-def]
        return [*plain(doc, fig, found, proposed), f"{_VALUE}{round(float(fig.value), 6)}"]

    stage.figure_features = valued  # type: ignore[assignment]


def oracle(records: list[dict], cache: list[list[Kept]], out: Path, verbose: bool) -> str:
    """score.py's listing when the gold decides which numbers are scores (`_Oracle`)."""
    import kg.extract.results as stage

    plain = stage.figure_features
    _with_value()
    try:
        nlp = make_nlp()
        folds = len(cache)
        preds: list[dict] = [{} for _ in records]
        for k in range(folds):
            for i in range(k, len(records), folds):
                kept = cache[k][i]
                reported, _ = rerun(nlp, kept, _Oracle(result_values(records[i])))  # type: ignore[arg-type]
                preds[i] = _record(kept, reported)
    finally:
        stage.figure_features = plain  # type: ignore[assignment]
    return score(records, preds, out, verbose)


class _Doc:
    """What train.result_examples reads of a Doc: its numbers' features."""

    def __init__(self, featured: list) -> None:
        from kg.extract.records import RESULT_FEATURES

        self.user_data = {RESULT_FEATURES: featured}


def _earlier(m: Models) -> Models:
    """A fold's models of the stages before the results."""
    return Models(m.entity, m.proposed, m.relation, None)


def main() -> None:
    args = options(__doc__.splitlines()[0], extra=True)
    records = args.records

    cache = fold_caches(args, lambda m: keep(records, _earlier(m)))
    extra, extra_cache = None, None
    if args.extra:
        # each fold's view of the extra abstracts, in a cache of their own: its folder is
        # named by the abstracts it holds
        extra = stage_extra()["result"]
        sources = json.dumps([r["source"] for r in extra]).encode()
        folder = args.cache / f"extra-{hashlib.sha256(sources).hexdigest()[:12]}"
        extra_cache = fold_caches(
            argparse.Namespace(**{**vars(args), "cache": folder}),
            lambda m: keep(extra, _earlier(m)),
        )
    with tempfile.TemporaryDirectory() as tmp:
        out = args.save or Path(tmp)
        if args.oracle:
            if args.extra:
                print("--oracle trains no model: --extra is not read", file=sys.stderr)
            print(oracle(records, cache, out, args.verbose))
        else:
            print(evaluate(records, cache, out, args.verbose, extra, extra_cache))


if __name__ == "__main__":
    main()
