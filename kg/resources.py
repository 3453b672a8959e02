"""Where kg finds its bundled data: the ontology, the lexicon and the example queries.

In a wheel, ontology/ and queries/ are copied into `kg/_resources/`; in a source
checkout (editable install, tests) they are the top-level folders of the repository.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _find(name: str) -> Path:
    for candidate in (_PACKAGE / "_resources" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"kg is installed without its {name}/ folder")


def ontology_dir() -> Path:
    """The folder holding ontology/kg.ttl and ontology/lexicon.ttl."""
    return _find("ontology")


def queries_dir() -> Path:
    """The folder of bundled SPARQL queries (*.rq)."""
    return _find("queries")


def data_dir() -> Path:
    """Data files of the extractor (patterns, cue words, stop lists)."""
    return _PACKAGE / "data"
