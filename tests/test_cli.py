from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import MATH500_PAPERS, ROOT, SEED_PAPERS, SEEDS, write

from kg.cli import main


def snapshot(directory):
    return {p.relative_to(directory): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    from click.testing import CliRunner

    out = tmp_path_factory.mktemp("cli") / "exports"
    result = CliRunner().invoke(main, ["build", str(SEEDS), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out, result


def test_build_prints_a_summary(exports):
    out, result = exports
    assert f"papers:    {SEED_PAPERS}" in result.stdout
    assert "entities:" in result.stdout and "Benchmark" in result.stdout
    assert "wrote:" in result.stdout and "kg.ttl" in result.stdout
    assert {"kg.ttl", "kg.graphml", "extractions.jsonl", "index.html"} <= {
        p.name for p in out.iterdir()
    }


#: the stages of a build, in order
STAGES = [
    "read",
    "extract",
    "link",
    "RDF",
    "extractions.jsonl",
    "views",
    "GraphML, Turtle and JSON-LD",
    "store",  # the graph stored for kg query (kg/query/store.py)
]


def test_verbose_build_says_how_long_each_stage_took(runner, tmp_path):
    result = runner.invoke(main, ["-v", "build", str(SEEDS), "-o", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.output
    stages = re.findall(r"^Info: ([\w ,.-]+): \d+\.\d s$", result.stderr, re.MULTILINE)
    # and the graph the views draw, timed where it is made (beside the RDF in a rebuild)
    assert stages == [*STAGES[:3], "NetworkX graph", *STAGES[3:]]


def test_build_reports_progress_stage_by_stage(tmp_path):
    """A bar per stage: papers while extracting, pages while writing the views."""
    from kg.builder.pipeline import build

    seen: list[tuple[str, int, int]] = []
    summary = build([SEEDS], tmp_path, on_progress=lambda *step: seen.append(step))
    assert list(dict.fromkeys(stage for stage, _, _ in seen)) == STAGES
    assert ("extract", SEED_PAPERS, SEED_PAPERS) in seen
    pages = [(done, total) for stage, done, total in seen if stage == "views"]
    html = [f for f in summary.files if f.suffix == ".html"]
    lib = [f for f in summary.files if f.parent.name == "lib"]
    assert len(lib) == 4 and pages[-1] == (pages[-1][1], len(html) + len(lib))
    assert [done for done, _ in pages] == list(range(1, len(pages) + 1))


def test_build_twice_is_byte_identical(exports, runner, tmp_path):
    out, _ = exports
    again = tmp_path / "again"
    assert runner.invoke(main, ["build", str(SEEDS), "-o", str(again), "-q"]).exit_code == 0
    assert snapshot(again) == snapshot(out)


@pytest.mark.slow
def test_builds_in_separate_processes_are_byte_identical(exports, tmp_path):
    """Hash randomisation differs between processes; the exports must not."""
    import os
    import subprocess
    import sys

    out, _ = exports
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        target = tmp_path / seed
        subprocess.run(
            [sys.executable, "-m", "kg", "build", str(SEEDS), "-o", str(target), "-q"],
            check=True,
            env=env,
        )
        assert snapshot(target) == snapshot(out), seed


def test_build_defaults_to_seeds_and_exports(runner, tmp_path, monkeypatch):
    (tmp_path / "seeds").mkdir()
    write(tmp_path / "seeds" / "s.txt", "ICML 2026 Papers\n\nWe propose FooNet on MATH500.\n")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["build", "-q"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "exports" / "kg.ttl").is_file()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.txt", None, "missing.txt: no such file or directory"),
        ("empty.txt", b"", "empty.txt: empty file"),
        (
            "latin1.txt",
            b"ICML 2026 Papers\n\ncaf\xe9 abstract\n",
            "latin1.txt:3: byte 0xe9 at column 4 is not UTF-8",
        ),
    ],
)
def test_bad_input_is_one_line_exit_2_and_exports_untouched(
    exports, runner, tmp_path, name, content, message
):
    out, _ = exports
    before = snapshot(out)
    path = tmp_path / name
    if content is not None:
        write(path, content)
    result = runner.invoke(main, ["build", str(path), "--out", str(out)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert result.stderr.startswith("Error: ")
    assert "Traceback" not in result.stderr
    assert snapshot(out) == before


def test_a_directory_kg_never_built_into_is_refused(runner, tmp_path):
    """`kg build -o .` in a project: its lib/ is not kg's to replace or remove."""
    project = tmp_path / "project"
    write(project / "lib" / "helper.js", "mine")
    write(project / "README.md", "# mine")
    before = snapshot(project)
    result = runner.invoke(main, ["build", str(SEEDS), "-o", str(project), "-q"])
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"Error: {project}: holds files kg did not write")
    assert "--force" in result.stderr and "Traceback" not in result.stderr
    assert snapshot(project) == before


def test_force_writes_beside_files_of_yours_and_then_rebuilds(runner, tmp_path):
    project, clean = tmp_path / "project", tmp_path / "clean"
    write(project / "lib" / "helper.js", "mine")
    write(project / "papers" / "notes.html", "mine")
    args = ["build", str(SEEDS), "-o", str(project), "-q"]
    assert runner.invoke(main, [*args, "--force"]).exit_code == 0
    assert (project / "index.html").is_file() and (project / "lib" / "helper.js").is_file()
    assert runner.invoke(main, args).exit_code == 0  # kg built here: no --force needed
    assert runner.invoke(main, [*args, "--views", "none"]).exit_code == 0
    none = ["build", str(SEEDS), "-o", str(clean), "-q", "--views", "none"]
    assert runner.invoke(main, none).exit_code == 0
    assert snapshot(project) == {
        **snapshot(clean),  # kg's pages gone, the manifest as a clean build's
        Path("lib/helper.js"): b"mine",
        Path("papers/notes.html"): b"mine",
    }


def test_unwritable_exports_give_exit_2(runner, tmp_path):
    blocker = write(tmp_path / "file", "not a directory")
    result = runner.invoke(main, ["build", str(SEEDS), "--out", str(blocker / "sub")])
    assert result.exit_code == 2
    assert "cannot write the exports" in result.stderr


MATH500 = (
    "SELECT DISTINCT ?paper WHERE { ?paper a kg:Paper ; kg:evaluatedOn entity:math500 } "
    "ORDER BY ?paper"
)


def test_query_which_papers_evaluate_on_math500(exports, runner):
    out, _ = exports
    result = runner.invoke(main, ["query", MATH500, str(out), "--format", "json"])
    assert result.exit_code == 0, result.output
    found = {
        b["paper"]["value"].rsplit("/", 1)[1]
        for b in json.loads(result.stdout)["results"]["bindings"]
    }
    # the abstracts that report a figure on MATH500 / MATH-500
    records = [json.loads(line) for line in (out / "extractions.jsonl").open()]
    stated = {
        r["paper"]
        for r in records
        if "MATH500" in r["text"].replace("-", "") and "we " in r["text"].lower()
    }
    assert found == stated and len(found) == MATH500_PAPERS


def test_query_formats_and_rq_file(exports, runner, tmp_path):
    out, _ = exports
    rq = write(tmp_path / "q.rq", MATH500)
    table = runner.invoke(main, ["query", str(rq), str(out)])
    assert table.exit_code == 0 and "paper:" in table.stdout
    assert f"({MATH500_PAPERS} rows)" in table.stdout
    csv = runner.invoke(main, ["query", MATH500, str(out), "-f", "csv"])
    assert csv.stdout.splitlines()[0] == "paper"
    assert len(csv.stdout.splitlines()) == 1 + MATH500_PAPERS  # a header, then a row a paper
    tsv = runner.invoke(main, ["query", MATH500, str(out), "-f", "tsv"])
    assert len(tsv.stdout.splitlines()) == 1 + MATH500_PAPERS


def test_ask_answers_with_exit_code(exports, runner):
    out, _ = exports
    yes = runner.invoke(main, ["query", "ASK { ?p kg:evaluatedOn entity:math500 }", str(out)])
    no = runner.invoke(main, ["query", "ASK { ?p kg:evaluatedOn entity:nosuch }", str(out)])
    assert (yes.exit_code, yes.stdout) == (0, "yes\n")
    assert (no.exit_code, no.stdout) == (1, "no\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["SELECT ?x WHERE { ?x ?y }"], "SPARQL syntax error at line 1, column"),
        (
            ["SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }"],
            "SERVICE clauses are not allowed",
        ),
        (["missing.rq"], "no such query file"),
    ],
)
def test_query_errors_exit_2_without_traceback(exports, runner, args, message):
    out, _ = exports
    result = runner.invoke(main, ["query", *args, str(out)])
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_query_without_exports_says_build_first(runner, tmp_path):
    result = runner.invoke(main, ["query", MATH500, str(tmp_path / "nothing")])
    assert result.exit_code == 2 and "run `kg build` first" in result.stderr


def test_stats(exports, runner, tmp_path):
    out, _ = exports
    result = runner.invoke(main, ["stats", str(out), "--top", "3"])
    assert result.exit_code == 0
    assert f"papers: {SEED_PAPERS}" in result.stdout and "most mentioned entities" in result.stdout
    missing = runner.invoke(main, ["stats", str(tmp_path)])
    assert missing.exit_code == 2 and "holds no kg.graphml, kg.ttl" in missing.stderr
    assert "run `kg build` first" in missing.stderr
    gone = runner.invoke(main, ["stats", str(tmp_path / "kg.graphml")])
    assert gone.exit_code == 2 and "kg.graphml: no such file" in gone.stderr


def test_extract_prints_scorer_records(runner, tmp_path):
    path = write(tmp_path / "a.txt", "ICML 2026 Papers\n\nWe propose FooNet on MATH500.\n")
    result = runner.invoke(main, ["extract", str(path)])
    assert result.exit_code == 0
    (record,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert {e["name"] for e in record["entities"]} == {"FooNet", "MATH500"}
    bad = runner.invoke(main, ["extract", str(tmp_path / "none.txt")])
    assert bad.exit_code == 2 and "no such file" in bad.stderr


def test_every_command_has_help_with_an_example(runner):
    assert runner.invoke(main, ["--help"]).exit_code == 0
    for name, command in main.commands.items():
        result = runner.invoke(main, [name, "--help"])
        assert result.exit_code == 0, name
        assert command.help and "Example" in command.help, name


def test_usage_error_is_exit_2(runner):
    result = runner.invoke(main, ["query", "--format", "xml", "SELECT * {}"])
    assert result.exit_code == 2


def test_the_cli_starts_without_loading_the_pipeline():
    """`kg --help`, `kg query` and friends do not wait for spaCy, rdflib's plugins or pyvis."""
    code = "import sys, kg.cli; print(sorted({'spacy', 'pyvis', 'networkx'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_console_script_and_python_m_kg_run_the_cli():
    import importlib
    import tomllib

    from conftest import ROOT

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, name = scripts["kg"].partition(":")
    from kg.cli import run

    assert getattr(importlib.import_module(module), name) is run  # main, then a quick end
    done = subprocess.run(
        [sys.executable, "-m", "kg", "--version"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0 and done.stdout == "kg, version 0.1.0\n", done.stderr


def test_cache_info_and_clear_count_what_the_cache_holds(runner, tmp_path, monkeypatch):
    from kg.builder.cache import ExtractionCache, fingerprint

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path))
    store = ExtractionCache()
    store.put_many({"a": {"text": "one"}, "b": {"text": "two"}})
    store.close()
    from kg.query.store import write_store

    write_store([ROOT / "exports" / "void.ttl"])
    db = tmp_path / "extractions.sqlite"
    info = runner.invoke(main, ["cache", "info"])
    assert info.exit_code == 0, info.output
    assert info.stdout == (
        f"{db}: 2 extractions (extractor {fingerprint()})\n"
        f"{tmp_path}: memos of 0 exports directories\n"
        f"{tmp_path / 'stores'}: 1 stored graphs for kg query\n"
    )
    cleared = runner.invoke(main, ["cache", "clear"])
    assert cleared.exit_code == 0, cleared.output
    assert cleared.stdout == (
        f"removed 2 extractions from {db}\nremoved the memos of 0 exports directories\n"
        "removed 1 stored graphs\n"
    )
    assert f"{db}: 0 extractions" in runner.invoke(main, ["cache", "info"]).stdout


def test_a_corrupt_cache_is_one_line_and_exit_2_and_clear_removes_it(runner, tmp_path, monkeypatch):
    db = write(tmp_path / "extractions.sqlite", b"this is not an SQLite database\n" * 100)
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path))
    result = runner.invoke(main, ["cache", "info"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: {db}: cannot open the extraction cache (file is not a database); "
        "`kg cache clear` removes it, or use --no-cache or set KG_CACHE_DIR\n"
    )
    # it said so, and could not: a user had to remove the cache by hand (a review, 2026-12-07)
    cleared = runner.invoke(main, ["cache", "clear"])
    assert cleared.exit_code == 0, cleared.output
    assert cleared.stdout.startswith(f"removed {db}, which could not be read\n")
    assert not db.exists()
    assert runner.invoke(main, ["cache", "info"]).exit_code == 0


def test_damaged_rows_of_the_cache_are_extracted_again(runner, tmp_path, monkeypatch):
    import sqlite3

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    assert runner.invoke(main, ["build", str(SEEDS), "--out", str(out), "-q"]).exit_code == 0
    before = (out / "extractions.jsonl").read_bytes()
    db = sqlite3.connect(tmp_path / "cache" / "extractions.sqlite")
    keys = [k for (k,) in db.execute("SELECT key FROM extraction ORDER BY key LIMIT 3")]
    db.execute("UPDATE extraction SET data = '{garbage' WHERE key = ?", keys[:1])
    db.execute("UPDATE extraction SET data = '[1, 2]' WHERE key = ?", keys[1:2])
    db.execute("UPDATE extraction SET data = '{\"entities\": 5}' WHERE key = ?", keys[2:])
    db.commit()
    db.close()
    result = runner.invoke(main, ["build", str(SEEDS), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Warning: 2 cached extractions could not be read: made again" in result.stderr
    assert (out / "extractions.jsonl").read_bytes() == before


def test_a_cache_directory_that_is_a_file_is_one_line_and_exit_2(runner, tmp_path, monkeypatch):
    blocker = write(tmp_path / "cache", "a file, not a directory")
    monkeypatch.setenv("KG_CACHE_DIR", str(blocker))
    result = runner.invoke(main, ["cache", "info"])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {blocker / 'extractions.sqlite'}: cannot open")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_ctrl_c_says_what_it_left_for_the_command_it_stopped(runner, monkeypatch, tmp_path):
    import kg.builder.pipeline

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(kg.builder.pipeline, "build", interrupted)
    stopped = runner.invoke(main, ["build", str(SEEDS), "--out", str(tmp_path / "out")])
    assert stopped.exit_code == 130 and "previous exports are unchanged" in stopped.stderr
    import kg.query.library

    monkeypatch.setattr(kg.query.library, "prepare_query", interrupted)
    stopped = runner.invoke(main, ["query", "most-used-benchmarks", str(ROOT / "exports")])
    assert stopped.exit_code == 130 and "exports" not in stopped.stderr


def test_build_says_what_it_left_out_and_how_to_get_it(runner, tmp_path):
    out = tmp_path / "lean"
    result = runner.invoke(main, ["build", str(SEEDS), "-o", str(out), "--rdf", "turtle"])
    assert result.exit_code == 0, result.output
    left = [line for line in result.stdout.splitlines() if line.startswith("left out:")]
    assert left == [
        "left out:  kg.nt, kg.jsonld and kg.graphml, the same graph again (--rdf all writes them)"
    ]
    assert "kg.ttl" in result.stdout and not (out / "kg.nt").exists()


@pytest.mark.parametrize(
    ("spec", "reason"), [("graphml", "names no RDF syntax"), ("xml", "unknown xml")]
)
def test_build_refuses_a_bad_rdf_choice(runner, tmp_path, spec, reason):
    result = runner.invoke(main, ["build", str(SEEDS), "-o", str(tmp_path), "--rdf", spec])
    assert result.exit_code == 2 and reason in result.stderr and "--rdf" in result.stderr
    assert not (tmp_path / "index.html").exists()


def test_build_help_names_the_threshold_and_the_choices(runner):
    from kg.builder.pipeline import EVERY_COPY_UP_TO

    text = " ".join(runner.invoke(main, ["build", "--help"]).stdout.split())
    assert f"auto (every one up to {EVERY_COPY_UP_TO:,} triples, kg.ttl alone above)" in text
    assert f"Of a graph over {EVERY_COPY_UP_TO:,} triples" in text
    assert "graphml (kg.graphml)" in text


@pytest.mark.parametrize(
    "command",
    [
        ["query", "most-used-benchmarks"],
        ["query", "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"],
        ["stats"],
        ["validate"],
        ["explain", "MATH-500"],
    ],
    ids=lambda c: c[0],
)
def test_every_reader_works_from_the_lean_exports(runner, built, lean, command):
    """kg.ttl alone (no kg.nt, kg.jsonld or kg.graphml) answers as every copy does."""
    every = runner.invoke(main, [*command, str(built)])
    alone = runner.invoke(main, [*command, str(lean)])
    assert every.exit_code == alone.exit_code == 0, alone.output
    assert alone.stdout.replace(str(lean), "") == every.stdout.replace(str(built), "")


def test_build_with_no_inputs_outside_the_repository_says_what_to_give(
    runner, tmp_path, monkeypatch
):
    """`kg build` from another directory said only "seeds: no such file or directory"."""
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["build", "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "seeds: no such folder, and no INPUTS given" in result.stderr
    assert "kg build papers.jsonl" in result.stderr and not (tmp_path / "out").exists()
