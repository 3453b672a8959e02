"""Build throughput, peak memory and export size for N abstracts, with a yardstick.

    python bench/build.py [--sizes 1000 10000 25000] [--views overview]

Each size runs in fresh processes (the build's peak memory is its own): abstracts from
../shared/data/ml_abstracts when present (repeated with changed ids past its end), else
generated. Printed per size: spaCy's tokenizer alone over the same texts (the floor cost of
reading them), extraction, the whole `kg build` (read, extract, link, graph, RDF, views,
write), peak RSS of the build process and of it with all its children, bytes of Turtle;
then the incremental rebuild: one abstract changed, the build run again on the extraction
cache the first build filled.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


class TreeMemory:
    """The peak of the memory of this process and all its children together (extraction
    workers, Oxigraph converters, page-drawing workers), sampled every 0.2 s in a thread
    (reading a 900 MB process's PSS takes 4 ms), and at least this process's own peak RSS.
    Each process counts its proportional set size (PSS): pages a forked worker still shares
    with the build count once, split between them, as they do in the machine's memory
    (summed RSS would count them in every process)."""

    def __init__(self) -> None:
        import psutil

        self.peak = 0
        self._me = psutil.Process()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        import psutil

        while not self._done.wait(0.2):
            total = 0
            for process in [self._me, *self._me.children(recursive=True)]:
                try:
                    total += process.memory_full_info().pss
                except psutil.Error:  # the child ended meanwhile
                    pass
            self.peak = max(self.peak, total)

    def stop(self) -> None:
        self._done.set()
        self._thread.join()


def one(n: int, views: str, part: str) -> dict:
    """Measure one part in this (fresh) process: "extract" (tokenizer and extraction
    throughput), "build" (the whole build, and this process's peak memory) or "rebuild"
    (a build that fills a cache, then one abstract changed and the build run again)."""
    from corpus import abstracts

    from kg.builder import build
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
        if part == "rebuild":
            cache, out = Path(tmp) / "cache", Path(tmp) / "exports"
            # the first build in a process of its own, as a user would run it
            command = [sys.executable, "-m", "kg", "build", str(source), "-o", str(out), "-q"]
            subprocess.run(
                [*command, "--views", views],
                check=True,
                env={**os.environ, "KG_CACHE_DIR": str(cache)},
            )
            rows = source.read_text(encoding="utf-8").splitlines(keepends=True)
            first = json.loads(rows[0])
            first["abstract"] += " We also propose FooNet, which outperforms GRPO on MATH500."
            rows[0] = json.dumps(first) + "\n"
            source.write_text("".join(rows), encoding="utf-8")
            t = time.perf_counter()
            summary = build([source], out, views=views, cache_dir=cache)
            assert summary.cached == summary.papers - 1, "only the changed abstract is extracted"
            return {"rebuild": time.perf_counter() - t}
        sampler = TreeMemory()
        t = time.perf_counter()
        summary = build([source], Path(tmp) / "exports", views=views, cache=False)
        whole = time.perf_counter() - t
        sampler.stop()
        turtle = (Path(tmp) / "exports" / "kg.ttl").stat().st_size
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "papers": summary.papers,
        "build": whole,
        "peak_mb": peak_kb / 1024,
        "tree_mb": max(sampler.peak / 2**20, peak_kb / 1024),
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
        f"{'build s':>8} {'peak MB':>8} {'KB/abs':>7} {'all MB':>7} {'Turtle MB':>10} "
        f"{'triples':>9} {'rebuild s':>9} {'% build':>7}"
    )
    previous = (0, 0.0)
    for n in args.sizes:
        r = {"n": n, **_run(n, args.views, "extract"), **_run(n, args.views, "build")}
        r.update(_run(n, args.views, "rebuild"))
        # memory per abstract: the growth of the peak since the previous size
        per = (r["peak_mb"] - previous[1]) * 1024 / (n - previous[0]) if previous[0] else 0
        previous = (n, r["peak_mb"])
        print(
            f"{r['n']:>7} {r['n'] / r['tokenize']:>12.0f} {r['n'] / r['extract']:>10.0f} "
            f"{r['extract'] / r['tokenize']:>6.1f} {r['n'] / r['build']:>8.0f} "
            f"{r['build']:>8.1f} {r['peak_mb']:>8.0f} {per:>7.1f} {r['tree_mb']:>7.0f} "
            f"{r['turtle'] / 1e6:>10.1f} {r['triples']:>9} {r['rebuild']:>9.1f} "
            f"{100 * r['rebuild'] / r['build']:>6.0f}%",
            flush=True,
        )


if __name__ == "__main__":
    main()
