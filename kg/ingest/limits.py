"""How large one field of a record may be: checked before anything parses, extracts or
serialises it.

A real abstract is a few KB and a title a few hundred bytes; a field of tens of MB is
almost always a file read wrongly (a CSV quote never closed swallows every record after
it), so it stops the build, naming the file, the line and the limit, rather than being
skipped: skipping it would drop the records it swallowed without a word.
"""

from __future__ import annotations

from pathlib import Path

from kg.errors import InputError

#: the largest abstract, in bytes of UTF-8: 8 MB. A literal of twice that (every character
#: escaped in N-Triples) still fits the 16 MiB token buffer of the Turtle and N-Triples
#: parser (Oxigraph), and the text is far below spaCy's `max_length`.
MAX_ABSTRACT_BYTES = 8_000_000
#: the largest title, author list, venue, url or identifier, in bytes of UTF-8: 64 KB
MAX_FIELD_BYTES = 65_536


def _size(size: int) -> str:
    return f"{size / 1_000_000:,.1f} MB" if size >= 1_000_000 else f"{size:,} bytes"


def _limit(limit: int) -> str:
    return f"{limit // 1_000_000} MB" if limit >= 1_000_000 else f"{limit // 1024} KB"


def oversized(source: Path, line: int, what: str, limit: int) -> InputError:
    """The error for a field (`what`: "the title is 50.0 MB") over `limit` bytes."""
    other = (
        "" if limit == MAX_ABSTRACT_BYTES else f" ({_limit(MAX_ABSTRACT_BYTES)} for an abstract)"
    )
    return InputError(
        source,
        f"{what}; kg's limit is {_limit(limit)}{other}: a field this large is usually a file "
        "read wrongly (is a quote or a line break missing?)",
        line=line,
    )


#: the fields a record's abstract is read from, the first filled in: `abstract`, else `text`
#: (the field of kg's own extractions.jsonl and of ../shared/gold/score.py's records, so that
#: a gold file or an earlier extraction can be read again as it is)
ABSTRACT_FIELDS = ("abstract", "text")


def check_size(name: str, text: str, source: Path, line: int) -> None:
    """Refuse a field over its limit (`MAX_ABSTRACT_BYTES` for the abstract,
    `MAX_FIELD_BYTES` for any other).

    Raises:
        InputError: the field is larger than its limit, whatever `--strict` says.
    """
    limit = MAX_ABSTRACT_BYTES if name in ABSTRACT_FIELDS else MAX_FIELD_BYTES
    if len(text) <= limit // 4:  # fits even at four bytes a character
        return
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise oversized(source, line, f"the {name} is {_size(size)}", limit)
