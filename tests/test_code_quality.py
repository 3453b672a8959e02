"""Lint, format and type checks run with the tests, so one command checks everything."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import ROOT


@pytest.mark.parametrize(
    "command",
    [["ruff", "check", "."], ["ruff", "format", "--check", "."], ["mypy"]],
    ids=["ruff", "ruff-format", "mypy"],
)
def test_tool_is_clean(command):
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} not installed (pip install '.[test]')")
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
