"""Find the parts of a SPARQL query or update that make a server fetch other URLs: `SERVICE`
(federated queries) and `LOAD` (updates).

The check reads the text as SPARQL's tokens (comments, strings, IRIs, variables, prefixed
names, language tags) rather than through a full parser, so that no query a parser of
another dialect rejects, or reads otherwise, slips through: a keyword counts wherever it
appears outside a string, an IRI, a comment or a variable, even glued to other letters
(`trueSERVICE`) or as a prefix (`SERVICE:x`), which a backtracking parser may split. The
price is a rare refusal of a prefix such as `loadx:` that nobody writes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

#: the keywords of SPARQL 1.1 that dereference an IRI
REMOTE_KEYWORDS = ("SERVICE", "LOAD")

_NAME = r"[\w\-.\u00b7\u0300-\u036f\u203f\u2040]"
_LOCAL_ESCAPE = r"\\[_~.\-!$&'()*+,;=/?#@%]"
_TOKEN = re.compile(
    rf"""
      (?P<comment>\#[^\r\n]*)
    | (?P<string>'''(?:[^'\\]|\\.|'(?!''))*'''
        | \"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"
        | '(?:[^'\\\r\n]|\\.)*'
        | "(?:[^"\\\r\n]|\\.)*")
    | (?P<iri><[^<>"{{}}|^`\\\x00-\x20]*>)
    | (?P<variable>[?$][\w\u00b7\u0300-\u036f\u203f\u2040]*)
    | (?P<langtag>@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*)
    | (?P<blank>_:(?:{_NAME}|:)*)
    | (?P<prefixed>(?P<prefix>{_NAME}*):(?:{_NAME}|:|%[0-9A-Fa-f]{{2}}|{_LOCAL_ESCAPE})*)
    | (?P<word>\w+)
    | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)
#: a codepoint escape: four (or eight) characters a hexadecimal number is read from, a sign
#: among them as Rust's `from_str_radix`, Oxigraph's, takes it ("\u+053")
_CODEPOINT = re.compile(
    r"\\u(\+[0-9A-Fa-f]{3}|[0-9A-Fa-f]{4})|\\U(\+[0-9A-Fa-f]{7}|[0-9A-Fa-f]{8})"
)


def _unescape_codepoints(text: str) -> str:
    # SPARQL 1.1 §19.2: \u escapes may stand for any character and are read before parsing
    def char(match: re.Match[str]) -> str:
        code = int(match.group(1) or match.group(2), 16)
        return chr(code) if code <= 0x10FFFF else match.group(0)

    return _CODEPOINT.sub(char, text)


def parsed_remote_clauses(text: str, kind: str) -> list[str]:
    """What a SPARQL parser (rdflib's) reads in `text`, a "query" or an "update": the
    `SERVICE` and `LOAD` it finds, or ["unparsable"] when it cannot read the text.

    A second opinion beside `remote_clauses`: a token scan cannot tell every `<` that opens
    an IRI from a less-than (`FILTER(1<2)SERVICE#>`), a parser can. Both must find nothing.
    """
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate

    try:
        tree = parseQuery(text) if kind == "query" else parseUpdate(text)
    except Exception:  # noqa: BLE001 - pyparsing raises many kinds; any is a refusal here
        return ["unparsable"]
    names = set(_part_names(tree))
    parts = (("SERVICE", "ServiceGraphPattern"), ("LOAD", "Load"))
    return [keyword for keyword, part in parts if part in names]


def _part_names(tree: object) -> Iterator[str]:
    """The names of the grammar's parts in a parse tree (rdflib's CompValue nodes)."""
    from rdflib.plugins.sparql.parserutils import CompValue
    from rdflib.term import Node

    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, CompValue):
            yield node.name
            todo += list(node.values())
        elif isinstance(node, dict):
            todo += list(node.values())
        elif not isinstance(node, (str, bytes, Node)) and hasattr(node, "__iter__"):
            todo += list(node)


def scan(text: str) -> tuple[list[str], bool]:
    """One pass of the token scan over `text`, its codepoint escapes read: the keywords
    that would make the server fetch a URL (`remote_clauses`), and whether a keyword's
    letters stand anywhere but in a comment or a string (`may_name_remote`)."""
    found: list[str] = []
    suspect = False
    for match in _TOKEN.finditer(_unescape_codepoints(text)):
        kind = match.lastgroup
        if kind in ("comment", "string"):
            continue
        upper = match.group(0).upper()
        if not any(keyword in upper for keyword in REMOTE_KEYWORDS):
            continue
        suspect = True
        if kind == "word":
            piece = upper
        elif kind in ("prefixed", "prefix"):
            piece = match.group("prefix").upper()
        else:
            continue
        found += [k for k in REMOTE_KEYWORDS if k in piece and k not in found]
    return found, suspect


def may_name_remote(text: str) -> bool:
    """Whether a keyword of `REMOTE_KEYWORDS` appears in `text`, in any case, once its
    codepoint escapes are read, anywhere but in a comment or a string: where none does, no
    parser can read one, and the parser's second opinion (slow: 40 s for a 330 KB FILTER)
    is not needed. (The scan's strings and comments are a parser's too: what the scan
    can misread is a `<`, and an IRI it then reads past holds the keyword's letters.)"""
    return scan(text)[1]


def remote_clauses(text: str) -> list[str]:
    """The keywords of `text` that would make the server fetch a URL (`SERVICE`, `LOAD`),
    upper-cased, each once, in order of appearance; empty when there is none."""
    return scan(text)[0]
