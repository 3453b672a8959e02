"""Lint, format and type checks run with the tests, so one command checks everything."""

from __future__ import annotations

import subprocess

import pytest
from conftest import ROOT, need_tool


@pytest.mark.parametrize(
    "command",
    [["ruff", "check", "."], ["ruff", "format", "--check", "."], ["mypy"]],
    ids=["ruff", "ruff-format", "mypy"],
)
def test_tool_is_clean(command):
    need_tool(command[0])  # skips, or fails under KG_REQUIRE_TOOLS=1 (as CI runs)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
