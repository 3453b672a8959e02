"""`--param NAME=VALUE` names an entity in any spelling: the lookup filters the labels in
SPARQL and gives the entity the scan of every label (folded in Python) gave."""

from __future__ import annotations

import pytest
from conftest import ROOT

from kg.names import fold
from kg.query.library import entity_named
from kg.query.load import load_graph, load_store
from kg.query.sparql import run_query

EXPORTS = ROOT / "exports"
_ALL_LABELS = """SELECT ?e ?label WHERE {
  { ?e skos:prefLabel ?label } UNION { ?e skos:altLabel ?label } }"""


def scanned(store: object, engine: str = "oxigraph") -> dict[str, str]:
    """Every label folded, the first entity in order kept: how kg resolved names before."""
    answer = run_query(_ALL_LABELS, [EXPORTS], engine=engine, store=store)
    labels: dict[str, str] = {}
    for entity, label in sorted(answer.rows, key=lambda r: (str(r[0]), str(r[1]))):
        if entity is not None and label is not None:
            labels.setdefault(fold(label.value), entity.value)
    return labels


def spellings(label: str) -> list[str]:
    """A label as a user might type it: as it is, upper case, spaced, hyphenated, with a
    suffix, with padding, in full-width letters."""
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in label)
    return [label, label.upper(), label.replace("-", " "), f" {label}-", f"{label} dataset", wide]


@pytest.fixture(scope="module")
def store():
    return load_store([EXPORTS])


def test_every_label_in_any_spelling_names_the_entity_the_scan_named(store):
    labels = sorted({label.value for _, label in run_query(_ALL_LABELS, [EXPORTS]).rows if label})
    before = scanned(store)
    assert len(labels) > 100
    unusual = [label for label in labels if not label.isascii() or not label.isalnum()]
    for label in labels[::10] + unusual[:40]:
        for name in spellings(label):
            assert entity_named(name, [EXPORTS], "oxigraph", store) == before.get(fold(name))


def test_a_name_no_entity_has_names_none(store):
    assert entity_named("no such benchmark anywhere", [EXPORTS], "oxigraph", store) is None


def test_the_rdflib_engine_finds_the_same_entity():
    graph = load_graph([EXPORTS])
    before = scanned(graph, "rdflib")
    for name in ("MATH-500", "math500 benchmark", "Qwen", "ＧＲＰＯ"):
        found = entity_named(name, [EXPORTS], "rdflib", graph)
        assert found == before.get(fold(name)) and found is not None


_TRICKY = """@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix e: <https://w3id.org/kg-ml/id/entity/> .
e:strasse skos:prefLabel "STRASSE" .
e:strasse%2B skos:prefLabel "Straße" .
e:fi skos:prefLabel "ﬁ-Net" .
e:tab skos:prefLabel "Tab\\tNet" ; skos:altLabel "Cafe\\u0301 suite"@en .
e:a skos:altLabel "a" .
e:a%20 skos:prefLabel "A." .
"""


@pytest.mark.parametrize("engine", ["oxigraph", "rdflib"])
@pytest.mark.parametrize(
    "name", ["strasse", "Straße", "fi net", "FINET", "tabnet", "Tab Net", "café", "A", "b"]
)
def test_labels_beyond_ascii_fold_as_the_scan_folds_them(tmp_path, engine, name):
    graph = tmp_path / "tricky.ttl"
    graph.write_text(_TRICKY, encoding="utf-8")
    store = load_graph([graph]) if engine == "rdflib" else load_store([graph])
    answer = run_query(_ALL_LABELS, [graph], engine=engine, store=store)
    before: dict[str, str] = {}
    for entity, label in sorted(answer.rows, key=lambda r: (str(r[0]), str(r[1]))):
        assert entity is not None and label is not None
        before.setdefault(fold(label.value), entity.value)
    assert entity_named(name, [graph], engine, store) == before.get(fold(name))


@pytest.mark.parametrize("engine", ["oxigraph", "rdflib"])
@pytest.mark.parametrize("name", ["\udcff", "MATH\udcff500", "caf\udce9"])
def test_a_name_of_bytes_no_text_holds_names_none(store, engine, name):
    """`-p benchmark=$'\\xff'`: the shell's byte, not UTF-8, reaches Python as a lone
    surrogate; no label holds it, and it never reaches the query's text."""
    graph = store if engine == "oxigraph" else load_graph([EXPORTS])
    assert entity_named(name, [EXPORTS], engine, graph) is None
