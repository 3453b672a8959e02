from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
from conftest import PAPERS_PER_SEED_FILE, SEED_FILES, SEED_PAPERS, write
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kg.errors import InputError
from kg.ingest import clean, paper_id, parse_heading, read_file, read_inputs


def test_headings_give_venue_and_year_in_both_languages():
    assert parse_heading("ICML 2026 Papers") == ("ICML", 2026)
    assert parse_heading("ICML 2026 论文列表") == ("ICML", 2026)
    assert parse_heading("NeurIPS 2023 accepted papers") == ("NeurIPS", 2023)
    assert parse_heading("my reading list") == (None, None)


def test_seed_files_give_their_papers_with_heading_metadata():
    assert len(SEED_FILES) * PAPERS_PER_SEED_FILE == SEED_PAPERS
    for path in SEED_FILES:
        heading, *rest = path.read_text(encoding="utf-8").splitlines()
        assert sum(bool(line.strip()) for line in rest) == PAPERS_PER_SEED_FILE  # the count
        papers = read_file(path)
        assert len(papers) == PAPERS_PER_SEED_FILE
        assert {(p.venue, p.year) for p in papers} == {("ICML", 2026)} == {parse_heading(heading)}
        assert [p.index for p in papers] == list(range(1, PAPERS_PER_SEED_FILE + 1))
        lines = path.read_text(encoding="utf-8").splitlines()
        assert all(lines[p.line - 1].strip() == p.text for p in papers)


def test_paper_id_depends_on_content_only():
    assert paper_id("An abstract.") == paper_id("  An   abstract. ")
    assert paper_id("An abstract.") != paper_id("Another abstract.")
    assert len(paper_id("x")) == 16


def test_folding_spaces_is_splitting_and_joining():
    """The fast path (a printable text with single spaces is returned as it is) gives what
    `" ".join(text.split())` gives, for every whitespace character Python knows."""
    import random
    import sys

    from kg.ingest.papers import fold_spaces

    spaces = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    assert len(spaces) > 20
    alphabet = [*spaces, "a", "é", "字", "\u200b", "\ufeff", "\x00"]
    rng = random.Random(7)
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(9)))
        assert fold_spaces(text) == " ".join(text.split()), repr(text)
    for text in ("An abstract.", "a\u00a0b", "a\u2028b", " a", "a ", "a  b", ""):
        assert fold_spaces(text) == " ".join(text.split()), repr(text)


def test_same_abstract_in_two_files_is_one_paper(tmp_path):
    a = write(tmp_path / "a.txt", "ICML 2026 Papers\n\nWe propose FooNet.\n")
    b = write(tmp_path / "b.txt", "Another list\n\nWe propose FooNet.\nWe study BarBench.\n")
    papers = read_inputs([a, b])
    assert [p.text for p in papers] == ["We propose FooNet.", "We study BarBench."]
    assert papers[0].source == "a.txt"


def test_crlf_and_bom_are_read(tmp_path):
    path = write(
        tmp_path / "x.txt", "\ufeffICML 2026 Papers\r\n\r\nWe propose FooNet.\r\n".encode()
    )
    (paper,) = read_file(path)
    assert paper.text == "We propose FooNet." and paper.venue == "ICML" and paper.line == 3


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty file"),
        (b"\n  \n\n", "empty file"),
        (b"ICML 2026 Papers\n", "only a heading"),
        (
            b"ICML 2026 Papers\n\nGood line.\nbad \xff byte\n",
            ":4: byte 0xff at column 5 is not UTF-8",
        ),
        (b"ICML 2026 Papers\n\nA\x00B\n", ":3: contains a NUL byte"),
    ],
)
def test_bad_files_name_the_file_and_line(tmp_path, content, message):
    path = write(tmp_path / "bad.txt", content)
    with pytest.raises(InputError) as info:
        read_file(path)
    assert str(path) in str(info.value)
    assert message in str(info.value)


