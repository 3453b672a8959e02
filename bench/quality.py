"""Extraction quality on the gold sets, scored by ../shared/gold/score.py.

    python bench/quality.py                        # dev, train halves, GSAP, pool test, ACL
    python bench/quality.py --sets train-odd --model /tmp/m.json --verbose

Each set's abstracts are extracted and linked as `kg eval GOLD` does (the shipped models, or
`--model`), written as JSON Lines and scored by the reference scorer; the table prints its
F1 figures.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "training"), str(ROOT)]  # the repository's kg, not an installed one

from goldsets import GOLD, gold  # noqa: E402

from kg.evaluate.score import extract_gold_texts  # noqa: E402
from kg.extract import make_nlp  # noqa: E402
from kg.extract.classifier import Models, models_from_json  # noqa: E402

LABELS = ("strict", "lenient", "name", "proposed", "relation", "result")
SETS = ("dev", "train-odd", "train-even", "train", "gsap", "seed004", "pool-test", "acl")


def load(path: Path) -> Models:
    """Models from a JSON file written by training/train.py."""
    return models_from_json(json.loads(path.read_text(encoding="utf-8")))


def predictions(records: list[dict], models: Models | None) -> list[dict]:
    """kg's extraction of each record's text, linked as `kg eval` links it."""
    return extract_gold_texts(records, make_nlp(models=models))


def score(name: str, models: Models | None, verbose: bool) -> dict:
    """score.py's figures (and, with `verbose`, its error listing) for one set."""
    records = gold(name)
    with tempfile.TemporaryDirectory() as tmp:
        gold_path, pred_path = Path(tmp) / "gold.jsonl", Path(tmp) / "pred.jsonl"
        gold_path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        pred_path.write_text(
            "".join(json.dumps(p) + "\n" for p in predictions(records, models)),
            encoding="utf-8",
        )
        command = [sys.executable, str(GOLD / "score.py"), str(gold_path), str(pred_path)]
        if verbose:
            print(
                subprocess.run(
                    command + ["--verbose"], capture_output=True, text=True, check=True
                ).stdout
            )
        done = subprocess.run(command + ["--json"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS))
    parser.add_argument("--model", type=Path, help="models to use instead of the shipped ones")
    parser.add_argument("--verbose", action="store_true", help="print score.py's error listing")
    args = parser.parse_args()
    models = load(args.model) if args.model else None
    print(f"{'set':<11} {'abstracts':>9} " + " ".join(f"{x:>8}" for x in LABELS))
    for name in args.sets:
        figures = score(name, models, args.verbose)
        cells = " ".join(
            f"{figures[x]['f1']:>8.3f}" if x in figures else f"{'':>8}" for x in LABELS
        )
        print(f"{name:<11} {figures['abstracts']:>9} {cells}", flush=True)


if __name__ == "__main__":
    main()
