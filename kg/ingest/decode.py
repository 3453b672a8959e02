"""Bytes to text: UTF-8 (a BOM is dropped), with the line and byte of anything that is not."""

from __future__ import annotations

import re
from pathlib import Path

from kg.errors import InputError
from kg.ingest.files import check_file


def read_text(path: Path) -> str:
    """The file's text. CRLF and CR line ends are left to the readers (`split_lines`).

    Raises:
        InputError: missing, not a regular file, unreadable, not UTF-8 (with line, column
            and byte) or binary.
    """
    check_file(path)  # before opening: a named pipe would block
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(path, "no such file or directory") from None
    except IsADirectoryError:
        raise InputError(path, "is a directory") from None
    except OSError as error:
        raise InputError(path, f"cannot be read: {error.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = _place(data, error.start)
        raise InputError(
            path,
            f"byte 0x{data[error.start]:02x} at column {column} is not UTF-8; "
            "re-save the file as UTF-8",
            line=line,
        ) from None
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        line, _ = _place(text.encode("utf-8"), text.encode("utf-8").index(b"\x00"))
        raise InputError(path, "contains a NUL byte; is this a binary file?", line=line)
    if not text.strip():
        raise InputError(path, "empty file: no abstract to read")
    return text


#: a line's end, as `kg.ingest.text.split_lines` reads them (and an editor shows them)
_LINE_END = re.compile(rb"\r\n|\r|\n")


def _place(data: bytes, at: int) -> tuple[int, int]:
    """The line and column (from 1) of byte `at`: lines end at line feeds and carriage
    returns alike (a file of carriage returns alone put every byte on line 1)."""
    line, start = 1, 0
    for end in _LINE_END.finditer(data, 0, at):
        line, start = line + 1, end.end()
    return line, at - start + 1
