"""Turtle and JSON-LD by Oxigraph in a child process (kg/export/convert.py)."""

from __future__ import annotations

import io
import itertools
import sys

import pytest
from conftest import SEEDS
from rdflib import Graph

import kg.export.convert
from kg.export.convert import Conversion, ConversionError, convert_blocks, convert_file, reply
from kg.namespaces import PREFIXES


@pytest.fixture()
def nt(tmp_path):
    path = tmp_path / "g.nt"
    grpo = "<https://w3id.org/kg-ml/id/entity/grpo>"
    path.write_text(
        f'{grpo} <http://www.w3.org/2000/01/rdf-schema#label> "GRPO" .\n'
        f'{grpo} <http://www.w3.org/2004/02/skos/core#altLabel> "G\\"RPO" .\n',
        encoding="utf-8",
    )
    return path


def test_the_child_writes_what_the_parent_would(nt, tmp_path):
    targets = [("turtle", tmp_path / "g.ttl"), ("jsonld", tmp_path / "g.jsonld")]
    for _, path in targets:
        path.touch()  # as ExportWriter.reserve does
    conversion = Conversion(nt, targets, PREFIXES)
    conversion.wait()
    for fmt, path in targets:
        here = io.BytesIO()
        convert_file(nt, fmt, here, PREFIXES)
        assert path.read_bytes() == here.getvalue()
    assert b"entity:grpo" in (tmp_path / "g.ttl").read_bytes()  # the prefixes are used
    graph = Graph().parse(nt, format="nt")
    assert len(Graph().parse(tmp_path / "g.jsonld", format="json-ld") ^ graph) == 0


def test_a_child_that_cannot_write_names_the_file(nt, tmp_path):
    conversion = Conversion(nt, [("turtle", tmp_path / "no" / "g.ttl")], PREFIXES)
    with pytest.raises(ConversionError, match="no/g.ttl: No such file or directory"):
        conversion.wait()


def test_no_targets_start_no_process(nt, tmp_path):
    conversion = Conversion(nt, [], PREFIXES)
    assert conversion._process is None
    conversion.wait()  # nothing to wait for, nothing to cancel: neither raises
    conversion.cancel()
    assert list(tmp_path.iterdir()) == [nt]  # and nothing was written


def test_a_child_never_makes_a_file(nt, tmp_path):
    """A temporary the build removed (it failed meanwhile) is not made again by the child."""
    gone = tmp_path / "removed.ttl"
    with pytest.raises(ConversionError, match="removed.ttl: No such file or directory"):
        Conversion(nt, [("turtle", gone)], PREFIXES).wait()
    assert not gone.exists()


def many_blocks(path, n):
    """An N-Triples file of `n` one-triple blocks, and the blocks' spans."""
    entity, label = (
        "https://w3id.org/kg-ml/id/entity/e",
        "http://www.w3.org/2000/01/rdf-schema#label",
    )
    lines = [f'<{entity}{i}> <{label}> "E{i}" .\n'.encode() for i in range(n)]
    path.write_bytes(b"".join(lines))
    at = [0, *itertools.accumulate(len(line) for line in lines)]
    return path, list(zip(at, at[1:], strict=False))


@pytest.mark.slow
@pytest.mark.parametrize(("n", "size"), [(5_000, 64 * 1024), (70_000, 1024 * 1024)])
def test_a_reply_of_any_size_comes_back_whole(tmp_path, n, size):
    """Where each block went is the child's reply: past a pipe's 64 KiB and past 1 MiB."""
    nt, blocks = many_blocks(tmp_path / "g.nt", n)
    target = tmp_path / "g.ttl"
    target.touch()
    (spans,) = Conversion(nt, [("turtle", target)], PREFIXES, blocks).wait()
    here = io.BytesIO()
    with open(nt, "rb") as handle:
        assert spans == convert_blocks(handle.read(), blocks, "turtle", here, PREFIXES)
    assert target.read_bytes() == here.getvalue()
    assert len(reply([spans])) > size


def child_answering(monkeypatch, answer: bytes, status: int = 0) -> None:
    """Make the converter a child that reads its plan and answers `answer`."""
    script = (
        "import sys; sys.stdin.buffer.read(); "
        f"sys.stdout.buffer.write({answer!r}); sys.exit({status})"
    )
    monkeypatch.setattr(kg.export.convert, "_command", lambda: [sys.executable, "-c", script])


VALID = reply([[(0, 10)]])


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (VALID[: len(VALID) - 3], "cut short"),
        (b"2000000\n" + b"[[[0, 1]" * 10_000, "cut short"),  # at a pipe's 64 KiB
        (b"[[[0, 10]]]", "cut short"),  # no length
        (b"", "0 bytes"),
        (b"Traceback\nValueError: boom\n", "cut short or mixed with other output"),
        (b"8\n[[[0,1]]", "not spans as JSON: Expecting ',' delimiter"),
        (b"5\n[[1]]", "not spans as JSON: cannot unpack"),
        (reply([[(0, 1), (1, 2)]]), r"\[2\] spans for 1 target\(s\) of 1 block\(s\)"),
    ],
    ids=["cut", "at-64-KiB", "no-length", "empty", "traceback", "bad-JSON", "bad-span", "shape"],
)
def test_a_broken_reply_is_a_clean_error(nt, tmp_path, monkeypatch, answer, why):
    target = tmp_path / "g.ttl"
    target.touch()
    child_answering(monkeypatch, answer)
    with pytest.raises(ConversionError, match=f"the converter's reply is broken.*{why}") as error:
        Conversion(nt, [("turtle", target)], PREFIXES).wait()
    assert "\n" not in str(error.value)


def test_output_the_child_prints_besides_its_reply_is_not_read_as_it(nt, tmp_path, monkeypatch):
    """A library printing on stdout in the child (here at exit) cannot corrupt the reply."""
    script = (
        "import atexit, runpy, sys; atexit.register(print, 'a stray line'); "
        f"sys.argv = [{kg.export.convert.__file__!r}]; "
        "runpy.run_path(sys.argv[0], run_name='__main__')"
    )
    monkeypatch.setattr(kg.export.convert, "_command", lambda: [sys.executable, "-c", script])
    target = tmp_path / "g.ttl"
    target.touch()
    here = io.BytesIO()
    expected = convert_blocks(nt.read_bytes(), [(0, nt.stat().st_size)], "turtle", here, PREFIXES)
    assert Conversion(nt, [("turtle", target)], PREFIXES).wait() == [expected]
    assert target.read_bytes() == here.getvalue()


def test_a_build_given_a_broken_reply_exits_2_with_one_line(runner, tmp_path, monkeypatch):
    from kg.cli import main

    out = tmp_path / "exports"
    assert runner.invoke(main, ["build", str(SEEDS), "-o", str(out), "-q"]).exit_code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    child_answering(monkeypatch, b"99999\n" + b"[[0, 1]," * 8192)
    result = runner.invoke(main, ["build", str(SEEDS), "-o", str(out), "-q"])
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("Error: the converter's reply is broken")
    assert "the previous exports are unchanged" in result.stderr
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
