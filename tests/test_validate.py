from __future__ import annotations

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
