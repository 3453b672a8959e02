"""Build throughput, peak memory and export size for N abstracts, with a yardstick.

    python bench/build.py [--sizes 1000 10000 25000] [--views overview]

Each size runs in fresh processes (the build's peak memory is its own): abstracts from
../shared/data/ml_abstracts when present (repeated with changed ids past its end), else
generated. Printed per size: spaCy's tokenizer alone over the same texts (the floor cost of
reading them), extraction, the whole `kg build` (read, extract, link, graph, RDF, views,
write), peak RSS and bytes of Turtle.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def one(n: int, views: str, part: str) -> dict:
    """Measure one part in this (fresh) process: "extract" (tokenizer and extraction
    throughput) or "build" (the whole build, and this process's peak memory)."""
    from corpus import abstracts

    from kg.build import build
    from kg.extract import extract, make_nlp
    from kg.ingest import read_inputs

    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "abstracts.jsonl"
        source.write_text(
            "".join(json.dumps({"id": i, "abstract": text}) + "\n" for i, text in abstracts(n)),
            encoding="utf-8",
        )
        if part == "extract":
            papers = read_inputs([source])
            nlp = make_nlp()
            t = time.perf_counter()
            for _ in nlp.tokenizer.pipe(p.text for p in papers):
                pass
            tokenize = time.perf_counter() - t
            t = time.perf_counter()
            extract(papers, nlp)
            return {"tokenize": tokenize, "extract": time.perf_counter() - t}
        t = time.perf_counter()
        summary = build([source], Path(tmp) / "exports", views=views, cache=False)
        whole = time.perf_counter() - t
        turtle = (Path(tmp) / "exports" / "kg.ttl").stat().st_size
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {
        "papers": summary.papers,
        "build": whole,
        "peak_mb": peak_kb / 1024,
        "worker_mb": workers_kb / 1024,
        "turtle": turtle,
        "triples": summary.triples,
    }


def _run(n: int, views: str, part: str) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--one", str(n), "--views", views, "--part", part],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 25_000])
    parser.add_argument("--views", default="overview", choices=["all", "overview", "none"])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--part", default="build", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.views, args.part)))
        return
    print(
        f"{'N':>7} {'tokenizer/s':>12} {'extract/s':>10} {'x tok':>6} {'build/s':>8} "
        f"{'build s':>8} {'peak MB':>8} {'KB/abs':>7} {'worker MB':>9} {'Turtle MB':>10} "
        f"{'triples':>9}"
    )
    previous = (0, 0.0)
    for n in args.sizes:
        r = {"n": n, **_run(n, args.views, "extract"), **_run(n, args.views, "build")}
        # memory per abstract: the growth of the peak since the previous size
        per = (r["peak_mb"] - previous[1]) * 1024 / (n - previous[0]) if previous[0] else 0
        previous = (n, r["peak_mb"])
        print(
            f"{r['n']:>7} {r['n'] / r['tokenize']:>12.0f} {r['n'] / r['extract']:>10.0f} "
            f"{r['extract'] / r['tokenize']:>6.1f} {r['n'] / r['build']:>8.0f} "
            f"{r['build']:>8.1f} {r['peak_mb']:>8.0f} {per:>7.1f} {r['worker_mb']:>9.0f} "
            f"{r['turtle'] / 1e6:>10.1f} {r['triples']:>9}",
            flush=True,
        )


if __name__ == "__main__":
    main()
