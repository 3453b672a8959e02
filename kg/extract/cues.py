"""The extractor's word lists (kg/data/cues.json), read once."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg.errors import InputError
from kg.model import EntityType
from kg.resources import data_dir


@dataclass(frozen=True)
class Cues:
    """Word lists that steer candidate filtering, typing and relations."""

    generic_terms: frozenset[str]
    proposal_verbs: frozenset[str]
    strong_comparison_cues: frozenset[str]
    component_cues: frozenset[str]
    type_heads: dict[str, EntityType]
    benchmark_suffixes: tuple[str, ...]
    model_variant_parts: frozenset[str]
    metric_words: frozenset[str]
    #: metric words written with a number as one name: ROUGE-1, BLEU-4, Top-5
    numbered_metrics: frozenset[str]
    adjective_suffixes: frozenset[str]
    method_use_cues: frozenset[str]
    proposal_np_stop: frozenset[str]
    result_skip_cues: frozenset[str]
    candidate_heads: frozenset[str]
    naming_cues: frozenset[str]
    proposal_phrase_stop: frozenset[str]
    proposal_phrase_after: frozenset[str]
    generic_first_words: frozenset[str]
    relation_cues: frozenset[str]
    type_context_words: frozenset[str]
    task_heads: frozenset[str]
    strict_task_heads: frozenset[str]
    short_form_introducers: frozenset[str]
    folded_name_suffixes: frozenset[str]
    proposal_subjects: frozenset[str]
    proposal_object_stop: frozenset[str]
    novelty_words: frozenset[str]
    versus_words: frozenset[str]
    training_words: frozenset[str]
    articles: frozenset[str]
    means_words: frozenset[str]
    name_determiners: frozenset[str]
    evaluation_context_words: frozenset[str]
    naming_words: frozenset[str]
    evaluation_heads: frozenset[str]
    #: "a framework for evaluating X" is an evaluation framework: a Benchmark
    evaluation_verbs: frozenset[str]
    plural_heads: frozenset[str]
    quantity_words: frozenset[str]
    name_joiners: frozenset[str]
    train_words: frozenset[str]
    eval_words: frozenset[str]
    versus_cues: frozenset[str]
    example_cues: frozenset[str]
    result_delta_words: frozenset[str]  #: a number before them is a difference
    result_score_verbs: frozenset[str]  #: a number after them is a score
    result_fillers: frozenset[str]  #: words between a cue and its number
    result_metric_words: frozenset[str]  #: metric names beyond metric_words
    result_rival_words: frozenset[str]  #: a number after them is an unnamed rival's
    #: words that start another clause: a resource after them is not where a figure before
    #: them was measured ("…, while on MiniWob++")
    result_clause_breaks: frozenset[str]
    prior_work_words: frozenset[str]  #: a name after them is someone else's work
    named_stop: frozenset[str]
    named_skip: frozenset[str]
    calling_verbs: frozenset[str]
    refer_verbs: frozenset[str]
    document_nouns: frozenset[str]
    document_verbs: frozenset[str]
    numbered_parts: frozenset[str]  #: "Table 2", "Theorem 1": no name's version
    proposer_words: frozenset[str]
    list_joiners: frozenset[str]
    part_words: frozenset[str]
    self_nouns: frozenset[str]
    study_verbs: frozenset[str]
    gain_words: frozenset[str]  #: "improvement over X", "faster than X": X is beaten
    dotted_abbreviations: tuple[str, ...]  #: one token each, ending no sentence (et al.)


@lru_cache(maxsize=1)
def load_cues() -> Cues:
    """kg/data/cues.json, checked against kg/data/cues.schema.json."""
    return read_cues(data_dir() / "cues.json")


def read_cues(path: Path) -> Cues:
    """A cue-word file, checked against kg/data/cues.schema.json.

    Raises:
        InputError: the file is no JSON, or breaks the schema (named: where and how).
    """
    import jsonschema

    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise InputError(path, f"not JSON ({error.msg})", line=error.lineno) from None
    schema = json.loads((data_dir() / "cues.schema.json").read_text(encoding="utf-8"))
    problem = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema).iter_errors(raw)
    )
    if problem is not None:
        raise InputError(path, f"{problem.json_path}: {problem.message}")
    heads = {word: EntityType(t) for t, words in raw["type_heads"].items() for word in words}
    return Cues(
        generic_terms=frozenset(raw["generic_terms"]),
        proposal_verbs=frozenset(raw["proposal_verbs"]),
        strong_comparison_cues=frozenset(raw["strong_comparison_cues"]),
        component_cues=frozenset(raw["component_cues"]),
        type_heads=heads,
        benchmark_suffixes=tuple(raw["benchmark_suffixes"]),
        model_variant_parts=frozenset(raw["model_variant_parts"]),
        metric_words=frozenset(raw["metric_words"]),
        numbered_metrics=frozenset(raw["numbered_metrics"]),
        adjective_suffixes=frozenset(raw["adjective_suffixes"]),
        method_use_cues=frozenset(raw["method_use_cues"]),
        proposal_np_stop=frozenset(raw["proposal_np_stop"]),
        result_skip_cues=frozenset(raw["result_skip_cues"]),
        candidate_heads=frozenset(raw["candidate_heads"]),
        naming_cues=frozenset(raw["naming_cues"]),
        proposal_phrase_stop=frozenset(raw["proposal_phrase_stop"]),
        proposal_phrase_after=frozenset(raw["proposal_phrase_after"]),
        generic_first_words=frozenset(raw["generic_first_words"]),
        relation_cues=frozenset(raw["relation_cues"]),
        type_context_words=frozenset(raw["type_context_words"]),
        task_heads=frozenset(raw["task_heads"]),
        strict_task_heads=frozenset(raw["strict_task_heads"]),
        short_form_introducers=frozenset(raw["short_form_introducers"]),
        folded_name_suffixes=frozenset(raw["folded_name_suffixes"]),
        proposal_subjects=frozenset(raw["proposal_subjects"]),
        proposal_object_stop=frozenset(raw["proposal_object_stop"]),
        novelty_words=frozenset(raw["novelty_words"]),
        versus_words=frozenset(raw["versus_words"]),
        training_words=frozenset(raw["training_words"]),
        articles=frozenset(raw["articles"]),
        means_words=frozenset(raw["means_words"]),
        name_determiners=frozenset(raw["name_determiners"]),
        evaluation_context_words=frozenset(raw["evaluation_context_words"]),
        naming_words=frozenset(raw["naming_words"]),
        evaluation_heads=frozenset(raw["evaluation_heads"]),
        evaluation_verbs=frozenset(raw["evaluation_verbs"]),
        plural_heads=frozenset(raw["plural_heads"]),
        quantity_words=frozenset(raw["quantity_words"]),
        name_joiners=frozenset(raw["name_joiners"]),
        train_words=frozenset(raw["train_words"]),
        eval_words=frozenset(raw["eval_words"]),
        versus_cues=frozenset(raw["versus_cues"]),
        example_cues=frozenset(raw["example_cues"]),
        result_delta_words=frozenset(raw["result_delta_words"]),
        result_score_verbs=frozenset(raw["result_score_verbs"]),
        result_fillers=frozenset(raw["result_fillers"]),
        result_metric_words=frozenset(raw["result_metric_words"]),
        result_rival_words=frozenset(raw["result_rival_words"]),
        result_clause_breaks=frozenset(raw["result_clause_breaks"]),
        prior_work_words=frozenset(raw["prior_work_words"]),
        named_stop=frozenset(raw["named_stop"]),
        named_skip=frozenset(raw["named_skip"]),
        calling_verbs=frozenset(raw["calling_verbs"]),
        refer_verbs=frozenset(raw["refer_verbs"]),
        document_nouns=frozenset(raw["document_nouns"]),
        document_verbs=frozenset(raw["document_verbs"]),
        numbered_parts=frozenset(raw["numbered_parts"]),
        proposer_words=frozenset(raw["proposer_words"]),
        list_joiners=frozenset(raw["list_joiners"]),
        part_words=frozenset(raw["part_words"]),
        self_nouns=frozenset(raw["self_nouns"]),
        study_verbs=frozenset(raw["study_verbs"]),
        gain_words=frozenset(raw["gain_words"]),
        dotted_abbreviations=tuple(raw["dotted_abbreviations"]),
    )
