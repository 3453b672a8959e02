"""Metrics: the name of the measure a result reports, and which way it improves.

The words are data (kg/data/metrics.json): the words that open a metric's span without
being part of its name ("achieving FID"), and the words that make a metric lower- or
higher-is-better. Linking names each result's metric with `metric_name`; the RDF states
`direction` as kg:lowerIsBetter, which orders `kg query leaderboard` and the leaderboard
pages alike.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Literal

from kg.resources import data_dir

Direction = Literal["lower", "higher"]
_WORD = re.compile(r"[^\s/(),;:]+")


@cache
def _read() -> dict:
    return json.loads((data_dir() / "metrics.json").read_text(encoding="utf-8"))


@cache
def _table() -> dict[str, frozenset[str]]:
    lists = ("not_in_a_name", "name_starts_after", "lower_is_better", "higher_is_better")
    return {k: frozenset(_read()[k]) for k in lists}


@cache
def _letters() -> dict[str, str]:
    """The measure a letter before "@" stands for: P@10 is precision, R@20 recall."""
    return dict(_read()["cut_off_letters"])


def metric_name(metric: str | None) -> str | None:
    """`metric` without what is not part of a metric's name: the words up to the last verb
    of a score ("samplers achieve FID scores" → "FID scores") and the leading words that
    open its span ("achieving FID", "near perfect accuracy" → "accuracy"); None when
    nothing is left."""
    if not metric:
        return None
    words = metric.split()
    table = _table()
    verbs = [k for k, w in enumerate(words) if w.lower() in table["name_starts_after"]]
    if verbs:
        words = words[verbs[-1] + 1 :]
    skip = table["not_in_a_name"]
    while words and words[0].lower() in skip:
        words.pop(0)
    return " ".join(words) or None


def direction(metric: str | None) -> Direction | None:
    """Which way `metric` improves: "lower" when a word of its name is lower-is-better
    (error, perplexity, loss, FID, ...), else "higher" for a higher-is-better word, else
    None (unknown). A word "X@k" also counts as X ("nDCG@10" is read as nDCG; "P@10" as
    precision)."""
    words = set(_WORD.findall((metric or "").lower()))
    table = _table()
    letters = _letters()
    cut = {w.split("@", 1)[0] for w in words if "@" in w}  # nDCG@10, P@10
    words |= {letters.get(w, w) for w in cut}
    if words & table["lower_is_better"]:
        return "lower"
    if words & table["higher_is_better"]:
        return "higher"
    return None
