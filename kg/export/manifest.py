"""Which files of an exports directory are kg's: the manifest a build keeps there of what it
wrote (`.kg-manifest`), so that the next build removes only those, and the check that refuses
a directory holding files of someone else's.

The manifest lives in the exports directory, not in the cache with the memos
(`kg.builder.memo`): the memos say how to remake files faster and may go at any time
(`kg cache clear`, `--no-cache`, another machine), but which files are kg's to remove must
hold for as long as the files do, and travel with them (the committed `exports/` of a fresh
clone). It lists paths only, sorted, so that the same build writes the same bytes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from kg.errors import ExportError

#: the manifest's name in the exports directory
MANIFEST = ".kg-manifest"
#: how the names of kg's temporary files begin and end (`kg.export.writer.ExportWriter`)
TEMPORARY = (".kg-tmp.", ".tmp")
_HEADER = "# the files kg build wrote here: the next build removes those it does not write\n"


def is_temporary(name: str) -> bool:
    """Whether a file name is one of kg's temporaries (left by a build that was killed)."""
    return name.startswith(TEMPORARY[0]) and name.endswith(TEMPORARY[1])


def manifest_text(names: Iterable[str]) -> bytes:
    """The manifest of the files `names` (paths relative to the exports directory)."""
    return (_HEADER + "".join(f"{name}\n" for name in sorted(set(names)))).encode("utf-8")


def recorded(out: Path) -> frozenset[str] | None:
    """The files the last build into `out` recorded writing, or None when none did.

    Raises:
        ExportError: the manifest cannot be read or names a file outside `out` (kg would
            otherwise remove files it cannot tell are its own).
    """
    path = out / MANIFEST
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None  # `out` is a file: writing into it fails with its own message
    except (OSError, UnicodeDecodeError) as error:
        why = error.strerror if isinstance(error, OSError) else "not UTF-8"
        raise ExportError(f"{path}: cannot read the manifest ({why}); {_FIX}") from None
    names = set()
    for n, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        if not _inside(line):
            raise ExportError(f"{path}:{n}: {line!r} is not a file under {out}; {_FIX}")
        names.add(line)
    return frozenset(names)


_FIX = f"remove {MANIFEST} and build again with --force (kg then removes none of the files)"


def _inside(name: str) -> bool:
    """Whether `name` is a plain relative path of a file below the exports directory: no
    root, no empty, "." or ".." part, no backslash; as `PurePosixPath(name)` writes it (read
    as strings: a manifest names 29,000 files, and a path object each cost 0.1 s)."""
    return (
        "\\" not in name
        and name != MANIFEST
        and all(part not in _NOT_PARTS for part in name.split("/"))
    )


_NOT_PARTS = frozenset({"", ".", ".."})


def claim(out: Path, force: bool = False) -> frozenset[str]:
    """The files the last build into `out` wrote (none when no build did), after checking
    that kg may write there: a directory that does not exist or holds no files is fine, one
    holding files that no manifest says are kg's is refused unless `force`.

    Raises:
        ExportError: `out` holds files kg did not write, or its manifest is broken.
    """
    before = recorded(out)
    if before is not None:
        return before
    if not force:
        stranger = _a_file_in(out)
        if stranger is not None:
            raise ExportError(
                f"{out}: holds files kg did not write ({stranger}) and no manifest of a kg build; "
                "build into an empty or new directory, or pass --force to write here "
                "(files of kg's names are replaced, no other file is removed)"
            )
    return frozenset()


def _a_file_in(out: Path) -> str | None:
    """Some file below `out` other than kg's temporaries, or None (empty folders are fine)."""
    for folder, _, names in os.walk(out):
        for name in sorted(names):
            if not is_temporary(name):
                return (Path(folder) / name).relative_to(out).as_posix()
    return None
