"""The IRIs kg mints for the nodes of the data: content-derived, so no blank nodes and the
same IRIs in every build of the same input."""

from __future__ import annotations

import hashlib

from rdflib import URIRef

from kg.links import safe_url
from kg.model import Assertion, LinkedResult, Paper
from kg.namespaces import AGENT, ASSERTION, COLLECTION, ENTITY, PAPER, RESULT


def digest(*parts: object) -> str:
    """A short digest of `parts`: the local name of a node that has no name of its own."""
    return hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()[:16]


def collection_iri(paper: Paper) -> URIRef | None:
    """The collection a paper's input file names (icml-2026 for both seed files)."""
    if paper.venue and paper.year:
        return COLLECTION[f"{paper.venue.lower()}-{paper.year}"]
    if paper.collection:
        return COLLECTION[digest(paper.collection)]
    return None


def http_iri(text: str) -> URIRef | None:
    """An http(s) IRI with unsafe characters escaped, or None when `text` is not one."""
    safe = safe_url(text)
    return None if safe is None else URIRef(safe)


def agent_iri(extractor: str) -> URIRef:
    """The extractor of a build, the agent its assertions are attributed to."""
    return AGENT[extractor.replace("/", "-")]


def agent_nt(extractor: str) -> str:
    """The extractor of a build (N-Triples IRI)."""
    return f"<{agent_iri(extractor)}>"


# the hot path of a large build mints these as strings, in N-Triples syntax
_PAPER, _ENTITY = str(PAPER), str(ENTITY)


def paper_nt(paper: str) -> str:
    """A paper (N-Triples IRI)."""
    return f"<{_PAPER}{paper}>"


def entity_nt(key: str) -> str:
    """An entity (N-Triples IRI)."""
    return f"<{_ENTITY}{key}>"


def span_nt(paper: str, start: int, end: int) -> str:
    """A text span of a paper's abstract (N-Triples IRI); its selector's is this + /selector."""
    return f"<{_PAPER}{paper}/span/{start}-{end}>"


def selector_nt(paper: str, start: int, end: int) -> str:
    """The text position selector of a span (N-Triples IRI)."""
    return f"<{_PAPER}{paper}/span/{start}-{end}/selector>"


def mention_nt(paper: str, start: int, end: int) -> str:
    """A mention in a paper's abstract (N-Triples IRI)."""
    return f"<{_PAPER}{paper}/mention/{start}-{end}>"


def assertion_nt(a: Assertion) -> str:
    """A relation as one paper states it (N-Triples IRI)."""
    return f"<{ASSERTION}{digest(a.paper, a.head, a.relation.value, a.tail)}>"


def result_nt(r: LinkedResult) -> str:
    """A reported result (N-Triples IRI)."""
    return f"<{RESULT}{digest(r.paper, r.sentence.start, r.text, r.value)}>"
