"""The vocabulary terms kg writes, in N-Triples syntax, each taken from a `DefinedNamespace`
that fails on a term it does not define: a misspelt name here fails at import."""

from __future__ import annotations

from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, SKOS

from kg.model import EntityType, RelationType
from kg.namespaces import KG, OA, SCHEMA
from kg.rdf.syntax import iri

# rdf, rdfs, skos, dcterms, prov
A = iri(RDF.type)
SUBJECT = iri(RDF.subject)
PREDICATE = iri(RDF.predicate)
OBJECT = iri(RDF.object)
LABEL = iri(RDFS.label)
PREF_LABEL = iri(SKOS.prefLabel)
ALT_LABEL = iri(SKOS.altLabel)
IN_SCHEME = iri(SKOS.inScheme)
EDITORIAL_NOTE = iri(SKOS.editorialNote)
IDENTIFIER = iri(DCTERMS.identifier)
ABSTRACT = iri(DCTERMS.abstract)
DATE = iri(DCTERMS.date)
DERIVED_FROM = iri(PROV.wasDerivedFrom)
ATTRIBUTED_TO = iri(PROV.wasAttributedTo)

# schema.org
URL = iri(SCHEMA.url)
CODE_REPOSITORY = iri(SCHEMA.codeRepository)

# Web Annotation
TEXT_POSITION_SELECTOR = iri(OA.TextPositionSelector)
HAS_BODY = iri(OA.hasBody)
HAS_TARGET = iri(OA.hasTarget)
HAS_SOURCE = iri(OA.hasSource)
HAS_SELECTOR = iri(OA.hasSelector)
START = iri(OA.start)
END = iri(OA.end)

# the kg ontology
PAPER = iri(KG.Paper)
ENTITY = iri(KG.Entity)
MENTION = iri(KG.Mention)
TEXT_SPAN = iri(KG.TextSpan)
ASSERTION = iri(KG.Assertion)
EXTRACTOR = iri(KG.Extractor)
RESULT = iri(KG.Result)
SOURCE_FILE = iri(KG.sourceFile)
SOURCE_LINE = iri(KG.sourceLine)
VENUE = iri(KG.venue)
MENTIONS = iri(KG.mentions)
TEXT = iri(KG.text)
EVIDENCE = iri(KG.evidence)
TYPE_VOTES = iri(KG.typeVotes)
VARIANT_OF = iri(KG.variantOf)
VALUE = iri(KG.value)
UNIT = iri(KG.unit)
METRIC_NAME = iri(KG.metricName)
LOWER_IS_BETTER = iri(KG.lowerIsBetter)
RESULT_OF = iri(KG.resultOf)
ON_BENCHMARK = iri(KG.onBenchmark)
#: the ontology class of each entity type
CLASSES: dict[EntityType, str] = {t: iri(KG[t.value]) for t in EntityType}
#: the ontology property of each relation type
PREDICATES: dict[RelationType, str] = {
    RelationType.PROPOSES: iri(KG.proposes),
    RelationType.USES: iri(KG.uses),
    RelationType.EVALUATED_ON: iri(KG.evaluatedOn),
    RelationType.OUTPERFORMS: iri(KG.outperforms),
    RelationType.PART_OF: iri(KG.partOf),
}
