"""Decide Method / Model / Dataset / Benchmark / Metric for a span, and say why.

Evidence in order of trust: the lexicon, a model family with a variant suffix, a head noun
beside the name ("ReaGen-27k, a dataset"), a lexicon dataset or benchmark with a suffix
(MovieLens 25M, WMT 2014), the name's own suffix (-Bench, -QA, -27k),
evaluation context ("on X and Y"), and the default, Method.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from spacy.tokens import Doc, Span

from kg.extract.appositions import CONTAINER_NOUNS, called, phrase_head
from kg.extract.cues import Cues, load_cues
from kg.extract.families import family_suffix, model_family
from kg.extract.sentences import sentence_bounds, sentence_of
from kg.extract.shapes import is_size
from kg.extract.texts import LIST_WORDS, lowers, span_text
from kg.extract.wordclass import HEAD_TYPES, word_classes
from kg.lexicon import default_lexicon
from kg.model import EntityType

_DATA_SIZE = re.compile(r"-\d+(\.\d+)?[kKM]$")
_PARTS = re.compile(r"[-_ ]")
#: where a known name may end and a variant's suffix begin: MBPP|-R+, ImageNet|-64, GPT|4
_VARIANT_CUT = re.compile(r"[-_ +/]|(?<=[^\W\d_])\d")
#: a size written after a known model, and a patch size after it: ViT-S, DeiT-Ti,
#: BART-large, ViT-B/16
_MODEL_SIZE = re.compile(
    r"[-_ ](?:T|Ti|S|B|L|H|XL|XXL|tiny|small|base|large|huge|giant|mini)(?:/\d+)?$",
    re.IGNORECASE,
)
#: a size written in full after a known method (Transformer-XL): one letter after a method
#: is more often another method's name (UCB-S, STAR-T)
_METHOD_SIZE = re.compile(r"[-_ ](?:XL|XXL|tiny|small|base|large|huge|giant)$", re.IGNORECASE)
_ARTICLES = load_cues().name_determiners  # kg/data/cues.json
_EVAL_WORDS = load_cues().evaluation_context_words  # kg/data/cues.json


@lru_cache(maxsize=1)
def _all_labels() -> dict[str, EntityType]:
    """Every lexicon name, lower-cased, to its type."""
    return {label.lower(): c.type for c in default_lexicon() for label in c.labels}


@lru_cache(maxsize=65536)
def lexicon_variant(name: str) -> EntityType | None:
    """The type of the lexicon name `name` varies: MBPP-R+ (MBPP), MMLU-Math (MMLU),
    ImageNet-64 (ImageNet): a known name and a short suffix keep the known name's type."""
    labels = _all_labels()
    lower = name.lower()
    cuts = [m.start() for m in _VARIANT_CUT.finditer(name, max(3, len(name) - 12))]
    for cut in reversed(cuts):
        found = labels.get(lower[:cut])
        if found is not None:
            return found
    return None


_NAMING = load_cues().naming_words  # kg/data/cues.json


class _At(NamedTuple):
    """Where a name is, in tokens (what the rules read of a Span, without making one)."""

    start: int
    end: int


def _sentence(doc: Doc, span: _At) -> tuple[int, int]:
    return sentence_bounds(doc)[sentence_of(doc)[span.start]]


def _naming_word(low: list[str], span: _At, first: int) -> int | None:
    """The word before the naming words right before the name ("framework" of "a framework
    called X", "model" of "our model, dubbed X"), by index; None where no naming word stands
    right before it (`first` is the first token of its sentence)."""
    j = span.start - 1
    while j >= first and low[j] in _NAMING:
        j -= 1
    return j if first <= j < span.start - 1 else None


def _head_naming(doc: Doc, span: _At, first: int) -> EntityType | None:
    """ "our model, dubbed XLM-R", "a framework called X": the head noun that names it."""
    heads = load_cues().type_heads
    low = lowers(doc)
    j = _naming_word(low, span, first)
    return heads[low[j]] if j is not None and low[j] in heads else None


def _framework_named(low: list[str], span: _At, first: int) -> bool:
    """Whether a framework's noun names the name (tokens of `span`) by a naming word right
    before it: "a framework called X", or "a framework, X, …" with the name set off by
    commas (not "On the evaluation framework, X improves")."""
    j = _naming_word(low, span, first)
    if j is None or low[j] not in _FRAMEWORKS:
        return False
    return low[span.start - 1] != "," or (span.end < len(low) and low[span.end] == ",")


