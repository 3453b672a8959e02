"""From a record (a dict of fields, whatever the format) to a `Paper`."""

from __future__ import annotations

import hashlib
import logging
import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path

from kg.errors import InputError
from kg.model import Paper

log = logging.getLogger(__name__)

_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_VENUE = re.compile(r"\b([A-Za-z][A-Za-z-]*)\b")
_ARXIV = re.compile(
    r"(?:arxiv\.org/(?:abs|pdf)/|arxiv:)?(\d{4}\.\d{4,5}|[a-z\-]+/\d{7})(?:v\d+)?", re.IGNORECASE
)
_LINE_BREAK = re.compile(r"[ \t]*[\r\n]+[ \t]*")
_DOI = re.compile(r"(?:doi\.org/|doi:)?(10\.\d{4,9}/\S+)", re.IGNORECASE)


#: what no export can hold: C0 controls but tab and line breaks, lone surrogates (a JSON
#: "\ud800"), U+FFFE and U+FFFF; neither XML 1.0 nor UTF-8 can carry them
_UNWRITABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def clean(text: str) -> str:
    """`text` with every character no export can hold replaced by U+FFFD (a stray U+0002
    from a PDF, a lone surrogate): replaced once here, so every offset stays true."""
    return _UNWRITABLE.sub("\ufffd", text)


def paper_id(text: str) -> str:
    """A stable id from the abstract's content (NFC, whitespace folded): same text, same id."""
    folded = " ".join(unicodedata.normalize("NFC", text).split())
    return hashlib.sha256(folded.encode("utf-8")).hexdigest()[:16]


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
    return " ".join(clean(str(value)).split())


def _authors(value: object) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, list | tuple):
        names = [_text(v if not isinstance(v, Mapping) else v.get("name", "")) for v in value]
    else:
        names = re.split(r"\s+and\s+|;\s*|\|", clean(str(value)))
    return tuple(n.strip() for n in names if n and n.strip())


def _year(value: object) -> int | None:
    match = _YEAR.search(str(value or ""))
    return int(match.group(1)) if match else None


def paper_from_record(
    record: Mapping[str, object],
    *,
    source: Path,
    line: int,
    index: int,
    strict: bool,
    collection: str = "",
) -> Paper | None:
    """A paper from a record with an `abstract` (and optional title, id, authors, year,
    venue, url, arxiv_id, doi); None, with a warning, when it has no abstract.

    Raises:
        InputError: the record has no abstract and `strict` is set.
    """
    fields = {str(k).strip().lower(): v for k, v in record.items()}
    # the abstract as written (offsets point into it); line breaks inside a field become spaces
    raw = fields.get("abstract")
    abstract = str(raw).strip() if raw is not None else ""
    if "\n" in abstract or "\r" in abstract:
        abstract = _LINE_BREAK.sub(" ", abstract)
    if _UNWRITABLE.search(abstract):
        log.warning(
            "%s:%d: control characters or lone surrogates in the abstract replaced by U+FFFD",
            source,
            line,
        )
        abstract = clean(abstract)
    if not abstract:
        message = "record has no abstract; skipped"
        if strict:
            raise InputError(source, message.replace("; skipped", ""), line=line)
        log.warning("%s:%d: %s", source, line, message)
        return None
    url = _text(fields.get("url"))
    arxiv = _ARXIV.search(
        _text(fields.get("arxiv_id") or fields.get("arxiv") or fields.get("eprint"))
    )
    if arxiv is None and "arxiv.org" in url:
        arxiv = _ARXIV.search(url)
    doi = _DOI.search(_text(fields.get("doi")))
    venue = _text(fields.get("venue") or fields.get("booktitle") or fields.get("journal"))
    year = _year(fields.get("year"))
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
        title=_text(fields.get("title")),
        authors=_authors(fields.get("authors") or fields.get("author")),
        url=url or None,
        doi=doi.group(1).rstrip(".,;") if doi else None,
        arxiv_id=arxiv.group(1) if arxiv else None,
        external_id=_text(fields.get("id") or fields.get("ID")) or None,
    )
