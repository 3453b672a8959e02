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
