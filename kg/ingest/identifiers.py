"""DOIs, arXiv ids and years as a record gives them: taken whole, or not at all.

Each field must be one identifier, perhaps behind its usual prefix (`doi:`,
`https://doi.org/`, `arXiv:`, `https://arxiv.org/abs/`). Nothing is cut out of a longer
text: a DOI with a space in it, or a year "20x6", is not an identifier, and the caller drops
it with a warning instead of keeping a part that names another paper.
"""

from __future__ import annotations

import re

_DOI_PREFIX = re.compile(r"(?:doi:\s*|(?:https?://)?(?:dx\.)?doi\.org/)", re.IGNORECASE)
#: a DOI: "10.", a registrant code, "/", then a suffix of any printable characters but
#: white space (old SICI DOIs hold "<", ">" and ";"; the IRI escapes them)
_DOI = re.compile(r"10\.\d{4,9}(?:\.\d+)*/[^\s\x00-\x1f\x7f]+")
_ARXIV_PREFIX = re.compile(
    r"(?:arxiv:\s*|(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/)", re.IGNORECASE
)
#: new-style (2401.01234) and old-style (hep-th/9901001, math.GT/0309136) ids; a version
#: (v2) names the same paper and is left out
_ARXIV = re.compile(r"(\d{4}\.\d{4,5}|[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?")
#: a year, or a date that starts with one (2024-05-01, 2024-05-01T12:00:00Z)
_YEAR = re.compile(r"((?:19|20)\d\d)(?:-\d\d(?:-\d\d(?:[T ][\d:.]+Z?)?)?)?")


def _without(prefix: re.Pattern[str], text: str) -> str:
    value = text.strip()
    match = prefix.match(value)
    return value[match.end() :] if match else value


def parse_doi(text: str) -> str | None:
    """The DOI that `text` is, without its prefix; None when `text` is not one DOI."""
    value = _without(_DOI_PREFIX, text)
    return value if _DOI.fullmatch(value) else None


def parse_arxiv(text: str) -> str | None:
    """The arXiv id that `text` is (an id, `arXiv:` id, or abs or pdf URL), without its
    version; None when `text` is not one arXiv id."""
    value = _without(_ARXIV_PREFIX, text)
    match = _ARXIV.fullmatch(value)
    return match.group(1) if match else None


def parse_year(text: str) -> int | None:
    """The year that `text` is (1900 to 2099, or an ISO date in one); None otherwise."""
    match = _YEAR.fullmatch(text.strip())
    return int(match.group(1)) if match else None
