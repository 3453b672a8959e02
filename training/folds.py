"""What the stage cross-validations (relation_cv.py, result_cv.py) share: their options, and
each fold's cache of what the stages before theirs decide, made once from the fold models
`crossval.py --models DIR` writes."""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections.abc import Callable
from pathlib import Path

from goldsets import gold

from kg.extract.classifier import Models, models_from_json


def options(description: str, extra: bool = False) -> argparse.Namespace:
    """The command line of a stage cross-validation, read, and its gold records loaded
    (`records`); with `extra`, its `--extra` option (result_cv.py's)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--sets", nargs="+", default=["pool-train", "train-odd"])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--models", type=Path, help="crossval.py's fold models: build the cache")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--save", type=Path, help="write gold and predictions here")
    if extra:
        parser.add_argument(
            "--extra",
            action="store_true",
            help="train each fold's result model on the results of SciREX and NLP-TDMS too "
            "(with --models the first time, to see them as the fold's models do)",
        )
        parser.add_argument(
            "--oracle",
            action="store_true",
            help="tell the result stage which numbers are scores by the gold (no model): "
            "what the rules that attach a subject and a benchmark make of the right numbers",
        )
    args = parser.parse_args()
    args.records = [r for name in args.sets for r in gold(name)]
    return args


def fold_caches(args: argparse.Namespace, keep: Callable[[Models], object]) -> list:
    """Each fold's cache in `args.cache`: with `--models`, first made of the fold's models by
    `keep` (what the earlier stages decide, pickled) where it is not there yet."""
    if args.models:
        args.cache.mkdir(parents=True, exist_ok=True)
        for path in sorted(args.models.glob("fold-*.json")):
            target = args.cache / f"{path.stem}.pkl"
            if target.exists():
                continue
            models = models_from_json(json.loads(path.read_text(encoding="utf-8")))
            target.write_bytes(pickle.dumps(keep(models)))
            print(f"{path.name} kept", file=sys.stderr)
    paths = sorted(args.cache.glob("fold-*.pkl"))
    if len(paths) < args.folds:
        raise SystemExit(f"{args.cache} has {len(paths)} folds of {args.folds}")
    return [pickle.loads(p.read_bytes()) for p in paths]
