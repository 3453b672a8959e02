"""`kg build` timed as a user runs it: a process, a fresh cache, every view, with a yardstick.

    python bench/build.py [--sizes 1000 10000 25000] [--views all] [--rebuilds 1]
    python bench/build.py --file ../shared/data/ml_abstracts/icml2024_openreview.jsonl

For each size, abstracts from ../shared/data/ml_abstracts when present (repeated with
changed ids past its end), else generated, are written to one JSON Lines file (or
`--file` is copied: one conference as a user builds it). Then, each
in a process of its own: spaCy's tokenizer alone over the same texts (the floor cost of
reading them); `kg build FILE --out DIR` with a fresh cache directory and default options;
the same command again after one abstract changed (the rebuild, on the cache and exports
the first left; with `--rebuilds N`, N of them in turn, each after one more change, and
their median); and a cold `kg query most-used-benchmarks DIR`. Printed per size: the
wall seconds of each, the build's cost in tokenizer times, the peak memory of the build's
process and of it with all its children (PSS), and the exports' size. With `--part
extract` (one size), extraction alone in this process, against the tokenizer: its ratio
is the one the extraction budget (4x the tokenizer) is held to. Every part runs the
checkout's kg (the repository first on the path, `kg` too), not an installed copy.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
#: the checkout's kg, not an installed copy: a change is measured without reinstalling it
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


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


def write_corpus(n: int, path: Path) -> None:
    """n abstracts as JSON Lines."""
    from corpus import abstracts

    path.write_text(
        "".join(json.dumps({"id": i, "abstract": text}) + "\n" for i, text in abstracts(n)),
        encoding="utf-8",
    )


def one(n: int, views: str, part: str) -> dict:
    """Extraction alone in this (fresh) process, and the tokenizer over the same texts."""
    from kg.extract import extract, make_nlp
    from kg.ingest import read_inputs

    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "abstracts.jsonl"
        write_corpus(n, source)
        papers = read_inputs([source])
        nlp = make_nlp()
        t = time.perf_counter()
        for _ in nlp.tokenizer.pipe(p.text for p in papers):
            pass
        tokenize = time.perf_counter() - t
        t = time.perf_counter()
        extract(papers, nlp)
        return {"tokenize": tokenize, "extract": time.perf_counter() - t}


_TOKENIZE = """
import json, sys, time
import spacy
from kg.extract.tokenizer import customize_tokenizer
texts = [json.loads(line)["abstract"] for line in open(sys.argv[1], encoding="utf-8")]
nlp = spacy.blank("en")
customize_tokenizer(nlp)
t = time.perf_counter()
for _ in nlp.tokenizer.pipe(texts):
    pass
print(time.perf_counter() - t)
"""


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Wall seconds, peak RSS of the process (MB, as `/usr/bin/time` reports it: the
    kernel's figure for that process, the largest of it and the children it waited for)
    and peak PSS of its whole tree (MB). The RSS is this command's alone (`os.wait4`):
    `RUSAGE_CHILDREN` is the largest of every command run so far, so a rebuild read as
    large as the build before it."""
    sampler = TreeMemory()
    t = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - t
    process.returncode = os.waitstatus_to_exitcode(status)
    sampler.stop()
    if process.returncode != 0:
        raise subprocess.CalledProcessError(process.returncode, command)
    return wall, usage.ru_maxrss / 1024, sampler.peak / 2**20


def as_user(n: int, views: str, file: Path | None = None, rebuilds: int = 1) -> dict:
    """The four measures of one size (or of `file`, copied), each a process as a user
    starts it; `rebuilds` rebuilds in turn, each after one more change to the first
    abstract (the median is the rebuild's figure: one varies by a fifth here)."""
    with tempfile.TemporaryDirectory() as tmp:
        source, out, cache = Path(tmp) / "abstracts.jsonl", Path(tmp) / "out", Path(tmp) / "c"
        if file is not None:
            source.write_bytes(file.read_bytes())
            n = len(source.read_bytes().splitlines())
        else:
            write_corpus(n, source)
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
        env = {**os.environ, "KG_CACHE_DIR": str(cache), "PYTHONPATH": path}
        done = subprocess.run(
            [sys.executable, "-c", _TOKENIZE, str(source)],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        )
        tokenize = float(done.stdout.strip())
        command = ["kg", "build", str(source), "--out", str(out), "-q"]
        if views != "all":
            command += ["--views", views]
        build, rss, tree = timed(command, env)
        size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        rows = source.read_text(encoding="utf-8").splitlines(keepends=True)
        first = json.loads(rows[0])
        times, rebuild_rss = [], 0.0
        for k in range(rebuilds):
            name = "FooNet" + ("" if k == 0 else str(k + 1))
            first["abstract"] += f" We also propose {name}, which outperforms GRPO on MATH500."
            source.write_text(json.dumps(first) + "\n" + "".join(rows[1:]), encoding="utf-8")
            wall, peak, _ = timed(command, env)
            times.append(wall)
            rebuild_rss = max(rebuild_rss, peak)
        query, _, _ = timed(["kg", "query", "most-used-benchmarks", str(out)], env)
    return {
        "n": n,
        "tokenize": tokenize,
        "build": build,
        "rss_mb": rss,
        "tree_mb": tree,
        "rebuild": statistics.median(times),
        "rebuilds": times,
        "rebuild_mb": rebuild_rss,
        "query": query,
        "exports_mb": size / 1e6,
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
    parser.add_argument("--views", default="all", choices=["all", "overview", "none"])
    parser.add_argument("--file", type=Path, help="build this JSON Lines file instead")
    parser.add_argument(
        "--rebuilds", type=int, default=1, help="rebuilds per size, each after a change"
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--part", default="extract", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rebuilds < 1:
        parser.error("--rebuilds must be 1 or more")
    if args.one:
        print(json.dumps(one(args.one, args.views, args.part)))
        return
    what = f"{args.file.name}, " if args.file else ""
    day, load = time.strftime("%Y-%m-%d"), os.getloadavg()[0]
    print(
        f"kg build {what}as a process, fresh cache, --views {args.views}; {day}, "
        f"{os.cpu_count()} cores, load average {load:.1f} at the start"
    )
    print(
        f"{'N':>7} {'tokenizer s':>11} {'build s':>8} {'x tok':>6} {'RSS MB':>7} "
        f"{'tree MB':>8} {'exports MB':>10} {'rebuild s':>9} {'% build':>7} {'RSS MB':>7} "
        f"{'query s':>7}"
    )
    for n in [0] if args.file else args.sizes:
        r = as_user(n, args.views, args.file, args.rebuilds)
        print(
            f"{r['n']:>7} {r['tokenize']:>11.1f} {r['build']:>8.1f} "
            f"{r['build'] / r['tokenize']:>6.1f} {r['rss_mb']:>7.0f} {r['tree_mb']:>8.0f} "
            f"{r['exports_mb']:>10.0f} {r['rebuild']:>9.1f} "
            f"{100 * r['rebuild'] / r['build']:>6.0f}% {r['rebuild_mb']:>7.0f} "
            f"{r['query']:>7.1f}",
            flush=True,
        )
        if args.rebuilds > 1:
            each = ", ".join(f"{t:.1f}" for t in r["rebuilds"])
            print(f"{'':>7} rebuilds: {each} s (median {r['rebuild']:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
