"""The extractor's trained decisions: small linear models over named features.

Four logistic regressions, trained offline by `training/train.py` on abstracts
annotated by the guideline and shipped as JSON (kg/data/extractor.json):

- `entity`: is a candidate name an entity, and of which type (or "O": none);
- `proposed`: does the paper introduce it;
- `relation`: which relation (or "O") holds between a pair of the abstract's entities;
- `result`: is a number a reported score (or an improvement, a setting, a size).

Features are strings ("g:SHAPE", "p1:on", "rule:Benchmark"); a feature the model was not
trained on weighs nothing. Scoring is a sum of weights: no dependency at run time.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from operator import add

from kg.resources import data_dir

MODEL_FILE = "extractor.json"


@dataclass(frozen=True)
class LinearModel:
    """Classes, a bias per class and a weight vector per feature."""

    classes: tuple[str, ...]
    bias: tuple[float, ...]
    weights: dict[str, tuple[float, ...]]
    #: the probability the first class ("O", "no") needs to win: below it, the best other
    #: class wins (chosen in training for the best F1)
    threshold: float = 0.5

    def __post_init__(self) -> None:
        # a two-class model weighs only its second class: one float per feature
        binary = len(self.classes) == 2 and all(w[0] == 0.0 for w in self.weights.values())
        object.__setattr__(
            self, "_second", {f: w[1] for f, w in self.weights.items()} if binary else None
        )

    def scores(self, features: Iterable[str]) -> list[float]:
        """The linear score of each class."""
        second: dict[str, float] | None = self._second  # type: ignore[attr-defined]
        if second is not None:
            return [self.bias[0], self.bias[1] + sum(map(second.get, features, repeat(0.0)))]
        # the weight rows of the known features (a row is never empty), summed per class in
        # the features' order
        rows = list(filter(None, map(self.weights.get, features)))
        if not rows:
            return list(self.bias)
        return list(map(add, self.bias, map(sum, zip(*rows, strict=True))))

    def probabilities(self, features: Iterable[str]) -> dict[str, float]:
        """Each class's probability (softmax of the scores)."""
        scores = self.scores(features)
        top = max(scores)
        exp = [math.exp(s - top) for s in scores]
        total = sum(exp)
        return {c: e / total for c, e in zip(self.classes, exp, strict=True)}

    def best(self, features: Iterable[str]) -> tuple[str, str, float]:
        """The class `predict` chooses, the likeliest class other than the first, and that
        class's probability."""
        scores = self.scores(features)
        top = max(scores)
        exp = [math.exp(s - top) for s in scores]
        total = sum(exp)
        k = max(range(1, len(exp)), key=exp.__getitem__)
        label = self.classes[0] if exp[0] / total >= self.threshold else self.classes[k]
        return label, self.classes[k], exp[k] / total

    def predict(self, features: Iterable[str]) -> tuple[str, float]:
        """The best class other than the first ("O", "no") and its probability, or the
        first class when its probability reaches `threshold`."""
        probs = self.probabilities(features)
        label = self.decide(probs)
        return label, probs[label]

    def decide(self, probs: dict[str, float]) -> str:
        """The class `predict` chooses from these probabilities."""
        none = self.classes[0]
        if probs[none] >= self.threshold:
            return none
        return max(self.classes[1:], key=lambda c: probs[c])

    def top_features(self, features: Iterable[str], label: str, n: int = 2) -> list[str]:
        """The features that weigh most for `label` (for the evidence of a decision)."""
        k = self.classes.index(label)
        weighed = [(self.weights[f][k], f) for f in set(features) if f in self.weights]
        return [f for w, f in sorted(weighed, reverse=True)[:n] if w > 0]

    @classmethod
    def from_json(cls, data: dict) -> LinearModel:
        """The model as `to_json` wrote it."""
        return cls(
            tuple(data["classes"]),
            tuple(data["bias"]),
            {f: tuple(w) for f, w in data["weights"].items()},
            data.get("threshold", 0.5),
        )

    def to_json(self) -> dict:
        """A JSON-able dict, weights rounded and features sorted (stable files)."""
        return {
            "classes": list(self.classes),
            "bias": [round(b, 5) for b in self.bias],
            "threshold": round(self.threshold, 3),
            "weights": {f: [round(x, 5) for x in self.weights[f]] for f in sorted(self.weights)},
        }


@dataclass(frozen=True)
class Models:
    """The three models of the extractor."""

    entity: LinearModel | None
    proposed: LinearModel | None
    relation: LinearModel | None
    result: LinearModel | None = None


@lru_cache(maxsize=1)
def load_models() -> Models:
    """kg/data/extractor.json, read once (a missing model is None: rules decide alone)."""
    path = data_dir() / MODEL_FILE
    if not path.exists():
        return Models(None, None, None)
    return models_from_json(json.loads(path.read_text(encoding="utf-8")))


def models_from_json(raw: dict) -> Models:
    """The models of an extractor.json document."""
    return Models(*(LinearModel.from_json(raw[name]) if name in raw else None for name in STAGES))


#: the models, in the order they are trained
STAGES = ("entity", "proposed", "relation", "result")
