"""Errors kg raises for problems a user can fix; the CLI maps them to exit codes."""

from __future__ import annotations


class KgError(Exception):
    """Base class: a problem with the user's input or environment, not a bug in kg."""

    exit_code = 2


class InputError(KgError):
    """An input file or directory cannot be read as abstracts."""

    def __init__(self, path: object, message: str, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.reason = message
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {message}")

    def __reduce__(self) -> tuple[type[InputError], tuple[str, str, int | None]]:
        # so that it crosses a process boundary whole (the default passes only the message)
        return (InputError, (self.path, self.reason, self.line))


class ExportError(KgError):
    """The exports cannot be written (the previous exports are left as they were)."""


class QueryError(KgError):
    """A SPARQL query is malformed or cannot be run."""
