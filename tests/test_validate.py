from __future__ import annotations

import re
import shutil

from kg.cli import main


def test_exports_conform(built, runner):
    result = runner.invoke(main, ["validate", str(built)])
    assert result.exit_code == 0, result.output
    assert "conforms" in result.stdout


def test_a_corrupted_copy_names_node_and_shape(built, runner, tmp_path):
    copy = tmp_path / "exports"
    shutil.copytree(built, copy)
    ttl = (copy / "kg.ttl").read_text(encoding="utf-8")
    # an entity loses its preferred name, a selector ends before it starts
    ttl = ttl.replace('skos:prefLabel "MATH500" ;', "", 1)
    ttl = ttl.replace('oa:end "388"^^xsd:nonNegativeInteger', 'oa:end "2"^^xsd:nonNegativeInteger')
    (copy / "kg.ttl").write_text(ttl, encoding="utf-8")
    result = runner.invoke(main, ["validate", str(copy)])
    assert result.exit_code == 1
    assert "entity:math500 skos:prefLabel" in result.stdout
    assert "(shape kgs:EntityShape)" in result.stdout
    assert "oa:start" in result.stdout and "kgs:SelectorShape" in result.stdout
    assert "2 violations" in result.stderr


def test_missing_export_is_exit_2(runner, tmp_path):
    result = runner.invoke(main, ["validate", str(tmp_path)])
    assert result.exit_code == 2 and "run `kg build` first" in result.stderr


def test_broken_turtle_gives_the_whole_reason_with_line_and_column(runner, tmp_path):
    broken = tmp_path / "kg.ttl"
    broken.write_text('@prefix x: <http://x/> .\nx:a x:b "unterminated .\nx:c x:d x:e .\n')
    result = runner.invoke(main, ["validate", str(broken)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: {broken}: not valid RDF: line 2, column 24: newline found in string literal "
        "(in 'x:a x:b \"unterminated .')\n"
    )
    unbound = tmp_path / "unbound.ttl"
    unbound.write_text("@prefix x: <http://x/> .\n\n   x:a x:b nope:c .\n")
    result = runner.invoke(main, ["validate", str(unbound)])
    assert result.exit_code == 2
    assert 'line 3, column 12: Prefix "nope:" not bound' in result.stderr


def _shacl_alone(path) -> tuple[bool, str]:
    """pySHACL with the shipped shapes alone: no ontology merged, no inference."""
    from pyshacl import validate as shacl_validate
    from rdflib import Graph

    from kg.resources import ontology_dir

    shapes = Graph().parse(ontology_dir() / "shapes.ttl")
    conforms, _, text = shacl_validate(Graph().parse(path), shacl_graph=shapes, inference="none")
    return bool(conforms), str(text)


def test_the_shapes_alone_validate_the_exports_as_shipped(built):
    conforms, text = _shacl_alone(built / "kg.ttl")
    assert conforms, text[:2000]


def test_the_shapes_alone_catch_a_broken_copy(built, tmp_path):
    ttl = (built / "kg.ttl").read_text(encoding="utf-8")
    no_label = ttl.replace('skos:prefLabel "MATH500" ;', "", 1)
    assert no_label != ttl
    (tmp_path / "label.ttl").write_text(no_label, encoding="utf-8")
    conforms, text = _shacl_alone(tmp_path / "label.ttl")
    assert not conforms and "skos:prefLabel" in text and "entity:math500" in text
    no_value, n = re.subn(r" ;\n\s*kg:value [0-9.]+ \.", " .", ttl, count=1)
    assert n == 1
    (tmp_path / "value.ttl").write_text(no_value, encoding="utf-8")
    conforms, text = _shacl_alone(tmp_path / "value.ttl")
    assert not conforms and "kg:value" in text and "MinCountConstraintComponent" in text


def test_an_entity_typed_only_by_its_subclass_is_caught(built, tmp_path):
    ttl = (built / "kg.ttl").read_text(encoding="utf-8")
    typed = "entity:math500 a kg:Benchmark , kg:Entity ;"
    untyped = ttl.replace(typed, "entity:math500 a kg:Benchmark ;")
    assert untyped != ttl
    (tmp_path / "untyped.ttl").write_text(untyped, encoding="utf-8")
    conforms, text = _shacl_alone(tmp_path / "untyped.ttl")
    assert not conforms and "entity:math500" in text


def test_an_empty_or_foreign_graph_does_not_conform(runner, built, tmp_path):
    """An emptied kg.ttl "conformed": no node to check (an adversarial review, 2026-12-07)."""
    from kg.cli import main

    for name, content in (("empty", ""), ("foreign", "<http://e/s> <http://e/p> <http://e/o> .\n")):
        copy = tmp_path / name
        shutil.copytree(built, copy)
        (copy / "kg.ttl").write_text(content, encoding="utf-8")
        result = runner.invoke(main, ["validate", str(copy)])
        assert result.exit_code == 2, result.output
        assert "holds no kg:Paper" in result.stderr and "not a graph kg wrote" in result.stderr


def test_stats_of_a_graphml_file_another_tool_wrote_is_one_line(runner, built, tmp_path):
    import networkx as nx

    from kg.cli import main

    copy = tmp_path / "exports"
    shutil.copytree(built, copy)
    graph = nx.MultiDiGraph()
    graph.add_node("a", kind="entity")
    graph.add_edge("a", "b")
    nx.write_graphml(graph, copy / "kg.graphml")
    result = runner.invoke(main, ["stats", str(copy)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "kg.graphml: not a GraphML file kg wrote (no 'type'" in result.stderr
