"""The lexicon (ontology/lexicon.ttl): consistent keys, and every label found in a sentence."""

from __future__ import annotations

from collections import defaultdict

from kg.extract.components import LEXICON
from kg.extract.markup import strip_markup
from kg.lexicon import default_lexicon
from kg.names import entity_key, fold


def test_keys_are_folded_preferred_labels_and_families_exist():
    concepts = default_lexicon()
    keys = {c.key for c in concepts}
    assert len(keys) == len(concepts) > 800
    for c in concepts:
        assert c.key == entity_key(c.label), c.label
        assert c.broader is None or c.broader in keys, c.key


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
