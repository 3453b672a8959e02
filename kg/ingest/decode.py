"""Bytes to text: UTF-8 (a BOM is dropped), with the line and byte of anything that is not."""

from __future__ import annotations

from pathlib import Path

from kg.errors import InputError
from kg.ingest.files import check_file


def read_text(path: Path) -> str:
    """The file's text. CRLF and CR line ends are left to `str.splitlines`.

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
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise InputError(
            path,
            f"byte 0x{data[error.start]:02x} at column {column} is not UTF-8; "
            "re-save the file as UTF-8",
            line=line,
        ) from None
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError(path, "contains a NUL byte; is this a binary file?", line=line)
    if not text.strip():
        raise InputError(path, "empty file: no abstract to read")
    return text
