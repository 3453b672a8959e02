"""One paper per paper: records with the same abstract, or the same id, are one paper (the
first wins), and records that differ otherwise are reported, with counts, when merged.

A paper's id is a hash of its abstract, so two records with one abstract cannot be two
papers; when they disagree (other ids, other titles) the user should hear of it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from kg.model import Paper

log = logging.getLogger(__name__)

#: merges reported one by one as warnings; the rest are counted in one line (and listed with -v)
_REPORTED = 10
_LOCATIONS = 3


def _differs(kept: Paper, other: Paper) -> bool:
    """Whether `other` is another record than `kept`, not the same one met again."""
    return (
        other.text != kept.text
        or bool(kept.external_id and other.external_id and kept.external_id != other.external_id)
        or bool(kept.title and other.title and kept.title != other.title)
    )


def _what(kept: Paper, dropped: list[Paper]) -> str:
    if all(p.text == kept.text for p in dropped):
        return "the same abstract (a paper's id is a hash of its abstract)"
    if all(p.external_id == kept.external_id for p in dropped):
        return f"the id {kept.external_id!r} (the first one's abstract)"
    return "the same abstract or id"


def _message(kept: Paper, dropped: list[Paper]) -> str:
    places = [f"{p.source}:{p.line}" for p in dropped[:_LOCATIONS]]
    more = len(dropped) - len(places)
    where = ", ".join(places) + (f" and {more:,} more" if more else "")
    return (
        f"{kept.source}:{kept.line}: kept 1 of {len(dropped) + 1:,} records with "
        f"{_what(kept, dropped)}; dropped {where}"
    )


def merge(papers: Iterable[Paper]) -> list[Paper]:
    """The papers, each once: a record with the abstract or the id of an earlier one is
    dropped. Merges of records that differ are warned about, the rest noted at info level."""
    kept: dict[str, Paper] = {}
    by_external: dict[str, str] = {}
    dropped: dict[str, list[Paper]] = {}
    for paper in papers:
        first = paper.id if paper.id in kept else by_external.get(paper.external_id or "")
        if first is not None:
            dropped.setdefault(first, []).append(paper)
            continue
        kept[paper.id] = paper
        if paper.external_id:
            by_external[paper.external_id] = paper.id
    warned = [pid for pid in dropped if any(_differs(kept[pid], p) for p in dropped[pid])]
    for pid in warned[:_REPORTED]:
        log.warning("%s", _message(kept[pid], dropped[pid]))
    if len(warned) > _REPORTED:
        rest = warned[_REPORTED:]
        log.warning(
            "%s more papers each kept 1 of several records (%s records dropped); "
            "`kg -v build` lists them",
            f"{len(rest):,}",
            f"{sum(len(dropped[pid]) for pid in rest):,}",
        )
        for pid in rest:
            log.info("%s", _message(kept[pid], dropped[pid]))
    differing = set(warned)
    for pid, others in dropped.items():
        if pid not in differing:  # the same record met again: expected, noted with -v
            was = kept[pid]
            for p in others:
                log.info("%s:%d repeats %s:%d; kept once", p.source, p.line, was.source, was.line)
    return list(kept.values())
