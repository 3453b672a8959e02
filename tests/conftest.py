"""Shared fixtures: the seed files, one build of them, and a CLI runner."""

from __future__ import annotations

import atexit
import importlib
import logging
import os
import shutil
import signal
import tempfile
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from kg.builder.pipeline import build
from kg.extract import make_nlp

# the extraction cache of the test session lives in a temporary directory of its own
# (removed when the session ends: one left behind per run filled /tmp)
_TEST_CACHE = tempfile.mkdtemp(prefix="kg-test-cache-")
os.environ["KG_CACHE_DIR"] = _TEST_CACHE
atexit.register(shutil.rmtree, _TEST_CACHE, ignore_errors=True)

# a test run that a script started in the background (`bash .ci/run &`) inherits Ctrl-C
# ignored, and so would every `kg` it starts: the tests of what Ctrl-C does need Python's
# own handler (in-process `kg serve` left an ignored SIGINT alone and waited forever)
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
DATA = Path(__file__).resolve().parent / "data"
#: the two seed files: a heading ("ICML 2026 Papers"), then one abstract a paragraph
SEED_FILES = sorted(SEEDS.glob("*.txt"))
#: abstracts in each seed file (19 paragraphs under the heading: test_ingest counts them)
PAPERS_PER_SEED_FILE = 19
#: abstracts in seeds/, so papers in every build of it: two seed files of 19
SEED_PAPERS = 2 * PAPERS_PER_SEED_FILE
#: seed abstracts that mention MATH500, each with a figure on it: 000_… line 31 ("MATH500")
#: and 004_… line 33 ("MATH-500"); the "MATH" of 000_… line 7 is another benchmark
MATH500_PAPERS = 2
#: CI sets this so that a test needing a system tool or a test dependency fails instead of
#: skipping
REQUIRE_TOOLS = os.environ.get("KG_REQUIRE_TOOLS") == "1"


def need_tool(name: str) -> str:
    """Path of a system tool, or skip (fail under KG_REQUIRE_TOOLS=1) when it is missing."""
    path = shutil.which(name)
    if path is None:
        if REQUIRE_TOOLS:
            pytest.fail(f"{name} is required (KG_REQUIRE_TOOLS=1) but not installed")
        pytest.skip(f"{name} not installed")
    return path


def need_module(name: str) -> ModuleType:
    """A module of the `test` extra, or skip (fail under KG_REQUIRE_TOOLS=1) when it is
    missing: CI installs the extra, so a skip there would hide a broken install."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        if REQUIRE_TOOLS:
            pytest.fail(f"{name} is required (KG_REQUIRE_TOOLS=1) but not importable: {error}")
        pytest.skip(f"{name} not installed")


@pytest.fixture(autouse=True)
def _kg_logger():
    """Each test starts with the `kg` logger as Python leaves it: `kg`'s main() (a CLI test,
    or a module fixture that runs the CLI) gives it a handler of its own and stops it
    propagating, which hides every later record from caplog."""
    log = logging.getLogger("kg")
    log.handlers, log.level, log.propagate = [], logging.NOTSET, True
    yield
    log.handlers, log.level, log.propagate = [], logging.NOTSET, True


@pytest.fixture(scope="session")
def nlp():
    """The extraction pipeline, built once."""
    return make_nlp()


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """exports/ of a build of seeds/ in a temporary directory (built once per session)."""
    out = tmp_path_factory.mktemp("exports")
    build([SEEDS], out)
    return out


@pytest.fixture(scope="session")
def lean(tmp_path_factory) -> Path:
    """exports/ of a build of seeds/ with one copy of the graph, kg.ttl (`--rdf turtle`:
    what a large graph gets by default), no kg.nt, kg.jsonld or kg.graphml."""
    out = tmp_path_factory.mktemp("lean")
    build([SEEDS], out, rdf_formats="turtle")
    return out


@pytest.fixture
def runner() -> CliRunner:
    """A click runner that keeps stderr apart from stdout."""
    return CliRunner()


def write(path: Path, text: str | bytes) -> Path:
    """Write a test input file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def files(directory: Path) -> dict[Path, bytes]:
    """Every file under `directory`, by its path relative to it, with its bytes."""
    return {p.relative_to(directory): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


@pytest.fixture
def source(tmp_path) -> Path:
    """The seeds as one input file of our own, to change abstracts in."""
    lines = []
    for seed in sorted(SEEDS.glob("*.txt")):
        lines += seed.read_text(encoding="utf-8").splitlines()[1:]
    abstracts = [line for line in lines if line.strip()]
    return write(tmp_path / "in" / "papers.txt", "ICML 2026 Papers\n\n" + "\n".join(abstracts))
