"""The lexicon (ontology/lexicon.ttl): consistent keys, and every label found in a sentence."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from conftest import DATA
from rdflib import RDF, Graph
from rdflib.namespace import SKOS

from kg.extract.components import LEXICON
from kg.extract.markup import strip_markup
from kg.lexicon import default_lexicon, load_lexicon
from kg.model import EntityType
from kg.names import entity_key, fold
from kg.namespaces import ENTITY, KG
from kg.resources import ontology_dir


def test_keys_are_folded_preferred_labels_and_families_exist():
    concepts = default_lexicon()
    keys = {c.key for c in concepts}
    assert len(keys) == len(concepts) > 800
    for c in concepts:
        assert c.key == entity_key(c.label), c.label
        assert c.broader is None or c.broader in keys, c.key


def test_the_lexicon_read_by_oxigraph_is_the_lexicon_rdflib_reads():
    graph = Graph().parse(ontology_dir() / "lexicon.ttl", format="turtle")
    kinds = {KG[t.value]: t for t in EntityType}
    expected = set()
    for subject, _, cls in graph.triples((None, RDF.type, None)):
        if cls in kinds:
            broader = graph.value(subject, KG.variantOf)
            expected.add(
                (
                    str(subject).removeprefix(str(ENTITY)),
                    str(graph.value(subject, SKOS.prefLabel)),
                    kinds[cls],
                    tuple(sorted(str(a) for a in graph.objects(subject, SKOS.altLabel))),
                    str(broader).removeprefix(str(ENTITY)) if broader is not None else None,
                )
            )
    read = {(c.key, c.label, c.type, c.alt_labels, c.broader) for c in load_lexicon()}
    assert read == expected and len(read) > 800


def lexicon_file(tmp_path, body: str):
    path = tmp_path / "lexicon.ttl"
    path.write_text(
        f"@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix kg: <{KG}> .\n" + body,
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    "what",
    [
        "a kg:Method",
        'a kg:Method ; skos:prefLabel "A", "B"',
        'a kg:Method, kg:Model ; skos:prefLabel "A"',
    ],
)
def test_a_concept_without_one_type_and_one_preferred_label_is_refused(tmp_path, what):
    path = lexicon_file(tmp_path, f'<{ENTITY}foo> {what} ; skos:altLabel "Foo" .\n')
    with pytest.raises(ValueError, match="one of each"):
        load_lexicon(path)


def test_a_triple_written_twice_counts_once(tmp_path):
    triples = f'<{ENTITY}foo> a kg:Method ; skos:prefLabel "Foo" ; skos:altLabel "F" .\n'
    (concept,) = load_lexicon(lexicon_file(tmp_path, triples * 2))
    assert (concept.key, concept.label, concept.alt_labels) == ("foo", "Foo", ("F",))


def test_no_two_concepts_share_a_name():
    owners = defaultdict(set)
    for c in default_lexicon():
        for label in c.labels:
            owners[fold(label)].add(c.key)
    assert {name: keys for name, keys in owners.items() if len(keys) > 1} == {}


def test_every_label_is_found_with_its_concept_and_type(nlp):
    """A silent typo in a label would leave it unmatched (scispacy #595): the lexicon
    component finds every label, as written, with its concept and type."""
    items = [(c, label) for c in default_lexicon() for label in c.labels]
    docs = nlp.pipe(strip_markup(f"We use {label} here.").text for _, label in items)
    missed = []
    for (concept, label), doc in zip(items, docs, strict=True):
        if not any(
            s.kb_id_ == concept.key
            and s.text == strip_markup(label).text
            and s.label_ == concept.type
            for s in doc.spans[LEXICON]
        ):
            missed.append(label)
    assert missed == []


ML_ABSTRACTS = Path(__file__).resolve().parents[2] / "shared" / "data" / "ml_abstracts"


def _recent(concept_key: str, graph) -> bool:  # noqa: ANN001
    """A dated release of 2023 or later (too recent for the corpus to count)."""
    from rdflib import URIRef
    from rdflib.namespace import DCTERMS

    from kg.namespaces import ENTITY

    issued = graph.value(URIRef(str(ENTITY) + concept_key), DCTERMS.issued)
    return issued is not None and int(str(issued)[:4]) >= 2023


@pytest.mark.slow
@pytest.mark.skipif(not ML_ABSTRACTS.is_dir(), reason="needs ../shared/data/ml_abstracts")
def test_every_entry_is_general_knowledge(nlp):
    """An entry is common in the field: kg's lexicon matcher finds it in 3 or more of the
    25,514 abstracts of ../shared/data/ml_abstracts, or it is a recent release (dated 2023
    or later: a widely known model or benchmark the corpus is too old to count)."""
    from rdflib import Graph

    from kg.resources import ontology_dir

    counts: Counter[str] = Counter()
    for path in sorted(ML_ABSTRACTS.glob("*.jsonl")):
        with path.open(encoding="utf-8") as handle:
            texts = [json.loads(line)["abstract"] for line in handle]
        lexicon = nlp.get_pipe(LEXICON)
        for doc in nlp.tokenizer.pipe(strip_markup(t).text for t in texts):
            counts.update({s.kb_id_ for s in lexicon(doc).spans[LEXICON]})
    graph = Graph().parse(ontology_dir() / "lexicon.ttl")
    rare = [c.label for c in default_lexicon() if counts[c.key] < 3 and not _recent(c.key, graph)]
    assert rare == []


def test_no_entry_is_a_name_a_gold_abstract_coins():
    """A name a seed or gold abstract proposes is that paper's, not the field's."""
    coined = set()
    for name in ("dev.jsonl", "train.jsonl"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            coined |= {
                fold(n)
                for e in record["entities"]
                if e.get("proposed")
                for n in (e["name"], *(e.get("aliases") or ()))
            }
    known = {fold(label) for c in default_lexicon() for label in c.labels}
    assert sorted(coined & known) == []


@pytest.mark.parametrize(
    ("text", "name", "found"),
    [
        # a model's or a resource's name of several words, in another case
        ("We fine-tune Code llama on it.", "Code llama", True),
        ("Agents play Google research football.", "Google research football", True),
        ("Results on Pascal VOC hold.", "Pascal VOC", True),
        # all in lower case, such a name is as often a phrase (58 "vision transformer(s)"
        # of ml_abstracts, most of them no ViT)
        ("We train a new vision transformer, coined FooViT.", "vision transformer", False),
        ("Results on the long range arena benchmark.", "long range arena", False),
        ("Results on Natural questions improve.", "Natural questions", True),
    ],
)
def test_names_of_several_words_in_any_case(nlp, text, name, found):
    doc = nlp(text)
    assert any(s.text == name for s in doc.spans[LEXICON]) is found


def test_methods_in_lower_case_are_no_lexicon_match(nlp):
    """A method's name of several words in lower case is as often a generic phrase: only
    models and resources are matched in any case."""
    methods = [
        label
        for c in default_lexicon()
        if c.type.value == "Method"
        for label in c.labels
        if len(label.split()) > 1 and label != label.lower()
    ]
    assert methods  # the lexicon has such names, so the test can fail
    label = methods[0]
    doc = nlp(f"We use {label.lower()} here.")
    assert not any(s.text == label.lower() for s in doc.spans[LEXICON])


def test_the_lexicon_alone_is_a_skos_scheme_of_concepts():
    """A SKOS tool reading lexicon.ttl alone found no concept: each was only `a kg:Model`
    (a skos:Concept through ontology/kg.ttl) and in no scheme (a review, 2026-12-07)."""
    from rdflib import Graph, URIRef
    from rdflib.namespace import RDF, SKOS

    from kg.resources import ontology_dir

    graph = Graph().parse(ontology_dir() / "lexicon.ttl")
    scheme = URIRef("https://w3id.org/kg-ml/id/lexicon")
    assert (scheme, RDF.type, SKOS.ConceptScheme) in graph
    labelled = set(graph.subjects(SKOS.prefLabel, None))
    assert len(labelled) > 1000
    assert labelled == set(graph.subjects(RDF.type, SKOS.Concept))
    assert labelled == set(graph.subjects(SKOS.inScheme, scheme))
    # and each is of one of kg's types, which kg reads (a concept of none is skipped)
    kg = "https://w3id.org/kg-ml/ontology#"
    for concept in labelled:
        kinds = [t for t in graph.objects(concept, RDF.type) if str(t).startswith(kg)]
        assert len(kinds) == 1, concept
