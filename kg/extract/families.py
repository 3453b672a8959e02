"""Model families of the lexicon: which family a model's name is a variant of.

Free of spaCy, so that linking (kg/link.py) can hang variants under their family without
loading the pipeline.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kg.extract.cues import load_cues
from kg.extract.shapes import is_size
from kg.lexicon import default_lexicon
from kg.model import EntityType


@lru_cache(maxsize=1)
def _model_labels() -> dict[str, str]:
    """Every name of a lexicon model or family, to its concept key."""
    return {
        label: c.key for c in default_lexicon() if c.type is EntityType.MODEL for label in c.labels
    }


@lru_cache(maxsize=1)
def _lower_model_labels() -> dict[str, str]:
    """`_model_labels` folded to lower case, for names written all in lower case."""
    out: dict[str, str] = {}
    for label, key in sorted(_model_labels().items()):
        out.setdefault(label.lower(), key)
    return out


@lru_cache(maxsize=2)
def _starts(lowered: bool) -> frozenset[str]:
    """The first three characters of every name `model_family` may cut from the start of a
    name, and the shorter names whole (T5, o1): a name none of them starts is no variant."""
    labels = _lower_model_labels() if lowered else _model_labels()
    return frozenset(label[:3] for label in labels)


@lru_cache(maxsize=1)
def _ends() -> frozenset[str]:
    """The last three characters of every name of three or more (`family_suffix`)."""
    return frozenset(label[-3:] for label in _model_labels() if len(label) >= 3)


@lru_cache(maxsize=65536)
def model_family(name: str) -> str | None:
    """The lexicon key of the model family `name` is a variant of (Qwen3-4B-Base → qwen3).

    The longest lexicon name that starts `name` wins, when the rest reads as versions,
    sizes and variant words (4B, Instruct, Base, VL, QwQ). A one-word name written all in
    lower case with a digit or hyphen is read in any case (gpt-3.5-turbo → GPT-3.5,
    llama-2-7b → Llama 2); words such as "whisper large" or "opt it" are no model's name.
    """
    lowered = name.islower() and " " not in name and any(c.isdigit() or c == "-" for c in name)
    starts = _starts(lowered)
    if name[:3] not in starts and name[:2] not in starts and name[:1] not in starts:
        return None  # no lexicon name starts it (most words: the cheap test first)
    labels = _lower_model_labels() if lowered else _model_labels()
    variant_parts = load_cues().model_variant_parts
    for cut in range(len(name) - 1, 0, -1):
        # the rest starts with a separator, or a digit after a letter (the cheap test first)
        if name[cut] not in "-. " and not (name[cut - 1].isalpha() and name[cut].isdigit()):
            continue
        label = name[:cut]
        if label not in labels:
            continue
        rest = name[cut:]
        parts = [p for p in re.split(r"[-. ]", rest) if p]
        if parts and all(
            p[0].isdigit() or p.lower() in variant_parts or is_size(p) or p in labels for p in parts
        ):
            return labels[label]  # Qwen3-4B-Base, Qwen-QwQ
    return None


_VERSION_SUFFIX = re.compile(r"(v\d+(\.\d+)?|-\d+(\.\d+)?)$")


@lru_cache(maxsize=65536)
def family_suffix(name: str) -> str | None:
    """The model family a coined name ends with: BioBERT, KLUE-RoBERTa, NAS-BERT → BERT/RoBERTa."""
    stem = _VERSION_SUFFIX.sub("", name)
    if stem[-3:] not in _ends():
        return None  # no lexicon name of three or more characters ends it
    labels = _model_labels()
    for cut in range(1, len(stem) - 2):  # the longest ending first
        label = stem[cut:]
        if (
            label in labels
            and not label.islower()
            and (stem[cut - 1] in "-_ " or stem[:cut].isalpha())
        ):
            return labels[label]
    return None
