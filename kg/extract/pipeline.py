"""The spaCy pipeline: `spacy.blank("en")`, our tokenizer rules and our components."""

from __future__ import annotations

import spacy
from spacy.language import Language

from kg.extract import components  # noqa: F401  (registers the kg_* factories)
from kg.extract.tokenizer import customize_tokenizer

#: bump when a change to the extractor changes what it extracts
EXTRACTOR_VERSION = "kg-extractor/0.1.0"


def make_nlp(lexicon_path: str = "") -> Language:
    """Build the extraction pipeline; `lexicon_path` overrides ontology/lexicon.ttl."""
    nlp = spacy.blank("en")
    # spaCy's 1M-character guard protects its parser's memory; this pipeline is linear
    nlp.max_length = 50_000_000
    customize_tokenizer(nlp)
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("kg_abbreviations")
    nlp.add_pipe("kg_lexicon", config={"path": lexicon_path})
    nlp.add_pipe("kg_candidates")
    nlp.add_pipe("kg_entities")
    return nlp
