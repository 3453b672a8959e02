"""The README's examples are what a fresh clone prints: every `$ kg …` of its console blocks
that reads the committed exports/ or tests/data, and the summary of `kg build`."""

from __future__ import annotations

import re
import shlex

import pytest
from conftest import ROOT

from kg.cli import main

README = (ROOT / "README.md").read_text(encoding="utf-8")
#: commands that need what a clone does not hold (../shared) or a server
_ELSEWHERE = ("../shared", "kg serve", "kg push", "/tmp/")


def _examples() -> list[tuple[str, list[str]]]:
    out = []
    for block in re.findall(r"```console\n(.*?)```", README, re.DOTALL):
        for chunk in re.split(r"^(?=\$ )", block, flags=re.MULTILINE):
            if chunk.startswith("$ kg ") and not any(x in chunk for x in _ELSEWHERE):
                command, *lines = chunk.rstrip("\n").split("\n")
                out.append((command[2:], lines))
    return out


EXAMPLES = _examples()


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_a_readme_example_prints_what_it_shows(command, expected, runner, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path))
    command, _, pipe = command.partition(" | ")
    result = runner.invoke(main, shlex.split(command)[1:])
    assert result.exit_code == 0, result.output
    lines = result.stdout.rstrip("\n").split("\n")
    if pipe:
        assert pipe.startswith("head -")
        lines = lines[: int(pipe[len("head -") :])]
    if expected and expected[-1] == "...":  # the first lines only
        expected = expected[:-1]
        lines = lines[: len(expected)]
    assert lines == expected


def test_the_readme_shows_the_summary_of_building_the_seeds(runner, tmp_path, monkeypatch):
    shown = re.search(r"`kg build` prints what it built:\n\n```\n(.*?)```", README, re.DOTALL)
    assert shown is not None
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "exports"
    result = runner.invoke(main, ["build", str(ROOT / "seeds"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.replace(f"{out}/", "exports/") == shown.group(1)


def _drawn_tree() -> set[str]:
    """The paths under kg/ that the tree of "How it works" names ("builder/pipeline.py")."""
    section = README.split("## How it works\n", 1)[1]
    tree = section.split("```", 2)[1].split("\nkg/\n", 1)[1]
    named: set[str] = set()
    folder = ""
    for line in tree.splitlines():
        words = re.findall(r"[\w.]+/|\w+\.py", re.sub(r"\([^)]*\)", "", line))
        if line[:1] in "├└" and words:  # a folder followed by its modules, or not
            opens = words[0].endswith("/") and len(words) > 1 and words[1].endswith(".py")
            folder = words.pop(0) if opens else ""
        named.update(folder + word for word in words)
    return named


def test_the_readme_draws_the_tree_kg_has():
    named = _drawn_tree()
    kg = ROOT / "kg"
    assert {"builder/pipeline.py", "export/outputs.py", "query/sparql.py", "rdf/"} <= named
    assert not [name for name in named if not (kg / name).exists()]  # nothing it lacks
    modules = {
        path.relative_to(kg).as_posix()
        for folder in ("", "builder/", "export/", "query/", "serve/", "evaluate/")
        for path in (kg / folder).glob("*.py")
        if path.name not in ("__init__.py", "__main__.py")
    }
    assert modules - named == set()  # every module of the top level and of the build,
    # export, query, serve and evaluate folders is drawn (the stages' folders by name)
