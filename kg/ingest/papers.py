"""From a record (a dict of fields, whatever the format) to a `Paper`."""

from __future__ import annotations

import hashlib
import logging
import re
import unicodedata
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path

from kg import bidi
from kg.errors import InputError
from kg.ingest.identifiers import parse_arxiv, parse_doi, parse_year
from kg.ingest.limits import ABSTRACT_FIELDS, check_size
from kg.ingest.placeholders import is_placeholder
from kg.model import Paper

log = logging.getLogger(__name__)

#: how many warnings `paper_from_record` gave in this context: a reader that remembers
#: records from one build to the next keeps only those read without one
#: (`kg.ingest.remembered`), so that a rebuild warns about a record again
WARNINGS: ContextVar[int] = ContextVar("kg_record_warnings", default=0)


def _warn(message: str, *args: object) -> None:
    WARNINGS.set(WARNINGS.get() + 1)
    log.warning(message, *args)


_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_VENUE = re.compile(r"\b([A-Za-z][A-Za-z-]*)\b")
_LINE_BREAK = re.compile(r"[ \t]*[\r\n]+[ \t]*")
#: the fields a record is read from, checked against their size limit before anything else
_FIELDS = (
    ABSTRACT_FIELDS,
    ("title",),
    ("authors", "author"),
    ("venue", "booktitle", "journal"),
    ("url",),
    ("doi",),
    ("arxiv_id", "arxiv", "eprint"),
    ("id",),
    ("year",),
)


#: what no export can hold: C0 controls but tab and line breaks, lone surrogates (a JSON
#: "\ud800"), U+FFFE and U+FFFF; neither XML 1.0 nor UTF-8 can carry them
_UNWRITABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def clean(text: str) -> str:
    """`text` with every character no export can hold replaced by U+FFFD (a stray U+0002
    from a PDF, a lone surrogate): replaced once here, so every offset stays true."""
    return _UNWRITABLE.sub("\ufffd", text)


def paper_id(text: str) -> str:
    """A stable id from the abstract's content (NFC, whitespace folded): same text, same id."""
    return hashlib.sha256(
        fold_spaces(unicodedata.normalize("NFC", text)).encode("utf-8")
    ).hexdigest()[:16]


def fold_spaces(text: str) -> str:
    """`" ".join(text.split())`: every run of whitespace one space, none at either end.

    Most abstracts are already so, and are returned as they are: the space is the only
    whitespace character `str.isprintable` allows, so a printable text with no double space
    and none at either end has nothing to fold (splitting 25,000 abstracts costs 0.4 s, the
    test 0.15 s)."""
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(text.split())


def parse_heading(heading: str) -> tuple[str | None, int | None]:
    """Venue and year from a heading such as "ICML 2026 Papers" or "ICML 2026 论文列表"."""
    venue = next((w for w in _VENUE.findall(heading) if sum(c.isupper() for c in w) >= 2), None)
    year = _YEAR.search(heading)
    return venue, int(year.group(1)) if year else None


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return "; ".join(_text(v) for v in value)
    return fold_spaces(clean(str(value)))


def _authors(value: object) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, list | tuple):
        names = [_text(v if not isinstance(v, Mapping) else v.get("name", "")) for v in value]
    else:
        names = re.split(r"\s+and\s+|;\s*|\|", clean(str(value)))
    return tuple(n.strip() for n in names if n and n.strip())


def _first(fields: Mapping[str, object], names: tuple[str, ...]) -> tuple[str, object]:
    """The first of `names` that the record fills in, and its value (a plain loop: this
    runs for every field of every record read)."""
    for name in names:
        value = fields.get(name)
        if value:
            return name, value
    return names[0], None


def _check_sizes(fields: Mapping[str, object], source: Path, line: int) -> None:
    for names in _FIELDS:
        name, value = _first(fields, names)
        if isinstance(value, str):
            check_size(name, value, source, line)
        elif isinstance(value, list | tuple):  # an author list: its names joined
            check_size(name, _text(value), source, line)


#: the fields read as text: a number is taken as written (an id, a year), a list of them
#: joined; an object (a JSON {...}) or true/false is no text and is dropped with a warning
#: (its Python form, "{'name': 'Alice'}", went into the graph)
_TEXT_FIELDS = (
    "title",
    "url",
    "venue",
    "booktitle",
    "journal",
    "id",
    "doi",
    "arxiv_id",
    "arxiv",
    "eprint",
    "year",
)


