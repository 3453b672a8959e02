"""Why an RDF file does not parse, in one line with its line and column: rdflib's own
messages span several lines, and their first line says only "at line 2 of <>:"."""

from __future__ import annotations

import json

from rdflib.plugins.parsers.notation3 import BadSyntax

#: how much of the offending line the reason quotes
_NEAR = 60


def syntax_reason(error: Exception) -> str:
    """One line: where (line and column, when the parser says) and why `error` was raised."""
    if isinstance(error, BadSyntax):
        return _bad_syntax(error)
    if isinstance(error, json.JSONDecodeError):
        return f"line {error.lineno}, column {error.colno}: {error.msg}"
    return " ".join(str(error).split()) or type(error).__name__


def _bad_syntax(error: BadSyntax) -> str:
    """Turtle and N3: the document, the offset and the reason are on the error."""
    why = str(getattr(error, "_why", "")) or "bad syntax"
    text = getattr(error, "_str", b"").decode("utf-8", "replace")
    at = min(int(getattr(error, "_i", 0)), len(text))
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    line = text[start : end if end >= 0 else len(text)].strip()
    near = line if len(line) <= _NEAR else line[: _NEAR - 3] + "..."
    number = text.count("\n", 0, at) + 1
    return f"line {number}, column {at - start + 1}: {why} (in {near!r})"
