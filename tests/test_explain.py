from __future__ import annotations

from kg.cli import main
from kg.query.explain import explain


def test_explain_any_spelling(built):
    e = explain("math-500", built)
    assert (e.key, e.name, e.type) == ("math500", "MATH500", "Benchmark")
    assert "MATH-500" in e.aliases
    assert any("fold alike" in m for m in e.merges)
    assert {o.text for o in e.occurrences} == {"MATH500", "MATH-500"}
    assert all(o.text in o.sentence for o in e.occurrences)


def test_explain_acronym_and_family(built):
    e = explain("ReaTTS", built)
    assert e.name == "Reflective Entropy-Aware Test-Time Scaling"
    assert any("alias" in m for m in e.merges)
    assert explain("Qwen3-4B-Base", built).family == ("Qwen3", "Qwen")


def test_cli_explain(built, runner):
    result = runner.invoke(main, ["explain", "AIME’24", str(built)])
    assert result.exit_code == 0
    assert result.stdout.startswith("AIME 2024  (Benchmark, entity:aime2024)")
    assert "type votes:" in result.stdout and "mentions:" in result.stdout
    missing = runner.invoke(main, ["explain", "NoSuchThing", str(built)])
    assert missing.exit_code == 2 and "no entity of that name" in missing.stderr


def test_explain_a_family_lists_its_variants(built, runner):
    e = explain("qwen", built)
    assert "Qwen3" in e.variants and "Qwen3-4B-Base" in e.variants  # every level below
    assert list(e.variants) == sorted(e.variants) and e.name not in e.variants
    assert "Qwen" not in explain("Qwen3", built).variants
    assert explain("Qwen3-4B-Base", built).variants == ()
    result = runner.invoke(main, ["explain", "qwen", str(built)])
    assert result.exit_code == 0
    assert f"variants:     {len(e.variants)}: " in result.stdout
    assert "Qwen3-4B-Base" in result.stdout
