"""Results: a value a paper reports, with its unit, metric, subject, benchmark and sentence."""

from __future__ import annotations

from kg.metrics import direction
from kg.model import LinkedResult, Paper
from kg.rdf import terms as t
from kg.rdf.iris import entity_nt, paper_nt, result_nt
from kg.rdf.papers import sentence_span
from kg.rdf.syntax import boolean, decimal, literal
from kg.rdf.triples import Triples


def add_result(graph: Triples, p: Paper, r: LinkedResult, agent: str) -> None:
    """A reported result: value, unit, metric, what scored it, on what, and its sentence."""
    add = graph.add_nt
    node = result_nt(r)
    add(node, t.A, t.RESULT)
    add(node, t.VALUE, decimal(r.value))
    if r.unit:
        add(node, t.UNIT, literal(r.unit))
    if r.metric:
        add(node, t.METRIC_NAME, literal(r.metric))
        if (better := direction(r.metric)) is not None:
            add(node, t.LOWER_IS_BETTER, boolean(better == "lower"))
    if r.subject:
        add(node, t.RESULT_OF, entity_nt(r.subject))
    if r.benchmark:
        add(node, t.ON_BENCHMARK, entity_nt(r.benchmark))
    add(node, t.DERIVED_FROM, paper_nt(r.paper))
    add(node, t.ATTRIBUTED_TO, agent)
    add(node, t.EVIDENCE, sentence_span(graph, p, r.sentence))
