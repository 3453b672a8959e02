"""The entity stage alone, cross-validated: crossval.py's folds, only the entity model
trained per fold (the others left to their rules), scored by ../shared/gold/score.py.

    python training/entity_cv.py [--c 0.3] [--save /tmp/ecv]

Its strict F1 is what the entity model and the candidates decide, as crossval.py's is
(0.807 for both on the code of 2026-12-01), in a few minutes rather than half an hour:
where candidate rules, entity features and lexicon entries are tuned. The proposed,
relation and result figures it prints are of the rules alone, not of the shipped stages.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent), str(HERE.parent / "bench")]

from goldsets import gold, score  # noqa: E402
from quality import predictions  # noqa: E402
from train import THRESHOLDS, choose, entity_examples, fit, run  # noqa: E402

from kg.extract.classifier import Models  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=["pool-train", "train-odd"])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--c", type=float, help="the regularisation (else chosen per fold)")
    parser.add_argument("--save", type=Path, help="write gold and predictions here")
    args = parser.parse_args()
    records = [r for name in args.sets for r in gold(name)]
    xs, ys, groups, weights = entity_examples(run(records, Models(None, None, None, None)))
    preds: list[dict | None] = [None] * len(records)
    for k in range(args.folds):
        rows = [i for i, g in enumerate(groups) if g % args.folds != k]
        x, y, g, w = ([v[i] for i in rows] for v in (xs, ys, groups, weights))
        c = args.c or choose(x, y, g, w)[0]
        model = fit(x, y, c, THRESHOLDS["entity"], w)
        held = [i for i in range(len(records)) if i % args.folds == k]
        found = predictions([records[i] for i in held], Models(model, None, None, None))
        for i, p in zip(held, found, strict=True):
            preds[i] = p
        print(f"fold {k + 1}/{args.folds} done (C={c})", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        print(score(records, preds, args.save or Path(tmp)))


if __name__ == "__main__":
    main()
