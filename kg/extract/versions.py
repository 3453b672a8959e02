"""Names with their versions and sizes, which the tokenizer leaves as words of their own:
"Llama 2 7B", "GPT 3.5-Turbo", "Code Llama 7B", "ERNIE-ViLG 2.0", "Jais 13B", "WMT 2014".

The candidate finder (`candidates.py`) passes the Doc's words and their lower case; no Doc
is read here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from spacy.lang.en.stop_words import STOP_WORDS

from kg.extract.cues import load_cues
from kg.extract.families import model_family
from kg.extract.shapes import is_name_shape, is_size
from kg.extract.typing_rules import lexicon_variant
from kg.model import EntityType

#: a version, size or count after a model family's name: 2, 3.5, v0.1, 8x7B, 32k
_VERSION = re.compile(r"^(v?\d+(\.\d+)*[a-z]?|\d+x\d+[BbMm]?|\d+[kKmM])$")
#: a version after any other name: 2, 2.1, v1.5, 3.5 (not 10k, a year, nor 256x256)
_NAME_VERSION = re.compile(r"^v?\d{1,2}(\.\d+)*$|^v\d+(\.\d+)*$")
_YEAR = re.compile(r"^(19|20)\d\d$")
_RESOURCES = frozenset({EntityType.DATASET, EntityType.BENCHMARK})


def versioned_names(
    words: list[str], lower: list[str], starts: set[int], capitals: Iterator[int]
) -> Iterator[tuple[int, int, str]]:
    """(start, end, generator label) of each name and its version that starts at one of
    the capitalised words `capitals`: a lexicon model family and its variant words
    ("Llama 2 7B", "Claude 3.5-Haiku": FAMILY), a name and its parameter count ("Jais
    13B"), a coined name and its version ("ERNIE-ViLG 2.0"), a lexicon dataset or benchmark
    and its year ("WMT 2014": VERSIONED)."""
    cues = load_cues()
    for i in capitals:
        if i + 1 >= len(words):
            continue
        word, following = words[i], words[i + 1]
        if family_start(word):
            j = variants_end(words, lower, i + 1, family=True)
            if j > i + 1:
                yield i, j, "FAMILY"
            continue
        if not (following[:1].isdigit() or following[:1] == "v"):
            continue  # a size, a version and a year start so (most words: the cheap test first)
        if lower[i] in STOP_WORDS or lower[i] in cues.model_variant_parts or numbered(lower[i]):
            continue  # "Our 7B model", "Base 7B", "Table 2", "Figure 3b"
        shaped = is_name_shape(word)
        if (
            # a parameter count in capitals: 7B, 350M (not the "3b" of "Figure 3b")
            (is_size(following) and following[-1] in "BM" and (shaped or i not in starts))
            or (shaped and versions_it(following) and lower[i] not in cues.metric_words)
            or (_YEAR.match(following) and is_resource(word))
        ):
            j = variants_end(words, lower, i + 1)
            if j > i + 1:
                yield i, j, "VERSIONED"


def run_version_end(words: list[str], lower: list[str], start: int, last: int) -> int | None:
    """The end of the version after the Title Case run words[start:last + 1] ("Code Llama
    7B", "Stable Diffusion 2.1", "Flash Attention 2"), or None: a run with a model family
    inside it leaves the version to the family ("Training Llama 2 70B"), and a numbered part
    of a text is no name ("Supplementary Table 2")."""
    if last + 1 >= len(words) or not versions_it(words[last + 1]):
        return None
    if lower[start] in STOP_WORDS or numbered(lower[last]):
        return None
    run = words[start : last + 1]
    known = model_family(" ".join(run) + " 1") is not None
    if not known and any(family_start(word) for word in run[1:]):
        return None
    j = variants_end(words, lower, last + 1)
    return j if j > last + 1 else None


def variants_end(words: list[str], lower: list[str], j: int, *, family: bool = False) -> int:
    """The end of the versions, sizes and variant words from `j` on (at most five): "2 7B",
    "3.5-Turbo", "7B v0.1", "v1.5". After a lexicon family (`family`) any version or count
    its names take ("Mixtral 8x7B", "Llama 3 8B 32k"); after another name only versions and
    sizes. A variant word on its own must be no common word ("Mistral 7B it" ends at 7B)."""
    variants = load_cues().model_variant_parts
    end = min(len(words), j + 5)
    while j < end:
        word, low = words[j], lower[j]
        if not (
            (_VERSION.match(word) if family else versions_it(word))
            or is_size(word)
            or (low in variants and low not in STOP_WORDS)
            or versioned_variant(low)
        ):
            break
        j += 1
    return j


def versions_it(word: str) -> bool:
    """Whether `word` can follow a name as its version or size (2.0, v1.5, 2, 7B, 3.5-Turbo),
    not a year (ICLR 2024), a count of data (10k) or a resolution (256x256)."""
    if is_size(word):
        return True
    version = word.partition("-")[0]
    return bool(_NAME_VERSION.match(version)) and not _YEAR.match(version)


def versioned_variant(lower: str) -> bool:
    """A version and variant words in one token: 3.5-turbo, 3.5-haiku."""
    version, dash, rest = lower.partition("-")
    variants = load_cues().model_variant_parts
    return bool(dash and _VERSION.match(version)) and all(p in variants for p in rest.split("-"))


def is_resource(word: str) -> bool:
    """A dataset or benchmark of the lexicon, whose editions are years (WMT, SemEval)."""
    return lexicon_variant(word + " 1") in _RESOURCES


def numbered(lower: str) -> bool:
    """A part of a text that is numbered: Table 2, Figure 3b, Theorem 1, Step 3, RQ1."""
    return lower in load_cues().numbered_parts


@lru_cache(maxsize=65536)
def family_start(word: str) -> bool:
    """A model family or one of its variants (Llama, GPT-4, Qwen2.5), to take variant words."""
    return model_family(word) is not None or model_family(word + "-1") is not None
