"""The extractor's identity: one digest of everything an extraction depends on.

The modules are found, not listed: every kg module that `kg.extract` imports, directly or
through others, read from the import statements of their source (nothing is imported, so
spaCy is not loaded; kg/__init__.py, the library's front door, is left out) together with
the serialisation of cached extractions, with the data files the extractor reads
(kg/data/*.json, the lexicon) and the spaCy version (its tokenizer is part of the
extractor). A change to any of them gives another digest; nothing is bumped by hand.
"""

from __future__ import annotations

import ast
import hashlib
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

from kg.resources import data_dir, ontology_dir

_KG = Path(__file__).resolve().parents[1]  # kg/


def _module_file(name: str) -> Path | None:
    """The source file of kg module `name` (a package's __init__.py), None if not kg's."""
    parts = name.split(".")
    if parts[0] != "kg":
        return None
    base = _KG.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imports(path: Path) -> set[str]:
    """The kg modules one source file imports (at any depth of its code): `import kg.x`,
    `from kg.x import y` (y too, when it is a module), and every package on the way."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    out: set[str] = set()
    for name in names:
        parts = name.split(".")
        out.update(".".join(parts[:n]) for n in range(1, len(parts) + 1))
    # kg/__init__.py is the library's front door (build, query), not part of the extractor
    return {n for n in out if n != "kg" and _module_file(n) is not None}


def module_closure(*roots: str) -> list[Path]:
    """The source files of `roots` and of every kg module they import, directly or not."""
    seen: dict[str, Path] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        path = _module_file(name)
        if name in seen or path is None:
            continue
        seen[name] = path
        todo += sorted(_imports(path) - seen.keys())
    return sorted(set(seen.values()))


def lazy_modules() -> list[str]:
    """The modules kg.extract's names come from, loaded on first use (no import statement
    names them): read from the package's own table, which loads no spaCy."""
    from kg.extract import _WHERE

    return sorted(set(_WHERE.values()))


@lru_cache(maxsize=1)
def extraction_fingerprint() -> str:
    """The digest of the extractor: its code, its data and the spaCy it runs on."""
    digest = hashlib.sha256(f"spacy {version('spacy')}".encode())
    files = [
        # kg.extract's names load their modules lazily (PEP 562): those are roots too
        *module_closure("kg.extract", *lazy_modules(), "kg.extract.serial"),
        *sorted(data_dir().glob("*.json")),
        ontology_dir() / "lexicon.ttl",
    ]
    for path in files:
        digest.update(f"\x1f{path.relative_to(_KG.parent).as_posix()}\x1f".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
