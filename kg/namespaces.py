"""Every IRI kg writes comes from here: the kg ontology, the other vocabularies' terms kg
uses (each a `DefinedNamespace` that fails on a term it does not define) and the id spaces
of the data."""

from __future__ import annotations

from rdflib import Namespace, URIRef
from rdflib.namespace import VOID as VOID  # rdflib's VOID is a checked DefinedNamespace
from rdflib.namespace import DefinedNamespace

#: base of everything kg mints; the ontology is `BASE + "ontology#"`
BASE = "https://w3id.org/kg-ml/"


class KG(DefinedNamespace):
    """The kg ontology (ontology/kg.ttl); a name not defined there fails at import."""

    _NS = Namespace(BASE + "ontology#")
    _fail = True

    Paper: URIRef
    Collection: URIRef
    Entity: URIRef
    Method: URIRef
    Model: URIRef
    Dataset: URIRef
    Benchmark: URIRef
    Task: URIRef
    Metric: URIRef
    Mention: URIRef
    TextSpan: URIRef
    Assertion: URIRef
    Extractor: URIRef
    Result: URIRef
    venue: URIRef
    sourceFile: URIRef
    sourceLine: URIRef
    variantOf: URIRef
    typeVotes: URIRef
    mentions: URIRef
    proposes: URIRef
    uses: URIRef
    evaluatedOn: URIRef
    outperforms: URIRef
    partOf: URIRef
    text: URIRef
    evidence: URIRef
    resultOf: URIRef
    onBenchmark: URIRef
    metricName: URIRef
    lowerIsBetter: URIRef
    value: URIRef
    unit: URIRef


class OA(DefinedNamespace):
    """W3C Web Annotation: the terms kg uses for mentions and their text positions."""

    _NS = Namespace("http://www.w3.org/ns/oa#")
    _fail = True

    TextPositionSelector: URIRef
    hasBody: URIRef
    hasTarget: URIRef
    hasSource: URIRef
    hasSelector: URIRef
    start: URIRef
    end: URIRef


class SCHEMA(DefinedNamespace):
    """schema.org: the terms kg uses for a paper's links (rdflib's `SDO` accepts any name)."""

    _NS = Namespace("https://schema.org/")
    _fail = True

    url: URIRef
    sameAs: URIRef
    codeRepository: URIRef


class MLS(DefinedNamespace):
    """ML-Schema, which the ontology aligns with; kg's data uses none of its terms."""

    _NS = Namespace("http://www.w3.org/ns/mls#")
    _fail = True


PAPER = Namespace(BASE + "id/paper/")
ENTITY = Namespace(BASE + "id/entity/")
COLLECTION = Namespace(BASE + "id/collection/")
ASSERTION = Namespace(BASE + "id/assertion/")
RESULT = Namespace(BASE + "id/result/")
AGENT = Namespace(BASE + "id/agent/")

LEXICON = URIRef(BASE + "id/lexicon")
#: the ontology's IRI, and the named graph it is loaded into by `kg query` and `kg serve`
ONTOLOGY = URIRef(BASE + "ontology")
DATASET = URIRef(BASE + "id/dataset")

#: prefixes bound in every graph kg writes and declared for every query
PREFIXES: dict[str, str] = {
    "kg": str(KG._NS),
    "paper": str(PAPER),
    "entity": str(ENTITY),
    "collection": str(COLLECTION),
    "assertion": str(ASSERTION),
    "result": str(RESULT),
    "agent": str(AGENT),
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "dcterms": "http://purl.org/dc/terms/",
    # DCMI's elements, for a creator's name as text (dcterms:creator's range is an agent)
    "dc": "http://purl.org/dc/elements/1.1/",
    "schema": str(SCHEMA),
    "prov": "http://www.w3.org/ns/prov#",
    "oa": str(OA),
    "mls": str(MLS),
    "void": str(VOID),
    "kgs": BASE + "shapes#",
}