#: nouns of a framework: one for evaluating is a benchmark
_FRAMEWORKS = frozenset({"framework", "frameworks", "toolkit", "protocol"})


def _head_after(doc: Doc, span: _At) -> EntityType | None:
    heads = load_cues().type_heads
    low = lowers(doc)
    n = len(low)
    i = span.end
    while i < n and low[i].startswith("*"):  # "**X**, a framework"
        i += 1
    if i < n and low[i] in heads:
        return heads[low[i]]
    if i < n and low[i] in {",", "("}:
        j = i + 1
        while j < min(n, i + 6) and low[j] in _ARTICLES:
            j += 1
        if j < n and j > i + 1 and low[j] in CONTAINER_NOUNS and j + 1 < n and low[j + 1] == "of":
            return None  # "X, a suite of models": what it holds names it (the apposition)
        # "X, a retrieval model", "X, a dataset-construction framework": a head noun first
        # or second; the phrase's head is its last type word ("X, an LLM reasoning and
        # planning benchmark", "X, a model compression method"), read as the apposition is
        if j > i + 1 and (j < n and low[j] in heads or j + 1 < n and low[j + 1] in heads):
            found = phrase_head(low, word_classes(doc).head, j, _sentence(doc, span)[1])
            if found is not None:
                return HEAD_TYPES[found]
            return heads.get(low[j]) or heads[low[j + 1]]  # a phrase the sentence's end cuts
    return None


_PLURAL_HEADS = load_cues().plural_heads  # kg/data/cues.json
_QUANTITY = load_cues().quantity_words  # kg/data/cues.json


def _category(doc: Doc, span: _At) -> bool:
    """ "five VideoQA benchmarks", "VideoQA models": the name of a kind of thing; not a name
    with a digit or a hyphen that ends a list of models or methods ("ResNet-50, ViT-S and
    ConvNeXt-T models"; "VideoQA and ImageQA models", "VQA, OCR and NLI tasks" are kinds)."""
    low = lowers(doc)
    following = low[span.end] if span.end < len(low) else ""
    before = low[span.start - 1] if span.start > 0 else None
    if following in {"models", "methods", "tasks"}:
        return not (
            following != "tasks"
            and before in LIST_WORDS
            and any(c.isdigit() or c == "-" for c in low[span.start : span.end][-1])
        )
    return (
        following in _PLURAL_HEADS
        and before is not None
        and (before in _QUANTITY or before.isdigit())
    )


def _head_before(doc: Doc, span: _At, sent_start: int) -> EntityType | None:
    low = lowers(doc)
    for j in range(span.start - 1, max(sent_start, span.start - 8) - 1, -1):
        word = low[j]
        if word in {"benchmark", "benchmarks"}:
            return EntityType.BENCHMARK
        if word in {"dataset", "datasets", "corpus", "corpora"}:
            return EntityType.DATASET
        if word in {".", ";", ":"} or word in load_cues().proposal_verbs:
            break
    return None


_CALLED = (EntityType.BENCHMARK, EntityType.DATASET, EntityType.MODEL, EntityType.METHOD)
#: what a head noun says that no apposition overrides
_NOT_METHOD = (EntityType.BENCHMARK, EntityType.DATASET, EntityType.MODEL)
#: the evidence of `type_at` that says what a name is, wherever it stands: what the text
#: calls it ("X, a benchmark", "a benchmark called X") or its own form; not the words
#: around one mention ("GSD models", "GSD accuracy drops", "On the BEIR benchmark, GSD
#: improves"), nor a metric's word (MAP)
NAMING_EVIDENCE = frozenset(
    {"apposition", "head noun in name", "model family", "model family suffix", "name suffix"}
)


def _apposition(doc: Doc, span: _At, sentence: tuple[int, int]) -> EntityType | None:
    """What a noun phrase beside the name calls it, read to its head noun however long
    ("X, a multiregion, switching nonlinear state space model"; `appositions.py`)."""
    found = called(lowers(doc), word_classes(doc).head, span.start, span.end, *sentence)
    return HEAD_TYPES[found] if found is not None else None


def decide_type(span: Span, doc: Doc) -> tuple[EntityType | None, str]:
    """The type of `span` and a short word on the evidence for it."""
    if span.kb_id_:
        return EntityType(span.label_), "lexicon"
    return type_at(doc, span.start, span.end)


_NUMBERED = re.compile(r"([a-z]+)-\d+")


