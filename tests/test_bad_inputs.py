"""Bad inputs: a clear message or warning, never a traceback, never a half-written export."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import SEEDS, write
from rdflib import Graph

from kg.cli import main

GOOD = "We propose FooNet, a framework that outperforms GRPO on MATH500."


def snapshot(directory):
    return {p.relative_to(directory): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    from click.testing import CliRunner

    out = tmp_path_factory.mktemp("bad") / "exports"
    assert CliRunner().invoke(main, ["build", str(SEEDS), "-o", str(out), "-q"]).exit_code == 0
    return out


ERRORS = [
    ("missing.txt", None, "missing.txt: no such file or directory"),
    ("empty.txt", b"", "empty.txt: empty file"),
    ("blank.txt", b"\n \n\t\n", "blank.txt: empty file"),
    ("latin1.txt", b"Heading\n\ncaf\xe9 au lait\n", "latin1.txt:3: byte 0xe9 at column 4"),
    ("nul.txt", b"Heading\n\nA\x00B\n", "nul.txt:3: contains a NUL byte"),
    ("nocolumn.csv", b"title,summary\nx,y\n", "nocolumn.csv:1: no `abstract` column"),
    ("broken.json", b'[{"abstract": "x"', "broken.json:1: not JSON"),
    ("onlybad.jsonl", b"{not json\n", "onlybad.jsonl: holds no abstract"),
]


@pytest.mark.parametrize(("name", "content", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_bad_file_is_exit_2_one_line_and_exports_untouched(
    exports, runner, tmp_path, name, content, message
):
    before = snapshot(exports)
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    result = runner.invoke(main, ["build", str(path), "-o", str(exports)])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert result.stderr.splitlines()[-1].startswith("Error: ")
    assert "Traceback" not in result.stderr
    assert snapshot(exports) == before


def test_directory_without_inputs(runner, tmp_path):
    (tmp_path / "notes.pdf").write_bytes(b"%PDF")
    result = runner.invoke(main, ["build", str(tmp_path), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2 and "directory holds no input files" in result.stderr


def test_bad_records_are_skipped_with_a_warning_or_stop_with_strict(runner, tmp_path):
    path = write(
        tmp_path / "mixed.jsonl",
        "\n".join(
            [
                json.dumps({"abstract": GOOD}),
                "{oops",
                json.dumps({"title": "no abstract"}),
                json.dumps(["not", "an", "object"]),
            ]
        ),
    )
    result = runner.invoke(main, ["build", str(path), "-o", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 0
    assert "mixed.jsonl:2: not JSON" in result.stderr
    assert "mixed.jsonl:3: record has no abstract; skipped" in result.stderr
    assert "mixed.jsonl:4: not a JSON object" in result.stderr
    strict = runner.invoke(main, ["build", str(path), "-o", str(tmp_path / "out2"), "--strict"])
    assert strict.exit_code == 2 and "mixed.jsonl:2: not JSON" in strict.stderr
    assert not (tmp_path / "out2").exists()


def test_bom_and_crlf(runner, tmp_path):
    path = write(tmp_path / "win.txt", f"\ufeffICML 2026 Papers\r\n\r\n{GOOD}\r\n".encode())
    result = runner.invoke(main, ["extract", str(path)])
    assert result.exit_code == 0
    (record,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert record["text"] == GOOD and record["line"] == 3


@pytest.mark.parametrize(
    "text",
    [
        "x" * 5_000_000,  # a 5 MB single line
        "Nous proposons FooNet, un cadre qui surpasse GRPO sur MATH500.",  # French
        "我们提出了 FooNet 框架，在 MATH500 上超过了 GRPO。",  # Chinese
        r"We propose $\mathcal{O}(N)$ \textbf{FooNet} with <sub>2</sub> and 🚀 on MATH500.",
        "نقترح FooNet الذي يتفوق على GRPO في MATH500.",  # Arabic, right to left
    ],
    ids=["5MB-line", "french", "chinese", "latex-html-emoji", "rtl"],
)
def test_unusual_abstracts_build(runner, tmp_path, text):
    path = write(tmp_path / "odd.txt", f"Odd papers 2026\n\n{text}\n{GOOD}\n")
    result = runner.invoke(
        main, ["build", str(path), "-o", str(tmp_path / "out"), "-q", "--views", "overview"]
    )
    assert result.exit_code == 0, result.output
    for record in map(json.loads, (tmp_path / "out" / "extractions.jsonl").open()):
        for entity in record["entities"]:
            for m in entity["mentions"]:
                assert record["text"][m["start"] : m["end"]] == m["text"]


def test_100000_one_word_lines(runner, tmp_path):
    path = write(
        tmp_path / "words.txt", "Words\n\n" + "\n".join(f"word{i}." for i in range(100_000))
    )
    result = runner.invoke(
        main, ["build", str(path), "-o", str(tmp_path / "out"), "-q", "--views", "none"]
    )
    assert result.exit_code == 0, result.output
    assert sum(1 for _ in (tmp_path / "out" / "extractions.jsonl").open()) == 100_000


def test_names_that_break_formats_round_trip(runner, tmp_path):
    """Quotes, angle brackets, backslashes, spaces and # in names survive every export."""
    weird = [
        'We propose Foo"Net, Bar<Net>, Baz\\Net and Qux#Net on MATH500.',
        "We propose O'Brien-Net (OBN) and “Curly-Net” on MATH500 with ÆtherNet.",
    ]
    path = write(tmp_path / "weird.txt", "Weird 2026\n\n" + "\n".join(weird) + "\n")
    result = runner.invoke(main, ["build", str(path), "-o", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 0, result.output
    out = tmp_path / "out"
    graph = Graph().parse(out / "kg.ttl")
    assert len(Graph().parse(out / "kg.nt", format="nt")) == len(graph)
    assert len(Graph().parse(out / "kg.jsonld", format="json-ld")) == len(graph)
    for line in (out / "extractions.jsonl").open():
        json.loads(line)
    import networkx as nx

    nx.read_graphml(out / "kg.graphml")
    assert runner.invoke(main, ["validate", str(out)]).exit_code == 0


def test_unwritable_exports_directory(runner, tmp_path):
    if os.geteuid() == 0:
        blocker = write(tmp_path / "file", "a file where the exports directory should be")
        out = blocker / "exports"
    else:  # pragma: no cover - a non-root user cannot write a read-only directory
        out = tmp_path / "ro"
        out.mkdir()
        out.chmod(0o500)
    result = runner.invoke(main, ["build", str(SEEDS), "-o", str(out)])
    assert result.exit_code == 2 and "cannot write the exports" in result.stderr


def test_ctrl_c_while_writing_leaves_previous_exports(exports, runner, monkeypatch):
    before = snapshot(exports)
    calls = []

    def interrupted(fd):
        calls.append(fd)
        if len(calls) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    result = runner.invoke(main, ["build", str(SEEDS), "-o", str(exports)])
    assert result.exit_code == 130 and "previous exports are unchanged" in result.stderr
    assert snapshot(exports) == before


def test_kill_9_in_the_middle_leaves_previous_exports(exports, tmp_path):
    before = snapshot(exports)
    big = write(
        tmp_path / "big.txt",
        "Big 2026\n\n"
        + "\n".join(
            f"We propose FooNet{i}, which beats GRPO on MATH500 by {i}%." for i in range(20_000)
        ),
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "kg", "build", str(big), "-o", str(exports), "-q"]
    )
    time.sleep(4)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert snapshot(exports) == before


def test_characters_no_export_can_hold_become_u_fffd(runner, tmp_path):
    """A stray U+0002 (PDF debris) and a lone surrogate (a JSON "\\ud800") would make GraphML
    ill-formed and UTF-8 unwritable: each becomes U+FFFD in place, with a warning."""
    record = {"title": "Odd\u0002title", "abstract": f"We propose Foo\u0002Net \ud800 and {GOOD}"}
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    result = runner.invoke(main, ["build", str(path), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert "odd.jsonl:1: control characters or lone surrogates" in result.stderr
    (text,) = [json.loads(line)["text"] for line in (out / "extractions.jsonl").open()]
    assert text == record["abstract"].replace("\u0002", "\ufffd").replace("\ud800", "\ufffd")
    import networkx as nx

    graph = nx.read_graphml(out / "kg.graphml")
    titles = [d["title"] for _, d in graph.nodes(data=True) if d["kind"] == "paper"]
    assert titles == ["Odd\ufffdtitle"]
    assert len(Graph().parse(out / "kg.ttl")) == len(Graph().parse(out / "kg.jsonld"))


def test_a_failed_conversion_leaves_previous_exports(exports, runner, monkeypatch):
    """Turtle and JSON-LD are written by child processes: one that fails (here: told to write
    where no directory is) fails the build, and nothing of it is left."""
    from kg.convert import Conversion

    def misdirected(nt, targets, prefixes, blocks):
        lost = [(t.format, exports / "missing" / "kg.ttl") for t in targets]
        return Conversion(nt, lost, prefixes, blocks)

    before = snapshot(exports)
    monkeypatch.setattr(sys.modules["kg.builder"], "Conversion", misdirected)
    result = runner.invoke(main, ["build", str(SEEDS), "-o", str(exports), "-q"])
    assert result.exit_code == 2, result.output
    assert "missing/kg.ttl: No such file or directory" in result.stderr
    assert "previous exports are unchanged" in result.stderr
    assert snapshot(exports) == before


def test_a_failed_graphml_writer_leaves_previous_exports(exports, runner, monkeypatch):
    """GraphML is written by a forked child: its failure (here: a full disk) fails the
    build with the file and the cause, and nothing of the build is left."""

    def full_disk(graph, handle):
        raise OSError(28, "No space left on device", handle.name)

    before = snapshot(exports)
    monkeypatch.setattr(sys.modules["kg.builder"], "write_graphml", full_disk)
    result = runner.invoke(main, ["build", str(SEEDS), "-o", str(exports), "-q"])
    assert result.exit_code == 2, result.output
    assert ".kg.graphml." in result.stderr and "No space left on device" in result.stderr
    assert "previous exports are unchanged" in result.stderr
    assert snapshot(exports) == before
