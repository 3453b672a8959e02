"""The clauses that make a SPARQL server fetch URLs are found wherever a parser may read
them, and never in strings, IRIs, comments or names."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kg.serve.remote_clauses import remote_clauses


@pytest.mark.parametrize(
    "text",
    [
        "SELECT * { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }",
        "select * {service<x>{}}",
        "SELECT * { SERVICE SILENT ?endpoint { ?s ?p ?o } }",
        "SELECT * { ?s ?p ?o SERVICE:x { } }",  # `:x` after the keyword, for a parser
        "SELECT * { ?s ?p trueSERVICE <x> { } }",
        r"SELECT * { \u0053ERVICE <x> { } }",  # a codepoint escape
        r"SELECT * { ?s ex:a\#b ?o SERVICE <x> { } }",  # `\#` is a name, not a comment
        "SELECT * { FILTER(?a <?b) SERVICE <x> { } }",  # `<` as less-than, not an IRI
        "SELECT * { ?s ?p '' SERVICE <x> { } }",
        "SELECT * { ?s ?p '''x''' SERVICE <x> { } }",
        "SELECT * { ?s ?p 1SERVICE <x> { } }",
    ],
)
def test_service_is_found_wherever_a_parser_would_run_it(text):
    assert remote_clauses(text) == ["SERVICE"]


def test_load_is_found_in_updates():
    assert remote_clauses("LOAD <http://127.0.0.1:9/x> INTO GRAPH <g>") == ["LOAD"]
    assert remote_clauses("load silent <http://x>; SERVICE") == ["LOAD", "SERVICE"]


@pytest.mark.parametrize(
    "text",
    [
        'SELECT * { ?s ?p "SERVICE <x> { }" }',
        "SELECT ?service { ?service ex:load ?o } # SERVICE <x> { }",
        'INSERT DATA { <a> <b> """x " SERVICE""" }',
        "SELECT * { ?s <http://example.org/SERVICE> ?o }",
        "SELECT * { ?s ?p 'it''s' }",
        'SELECT * { ?s ?p "x"@service }',
        "SELECT * { ?s schema:serviceType _:load }",
        r"SELECT * { ?s ?p 'a\'SERVICE' }",
    ],
)
def test_strings_iris_comments_and_names_are_not_clauses(text):
    assert remote_clauses(text) == []


@example("load SERVICE")  # keywords among the words, inside the string too
@given(st.text(alphabet=st.characters(blacklist_characters="'\"<#\\\r\n"), max_size=60))
def test_a_keyword_in_a_string_never_counts_and_outside_always_does(words):
    # (a line break ends a short string: the text is then not SPARQL, and it is flagged)
    assert remote_clauses(f'SELECT * {{ ?s ?p "{words} SERVICE LOAD" }}') == []
    assert "SERVICE" in remote_clauses(f"SELECT * {{ {words} SERVICE <x> {{}} }}")
