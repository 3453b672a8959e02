"""What the last build into an exports directory wrote, and from what: the memos that let a
rebuild keep what did not change (pages: `kg.builder.pages`; paper blocks of the RDF and JSON
Lines exports: `kg.builder.blocks`).

A memo is a JSON file in the cache directory, one per exports directory and kind, written
atomically after the build's exports are in place. It is trusted only when the code that
wrote it is the same (`fingerprint`) and each file it describes is as that build left it
(same size and modification time); `--no-cache` neither reads nor writes one.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Mapping
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

from kg import __version__

log = logging.getLogger(__name__)

#: the libraries whose output a memo's files hold besides kg's own
_WRITTEN_WITH = ("pyvis", "jinja2", "spacy", "networkx", "pyoxigraph")


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """The identity of the code that writes the exports: every file of kg (modules,
    templates, data), the ontology and lexicon, and the versions of the libraries it writes
    with. Any change and every memo is ignored."""
    from kg.resources import ontology_dir

    digest = hashlib.sha256(__version__.encode())
    for name in _WRITTEN_WITH:
        digest.update(f"\x1f{name} {version(name)}".encode())
    root = Path(__file__).resolve().parents[1]  # kg/
    files = [p for p in root.rglob("*") if p.suffix in {".py", ".html", ".json", ".ttl"}]
    for path in sorted(files) + sorted(ontology_dir().glob("*.ttl")):
        if path.is_file():
            digest.update(f"\x1f{path.name}\x1f".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


#: the cache's folder of snapshots: what the last build read (`kg.builder.snapshot`)
SNAPSHOTS = "snapshots"


def memo_path(cache_dir: Path, kind: str, out: Path) -> Path:
    """Where the memo of `kind` for the exports directory `out` lives."""
    where = hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:16]
    return cache_dir / kind / f"{where}.json"


def memo_files(cache_dir: Path) -> list[Path]:
    """Every memo under `cache_dir`."""
    return sorted(p for kind in ("pages", "blocks") for p in (cache_dir / kind).glob("*.json"))


def remembered(cache_dir: Path) -> int:
    """How many exports directories the memos under `cache_dir` describe."""
    return len({path.name for path in memo_files(cache_dir)})


def clear_memos(cache_dir: Path) -> int:
    """Forget every memo (the next build writes everything afresh), and the files kept
    beside them (kg.nt when it is no export: `kg.builder.blocks`) and the snapshots (the
    next build reads every line again); how many exports directories they described."""
    count = remembered(cache_dir)
    for kind in ("pages", "blocks", SNAPSHOTS):
        for path in (cache_dir / kind).glob("*") if (cache_dir / kind).is_dir() else ():
            if path.is_file():
                path.unlink(missing_ok=True)
    return count


#: how many exports directories' files kept in the cache (kg.nt of a large graph kept aside,
#: snapshots) it holds: the most recently built; an older one's next build makes them afresh
KEEP_ASIDE = 4


def keep_latest(kept: Path) -> None:
    """Remove the files kept in the cache like `kept` for other exports directories (kg.nt
    aside, snapshots), but the `KEEP_ASIDE` most recent (a copy is as large as the export it
    stands for). One another build removes meanwhile is passed over."""
    others = []
    for path in kept.parent.glob(f"*{kept.suffix}"):
        try:
            if path != kept and path.is_file():
                others.append((path.stat().st_mtime_ns, path))
        except FileNotFoundError:
            continue
    for _, old in sorted(others, reverse=True)[KEEP_ASIDE - 1 :]:
        old.unlink(missing_ok=True)


def load(path: Path | None) -> dict:
    """A memo's data, or {} when there is none, it is unreadable or other code wrote it."""
    if path is None:
        return {}
    try:
        memo = json.loads(path.read_text(encoding="utf-8"))
        return memo if memo.get("fingerprint") == fingerprint() else {}
    except (OSError, ValueError, AttributeError):
        return {}


def encoded(value: object) -> str:
    """`value` as a memo writes it (JSON): a member of `save`'s `done`."""
    return json.dumps(value, separators=(",", ":"))


def save(path: Path | None, data: dict, done: Mapping[str, str] | None = None) -> None:
    """Write a memo atomically: `data`, and the members `done` holds already written as
    JSON (`encoded`); one that cannot be written is skipped with a warning (the next build
    writes everything afresh)."""
    if path is None:
        return
    text = encoded({"fingerprint": fingerprint(), **data})
    if done and not done.keys().isdisjoint(data):
        raise ValueError(f"members given twice: {sorted(done.keys() & data.keys())}")
    if done:  # the object's end opened up for them: {"fingerprint":...,"a":1} ends in "}"
        members = ",".join(f"{encoded(key)}:{value}" for key, value in done.items())
        text = f"{text[:-1]},{members}}}"
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".memo.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
        tmp = None
    except OSError as error:
        log.warning("%s: cannot write the memo (%s)", path, error.strerror)
    finally:  # on any failure, Ctrl-C included, no temporary is left in the cache
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def stamp(path: Path | str) -> list[int] | None:
    """A file's size and modification time, or None when it is not there."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return [stat.st_size, stat.st_mtime_ns]
