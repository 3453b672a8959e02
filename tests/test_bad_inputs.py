"""Bad inputs: a clear message or warning, never a traceback, never a half-written export."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from conftest import SEEDS, write
from rdflib import Graph, URIRef
from rdflib.namespace import DCTERMS

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
    ("nocolumn.csv", b"title,summary\nx,y\n", "nocolumn.csv:1: no `abstract` (or `text`) column"),
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


@pytest.mark.slow
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


@pytest.mark.slow
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
    from kg.export.convert import Conversion

    def misdirected(nt, targets, prefixes, blocks):
        lost = [(t.format, exports / "missing" / "kg.ttl") for t in targets]
        return Conversion(nt, lost, prefixes, blocks)

    before = snapshot(exports)
    monkeypatch.setattr(sys.modules["kg.builder.pipeline"], "Conversion", misdirected)
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
    monkeypatch.setattr(sys.modules["kg.builder.pipeline"], "write_graphml", full_disk)
    result = runner.invoke(main, ["build", str(SEEDS), "-o", str(exports), "-q"])
    assert result.exit_code == 2, result.output
    assert ".kg.graphml." in result.stderr and "No space left on device" in result.stderr
    assert "previous exports are unchanged" in result.stderr
    assert snapshot(exports) == before


# --- huge fields: refused before spaCy or Oxigraph sees them, naming file, line and limit


@pytest.mark.parametrize(
    ("name", "content", "where", "field"),
    [
        (
            "big.txt",
            "Big 2026\n\n" + "We propose FooNet. " * 2_700_000 + "\n",
            "big.txt:3",
            "abstract",
        ),
        (
            "big.jsonl",
            json.dumps({"abstract": GOOD, "title": "x" * 50_000_000}),
            "big.jsonl:1",
            "title",
        ),
        (
            "big.csv",
            f'abstract\n"{GOOD}"\n"{"We propose FooNet. " * 500_000}"\n',
            "big.csv:3",
            "cell",
        ),
    ],
    ids=["50MB-abstract", "50MB-title", "9MB-csv-cell"],
)
def test_a_huge_field_stops_the_build_naming_file_line_and_limit(
    exports, runner, tmp_path, name, content, where, field
):
    before = snapshot(exports)
    path = write(tmp_path / name, content)
    result = runner.invoke(main, ["build", str(path), "-o", str(exports), "-q"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"Error: {path.parent}/{where}: ") and field in line
    assert "kg's limit is " in line and ("8 MB" in line or "64 KB" in line)
    assert snapshot(exports) == before


def test_a_2_mb_abstract_is_read_in_every_format(tmp_path):
    """Far above any real abstract, and under the 8 MB limit: read (the csv module alone
    would refuse a cell over 128 KB)."""
    from kg.ingest import read_file

    big = "We propose FooNet, which beats GRPO on MATH500. " * 42_000  # 2 MB
    files = {
        "a.txt": f"Big 2026\n\n{big}\n{GOOD}\n",
        "a.jsonl": json.dumps({"abstract": big, "title": "t" * 60_000}),
        "a.csv": f'title,abstract\nT,"{big}"\n',
        "a.tsv": f"title\tabstract\nT\t{big}\n",
    }
    for name, content in files.items():
        papers = read_file(write(tmp_path / name, content))
        assert len(papers[0].text) == len(big.strip()), name


# --- no silent change to what the user gave


def test_records_merged_into_one_paper_are_reported_with_counts(runner, tmp_path):
    """10,000 records with distinct ids and one abstract are one paper (its id is a hash of
    the abstract): said once, with the count, not 10,000 times and not silently."""
    path = write(
        tmp_path / "same.jsonl",
        "\n".join(json.dumps({"id": f"p{i}", "abstract": GOOD}) for i in range(10_000)),
    )
    result = runner.invoke(main, ["extract", str(path)])
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 1
    (warning,) = result.stderr.splitlines()
    assert warning.startswith("Warning: same.jsonl:1: kept 1 of 10,000 records with the same ")
    assert "dropped same.jsonl:2, same.jsonl:3, same.jsonl:4 and 9,996 more" in warning


def test_the_same_record_met_again_is_merged_quietly_and_many_merges_are_summed_up(
    runner, tmp_path
):
    again = write(tmp_path / "again.jsonl", json.dumps({"id": "p1", "abstract": GOOD}))
    result = runner.invoke(main, ["extract", str(again), str(again)])
    assert result.exit_code == 0 and result.stderr == ""
    records = [
        {"id": f"p{i}{copy}", "abstract": f"We propose FooNet{i} on MATH500."}
        for i in range(12)
        for copy in "ab"
    ]
    many = write(tmp_path / "many.jsonl", "\n".join(map(json.dumps, records)))
    result = runner.invoke(main, ["extract", str(many)])
    warnings = result.stderr.splitlines()
    assert len(warnings) == 11 and "kept 1 of 2 records" in warnings[0]
    assert warnings[-1] == (
        "Warning: 2 more papers each kept 1 of several records (2 records dropped); "
        "`kg -v build` lists them"
    )


PLACEHOLDERS = ["TBD", "N/A", "Abstract: TBD", "-", "Coming soon.", "abstract", "…"]


def test_placeholder_abstracts_are_skipped_with_a_warning(runner, tmp_path):
    records = [{"id": f"p{i}", "abstract": a} for i, a in enumerate(PLACEHOLDERS)]
    path = write(tmp_path / "tbd.jsonl", "\n".join(map(json.dumps, [*records, {"abstract": GOOD}])))
    result = runner.invoke(main, ["extract", str(path)])
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["text"] for line in result.stdout.splitlines()] == [GOOD]
    for n, text in enumerate(PLACEHOLDERS, 1):
        assert (
            f"Warning: {path}:{n}: record has no abstract ({text!r} is a placeholder); "
            "skipped" in result.stderr.splitlines()
        )
    strict = runner.invoke(main, ["extract", "--strict", str(path)])
    assert strict.exit_code == 2 and "tbd.jsonl:1: record has no abstract ('TBD'" in strict.stderr


BAD_IDS = [
    ({"doi": "10.1234/abc def"}, "doi '10.1234/abc def' is not one DOI"),
    ({"doi": "<10.1234/abc>"}, "doi '<10.1234/abc>' is not one DOI"),
    ({"arxiv_id": "2401.1234x"}, "arxiv_id '2401.1234x' is not one arXiv id"),
    ({"year": "20x6"}, "year '20x6' is not a year from 1900 to 2099"),
    ({"year": "2016a"}, "year '2016a' is not a year from 1900 to 2099"),
]


def test_malformed_identifiers_are_dropped_with_a_warning_never_cut(runner, tmp_path):
    records = [
        {"abstract": f"We propose FooNet{i} on MATH500.", **fields}
        for i, (fields, _) in enumerate(BAD_IDS)
    ]
    good = {
        "abstract": GOOD,
        "doi": "https://doi.org/10.1002/(SICI)1097-4636(199812)43:4<380::AID-JBM5>3.0.CO;2-C",
        "arxiv_id": "arXiv:2401.01234v2",
        "year": "2024-05-01",
    }
    path = write(tmp_path / "ids.jsonl", "\n".join(map(json.dumps, [*records, good])))
    out = tmp_path / "out"
    result = runner.invoke(main, ["build", str(path), "-o", str(out), "-q", "--views", "none"])
    assert result.exit_code == 0, result.output
    for n, (_, message) in enumerate(BAD_IDS, 1):
        assert f"Warning: {path}:{n}: {message}; dropped" in result.stderr.splitlines()
    graph = Graph().parse(out / "kg.ttl")
    ids = {str(o) for o in graph.objects(None, URIRef(str(DCTERMS.identifier)))}
    assert {i for i in ids if i.startswith(("doi:", "arXiv:"))} == {
        "doi:10.1002/(SICI)1097-4636(199812)43:4<380::AID-JBM5>3.0.CO;2-C",
        "arXiv:2401.01234",
    }
    assert {str(o) for o in graph.objects(None, URIRef(str(DCTERMS.date)))} == {"2024"}
    strict = runner.invoke(main, ["extract", "--strict", str(path)])
    assert strict.exit_code == 2
    assert "ids.jsonl:1: doi '10.1234/abc def' is not one DOI" in strict.stderr


# --- what pages show is what the abstract says


def test_bidi_controls_are_kept_in_the_data_and_shown_as_marks_in_pages(runner, tmp_path):
    """U+202E would show "evil" as "live" and reorder the text after it: the data keep it
    (offsets stay true), the pages show a mark, nowhere the control itself."""
    abstract = f"We propose FooNet \u202eevil\u202c and Foo\u2066Bar\u2069Net. {GOOD}"
    path = write(
        tmp_path / "bidi.jsonl", json.dumps({"title": "A \u202etitle", "abstract": abstract})
    )
    out = tmp_path / "out"
    result = runner.invoke(main, ["build", str(path), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert (
        f"Warning: {path}:1: bidirectional-text controls (U+202C, U+202E, U+2066, U+2069) "
        "kept as given" in result.stderr
    )
    (record,) = map(json.loads, (out / "extractions.jsonl").open())
    assert record["text"] == abstract
    for entity in record["entities"]:
        for m in entity["mentions"]:
            assert record["text"][m["start"] : m["end"]] == m["text"]
    pages = [out / "index.html", *(out / "papers").glob("*.html")]
    assert len(pages) == 2
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert not re.search("[\u202a-\u202e\u2066-\u2069]", html), page
        assert not re.search(r"\\u(202[a-e]|206[6-9])", html, re.IGNORECASE), page
        assert "A [U+202E]title" in html
    paper = pages[1].read_text(encoding="utf-8")
    assert "[U+202E]evil[U+202C]" in paper and "Foo[U+2066]Bar[U+2069]Net" in paper


# --- paths that are not regular files


@pytest.mark.slow
def test_a_named_pipe_is_refused_not_waited_on(tmp_path):
    """Reading a FIFO nobody writes to blocks forever: it is refused before it is opened
    (run in a child process, so that a regression fails here instead of hanging)."""
    fifo = tmp_path / "papers.txt"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "kg", "build", str(fifo), "-o", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"Error: {fifo}: is a named pipe (FIFO), not a regular file; "
        "save the abstracts to a file and give that"
    )
    folder = tmp_path / "inputs"
    write(folder / "a.txt", f"Papers 2026\n\n{GOOD}\n")
    os.mkfifo(folder / "b.txt")
    done = subprocess.run(
        [sys.executable, "-m", "kg", "extract", str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 1
    assert f"Warning: {folder / 'b.txt'}: is a named pipe (FIFO)" in done.stderr


def test_symbolic_link_loops_and_broken_links_say_what_they_are(runner, tmp_path):
    loop = tmp_path / "loop.txt"
    loop.symlink_to(loop)
    broken = tmp_path / "broken.txt"
    broken.symlink_to(tmp_path / "gone.txt")
    result = runner.invoke(main, ["build", str(loop), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert (
        result.stderr
        == f"Error: {loop}: is a symbolic link loop (a link that leads back to itself)\n"
    )
    result = runner.invoke(main, ["build", str(broken), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert f"Error: {broken}: is a broken symbolic link (to {tmp_path / 'gone.txt'}" in (
        result.stderr
    )
