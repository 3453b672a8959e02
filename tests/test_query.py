"""The query library: every bundled query on both engines, answers checked against the text."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import MATH500_PAPERS, PAPERS_PER_SEED_FILE, SEED_FILES, write

from kg.cli import main
from kg.errors import InputError, QueryError
from kg.names import fold
from kg.query.library import bundled_queries, find_query, prepare_query, resolve
from kg.query.load import load_graph, load_store
from kg.query.sparql import run_query

QUERIES = [q.name for q in bundled_queries()]


@pytest.fixture(scope="module")
def engines(built):
    return {"oxigraph": load_store([built]), "rdflib": load_graph([built])}


@pytest.fixture(scope="module")
def records(built):
    return [json.loads(line) for line in (built / "extractions.jsonl").open()]


def answer(name, built, engines, engine="oxigraph", **params):
    assert find_query(name) is not None
    text, values = prepare_query(name, [f"{k}={v}" for k, v in params.items()])
    store = engines[engine]
    bindings = resolve(values, [built], engine, store)
    return run_query(text, [built], engine=engine, bindings=bindings, store=store)


def test_the_library_is_complete_and_documented():
    assert len(QUERIES) >= 10
    for q in bundled_queries():
        assert q.description and q.description[0].isupper(), q.name
        for p in q.params:
            assert f"?{p.name}" in q.text, (q.name, p.name)


def required(name, records) -> dict[str, str]:
    """Values for required parameters: the two seed papers that evaluate on MATH500."""
    query = find_query(name)
    assert query is not None
    pair = sorted(r["paper"] for r in records if "MATH500" in r["text"].replace("-", ""))
    picks = {"paper": pair[0], "other": pair[1]}
    return {p.name: picks[p.name] for p in query.params if p.required}


@pytest.mark.parametrize("name", QUERIES)
def test_both_engines_give_the_same_answer(built, engines, records, name):
    ox = answer(name, built, engines, "oxigraph", **required(name, records))
    rd = answer(name, built, engines, "rdflib", **required(name, records))
    assert ox.columns == rd.columns
    assert sorted(ox.rows, key=repr) == sorted(rd.rows, key=repr)
    assert ox.rows, f"{name} answers nothing on the seeds"


def mentions(record, name):
    return fold(name) in fold(record["text"])


def test_papers_on_math500_are_those_whose_abstracts_say_so(built, engines, records):
    rows = answer("papers-on-benchmark", built, engines, benchmark="MATH-500").rows
    found = {r[0].value.rsplit("/", 1)[1] for r in rows}
    evaluated = {
        r["paper"]
        for r in records
        if mentions(r, "MATH500")
        and any(
            x["relation"] == "evaluated_on" and fold(x["tail"]) == "math500" for x in r["relations"]
        )
    }
    assert found == evaluated == {r["paper"] for r in records if mentions(r, "MATH500")}
    assert all("MATH" in r[2].value for r in rows)


def test_most_used_benchmarks_count_papers(built, engines, records):
    rows = answer("most-used-benchmarks", built, engines).rows
    counts = {r[0].value: int(r[1].value) for r in rows}
    assert counts["MATH500"] == sum(mentions(r, "MATH500") for r in records)
    assert list(counts.values()) == sorted(counts.values(), reverse=True)


def test_most_used_models_count_families(built, engines, records):
    counts = {r[0].value: int(r[1].value) for r in answer("most-used-models", built, engines).rows}
    using_qwen = {
        r["paper"]
        for r in records
        if any(x["relation"] == "uses" and x["tail"].startswith("Qwen") for x in r["relations"])
    }
    assert counts["Qwen"] == len(using_qwen) >= 4


def test_leaderboard_and_beats(built, engines, records):
    rows = answer("leaderboard", built, engines).rows
    assert [(r[0].value, r[1].value) for r in rows] == [("Adaptive Sequential Monte Carlo", "80.6")]
    beaten = answer("beats", built, engines, method="CFT").rows
    # "CGD (Critique-Guided Distillation)": the long form names the entity, CGD is its alias
    assert [r[0].value for r in beaten] == ["Critique-Guided Distillation"]
    assert "outperforms CFT" in beaten[0][2].value


def test_shared_entities_are_in_both_abstracts(built, engines, records):
    from kg.query.explain import explain

    rows = answer("shared-entities", built, engines, **required("shared-entities", records)).rows
    assert [r[2].value for r in rows] == ["MATH500"]
    for paper, other, name, _ in rows:
        key = explain(name.value, built).key
        for p in (paper, other):
            record = next(r for r in records if r["paper"] == p.value.rsplit("/", 1)[1])
            assert key in {e["entity"] for e in record["entities"]}, (p, name)


def test_evidence_and_contributions(built, engines, records):
    rows = answer("evidence", built, engines, subject="ASMC", object="MATH500").rows
    assert len(rows) == 1 and "ASMC" in rows[0][4].value and "MATH500" in rows[0][4].value
    paper = next(r["paper"] for r in records if r["text"].startswith("Verbal logic"))
    rows = answer("paper-contributions", built, engines, paper=paper).rows
    proposed = {r[3].value for r in rows if r[1].value == "proposes"}
    assert proposed == {"ReaForest", "ReaGen-27k", "Reflective Entropy-Aware Test-Time Scaling"}


def test_cli_list_and_params(runner, built):
    listed = runner.invoke(main, ["query", "--list"])
    assert listed.exit_code == 0
    assert len(listed.stdout.splitlines()) == len(QUERIES)
    assert "papers-on-benchmark" in listed.stdout and "[benchmark=MATH500]" in listed.stdout
    result = runner.invoke(
        main, ["query", "leaderboard", str(built), "-p", "benchmark=MATH-500", "-f", "csv"]
    )
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1].startswith("Adaptive Sequential Monte Carlo,80.6,%")
    rdflib = runner.invoke(
        main, ["query", "leaderboard", str(built), "--engine", "rdflib", "-f", "csv"]
    )
    assert rdflib.stdout == result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["leaderboard", "-p", "benchmark=NoSuchBench"], "no entity has that name"),
        (["leaderboard", "-p", "nosuch=entity:x"], "the query has no variable ?nosuch"),
        (["leaderboard", "-p", "benchmark"], "write NAME=VALUE"),
        ([], "give a QUERY"),
        (["shared-entities"], "shared-entities needs --param paper=... --param other=..."),
        (
            ["papers-on-benchmrk"],
            "no bundled query is called 'papers-on-benchmrk'; did you mean papers-on-benchmark?",
        ),
        (["nothing-like-any"], "no bundled query is called 'nothing-like-any' (`kg query --list`"),
    ],
)
def test_cli_param_errors(runner, built, args, message):
    result = runner.invoke(main, ["query", *args[:1], str(built), *args[1:]] if args else ["query"])
    assert result.exit_code == 2, result.output
    assert message in result.stderr


def test_construct_prints_turtle(runner, built):
    q = "CONSTRUCT { ?e skos:prefLabel ?l } WHERE { ?e a kg:Benchmark ; skos:prefLabel ?l }"
    result = runner.invoke(main, ["query", q, str(built), "-f", "turtle"])
    assert result.exit_code == 0
    assert 'entity:math500 skos:prefLabel "MATH500"' in result.stdout


def test_user_query_file_with_param(runner, built, tmp_path):
    rq = write(
        tmp_path / "mine.rq", "SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper ; kg:mentions ?e }"
    )
    result = runner.invoke(main, ["query", str(rq), str(built), "-p", "e=MATH500", "-f", "csv"])
    assert result.exit_code == 0 and result.stdout == f"n\n{MATH500_PAPERS}\n"


def test_counter_sanity(records):
    assert Counter(r["source"] for r in records) == {
        path.name: PAPERS_PER_SEED_FILE for path in SEED_FILES
    }


def test_a_query_file_declares_its_own_defaults(runner, built, tmp_path):
    rq = write(
        tmp_path / "mine.rq",
        "# Papers on a benchmark.\n# param b = MATH-500: the benchmark\n"
        "SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a kg:Paper ; kg:evaluatedOn ?b }",
    )
    result = runner.invoke(main, ["query", str(rq), str(built), "-f", "csv"])
    assert result.exit_code == 0 and result.stdout == f"n\n{MATH500_PAPERS}\n"


HEAVY = "SELECT (COUNT(*) AS ?n) { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


@pytest.mark.parametrize("engine", ["oxigraph", "rdflib"])
def test_a_query_past_its_timeout_is_stopped(runner, built, engine):
    import time

    import psutil

    before = set(psutil.Process().children())
    start = time.monotonic()
    result = runner.invoke(main, ["query", HEAVY, str(built), "--engine", engine, "--timeout", "1"])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        "Error: the query ran past the 1 s timeout (give more with --timeout)\n"
    )
    assert time.monotonic() - start < 30
    assert set(psutil.Process().children()) <= before  # nothing left computing


def test_queries_have_a_timeout_by_default(runner):
    result = runner.invoke(main, ["query", "--help"])
    assert "--timeout" in result.stdout and "[default: 30" in result.stdout


def test_broken_turtle_is_named_with_its_line_and_whole_reason(tmp_path):
    from kg.errors import InputError
    from kg.query.load import parse_graph

    bad = tmp_path / "bad.ttl"
    bad.write_text('@prefix ex: <http://e/> .\nex:a ex:b ex:c .\nex:a ex:b "open .\n', "utf-8")
    with pytest.raises(InputError) as caught:
        parse_graph(bad)
    message = str(caught.value)
    assert "bad.ttl" in message and "line 3, column" in message, message
    assert "newline found in string literal" in message  # the reason, not "at line 3 of <>:"


def test_prepare_query_takes_defaults_then_params_and_checks_required(tmp_path):
    text, values = prepare_query("leaderboard")
    assert text == find_query("leaderboard").text and values == {"benchmark": "MATH500"}
    assert prepare_query("leaderboard", ["benchmark=AIME"])[1] == {"benchmark": "AIME"}
    rq = write(tmp_path / "mine.rq", "# Mine.\n# param b = X: a thing\nSELECT ?b {}")
    assert prepare_query(str(rq), ["c=Y"]) == (rq.read_text(), {"b": "X", "c": "Y"})
    assert prepare_query("SELECT * {}", ["e=Z"]) == ("SELECT * {}", {"e": "Z"})
    with pytest.raises(QueryError, match=r"^shared-entities needs --param other=...$"):
        prepare_query("shared-entities", ["paper=abc"])
    with pytest.raises(InputError, match="no such query file"):
        prepare_query(str(tmp_path / "none.rq"))


@pytest.mark.parametrize(
    "value",
    ["https://w3id.org/kg-ml/id/entity/math500", "<https://w3id.org/kg-ml/id/entity/math500>"],
)
def test_a_param_takes_a_bare_iri_as_its_help_says(runner, built, value):
    named = runner.invoke(main, ["query", "papers-on-benchmark", str(built), "-f", "csv"])
    result = runner.invoke(
        main, ["query", "papers-on-benchmark", str(built), "-p", f"benchmark={value}", "-f", "csv"]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == named.stdout and len(result.stdout.splitlines()) > 1


# What an adversarial review of `kg query` found (2026-12-07): each case gave a traceback,
# ran what the user did not write, or read outside the exports.

#: a property path of 10,000 steps: Oxigraph overflows its stack and aborts its process
DEEP = "SELECT ?x WHERE { ?x " + "/".join(["<p:a>"] * 10_000) + " ?o }"


def test_a_query_that_crashes_the_engine_is_one_line(runner, built):
    result = runner.invoke(main, ["query", DEEP, str(built)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        "Error: the oxigraph engine stopped on this query (out of memory, or nested too "
        "deeply?): simplify it\n"
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("nan", "'nan' is not a number of seconds"),
        ("inf", "is not in the range 0<=x<=604800"),
        ("1e7", "is not in the range 0<=x<=604800"),
        ("-1", "is not in the range 0<=x<=604800"),
    ],
)
def test_a_timeout_is_a_number_of_seconds_up_to_a_week(runner, built, value, message):
    result = runner.invoke(main, ["query", "ASK {}", str(built), "--timeout", value])
    assert result.exit_code == 2 and message in result.stderr, result.output


@pytest.mark.parametrize(
    ("value", "message"),
    [
        # it closed the VALUES block and opened another: two entities bound, none real
        (
            "<https://w3id.org/kg-ml/id/entity/none>) (<https://w3id.org/kg-ml/id/entity/math500>",
            ": not an IRI",
        ),
        ("<not an iri>", ": not an IRI"),
        ("<>", ": not an IRI"),
        ("entity:math500>)(<x:y", "not a name of the prefix entity:"),
    ],
)
def test_a_param_is_bound_only_as_an_iri(runner, built, value, message):
    result = runner.invoke(main, ["query", "leaderboard", str(built), "-p", f"benchmark={value}"])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and "Traceback" not in result.output


def test_an_iri_that_would_end_early_is_never_bound():
    from kg.query.sparql import Term, bind_values

    with pytest.raises(QueryError, match="is not an IRI"):
        bind_values("SELECT ?b WHERE { ?p ?q ?b }", {"b": Term("uri", "x:a> } #")})


def test_a_param_given_twice_is_refused(runner, built):
    args = ["query", "leaderboard", str(built), "-p", "benchmark=MATH500", "-p", "benchmark=GSM8K"]
    result = runner.invoke(main, args)
    assert result.exit_code == 2
    assert "--param benchmark is given twice" in result.stderr


def test_a_query_file_that_is_not_utf8_is_named(runner, built, tmp_path):
    rq = tmp_path / "latin.rq"
    rq.write_bytes(b"\xff\xfeSELECT * { ?s ?p ?o }")
    result = runner.invoke(main, ["query", str(rq), str(built)])
    assert result.exit_code == 2
    assert result.stderr == f"Error: {rq}: not UTF-8 text (byte 0)\n"


def test_the_rdflib_engine_fetches_no_graph_a_query_names(runner, built, tmp_path):
    outside = write(tmp_path / "outside.nt", '<http://ex.org/s> <http://ex.org/p> "outside" .\n')
    for clause in (f"FROM <{outside.as_uri()}>", f"FROM NAMED <{outside.as_uri()}>"):
        q = f"SELECT ?o {clause} WHERE {{ ?s ?p ?o }}"
        result = runner.invoke(main, ["query", q, str(built), "--engine", "rdflib"])
        assert result.exit_code == 2 and "outside" not in result.stdout
        assert "FROM and FROM NAMED are not read by the rdflib engine" in result.stderr
        # Oxigraph takes them as graphs of the exports: none is called so
        result = runner.invoke(main, ["query", q, str(built), "-f", "csv"])
        assert result.exit_code == 0 and result.stdout == "o\n"


def test_the_rdflib_engine_answers_in_one_order(built):
    import os
    import subprocess
    import sys

    # rdflib's order follows set iteration, which string hashing changes from run to run
    # (which rows a LIMIT without ORDER BY keeps still varies: SPARQL leaves it open)
    q = "SELECT * WHERE { ?s ?p ?o }"
    outputs = set()
    for seed in ("1", "2", "3"):
        done = subprocess.run(
            [sys.executable, "-m", "kg", "query", q, str(built), "--engine", "rdflib", "-f", "csv"],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1 and len(outputs.pop().splitlines()) > 50


def test_a_graph_is_printed_as_turtle_only(runner, built):
    q = "CONSTRUCT { ?e a kg:Benchmark } WHERE { ?e a kg:Benchmark }"
    for fmt in ("json", "csv", "tsv"):
        result = runner.invoke(main, ["query", q, str(built), "-f", fmt])
        assert result.exit_code == 2
        assert f"CONSTRUCT and DESCRIBE answer a graph: --format turtle, not {fmt}" in result.stderr


def test_stats_lists_no_negative_number_of_entities(runner, built):
    result = runner.invoke(main, ["stats", str(built), "--top", "-1"])
    assert result.exit_code == 2 and "--top" in result.stderr


@pytest.mark.parametrize(
    "q",
    [
        "SELECT * WHERE { ?zz ?p ?aa } LIMIT 5",
        "SELECT DISTINCT * WHERE { ?e a kg:Benchmark ; skos:prefLabel ?label }",
        # an explicit list keeps its order, whatever a comment says
        "# unlike SELECT *\nSELECT ?l ?s WHERE { ?s a kg:Benchmark ; skos:prefLabel ?l }",
    ],
)
def test_both_engines_give_the_same_columns(built, engines, q):
    from kg.query.sparql import run_query

    columns = {e: run_query(q, [built], engine=e, store=engines[e]).columns for e in engines}
    assert columns["rdflib"] == columns["oxigraph"], columns


@pytest.mark.parametrize(
    "q",
    [
        # no ORDER BY of the query itself: an ORDER BY in a subquery, the word in a literal
        'SELECT ?s ?o WHERE { ?s skos:prefLabel ?o FILTER(STR(?o) != "OrderBy") }',
        "SELECT ?s WHERE { { SELECT ?s WHERE { ?s a kg:Paper } ORDER BY ?s LIMIT 40 } }",
    ],
)
def test_rdflib_rows_are_sorted_unless_the_query_orders_them(q):
    from kg.query.sparql import check_query

    assert check_query(q).ordered is False
    assert check_query(q + " ORDER BY ?s").ordered is True


def test_a_default_the_graph_lacks_says_to_give_a_value(runner, tmp_path):
    """The defaults --list shows (benchmark=MATH500, method=CFT, family=Qwen) name entities
    of the seeds' graph: on another graph `kg query leaderboard` said "--param
    benchmark=MATH500: no entity has that name" of a --param the user never gave (a
    newcomer's review, 2026-12-07)."""
    from kg.builder.pipeline import build

    path = tmp_path / "mine.jsonl"
    path.write_text(
        json.dumps({"abstract": "We propose FooNet, evaluated on ImageNet and CIFAR-10."}) + "\n"
    )
    build([path], tmp_path / "out", views="none", cache=False)
    result = runner.invoke(main, ["query", "leaderboard", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "benchmark=MATH500, the query's default, names no entity" in result.stderr
    assert "give one with --param benchmark=NAME" in result.stderr
    given = runner.invoke(
        main, ["query", "leaderboard", str(tmp_path / "out"), "-p", "benchmark=X"]
    )
    assert given.exit_code == 2 and "--param benchmark=X: no entity has that name" in given.stderr
    ok = runner.invoke(
        main, ["query", "leaderboard", str(tmp_path / "out"), "-p", "benchmark=ImageNet"]
    )
    assert ok.exit_code == 0, ok.output


def test_a_table_says_when_it_cut_a_cell_and_how_to_see_it_whole():
    from kg.query.answers import format_answer
    from kg.query.sparql import Answer, Term

    def table(value: str) -> str:
        return format_answer(Answer(("x",), ((Term("literal", value),),)), "table")

    assert table("short").endswith("(1 row)\n")
    cut = table("word " * 30)
    assert "…" in cut and cut.endswith(
        "(1 row; cells cut at 80 characters: -f tsv or -f json prints them whole)\n"
    )


def test_the_papers_a_query_lists_have_their_titles_or_openings(runner, tmp_path):
    """Answers named papers by a hash alone, titles or not (a newcomer's review); the
    opening's "…" only where the abstract was cut (a review of that)."""
    import csv
    import io

    from kg.builder.pipeline import build

    path = tmp_path / "mine.jsonl"
    records = [
        {"title": "FooNet at Scale", "abstract": "We propose FooNet, evaluated on ImageNet."},
        {"abstract": "We propose BazNet, a vision model that outperforms ResNet-50 on ImageNet."},
        {"abstract": "We propose BarNet, tested on ImageNet."},  # 38 characters: whole
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    build([path], tmp_path / "out", views="none", cache=False)
    args = ["query", "papers-on-benchmark", str(tmp_path / "out"), "-p", "benchmark=ImageNet"]
    answers = []
    for engine in ("oxigraph", "rdflib"):
        result = runner.invoke(main, [*args, "-f", "csv", "--engine", engine])
        assert result.exit_code == 0, result.output
        answers.append(result.stdout)
        titles = {row["title"] for row in csv.DictReader(io.StringIO(result.stdout))}
        assert "FooNet at Scale" in titles
        assert "We propose BazNet, a vision model that o…" in titles
        assert "We propose BarNet, tested on ImageNet." in titles  # not cut: no "…"
    assert answers[0] == answers[1]
