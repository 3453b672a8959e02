"""Which paths are input files: regular files, and the input files of directories.

Anything else is refused before it is opened, saying what it is: a named pipe or a device
would block or never end, a symbolic link loop is not a missing file.
"""

from __future__ import annotations

import errno
import logging
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.errors import InputError

log = logging.getLogger(__name__)

_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def problem(path: Path) -> str | None:
    """What keeps `path` from being read as an input file or directory; None when nothing."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if path.is_symlink():
            return f"is a broken symbolic link (to {os.readlink(path)}, which does not exist)"
        return "no such file or directory"
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "is a symbolic link loop (a link that leads back to itself)"
        if error.errno == errno.ENOTDIR:
            return "no such file or directory (a folder in the path is a file)"
        return f"cannot be read: {error.strerror}"
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return f"is {kind}, not a regular file; save the abstracts to a file and give that"


def check_file(path: Path) -> None:
    """Refuse `path` unless it is a regular file or a directory.

    Raises:
        InputError: it is missing, a link loop, a named pipe, a device or a socket.
    """
    if (found := problem(path)) is not None:
        raise InputError(path, found)


def input_files(paths: Iterable[Path], suffixes: tuple[str, ...]) -> Iterator[Path]:
    """The files to read: each file given, and in each directory given its files with one of
    `suffixes` (sorted by name; hidden files left out, anything not a regular file skipped
    with a warning).

    Raises:
        InputError: a path is missing or not a regular file, or a directory holds no input.
    """
    for path in paths:
        check_file(path)
        if not path.is_dir():
            yield path
            continue
        candidates = directory_candidates(path, suffixes)
        files = []
        for candidate in candidates:
            if (found := problem(candidate)) is None and candidate.is_file():
                files.append(candidate)
            elif found is not None:
                log.warning("%s: %s; skipped", candidate, found)
        if not files:
            raise InputError(path, f"directory holds no input files ({', '.join(suffixes)})")
        yield from files


def directory_candidates(path: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """The entries of the directory `path` that may be input files: those with one of
    `suffixes`, hidden ones left out, sorted by name (not yet checked to be files)."""
    return sorted(
        p for p in path.iterdir() if p.suffix.lower() in suffixes and not p.name.startswith(".")
    )
