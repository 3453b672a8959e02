"""Cross-validated extraction of the tuning sets: each fold extracted by models trained on
the other folds, so the errors listed are errors on abstracts the models did not see.

    python training/crossval.py [--sets pool-train train-odd] [--folds 5] [--verbose]
    python training/crossval.py --models /tmp/folds     # keep each fold's models

This is where rules and features are tuned; the held-out sets (train-even, pool-test) are
scored by bench/quality.py and read only for their figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # the repository's kg, not an installed one
sys.path.insert(0, str(HERE.parent / "bench"))

from goldsets import gold, score, stage_extra  # noqa: E402
from quality import predictions  # noqa: E402
from train import train  # noqa: E402

from kg.extract.classifier import STAGES, Models  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=["pool-train", "train-odd"])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--save", type=Path, help="write gold and predictions here")
    parser.add_argument("--models", type=Path, help="write each fold's models here (fold-K.json)")
    parser.add_argument(
        "--acl", action="store_true", help="train every stage on acl.jsonl too (left out)"
    )
    parser.add_argument(
        "--no-extra", action="store_true", help="as train.py's: no NLP-TDMS, no SciREX results"
    )
    args = parser.parse_args()
    records = [r for name in args.sets for r in gold(name)]
    # trained on in every fold, never scored
    extra = {} if args.no_extra else stage_extra(whole=args.acl)
    preds: list[dict | None] = [None] * len(records)
    for k in range(args.folds):
        held = [i for i in range(len(records)) if i % args.folds == k]
        rest = [records[i] for i in range(len(records)) if i % args.folds != k]
        trained = train(rest, log=False, extra=extra)
        if args.models:
            args.models.mkdir(parents=True, exist_ok=True)
            data = {name: model.to_json() for name, model in trained.items()}
            (args.models / f"fold-{k}.json").write_text(json.dumps(data, sort_keys=True) + "\n")
        models = Models(*(trained[stage] for stage in STAGES))
        for i, p in zip(held, predictions([records[i] for i in held], models), strict=True):
            preds[i] = p
        print(f"fold {k + 1}/{args.folds} done", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.save or Path(tmp)
        print(score(records, preds, out, args.verbose))


if __name__ == "__main__":
    main()
