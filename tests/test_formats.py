"""Every input format kg reads, and the metadata it carries into the graph."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import write
from rdflib import Graph, Literal, URIRef

from kg.builder.pipeline import build
from kg.cli import main
from kg.errors import InputError
from kg.ingest import FORMATS, SUFFIXES, detect_format, read_file, read_inputs
from kg.ingest.formats import BY_NAME, BY_SUFFIX, REGISTRY
from kg.namespaces import PAPER, PREFIXES

A1 = "We propose FooNet, a framework that outperforms GRPO on MATH500."
A2 = "We introduce BarBench, a benchmark for video reasoning with Qwen3."

FILES = {
    "papers.jsonl": "\n".join(
        json.dumps(r)
        for r in [
            {
                "id": "x:1",
                "title": "FooNet",
                "abstract": A1,
                "authors": ["Ada L.", "Alan T."],
                "year": 2024,
                "venue": "ICML",
                "arxiv_id": "2401.01234v2",
            },
            {
                "id": "x:2",
                "title": "BarBench",
                "abstract": A2,
                "doi": "10.1234/bar.5",
                "url": "https://example.org/bar",
            },
        ]
    ),
    "papers.json": json.dumps(
        [
            {"title": "FooNet", "abstract": A1, "authors": "Ada L. and Alan T."},
            {"title": "BarBench", "abstract": A2},
        ]
    ),
    "papers.csv": f'title,abstract,year\nFooNet,"{A1}",2024\nBarBench,"{A2}",2025\n',
    "papers.tsv": f"title\tabstract\nFooNet\t{A1}\nBarBench\t{A2}\n",
    "papers.bib": (
        "@inproceedings{foo24,\n  title = {FooNet},\n  author = {Ada L. and Alan T.},\n"
        f"  year = {{2024}},\n  abstract = {{{A1}}}\n}}\n\n"
        f"@article{{bar25,\n  title = {{BarBench}},\n  abstract = {{{A2}}},\n"
        "  doi = {10.1234/bar.5}\n}\n"
    ),
    "papers.txt": (
        "We propose FooNet, a framework that outperforms\nGRPO on MATH500.\n\n"
        "We introduce BarBench, a benchmark for video\nreasoning with Qwen3.\n"
    ),
}


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_format_reads_two_papers_with_titles(tmp_path, name):
    path = write(tmp_path / name, FILES[name])
    papers = read_file(path)
    assert [p.text for p in papers] == [A1, A2]
    if name != "papers.txt":
        assert [p.title for p in papers] == ["FooNet", "BarBench"]


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_format_builds_a_graph(tmp_path, name, runner):
    path = write(tmp_path / name, FILES[name])
    result = runner.invoke(
        main, ["build", str(path), "-o", str(tmp_path / "out"), "--views", "none"]
    )
    assert result.exit_code == 0, result.output
    assert "papers:    2" in result.stdout
    records = [json.loads(line) for line in (tmp_path / "out" / "extractions.jsonl").open()]
    names = {e["name"] for r in records for e in r["entities"]}
    assert {"FooNet", "BarBench", "GRPO", "MATH500", "Qwen3"} <= names


def test_format_is_detected_or_forced(tmp_path):
    assert detect_format(tmp_path / "a.jsonl", "") == "jsonl"
    assert detect_format(tmp_path / "a.txt", '[{"abstract": "x"}]') == "json"
    assert detect_format(tmp_path / "a.txt", "@article{k,\n abstract={x}}") == "bibtex"
    assert detect_format(tmp_path / "a.txt", "Heading\n\nOne abstract.\nTwo abstract.\n") == (
        "lines"
    )
    path = write(tmp_path / "data.txt", FILES["papers.jsonl"])
    assert len(read_file(path, "jsonl")) == 2


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ('  {"abstract": "x"}', "jsonl"),
        ('\n[{"abstract": "x"}]', "json"),
        ("@article{k,\n abstract={x}}", "bibtex"),
        ("@ no brace.\nMore.", "lines"),
        ("One\nabstract.\n\nAnother\nabstract.\n", "paragraphs"),
        ("", "lines"),
    ],
)
def test_content_says_the_format_when_the_extension_does_not(tmp_path, text, fmt):
    assert detect_format(tmp_path / "a.txt", text) == fmt


def test_every_format_is_declared_once_and_the_cli_offers_it(runner):
    assert FORMATS == tuple(f.name for f in REGISTRY) == tuple(BY_NAME)
    assert SUFFIXES == (".txt", ".md", ".jsonl", ".ndjson", ".json", ".csv", ".tsv", ".tab", ".bib")
    for suffix, fmt in BY_SUFFIX.items():
        assert detect_format(Path("x" + suffix.upper()), "One abstract.") == fmt.name
    for command in ("build", "extract"):
        help_text = runner.invoke(main, [command, "--help"]).stdout
        assert "--format [lines|paragraphs|jsonl|json|csv|tsv|bibtex]" in help_text


def test_an_unknown_forced_format_names_the_known_ones(tmp_path):
    path = write(tmp_path / "a.txt", "One abstract.")
    with pytest.raises(InputError, match="unknown format 'xml': use one of lines, paragraphs"):
        read_file(path, "xml")


def test_metadata_goes_into_the_graph(tmp_path):
    path = write(tmp_path / "papers.jsonl", FILES["papers.jsonl"])
    build([path], tmp_path / "out", views="none")
    graph = Graph().parse(tmp_path / "out" / "kg.ttl")
    dcterms, schema = PREFIXES["dcterms"], PREFIXES["schema"]
    foo = next(
        s
        for s, _, o in graph.triples((None, URIRef(dcterms + "title"), None))
        if str(o) == "FooNet"
    )
    # an author is a name: DCMI's dc:creator (dcterms:creator's range is an agent)
    assert set(graph.objects(foo, URIRef(PREFIXES["dc"] + "creator"))) == {
        Literal("Ada L."),
        Literal("Alan T."),
    }
    assert not set(graph.objects(foo, URIRef(dcterms + "creator")))
    assert URIRef("https://arxiv.org/abs/2401.01234") in set(
        graph.objects(foo, URIRef(schema + "sameAs"))
    )
    assert str(graph.value(foo, URIRef(dcterms + "date"))) == "2024"
    bar = next(
        s
        for s, _, o in graph.triples((None, URIRef(dcterms + "title"), None))
        if str(o) == "BarBench"
    )
    assert URIRef("https://doi.org/10.1234/bar.5") in set(
        graph.objects(bar, URIRef(schema + "sameAs"))
    )
    assert graph.value(bar, URIRef(schema + "url")) == URIRef("https://example.org/bar")
    assert str(foo).startswith(str(PAPER))


def test_the_same_paper_twice_is_one_paper(tmp_path):
    first = write(tmp_path / "a.jsonl", json.dumps({"id": "p1", "abstract": A1}))
    same_id = write(tmp_path / "b.jsonl", json.dumps({"id": "p1", "abstract": A1 + " More."}))
    same_text = write(tmp_path / "c.csv", f'abstract\n"{A1}"\n')
    assert len(read_inputs([first, same_id, same_text])) == 1
