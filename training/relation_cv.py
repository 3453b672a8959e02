"""Cross-validation of the stages after the entities (proposed, relation, result), fast
enough to tune their rules and features.

    python training/crossval.py --models /tmp/folds          # each fold's four models, once
    python training/relation_cv.py --models /tmp/folds --cache /tmp/pc   # entities, once
    python training/relation_cv.py --cache /tmp/pc [--verbose] [--save DIR]

The first two steps keep the entities each fold's entity model finds in every abstract;
the last re-runs everything after them: for each fold, the proposed, relation and result
models are trained, stage by stage, on the other folds and decide the fold's abstracts.
The figures are score.py's, as training/crossval.py's are (within a few: crossval.py links
the fold's records, this does not; strict, lenient and name F1 do not move here, whatever
the stages after the entities do, but for names a relation or a result adds to none).
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # the repository's kg, not an installed one

from folds import fold_caches, options  # noqa: E402
from goldsets import score  # noqa: E402
from train import (  # noqa: E402
    THRESHOLDS,
    choose,
    fit,
    proposed_examples,
    relation_examples,
    result_examples,
)

from kg.export.extractions import extraction_record  # noqa: E402
from kg.extract import make_nlp  # noqa: E402
from kg.extract.candidates import EMPHASIS  # noqa: E402
from kg.extract.classifier import LinearModel, Models  # noqa: E402
from kg.extract.components import CHOSEN, Chosen  # noqa: E402
from kg.extract.markup import Cleaned, strip_markup  # noqa: E402
from kg.extract.records import doc_to_extraction  # noqa: E402
from kg.extract.texts import TEXT  # noqa: E402
from kg.ingest import paper_id  # noqa: E402
from kg.model import Paper  # noqa: E402


@dataclass
class Kept:
    """One abstract as the entity stage of one fold's models leaves it."""

    paper: Paper
    clean: Cleaned
    bounds: list[tuple[int, int]]
    chosen: list[Chosen]


def keep(records: list[dict], models: Models) -> list[Kept]:
    """Every record's entities under `models`."""
    nlp = make_nlp(models=models)
    out = []
    for n, r in enumerate(records, 1):
        paper = Paper(id=paper_id(r["text"]), text=r["text"], source="gold", line=n, index=n)
        clean = strip_markup(r["text"])
        doc = _doc(nlp, clean)
        for _, proc in nlp.pipeline:
            doc = proc(doc)
        out.append(
            Kept(paper, clean, list(doc.user_data["kg_sentence_bounds"]), doc.user_data[CHOSEN])
        )
        doc.user_data.clear()
    return out


def _doc(nlp, clean: Cleaned):  # type: ignore[no-untyped-def]
    doc = nlp.make_doc(clean.text)
    doc.user_data[TEXT] = clean.text
    if clean.emphasis:
        doc.user_data[EMPHASIS] = clean.emphasis
    return doc


def rerun(nlp, kept: Kept, models: Models):  # type: ignore[no-untyped-def]
    """The stages after the entities over one kept abstract: its Doc and extraction."""
    doc = _doc(nlp, kept.clean)
    doc.user_data["kg_sentence_bounds"] = kept.bounds
    doc.user_data[CHOSEN] = kept.chosen
    return doc, doc_to_extraction(doc, kept.paper, kept.clean, models)


STAGES = (
    ("proposed", proposed_examples),
    ("relation", relation_examples),
    ("result", result_examples),
)


def fold_models(nlp, records: list[dict], kept: list[Kept], entity: LinearModel) -> Models:  # type: ignore[no-untyped-def]
    """The proposed, relation and result models trained in order on `kept`."""
    trained: dict[str, LinearModel | None] = {"entity": entity}
    for name, examples in STAGES:
        models = Models(
            entity, trained.get("proposed"), trained.get("relation"), trained.get("result")
        )
        runs = [(r, rerun(nlp, k, models)[0]) for r, k in zip(records, kept, strict=True)]
        xs, ys, groups, weights = examples(runs)
        c, threshold = choose(xs, ys, groups, weights)
        trained[name] = fit(xs, ys, c, THRESHOLDS.get(name, threshold), weights)
    return Models(entity, trained["proposed"], trained["relation"], trained["result"])


def evaluate(
    records: list[dict],
    cache: list[list[Kept]],
    entity: list[LinearModel],
    out: Path,
    verbose: bool,
) -> str:
    """score.py's listing of every fold's abstracts under the models of the other folds."""
    nlp = make_nlp()
    folds = len(cache)
    preds: list[dict] = [{} for _ in records]
    for k in range(folds):
        rest = [i for i in range(len(records)) if i % folds != k]
        models = fold_models(
            nlp, [records[i] for i in rest], [cache[k][i] for i in rest], entity[k]
        )
        for i in range(k, len(records), folds):
            preds[i] = extraction_record(rerun(nlp, cache[k][i], models)[1], {})
        print(f"fold {k + 1}/{folds} done", file=sys.stderr)
    return score(records, preds, out, verbose)


def main() -> None:
    args = options(__doc__.splitlines()[0])
    records = args.records

    def earlier(m: Models) -> object:  # the entities, and the entity model for the pipeline
        return m.entity, keep(records, Models(m.entity, None, None, None))

    loaded = fold_caches(args, earlier)
    entity, cache = [e for e, _ in loaded], [c for _, c in loaded]
    with tempfile.TemporaryDirectory() as tmp:
        print(evaluate(records, cache, entity, args.save or Path(tmp), args.verbose))


if __name__ == "__main__":
    main()
