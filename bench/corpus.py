"""Abstracts for benchmarks: the real corpus in ../shared/data/ml_abstracts when it is there,
else generated ones (said so on stderr). Larger N repeats the corpus with changed ids."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from kg.ingest import paper_id
from kg.model import Paper

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ml_abstracts"

_NAMES = ["FooNet", "BarFormer", "ZetaRL", "QuillBench", "OrbitQA", "NovaLM"]
_SENTENCES = [
    "We propose {a}, a framework for reasoning with large language models.",
    "We evaluate {a} on MATH500, GSM8K and {b}.",
    "{a} outperforms GRPO and {c} by 4.2% on average.",
    "Built on Qwen2.5-7B-Instruct, {a} reaches 71.3% accuracy on AIME 2024.",
    "Experiments on ImageNet and CIFAR-10 show that {a} scales.",
]


def _generated(n: int) -> list[tuple[str, str]]:
    rng = random.Random(0)
    out = []
    for i in range(n):
        a, b, c = (f"{rng.choice(_NAMES)}{i % 977}", rng.choice(_NAMES), rng.choice(_NAMES))
        text = " ".join(s.format(a=a, b=b, c=c) for s in rng.sample(_SENTENCES, 4))
        out.append((f"generated:{i}", text))
    return out


def abstracts(n: int) -> list[tuple[str, str]]:
    """(id, abstract) pairs: the first n of the corpus, repeated with new ids past its end."""
    if DATA.is_dir():
        base = []
        for path in sorted(DATA.glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                base.append((record["id"], record["abstract"]))
    else:
        print(f"note: {DATA} is absent; using generated abstracts", file=sys.stderr)
        base = _generated(min(n, 25_000))
    out = []
    for i in range(n):
        rid, text = base[i % len(base)]
        copy = i // len(base)
        # a changed copy is a new paper: the id comes from the text
        out.append((f"{rid}#{copy}" if copy else rid, text + (f" (copy {copy})" if copy else "")))
    return out


def papers(n: int) -> list[Paper]:
    """`Paper` records for n abstracts."""
    return [
        Paper(id=paper_id(text), text=text, source=rid.split(":")[0], line=i + 1, index=i + 1)
        for i, (rid, text) in enumerate(abstracts(n))
    ]
