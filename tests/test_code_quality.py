"""Lint, format and type checks run with the tests, so one command checks everything."""

from __future__ import annotations

import subprocess

import conftest
import pytest
from conftest import ROOT, need_module, need_tool


@pytest.mark.parametrize(
    "command",
    [["ruff", "check", "."], ["ruff", "format", "--check", "."], ["mypy"]],
    ids=["ruff", "ruff-format", "mypy"],
)
def test_tool_is_clean(command):
    need_tool(command[0])  # skips, or fails under KG_REQUIRE_TOOLS=1 (as CI runs)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("need", [need_tool, need_module], ids=["tool", "module"])
def test_a_missing_requirement_skips_here_and_fails_under_require_tools(need, monkeypatch):
    monkeypatch.setattr(conftest, "REQUIRE_TOOLS", False)
    with pytest.raises(pytest.skip.Exception, match="not installed"):
        need("kg_no_such_thing")
    monkeypatch.setattr(conftest, "REQUIRE_TOOLS", True)  # as CI runs (.ci/run)
    with pytest.raises(pytest.fail.Exception, match=r"kg_no_such_thing is required \(KG_REQUIRE"):
        need("kg_no_such_thing")