#: the last words of a measure's name of several words ("phoneme error rate", "attack
#: success rate", "top-1 accuracy", "expected calibration error")
_MEASURE_ENDS = (("error", "rate"), ("success", "rate"), ("calibration", "error"))
#: first words that make a measure's name an objective to train by: "Minimum Word Error
#: Rate (MWER) training", "Maximum Success Rate" are methods, not measures
_OBJECTIVES = frozenset({"minimum", "maximum", "min", "max", "minimal", "maximal"})


def _metric_name(lower: str, cues: Cues) -> bool:
    """ "accuracy", "rouge-l", and a metric word that is written with a number ("rouge-1",
    "bleu-4", "top-5": `numbered_metrics` of cues.json; not "reward-2", a model's name); a
    name of several words that ends as a measure's does ("phoneme error rate"), or in
    "score" after a metric's name ("F1 score", "BLEU score"), unless it is an objective
    ("Minimum Word Error Rate": `_OBJECTIVES`)."""
    if lower in cues.metric_words:
        return True
    words = lower.split()
    if (
        len(words) > 1
        and words[0] not in _OBJECTIVES
        and (
            any(tuple(words[-len(end) :]) == end for end in _MEASURE_ENDS)
            or (words[-1] == "score" and words[-2] in cues.metric_words)
        )
    ):
        return True
    numbered = _NUMBERED.fullmatch(lower)
    return numbered is not None and numbered.group(1) in cues.numbered_metrics


def type_at(doc: Doc, start: int, end: int) -> tuple[EntityType | None, str]:
    """`decide_type` of the name at tokens [start, end), which no lexicon match is."""
    cues = load_cues()
    span = _At(start, end)
    name = span_text(doc, start, end)
    lower = name.lower()
    if "@" in name or _metric_name(lower, cues):
        return EntityType.METRIC, "metric name"
    if model_family(name):
        return EntityType.MODEL, "model family"
    if family_suffix(name):
        return EntityType.MODEL, "model family suffix"
    if _category(doc, span):
        return EntityType.TASK, "a kind of thing (five X benchmarks)"
    low = lowers(doc)
    if end - start > 1 and low[end - 1] in cues.strict_task_heads:
        return EntityType.TASK, "a task's name"  # "Time series forecasting"
    own = cues.type_heads.get(low[end - 1]) if end - start > 1 else None
    if own in (EntityType.BENCHMARK, EntityType.DATASET, EntityType.MODEL):
        return own, "head noun in name"  # "E-commerce Video Ads Benchmark"
    sentence = _sentence(doc, span)
    head = _head_after(doc, span) or _head_naming(doc, span, sentence[0])
    called = _apposition(doc, span, sentence) if head not in _NOT_METHOD else None
    if (
        head is EntityType.METHOD
        and called is EntityType.BENCHMARK
        and _framework_named(low, span, sentence[0])
    ):
        # "a framework, X, for evaluating …", "an evaluation framework called X": what the
        # apposition reads of the phrase beats its head noun alone (not "an off-policy
        # evaluation method called X", a method)
        return called, "apposition"
    if head in _CALLED:
        return head, "head noun after"
    if called in _CALLED:
        return called, "apposition"  # "AdaR, an Adaptive Recurrent graph model"
    variant = lexicon_variant(name)
    if variant in (EntityType.DATASET, EntityType.BENCHMARK):
        return variant, "lexicon variant"  # MovieLens 25M, ImageNet-64, WMT 2014
    if (variant is EntityType.MODEL and _MODEL_SIZE.search(name)) or (
        variant is EntityType.METHOD and _METHOD_SIZE.search(name)
    ):
        # one size of a known family is a trained model: ConvNeXt-T, Transformer-XL
        return EntityType.MODEL, "lexicon variant of a size"
    if any(is_size(part) for part in _PARTS.split(name)[1:]):
        return EntityType.MODEL, "parameter count"
    if _DATA_SIZE.search(name):
        return EntityType.DATASET, "size suffix"
    if lower.endswith(cues.benchmark_suffixes) or "-bench" in lower:
        return EntityType.BENCHMARK, "name suffix"
    if span.end < len(low) and (
        low[span.end] in cues.metric_words or low[span.end] == "denotation"
    ):
        return EntityType.BENCHMARK, "metric after"
    before = _head_before(doc, span, sentence[0])
    if before is not None:
        return before, "head noun before"
    if (
        span.start > 0
        and low[span.start - 1] in {"on", "across"}
        and not _EVAL_WORDS.isdisjoint(low[sentence[0] : sentence[1]])
    ):
        return EntityType.BENCHMARK, "evaluated on"
    return EntityType.METHOD, "default"
