"""N-Triples syntax: terms written as kg writes them, and the triples written block by block."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from typing import TYPE_CHECKING

from rdflib import XSD, Literal, URIRef

if TYPE_CHECKING:
    from kg.rdf.triples import Block, Triples

Term = URIRef | Literal

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_CONTROL = re.compile(r'[\\"\x00-\x1f\x7f]')
_NON_NEGATIVE = str(XSD.nonNegativeInteger)


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    return _ESCAPES.get(char) or f"\\u{ord(char):04X}"


def iri(term: str) -> str:
    """An IRI (already valid, as kg mints them) in N-Triples syntax."""
    return f"<{term}>"


def literal(text: str, datatype: str | None = None) -> str:
    """A literal in N-Triples syntax: `text` escaped, then the datatype IRI if any."""
    quoted = '"' + _CONTROL.sub(_escape, text) + '"'
    return f"{quoted}^^<{datatype}>" if datatype else quoted


def count(n: int) -> str:
    """An xsd:nonNegativeInteger literal (a text offset)."""
    return f'"{n}"^^<{_NON_NEGATIVE}>'


def boolean(value: bool) -> str:
    """An xsd:boolean literal (N-Triples)."""
    return literal("true" if value else "false", XSD.boolean)


def decimal(value: Decimal) -> str:
    """An xsd:decimal in canonical form ("70.0", not "70"), the same in every syntax."""
    lexical = format(value, "f")
    return literal(lexical if "." in lexical else lexical + ".0", XSD.decimal)


def term(value: Term) -> str:
    """An rdflib term in N-Triples syntax."""
    if isinstance(value, URIRef):
        return f"<{value}>"
    text = '"' + _CONTROL.sub(_escape, str(value)) + '"'
    if value.language:
        return f"{text}@{value.language}"
    if value.datatype and str(value.datatype) != str(XSD.string):
        return f"{text}^^<{value.datatype}>"
    return text


def ntriples(graph: Triples) -> str:
    """The triples as N-Triples, one a line (see `Triples` for the order): diffable,
    streamable, the same bytes for the same input."""
    return "".join(line + "\n" for line in graph.lines())


def block_ntriples(block: Block) -> Iterator[bytes]:
    """One block as N-Triples, sorted, in UTF-8 chunks of up to 10,000 lines."""
    lines = sorted(block.lines)
    for i in range(0, len(lines), 10_000):
        yield ("\n".join(lines[i : i + 10_000]) + "\n").encode("utf-8")