def test_missing_path_and_empty_directory(tmp_path):
    with pytest.raises(InputError, match="no such file or directory"):
        read_inputs([tmp_path / "missing.txt"])
    with pytest.raises(InputError, match="holds no input files"):
        read_inputs([tmp_path])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.text(min_size=1, max_size=80).filter(lambda s: "\x00" not in s), min_size=1, max_size=6
    )
)
@example(lines=["0", "\x1b"])  # a control character: kept in place as U+FFFD
def test_any_utf8_text_reads_without_crash_and_keeps_lines(lines):
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "random.txt"
        path.write_text("\n".join(lines), encoding="utf-8")
        try:
            papers = read_file(path, "lines")
        except InputError as error:
            assert str(path) in str(error)
            return
        # lines as an editor shows them: split at line feeds and carriage returns only
        raw = re.split(r"\r\n|\r|\n", path.read_text(encoding="utf-8").removeprefix("\ufeff"))
        for paper in papers:  # as written, but what no export can hold
            assert clean(raw[paper.line - 1].strip()) == paper.text


@pytest.mark.parametrize(
    ("text", "doi"),
    [
        ("10.1234/bar.5", "10.1234/bar.5"),
        ("doi:10.1234/bar.5", "10.1234/bar.5"),
        ("https://doi.org/10.1234/Bar.5", "10.1234/Bar.5"),
        (  # an old SICI DOI: "<", ">" and ";" are part of it
            "10.1002/(SICI)1097-4636(199812)43:4<380::AID-JBM5>3.0.CO;2-C",
            "10.1002/(SICI)1097-4636(199812)43:4<380::AID-JBM5>3.0.CO;2-C",
        ),
        ("10.1234/abc def", None),
        ("<10.1234/abc>", None),
        ("see 10.1234/abc", None),
        ("10.12/abc", None),
    ],
)
def test_a_doi_is_taken_whole_or_not_at_all(text, doi):
    from kg.ingest.identifiers import parse_doi

    assert parse_doi(text) == doi


@pytest.mark.parametrize(
    ("text", "arxiv"),
    [
        ("2401.01234", "2401.01234"),
        ("2401.01234v2", "2401.01234"),
        ("arXiv:2401.12345", "2401.12345"),
        ("https://arxiv.org/pdf/2401.12345v3.pdf", "2401.12345"),
        ("hep-th/9901001", "hep-th/9901001"),
        ("math.GT/0309136", "math.GT/0309136"),
        ("2401.1234x", None),
        ("2401.123", None),
        ("arXiv 2401.12345 and more", None),
    ],
)
def test_an_arxiv_id_is_taken_whole_or_not_at_all(text, arxiv):
    from kg.ingest.identifiers import parse_arxiv

    assert parse_arxiv(text) == arxiv


@pytest.mark.parametrize(
    ("text", "year"),
    [("2024", 2024), (" 2024 ", 2024), ("2024-05-01", 2024), ("2024-05-01T12:00:00Z", 2024)]
    + [(t, None) for t in ("20x6", "2016a", "1850", "24", "2024/25", "May 2024")],
)
def test_a_year_is_taken_whole_or_not_at_all(text, year):
    from kg.ingest.identifiers import parse_year

    assert parse_year(text) == year


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
@example(text="10.1234/abc def")
@example(text="2401.1234x")
def test_identifiers_are_never_altered(text):
    """Whatever a field holds, what is kept is in it as written, prefix aside."""
    from kg.ingest.identifiers import parse_arxiv, parse_doi, parse_year

    stripped = text.strip()
    if (doi := parse_doi(text)) is not None:
        assert stripped.endswith(doi) and not any(c.isspace() for c in doi)
    if (arxiv := parse_arxiv(text)) is not None:
        assert arxiv in stripped
    if (year := parse_year(text)) is not None:
        assert stripped.startswith(str(year))


@pytest.mark.parametrize(
    "text",
    ["TBD", "tba", "N/A", "n.a.", "None", "NULL", "Abstract", "Abstract: TBD", "-", "…"]
    + ["Coming soon", "To be announced.", "no abstract available", "🚀", "?!"],
)
def test_placeholders(text):
    from kg.ingest.placeholders import is_placeholder

    assert is_placeholder(text)


@pytest.mark.parametrize(
    "text", ["word1.", "0", "We propose TBD-Net.", "x" * 100, "Abstract: we propose FooNet."]
)
def test_not_placeholders(text):
    from kg.ingest.placeholders import is_placeholder

    assert not is_placeholder(text)


