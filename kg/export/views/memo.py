"""Which pages the last build wrote, and from what: a rebuild redraws only the pages whose
view changed.

A page is kept as it is when its view has the digest it had in the last build into the same
exports directory (`View.digest`: everything the page shows) and the memo is to be trusted
(`kg.builder.memo`: the same code, the file as that build left it). Anything else, or no memo at
all, and the page is drawn again.
"""

from __future__ import annotations

from pathlib import Path

from kg.builder import memo


class PageMemo:
    """The digest, size and modification time of each page a build wrote.

    Args:
        path: the memo's file; None remembers nothing (every page is drawn).
        out: the exports directory the pages are in.
    """

    def __init__(self, path: Path | None, out: Path) -> None:
        self.path = path
        self.out = out
        pages = memo.load(path).get("pages")
        self._before: dict[str, list] = pages if isinstance(pages, dict) else {}
        self._now: dict[str, str] = {}
        self.kept = 0  #: pages not drawn again

    @classmethod
    def in_cache(cls, cache_dir: Path, out: Path) -> PageMemo:
        """The memo of the exports directory `out`, kept under `cache_dir`."""
        return cls(memo.memo_path(cache_dir, "pages", out), out)

    def current(self, name: str, digest: str) -> bool:
        """Whether the page `name` (relative to the exports directory) is the one a view of
        this digest draws. Reads only: a worker process may ask it."""
        before = self._before.get(name)
        if not isinstance(before, list) or before[:1] != [digest]:
            return False
        return memo.stamp(self.out / name) == before[1:]

    def remember(self, name: str, digest: str, kept: bool) -> None:
        """Note the page's digest for the next build, and whether it was kept as it was."""
        self._now[name] = digest
        self.kept += kept

    def save(self) -> None:
        """Remember this build's pages, once they are in place (after the commit)."""
        pages = {}
        for name, digest in sorted(self._now.items()):
            stamp = memo.stamp(self.out / name)
            if stamp is not None:
                pages[name] = [digest, *stamp]
        memo.save(self.path, {"pages": pages})
