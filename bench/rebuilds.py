"""Rebuilds of two checkouts of kg, timed in turn: what a change to kg saves a rebuild.

    git worktree add /tmp/base e7ef0e5
    python bench/rebuilds.py --base /tmp/base [--size 25000 | --file F] [--pairs 8]

Each checkout (this one, and `--base`) builds the same abstracts (written as bench/build.py
writes them, or `--file` copied) into an exports directory of its own with a fresh cache of
its own: `kg build FILE --out DIR`, a process with default options, as a user runs it (this
first build is not timed). Then `--pairs` times: one more abstract is changed and both
rebuild, in turn (which goes first alternates), each timed from outside as a process, with
the moment its `kg -v` log says the link stage ended (extraction and linking done, however
a code splits them). Printed: each rebuild, and the
medians and their difference. A rebuild varies by a fifth from one minute to the next on a
shared machine; rebuilds in turn see the same minutes, where medians of two runs of
bench/build.py an hour apart do not.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
ROOT = Path(__file__).resolve().parents[1]
#: the log line of the link stage's end ("link: 1.4 s")
LINKED = re.compile(r"Info: link: [0-9.]+ s$")


def rebuild(checkout: Path, source: Path, out: Path, cache: Path) -> tuple[float, float]:
    """One `kg -v build` of `checkout`'s kg: its wall seconds, and when linking ended."""
    env = {**os.environ, "KG_CACHE_DIR": str(cache), "PYTHONPATH": str(checkout)}
    command = [sys.executable, "-m", "kg", "-v", "build", str(source), "--out", str(out)]
    start = time.perf_counter()
    linked = float("nan")
    # run from the exports' folder: `python -m` puts the working directory first on the
    # path, so from a checkout both codes would be that checkout's (until 2026-12-07 they
    # were: run from this one, every comparison timed this code twice)
    with subprocess.Popen(
        command,
        env=env,
        cwd=out.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stderr is not None
        for line in process.stderr:
            if LINKED.match(line):
                linked = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"kg build of {checkout} failed ({process.returncode})")
    return time.perf_counter() - start, linked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the other checkout of kg")
    parser.add_argument("--size", type=int, default=25000)
    parser.add_argument("--file", type=Path, help="build this JSON Lines file instead")
    parser.add_argument("--pairs", type=int, default=8)
    args = parser.parse_args()
    checkouts = {"this": ROOT, "base": args.base.resolve()}
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "abstracts.jsonl"
        if args.file is not None:
            source.write_bytes(args.file.read_bytes())
        else:
            from build import write_corpus

            write_corpus(args.size, source)
        rows = source.read_text(encoding="utf-8").splitlines(keepends=True)
        n = len(rows)
        place = {k: (Path(tmp) / f"out-{k}", Path(tmp) / f"cache-{k}") for k in checkouts}
        for k, checkout in checkouts.items():
            rebuild(checkout, source, *place[k])
        times: dict[str, list[tuple[float, float]]] = {k: [] for k in checkouts}
        for i in range(args.pairs):
            row = json.loads(rows[i % n])
            row["abstract"] += f" We also propose FooNet{i}, which outperforms GRPO on MATH500."
            rows[i % n] = json.dumps(row) + "\n"
            source.write_text("".join(rows), encoding="utf-8")
            for k in sorted(checkouts, reverse=i % 2 == 1):
                times[k].append(rebuild(checkouts[k], source, *place[k]))
    day = time.strftime("%Y-%m-%d")
    cores = os.cpu_count()
    print(f"kg rebuilds in turn, {n} abstracts, {args.pairs} changes; {day}, {cores} cores")
    for k in checkouts:
        walls = " ".join(f"{w:.1f}" for w, _ in times[k])
        print(f"  {k} ({checkouts[k]}): {walls} s")
    medians = {k: [statistics.median(t[j] for t in times[k]) for j in (0, 1)] for k in times}
    for j, what in enumerate(("rebuild", "linking ended at")):
        this, base = medians["this"][j], medians["base"][j]
        print(f"  median {what}: this {this:.2f} s, base {base:.2f} s, {this - base:+.2f} s")


if __name__ == "__main__":
    main()