@pytest.mark.parametrize("field", ["title", "venue", "url", "doi", "booktitle", "author"])
def test_a_record_with_a_field_over_its_limit_is_refused(tmp_path, field):
    from kg.ingest.limits import MAX_FIELD_BYTES
    from kg.ingest.papers import paper_from_record

    source = tmp_path / "a.jsonl"
    small = {"abstract": "We propose FooNet.", field: "字" * (MAX_FIELD_BYTES // 4)}
    assert paper_from_record(small, source=source, line=3, index=1, strict=False) is not None
    big = {"abstract": "We propose FooNet.", field: "字" * (MAX_FIELD_BYTES // 3 + 1)}
    with pytest.raises(InputError, match=rf"a.jsonl:3: the {field} is 65,5\d\d bytes"):
        paper_from_record(big, source=source, line=3, index=1, strict=False)
    listed = {"abstract": "We propose FooNet.", field: ["x" * 40_000, "y" * 40_000]}
    with pytest.raises(InputError, match=rf"a.jsonl:3: the {field} is 80,002 bytes"):
        paper_from_record(listed, source=source, line=3, index=1, strict=False)


def test_size_limits_count_bytes_of_utf8(tmp_path):
    from kg.ingest.limits import MAX_FIELD_BYTES, check_size

    check_size("title", "x" * MAX_FIELD_BYTES, tmp_path / "a.jsonl", 1)
    check_size("abstract", "é" * MAX_FIELD_BYTES, tmp_path / "a.jsonl", 1)
    with pytest.raises(InputError, match=r"a.jsonl:7: the title is 98,304 bytes; kg's limit"):
        check_size("title", "字" * (MAX_FIELD_BYTES // 2), tmp_path / "a.jsonl", 7)


# What an adversarial review of kg build's input found (2026-12-07).


def test_a_seed_file_whose_abstracts_end_in_links_is_one_abstract_a_line(tmp_path):
    """Lines that end in a URL (a word) looked hard-wrapped: the file was one paragraph,
    one paper with the heading glued on."""
    seed = SEED_FILES[0]
    lines = [line for line in seed.read_text(encoding="utf-8").splitlines() if line.strip()]
    body = [line.rstrip(".") + f" Code: https://github.com/x/y{n}" for n, line in enumerate(lines)]
    path = write(tmp_path / "urls.txt", "\n".join([lines[0], *body[1:]]) + "\n")
    papers = read_file(path)
    assert len(papers) == len(lines) - 1
    assert papers[0].collection == lines[0] and papers[0].line == 2


def test_a_heading_and_one_abstract_are_a_heading_and_an_abstract(tmp_path):
    path = write(tmp_path / "one.txt", "ICML 2026 Papers\nWe propose FooNet, a model.\n")
    (paper,) = read_file(path)
    assert paper.text == "We propose FooNet, a model." and paper.collection == "ICML 2026 Papers"


@pytest.mark.parametrize(
    "text",
    [
        # one paragraph, its second line a name (a review of the heading rule, 2026-12-07)
        "We propose FooNet, a graph model that we evaluate on\n"
        "ImageNet and CIFAR-10, where it improves accuracy by 3 points.\n",
        "# ICML 2026 Papers\n\nWe propose FooNet, a graph model that we evaluate on\n"
        "ImageNet and CIFAR-10, where it improves accuracy by 3 points.\n",
        # wrapped wider than any editor does (300 characters)
        textwrap.fill("We propose FooNet, " + "a model that reads and writes graphs " * 30, 300)
        + ".\n",
    ],
)
def test_one_hard_wrapped_paragraph_is_one_abstract(tmp_path, text):
    papers = read_file(write(tmp_path / "wrapped.md", text))
    assert papers[-1].text.startswith("We propose FooNet") and papers[-1].text.endswith(".")
    assert "ImageNet" in papers[-1].text or "writes graphs." in papers[-1].text


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x0c", "\x1c", "\x85"])
def test_only_line_feeds_and_carriage_returns_end_a_line(tmp_path, separator):
    """str.splitlines also breaks at U+2028, form feed and the like: one abstract became two
    papers, and every later line number was one off an editor's."""
    text = f"ICML 2026 Papers\nWe propose FooNet,{separator}a model.\nTBD\nWe introduce BarNet.\n"
    papers = [p for p in read_file(write(tmp_path / "s.txt", text)) if p is not None]
    assert [p.line for p in papers] == [2, 4]
    record = json.dumps({"abstract": f"We propose FooNet,{separator}a model."}, ensure_ascii=False)
    jsonl = write(tmp_path / "s.jsonl", record + "\n" + json.dumps({"abstract": "Bar."}) + "\n")
    assert [p.line for p in read_file(jsonl) if p is not None] == [1, 2]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("deep.json", "[" * 5000 + "]" * 5000, "deep.json: not JSON (nested too deeply)"),
        (
            "bigint.jsonl",
            '{"abstract": "We propose FooNet.", "year": ' + "1" * 5000 + "}\n",
            "bigint.jsonl:1: not JSON (a number too long",
        ),
        (
            "cut.jsonl",
            '{"abstract": "x\n',
            "cut.jsonl:1: not JSON (Unterminated string starting at: column 14)",
        ),
    ],
)
def test_crafted_json_is_one_line_of_error(tmp_path, name, content, message):
    path = write(tmp_path / name, content)
    with pytest.raises(InputError) as error:
        read_file(path, strict=True)
    assert message in str(error.value)


def test_bibtex_entries_are_found_on_their_own_lines_and_a_broken_one_is_named(tmp_path, caplog):
    text = (
        "@article{smith2020a,\n  title={First},\n  abstract={We propose FooNet.}\n}\n"
        "@article{smith2020,\n  title={Second},\n  abstract={We introduce BarNet.}\n}\n"
        "@article{broken,\n  title={Third},\n  abstract={We unveil BazNet.\n"
    )
    papers = read_file(write(tmp_path / "keys.bib", text))
    assert [(p.title, p.line) for p in papers if p is not None] == [("First", 1), ("Second", 5)]
    assert "keys.bib:9: the entry broken is not BibTeX that can be read" in caplog.text
    two = "@misc{a, title={A}, abstract={We propose A.}} @misc{b, title={B}, abstract={B.}}\n"
    assert [p.line for p in read_file(write(tmp_path / "two.bib", two))] == [1, 1]
    spaced = "@misc{key with space, title={C}, abstract={We propose C.}}\n" + two
    read_file(write(tmp_path / "spaced.bib", spaced))
    assert "spaced.bib:1: 1 entries are not BibTeX that can be read" in caplog.text


def test_each_bibtex_entry_has_the_line_it_begins_on(tmp_path):
    # one pass over the text (a key looked up in every line made 3,000 entries take 18 s)
    entries = "".join(
        f"@article{{key{n},\n  title={{Paper {n}}},\n  abstract={{We propose Net{n}.}}\n}}\n"
        for n in reversed(range(300))  # key2 after key29: a key within an earlier one
    )
    papers = read_file(write(tmp_path / "big.bib", entries))
    assert [p.line for p in papers if p is not None] == [4 * n + 1 for n in range(300)]


def test_a_field_that_is_no_text_is_never_written_as_python(tmp_path, caplog):
    """A list as the abstract became "['We propose ...']", an object as the authors
    "{'name': 'Alice'}", the number 42 a paper of its own."""
    lines = [
        {"abstract": ["We propose FooNet, a model."], "title": "a list"},
        {"abstract": "We introduce BarNet.", "authors": {"name": "Alice"}, "title": {"x": 1}},
        {"abstract": 42, "title": "a number"},
        {"abstract": "We present BazNet.", "year": 2023, "id": 7, "authors": [{"name": "Bo"}]},
    ]
    path = write(tmp_path / "types.jsonl", "".join(json.dumps(r) + "\n" for r in lines))
    papers = [p for p in read_file(path) if p is not None]
    assert [(p.line, p.text, p.title, p.authors) for p in papers] == [
        (2, "We introduce BarNet.", "", ()),
        (4, "We present BazNet.", "", ("Bo",)),
    ]
    assert (papers[1].year, papers[1].external_id) == (2023, "7")
    for message in (
        "types.jsonl:1: the abstract is a list, not text; skipped",
        "types.jsonl:2: authors is an object, not names; dropped",
        "types.jsonl:2: title is an object, not text; dropped",
        "types.jsonl:3: the abstract is the number 42, not text; skipped",
    ):
        assert message in caplog.text


@pytest.mark.parametrize("end", ["\n", "\r", "\r\n"])
def test_a_bad_byte_is_placed_on_its_line_whatever_ends_the_lines(tmp_path, end):
    """A file of carriage returns alone put every bad byte on line 1."""
    for bad, message in ((b"caf\xe9", "byte 0xe9 at column 4"), (b"x\x00", "a NUL byte")):
        path = tmp_path / "cr.txt"
        path.write_bytes(end.join(["Heading", "We propose FooNet.", ""]).encode() + bad + b"\n")
        with pytest.raises(InputError) as error:
            read_file(path)
        assert str(error.value).startswith(f"{path}:3: ") and message in str(error.value)


@pytest.mark.parametrize("heading", ["ICML 2026 Papers", "# ICML 2026 Papers"])
def test_a_heading_paragraph_names_the_collection_and_is_no_paper(tmp_path, heading):
    """ "ICML 2026 Papers" over paragraphs was read as a paper of its own (a review,
    2026-12-07)."""
    text = (
        f"{heading}\n\nWe propose FooNet, a graph model that reads\nabstracts.\n\n"
        "We introduce BarNet, evaluated\non CIFAR-10.\n"
    )
    papers = read_file(write(tmp_path / "p.md", text), "paragraphs")
    assert [(p.line, p.collection, p.venue, p.year) for p in papers] == [
        (3, "ICML 2026 Papers", "ICML", 2026),
        (6, "ICML 2026 Papers", "ICML", 2026),
    ]


def test_a_first_paragraph_of_one_sentence_is_an_abstract(tmp_path):
    text = "We propose FooNet for graphs.\n\nWe introduce BarNet, evaluated\non CIFAR-10.\n"
    papers = read_file(write(tmp_path / "p.md", text), "paragraphs")
    assert [p.text for p in papers] == [
        "We propose FooNet for graphs.",
        "We introduce BarNet, evaluated on CIFAR-10.",
    ]


# A gold file (../shared/gold/*.jsonl) and kg's own extractions.jsonl name the abstract
# `text`: `kg extract GOLD.jsonl` read none of them ("record has no abstract", 64 times).


def test_a_record_of_score_py_s_format_is_read_by_its_text(tmp_path):
    from kg.ingest.papers import paper_from_record

    source = tmp_path / "gold.jsonl"
    text = "We propose FooNet, evaluated on ImageNet."
    gold = {"source": "x", "index": 1, "text": text, "entities": [], "relations": []}
    paper = paper_from_record(gold, source=source, line=1, index=1, strict=True)
    assert paper is not None and paper.text == text
    # an abstract beside it wins, however the text differs; an empty one gives way to it
    both = {"abstract": "We propose BarNet.", "text": text}
    assert paper_from_record(both, source=source, line=1, index=1, strict=True).text == (
        "We propose BarNet."
    )
    for nothing in ("", "   ", "N/A", None):
        empty = {"abstract": nothing, "text": text}
        assert paper_from_record(empty, source=source, line=1, index=1, strict=True).text == text
    # with no text beside it, a placeholder is still no abstract
    with pytest.raises(InputError, match="has no abstract"):
        paper_from_record({"abstract": "N/A"}, source=source, line=1, index=1, strict=True)
    # as an abstract, the text has the abstract's size limit, not a title's
    from kg.ingest.limits import MAX_FIELD_BYTES

    long = {"text": "We propose FooNet. " * (MAX_FIELD_BYTES // 10)}
    assert paper_from_record(long, source=source, line=1, index=1, strict=True) is not None


def test_a_table_with_a_text_column_is_read(tmp_path):
    path = write(tmp_path / "a.csv", 'title,text\nFoo,"We propose FooNet, evaluated on MNIST."\n')
    [paper] = read_file(path)
    assert paper.title == "Foo" and paper.text.startswith("We propose FooNet")


def test_kg_extract_reads_its_own_output_and_a_gold_file_again(tmp_path):
    from click.testing import CliRunner

    from kg.cli import main

    gold = tmp_path / "gold.jsonl"
    texts = ["We propose FooNet, which beats BERT on GLUE.", "We introduce BarQA, a benchmark."]
    gold.write_text("".join(json.dumps({"text": t, "entities": []}) + "\n" for t in texts))
    first = CliRunner().invoke(main, ["extract", str(gold)])
    assert first.exit_code == 0, first.output
    records = [json.loads(line) for line in first.stdout.splitlines()]
    assert [r["text"] for r in records] == texts
    again = tmp_path / "again.jsonl"
    again.write_text(first.stdout)
    second = CliRunner().invoke(main, ["extract", str(again)])
    assert second.exit_code == 0, second.output
    reread = [json.loads(line) for line in second.stdout.splitlines()]
    assert [r.pop("source") for r in reread] == ["again.jsonl"] * 2
    assert reread == [{k: v for k, v in r.items() if k != "source"} for r in records]
