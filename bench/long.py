"""Cost of one very long abstract: `kg build` as a process on texts of growing length.

    python bench/long.py [--sizes 250000 500000 1000000 2000000] [--names 5000]

Each text is the seed abstracts joined into one line, repeated up to the size; `--names`
adds one abstract that lists that many coined names in one sentence. Each build runs as
`kg build FILE --out DIR` with a fresh cache directory; printed per text: its length, the
wall time of the build, seconds per 100,000 characters (flat when the cost is linear), the
largest paper page and the whole export.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def seed_text() -> str:
    """Every seed abstract (lines under the heading line), joined into one text."""
    lines = []
    for path in sorted((ROOT / "seeds").glob("*.txt")):
        lines += [line.strip() for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    return " ".join(line for line in lines if line)


def build(text: str, tmp: Path) -> dict:
    """Time `kg build` of one abstract as a process; sizes of what it wrote."""
    source = tmp / "long.jsonl"
    source.write_text(json.dumps({"title": "Long", "abstract": text}) + "\n", encoding="utf-8")
    out, cache = tmp / "out", tmp / "cache"
    for path in (out, cache):
        shutil.rmtree(path, ignore_errors=True)
    env = {**os.environ, "KG_CACHE_DIR": str(cache)}
    started = time.perf_counter()
    subprocess.run(
        ["kg", "build", str(source), "--out", str(out), "-q"], check=True, env=env, cwd=tmp
    )
    seconds = time.perf_counter() - started
    pages = list((out / "papers").glob("*.html"))
    return {
        "chars": len(text),
        "seconds": round(seconds, 2),
        "s_per_100k_chars": round(seconds / len(text) * 100_000, 2),
        "largest_page_mb": round(max(p.stat().st_size for p in pages) / 1e6, 2),
        "exports_mb": round(sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / 1e6, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[250_000, 500_000, 2_000_000])
    parser.add_argument("--names", type=int, default=5000)
    args = parser.parse_args()
    seeds = seed_text()
    with tempfile.TemporaryDirectory(prefix="kg-bench-long-") as tmp:
        for size in args.sizes:
            text = (seeds + " ") * (size // (len(seeds) + 1) + 1)
            print(json.dumps({"text": "seed abstracts", **build(text[:size], Path(tmp))}))
        if args.names:
            names = ", ".join(f"Net{i}-X" for i in range(args.names))
            text = f"We propose {names}. They outperform ResNet-50 on ImageNet."
            print(json.dumps({"text": f"{args.names} names", **build(text, Path(tmp))}))


if __name__ == "__main__":
    main()
