"""Code and project links of an abstract (kg/links.py), in the RDF, on the page, by query."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyoxigraph import NamedNode, Quad, Store
from rdflib import Graph, URIRef

from kg.builder.pipeline import build
from kg.cli import main
from kg.links import Links, links, safe_url
from kg.namespaces import ENTITY, PAPER, SCHEMA


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Code is available at https://github.com/divelab/LIFT.",
            Links(code=("https://github.com/divelab/LIFT",)),
        ),
        (
            "See [GitHub](https://github.com/a/b) and the [project page](https://x.github.io/p/).",
            Links(code=("https://github.com/a/b",), pages=("https://x.github.io/p/",)),
        ),
        (
            r"Code: \url{https://gitlab.com/team/tool}.",
            Links(code=("https://gitlab.com/team/tool",)),
        ),
        ("Code at github.com/owner/repo, data at", Links(code=("https://github.com/owner/repo",))),
        (
            "Project: https://sites.google.com/view/x;",
            Links(pages=("https://sites.google.com/view/x",)),
        ),
        ("As in https://arxiv.org/abs/2401.01234 and https://github.com/org.", Links()),
        ("No link here, nor in e.g. or i.e.", Links()),
    ],
)
def test_links_of_an_abstract(text, expected):
    assert links(text) == expected


def test_code_links_reach_the_paper_what_it_proposes_its_page_and_the_query(tmp_path: Path, runner):
    seeds = tmp_path / "in.txt"
    seeds.write_text(
        "ICML 2026 Papers\n"
        "We propose FooNet, a novel method for graph learning. FooNet outperforms GCN on "
        "Cora. Code is available at https://github.com/foo/foonet. Project page: "
        "https://foo.github.io/foonet/.\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    build([seeds], out)
    graph = Graph().parse(out / "kg.ttl")
    code = URIRef("https://github.com/foo/foonet")
    (paper,) = set(graph.subjects(SCHEMA.codeRepository, code)) - {ENTITY.foonet}
    assert str(paper).startswith(str(PAPER))
    assert (ENTITY.foonet, SCHEMA.codeRepository, code) in graph
    assert (paper, SCHEMA.url, URIRef("https://foo.github.io/foonet/")) in graph
    (page,) = (out / "papers").glob("*.html")
    assert 'Code: <a href="https://github.com/foo/foonet">' in page.read_text(encoding="utf-8")
    result = runner.invoke(main, ["query", "papers-with-code", str(out), "-f", "csv"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].endswith(",<https://github.com/foo/foonet>,FooNet")


_URL_TAIL = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)


@settings(max_examples=300, deadline=None)
@given(owner=_URL_TAIL, rest=_URL_TAIL)
def test_every_link_kg_keeps_is_an_iri_a_store_loads(owner: str, rest: str):
    text = f"Code: https://github.com/{owner}/{rest} and www.{owner}.org/{rest}."
    for url in (*links(text).code, *links(text).pages):
        store = Store()
        store.add(Quad(NamedNode(url), NamedNode("https://schema.org/url"), NamedNode(url)))
        assert len(store) == 1
    for bad in ("https://github.com/a/b%zz", "https://github.com/a/b#x#y"):
        assert safe_url(bad) is not None and NamedNode(safe_url(bad))
    assert safe_url("https://github.com:x/a/b") is None


def test_a_paper_shares_its_code_only_with_what_it_alone_proposes():
    from kg.model import Assertion, RelationType, Sentence
    from kg.rdf import sole_proposers

    def proposes(paper: str, key: str) -> Assertion:
        return Assertion(paper, RelationType.PROPOSES, key, paper, Sentence(0, 1))

    claimed = [proposes("p1", "snn"), proposes("p2", "snn"), proposes("p1", "foonet")]
    assert sole_proposers(claimed) == {"foonet": "p1"}


#: pieces of text that links are made of, in cases and scripts the pattern takes
_PIECES = st.sampled_from(
    [
        "http",
        "HTTPS",
        "://",
        "www.",
        "WwW.",
        "github.com/",
        "GitLab.com/",
        "gıthub.com/",
        "gİthub.com/",
        "ſ",
        "HTTPſ://",
        "\u212aa",  # the Kelvin sign
        "gitlab.com/x/y",
        "httpſ://",
        "WWW.",
        "a/b",
        "x",
        " ",
        ".",
        "ı",
        "é",
        "(",
        ")",
        "Code at ",
        "\\url{",
        "}",
        "/",
        "https://www.github.com/a/b",
        "xgithub.com/",
        "@",
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_PIECES, max_size=14).map("".join))
def test_trying_the_pattern_where_a_link_may_begin_finds_every_match(text):
    from kg.links import _URL, _matches

    # the matches, and so the links, of searching the pattern through the whole text
    assert [m.span() for m in _matches(text)] == [m.span() for m in _URL.finditer(text)]


def test_an_abstract_without_a_link_is_not_searched(monkeypatch):
    import kg.links

    class SearchedError(Exception):
        pass

    class Pattern:
        def finditer(self, text, *at):
            raise SearchedError

        match = finditer

    monkeypatch.setattr(kg.links, "_URL", Pattern())
    assert links("We propose FooNet, which beats GRPO on MATH500 (Table 2).") == Links()
    with pytest.raises(SearchedError):
        links("Code: https://github.com/a/b")
    with pytest.raises(SearchedError):
        links("Ünïcode text: gıthub.com/a/b")  # not ASCII: searched
