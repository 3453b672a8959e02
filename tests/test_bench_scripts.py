"""The benchmarks in bench/ still run against the library they measure.

They import kg's internals (a stage of the build, a view's encoder), so a change to those
can leave a benchmark broken with no test failing: bench/pages.py called the link stage
as it returned two values for a whole stop. Each runs here as a process at a tiny size
(seconds), with its own extraction cache, and its printed figures are checked for shape;
the sizes the README reports take minutes and are run by hand. bench/quality.py is left out: it
scores ../shared/gold, which a fresh machine may lack (tests/test_evaluate.py scores the
gold files this repository holds).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SEED_PAPERS, SEEDS, need_module, need_tool


def run_bench(tmp_path: Path, *args: str) -> str:
    """A bench script's standard output; it must exit 0."""
    # this checkout's kg, not an installed copy of an older one
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "KG_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": path}
    done = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.slow
def test_pages_times_every_page_of_the_seeds(tmp_path):
    seeds = sorted(str(p) for p in SEEDS.glob("*.txt"))
    out = run_bench(tmp_path, "bench/pages.py", *seeds, "--repeat", "1")
    line = re.search(r"(\d+) papers: (\d+) pages, [\d.]+ MB .* same: (\w+)", out)
    assert line is not None, out
    assert int(line.group(1)) == SEED_PAPERS and int(line.group(2)) > SEED_PAPERS
    assert line.group(3) == "True"  # both rankings of neighbour papers agree


@pytest.mark.slow
def test_build_times_extraction_against_the_tokenizer(tmp_path):
    out = run_bench(tmp_path, "bench/build.py", "--one", "30", "--part", "extract")
    figures = json.loads(out.strip().splitlines()[-1])
    assert set(figures) == {"tokenize", "extract"}
    assert figures["extract"] > 0 and figures["tokenize"] > 0


@pytest.mark.slow
def test_build_times_kg_as_a_process(tmp_path):
    out = run_bench(tmp_path, "bench/build.py", "--sizes", "20", "--rebuilds", "1")
    assert "N tokenizer s  build s  x tok" in out, out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] == ["20"]]
    assert len(rows) == 1, out
    (row,) = rows
    # N, tokenizer, build, x tok, RSS, tree, exports, rebuild, % build, rebuild RSS, query
    assert len(row) == 11, row
    assert float(row[2]) > 0 and row[8].endswith("%") and float(row[10]) > 0


@pytest.mark.slow
def test_rebuilds_times_two_checkouts_in_turn(tmp_path):
    # this checkout against a stand-in for another, which notes each time it is run: each
    # rebuild is timed, each with its checkout's code, and the medians are compared
    base = tmp_path / "base"
    (base / "kg").mkdir(parents=True)
    (base / "kg" / "__init__.py").write_text("")
    ran = tmp_path / "ran.txt"
    (base / "kg" / "__main__.py").write_text(
        "import sys, time\n"
        "time.sleep(0.1)\n"
        f"open({str(ran)!r}, 'a').write(' '.join(sys.argv[1:]) + '\\n')\n"
        "print('Info: link: 0.1 s', file=sys.stderr)\n"
    )
    out = run_bench(
        tmp_path, "bench/rebuilds.py", "--base", str(base), "--size", "12", "--pairs", "2"
    )
    assert len(ran.read_text().splitlines()) == 3, out  # the first build and two rebuilds
    assert "kg rebuilds in turn, 12 abstracts, 2 changes" in out, out
    walls = re.findall(r"^  (this|base) \(.*\): ([0-9. ]+) s$", out, re.MULTILINE)
    assert [w[0] for w in walls] == ["this", "base"], out
    assert all(len(w[1].split()) == 2 and float(w[1].split()[0]) > 0 for w in walls), out
    medians = re.findall(r"median (rebuild|linking ended at): this ([0-9.]+) s", out)
    assert [m[0] for m in medians] == ["rebuild", "linking ended at"], out
    assert all(float(m[1]) > 0 for m in medians), out  # nan where no stage was logged


@pytest.mark.slow
def test_queries_agree_on_both_engines(tmp_path):
    out = run_bench(tmp_path, "bench/queries.py", "--papers", "30")
    # each query's row ends in whether both engines answered the same: "yes" or "NO"
    rows = [line.split() for line in out.splitlines() if line.split()[-1:] in (["yes"], ["NO"])]
    assert len(rows) > 5, out
    assert [row for row in rows if row[-1] != "yes"] == []


@pytest.mark.slow
def test_long_builds_one_long_text(tmp_path):
    out = run_bench(tmp_path, "bench/long.py", "--sizes", "4000", "--names", "10")
    figures = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert [f["text"] for f in figures] == ["seed abstracts", "10 names"]
    assert all(f["seconds"] > 0 and f["exports_mb"] > 0 for f in figures)


@pytest.mark.slow
@pytest.mark.browser
def test_views_draws_the_overview_in_chromium(tmp_path):
    need_tool("chromium")
    need_module("playwright")
    out = run_bench(tmp_path, "bench/views.py", "--papers", "30")
    assert re.search(r"overview rendered in [\d.]+ s, .* drawn in Chromium in [\d.]+ s", out), out
