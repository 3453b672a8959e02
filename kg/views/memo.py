"""Which pages the last build wrote, and from what: a rebuild redraws only the pages whose
view changed.

A page is kept as it is when three things hold: its view has the digest it had in the last
build into the same exports directory (`View.digest`: everything the page shows), the code
that draws pages is the same (`fingerprint`), and the file is as that build left it (same
size and modification time). Anything else, or no memo at all, and the page is drawn again.
The memo lives in the cache directory, beside the extraction cache, one file per exports
directory; `--no-cache` neither reads nor writes it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

from kg import __version__

log = logging.getLogger(__name__)

#: the packages whose code draws a page besides kg's own
_DRAWN_WITH = ("pyvis", "jinja2", "spacy", "networkx")


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """The identity of the code that draws pages: every file of kg (modules, templates, data)
    and the versions of the libraries it draws with. Any change redraws every page."""
    digest = hashlib.sha256(__version__.encode())
    for name in _DRAWN_WITH:
        digest.update(f"\x1f{name} {version(name)}".encode())
    root = Path(__file__).resolve().parent.parent
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in {".py", ".html", ".json", ".ttl"}:
            digest.update(f"\x1f{path.relative_to(root).as_posix()}\x1f".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class PageMemo:
    """The digest, size and modification time of each page a build wrote.

    Args:
        path: the memo's file; None remembers nothing (every page is drawn).
        out: the exports directory the pages are in.
    """

    def __init__(self, path: Path | None, out: Path) -> None:
        self.path = path
        self.out = out
        self._before: dict[str, list] = {}
        self._now: dict[str, str] = {}
        self.kept = 0  #: pages not drawn again
        if path is None:
            return
        try:
            memo = json.loads(path.read_text(encoding="utf-8"))
            if memo.get("fingerprint") == fingerprint():
                self._before = memo["pages"]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            self._before = {}  # a missing or unreadable memo: every page is drawn

    @classmethod
    def in_cache(cls, cache_dir: Path, out: Path) -> PageMemo:
        """The memo of the exports directory `out`, kept under `cache_dir`."""
        where = hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:16]
        return cls(cache_dir / "pages" / f"{where}.json", out)

    def current(self, name: str, digest: str) -> bool:
        """Whether the page `name` (relative to the exports directory) is the one a view of
        this digest draws. Reads only: a worker process may ask it."""
        before = self._before.get(name)
        if before is None or before[0] != digest:
            return False
        try:
            stat = (self.out / name).stat()
        except OSError:
            return False
        return [stat.st_size, stat.st_mtime_ns] == before[1:]

    def remember(self, name: str, digest: str, kept: bool) -> None:
        """Note the page's digest for the next build, and whether it was kept as it was."""
        self._now[name] = digest
        self.kept += kept

    def save(self) -> None:
        """Remember this build's pages, once they are in place (after the commit). Written
        atomically; a memo that cannot be written is skipped (the next build draws every
        page) with a warning."""
        if self.path is None:
            return
        pages: dict[str, list] = {}
        for name, digest in sorted(self._now.items()):
            try:
                stat = (self.out / name).stat()
            except OSError:
                continue
            pages[name] = [digest, stat.st_size, stat.st_mtime_ns]
        data = json.dumps({"fingerprint": fingerprint(), "pages": pages}, separators=(",", ":"))
        tmp: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".pages.", suffix=".tmp", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(data)
            os.replace(tmp, self.path)
        except OSError as error:
            log.warning("%s: cannot remember the pages (%s)", self.path, error.strerror)
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)


def memo_files(cache_dir: Path) -> list[Path]:
    """The page memos under `cache_dir`, one per exports directory built."""
    return sorted((cache_dir / "pages").glob("*.json"))


def clear_memos(cache_dir: Path) -> int:
    """Forget every exports directory's pages (the next build draws them all); how many
    memos there were."""
    files = memo_files(cache_dir)
    for path in files:
        path.unlink(missing_ok=True)
    return len(files)
