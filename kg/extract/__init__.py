"""Extraction: abstracts in, `Extraction` records out. No spaCy object leaves this package.

The package's names load spaCy only when first used (PEP 562), so that a module that needs
one of its spaCy-free parts (the cue words, name shapes, model families) does not.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kg.extract.pipeline import make_nlp
    from kg.extract.run import extract, iter_extract
    from kg.extract.version import EXTRACTOR_VERSION

__all__ = ["EXTRACTOR_VERSION", "extract", "iter_extract", "make_nlp"]

_WHERE = {
    "EXTRACTOR_VERSION": "kg.extract.version",
    "make_nlp": "kg.extract.pipeline",
    "extract": "kg.extract.run",
    "iter_extract": "kg.extract.run",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'kg.extract' has no attribute {name!r}")
    return getattr(import_module(_WHERE[name]), name)
