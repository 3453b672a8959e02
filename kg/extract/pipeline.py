"""The spaCy pipeline: `spacy.blank("en")`, our tokenizer rules and our components."""

from __future__ import annotations

import spacy
from spacy.language import Language

from kg.extract import components  # noqa: F401  (registers the kg_* factories)
from kg.extract.classifier import Models
from kg.extract.tokenizer import customize_tokenizer
from kg.extract.version import EXTRACTOR_VERSION

__all__ = ["EXTRACTOR_VERSION", "make_nlp", "models_of"]


def make_nlp(lexicon_path: str = "", models: Models | None = None) -> Language:
    """Build the extraction pipeline; `lexicon_path` overrides ontology/lexicon.ttl and
    `models` the trained models of kg/data/extractor.json."""
    nlp = spacy.blank("en")
    # spaCy's 1M-character guard protects its parser's memory; this pipeline is linear
    nlp.max_length = 50_000_000
    customize_tokenizer(nlp)
    nlp.add_pipe("kg_sentences")
    nlp.add_pipe("kg_abbreviations")
    nlp.add_pipe("kg_lexicon", config={"path": lexicon_path})
    nlp.add_pipe("kg_candidates")
    resolver = nlp.add_pipe("kg_entities")
    if models is not None:
        resolver.models = models  # type: ignore[attr-defined]
    return nlp


def models_of(nlp: Language) -> Models:
    """The trained models a pipeline from `make_nlp` decides with."""
    models: Models = nlp.get_pipe("kg_entities").models  # type: ignore[attr-defined]
    return models
