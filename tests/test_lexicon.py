"""The lexicon (ontology/lexicon.ttl): consistent keys, and every label found in a sentence."""

from __future__ import annotations

from collections import defaultdict

from kg.extract.markup import blank_markup
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
    """A silent typo in a label would leave it unmatched (scispacy #595)."""
    items = [(c, label) for c in default_lexicon() for label in c.labels]
    docs = nlp.pipe(blank_markup(f"We use {label} here.") for _, label in items)
    missed = []
    for (concept, label), doc in zip(items, docs, strict=True):
        if not any(
            e.kb_id_ == concept.key and e.text == label and e.label_ == concept.type
            for e in doc.ents
        ):
            missed.append(label)
    assert missed == []