def _is_text(value: object) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _kind(value: object) -> str:
    """What a JSON value is, in its own words: "a list", "an object", "the number 42"."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, Mapping):
        return "an object"
    return "a list" if isinstance(value, list | tuple) else type(value).__name__


def _drop_non_text(fields: dict[str, object], source: Path, line: int, strict: bool) -> None:
    """Drop (with a warning) each text field that holds no text, and authors that are
    neither names nor a list of names (or of objects with a "name")."""
    for name in _TEXT_FIELDS:
        value = fields.get(name)
        if value is None or _is_text(value):
            continue
        if isinstance(value, list | tuple) and all(_is_text(v) for v in value):
            continue
        _bad(source, line, f"{name} is {_kind(value)}, not text", strict)
        fields[name] = None
    for name in ("authors", "author"):
        value = fields.get(name)
        if value is None or isinstance(value, str):
            continue
        if isinstance(value, list | tuple) and all(
            isinstance(v, str) or (isinstance(v, Mapping) and isinstance(v.get("name"), str))
            for v in value
        ):
            continue
        _bad(source, line, f"{name} is {_kind(value)}, not names", strict)
        fields[name] = None


def _bad(source: Path, line: int, message: str, strict: bool) -> None:
    """A field that is not what it says: a warning, or with `strict` an error."""
    if strict:
        raise InputError(source, message, line=line)
    _warn("%s:%d: %s; dropped", source, line, message)


def _shown(value: str) -> str:
    return repr(value if len(value) <= 80 else value[:77] + "...")


def _identifiers(
    fields: Mapping[str, object], url: str, source: Path, line: int, strict: bool
) -> tuple[str | None, str | None, int | None]:
    """DOI, arXiv id and year of a record, each whole or left out with a warning."""
    doi = arxiv = year = None
    if text := _text(fields.get("doi")):
        if (doi := parse_doi(text)) is None:
            _bad(source, line, f"doi {_shown(text)} is not one DOI", strict)
    name, value = _first(fields, ("arxiv_id", "arxiv", "eprint"))
    if text := _text(value):
        if (arxiv := parse_arxiv(text)) is None:
            _bad(source, line, f"{name} {_shown(text)} is not one arXiv id", strict)
    elif "arxiv.org/" in url:
        arxiv = parse_arxiv(url)
    if text := _text(fields.get("year")):
        if (year := parse_year(text)) is None:
            _bad(source, line, f"year {_shown(text)} is not a year from 1900 to 2099", strict)
    return doi, arxiv, year


def paper_from_record(
    record: Mapping[str, object],
    *,
    source: Path,
    line: int,
    index: int,
    strict: bool,
    collection: str = "",
) -> Paper | None:
    """A paper from a record with an `abstract` (else a `text`, as kg's extractions.jsonl
    and score.py's gold records have it) and optional title, id, authors, year, venue, url,
    arxiv_id, doi; None, with a warning, when it has no abstract or a placeholder ("TBD").
    A DOI, arXiv id or year that is not one is left out with a warning.

    Raises:
        InputError: a field is over its size limit (`kg.ingest.limits`); with `strict`, the
            record has no abstract or a field is not what it says.
    """
    fields = {str(k).strip().lower(): v for k, v in record.items()}
    _check_sizes(fields, source, line)
    _drop_non_text(fields, source, line, strict)
    # the abstract as written (offsets point into it); line breaks inside a field become spaces
    raw = fields.get("abstract")
    # else the field kg's and score.py's records have, where the abstract says nothing
    if raw is None or (isinstance(raw, str) and (not raw.strip() or is_placeholder(raw))):
        raw = fields.get("text") or raw
    if raw is not None and not isinstance(raw, str):  # ["..."], 42: no text to read
        message = f"the abstract is {_kind(raw)}, not text"
        if strict:
            raise InputError(source, message, line=line)
        _warn("%s:%d: %s; skipped", source, line, message)
        return None
    abstract = raw.strip() if raw is not None else ""
    if "\n" in abstract or "\r" in abstract:
        abstract = _LINE_BREAK.sub(" ", abstract)
    if _UNWRITABLE.search(abstract):
        _warn(
            "%s:%d: control characters or lone surrogates in the abstract replaced by U+FFFD",
            source,
            line,
        )
        abstract = clean(abstract)
    if not abstract or is_placeholder(abstract):
        message = "record has no abstract" + (
            f" ({_shown(abstract)} is a placeholder)" if abstract else ""
        )
        if strict:
            raise InputError(source, message, line=line)
        _warn("%s:%d: %s; skipped", source, line, message)
        return None
    title = _text(fields.get("title"))
    if controls := bidi.found(abstract + title):
        _warn(
            "%s:%d: bidirectional-text controls (%s) kept as given; pages show each as a "
            "visible mark such as [%s]",
            source,
            line,
            ", ".join(controls),
            controls[0],
        )
    url = _text(fields.get("url"))
    doi, arxiv, year = _identifiers(fields, url, source, line, strict)
    venue = _text(fields.get("venue") or fields.get("booktitle") or fields.get("journal"))
    if not venue and collection:
        venue, year = parse_heading(collection)[0] or "", year or parse_heading(collection)[1]
    return Paper(
        id=paper_id(abstract),
        text=abstract,
        source=clean(source.name),
        line=line,
        index=index,
        collection=clean(collection),
        venue=venue or None,
        year=year,
        title=title,
        authors=_authors(fields.get("authors") or fields.get("author")),
        url=url or None,
        doi=doi,
        arxiv_id=arxiv,
        external_id=_text(fields.get("id") or fields.get("ID")) or None,
    )
