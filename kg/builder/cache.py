"""A cache of extractions keyed by abstract and extractor, so rebuilds extract only what
changed. SQLite, one row per abstract, committed in batches: a killed build keeps what it
had committed and the next build carries on from there."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path

from kg.builder.fingerprint import extraction_fingerprint
from kg.errors import KgError


def default_cache_dir() -> Path:
    """$KG_CACHE_DIR, else $XDG_CACHE_HOME/kg, else ~/.cache/kg."""
    if os.environ.get("KG_CACHE_DIR"):
        return Path(os.environ["KG_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "kg"


def fingerprint() -> str:
    """The extractor's identity (kg/builder/fingerprint.py): a change to its code, data or spaCy
    invalidates every cached extraction."""
    return extraction_fingerprint()


def cache_key(text: str) -> str:
    """The key of one abstract's extraction under the current extractor."""
    return hashlib.sha256(f"{fingerprint()}\x1f{text}".encode()).hexdigest()


class ExtractionCache:
    """SQLite table of (key, extraction as JSON)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or default_cache_dir()
        self.path = self.directory / "extractions.sqlite"
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS extraction (key TEXT PRIMARY KEY, data TEXT NOT NULL)"
            )
        except (OSError, sqlite3.Error) as error:
            raise KgError(
                f"{self.path}: cannot open the extraction cache ({error}); "
                "`kg cache clear` removes it, or use --no-cache or set KG_CACHE_DIR"
            ) from None

    def get_many(self, keys: Iterable[str]) -> dict[str, dict]:
        """The cached extractions of these keys (missing keys are left out)."""
        wanted = list(dict.fromkeys(keys))
        found: dict[str, dict] = {}
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            marks = ",".join("?" * len(chunk))
            for key, data in self.db.execute(
                f"SELECT key, data FROM extraction WHERE key IN ({marks})", chunk
            ):
                try:
                    found[key] = json.loads(data)
                except (TypeError, ValueError):  # a damaged row: extracted again
                    continue
        return found

    def put_many(self, items: Mapping[str, dict]) -> None:
        """Store extractions, committed together."""
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO extraction VALUES (?, ?)",
                [(k, json.dumps(v, ensure_ascii=False)) for k, v in items.items()],
            )

    def count(self) -> int:
        """How many extractions the cache holds."""
        return int(self.db.execute("SELECT COUNT(*) FROM extraction").fetchone()[0])

    def clear(self) -> int:
        """Remove every cached extraction; how many there were."""
        n = self.count()
        with self.db:
            self.db.execute("DELETE FROM extraction")
        self.db.execute("VACUUM")
        return n

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    @staticmethod
    def remove(directory: Path | None = None) -> Path:
        """Remove the database's files, however damaged (`clear` needs a database that
        opens); the path of the database."""
        path = (directory or default_cache_dir()) / "extractions.sqlite"
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        return path
