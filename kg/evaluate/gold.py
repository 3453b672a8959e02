"""The two files `kg eval` compares, read and checked record by record: a gold file (the
shape of ../shared/gold/*.jsonl) and a predictions file (`extractions.jsonl`).

A record of the wrong shape (a predictions file given as gold, say) stops with the file, the
line and what is wrong, rather than failing somewhere in the scoring.
"""

from __future__ import annotations

from pathlib import Path

from kg.errors import InputError
from kg.evaluate.score import load_jsonl
from kg.ingest.text import split_lines

_SWAPPED = "; is this a predictions file? `kg eval GOLD PREDICTED` takes the gold file first"


def _lines(path: Path) -> list[int]:
    """The line of each non-blank line of `path`, as `load_jsonl` reads them."""
    text = path.read_text(encoding="utf-8-sig")
    return [n for n, line in enumerate(split_lines(text), 1) if line.strip()]


def _gold_problem(record: object) -> str | None:
    """What keeps `record` from being a gold record; None when nothing."""
    if not isinstance(record, dict):
        return f"a gold record is a JSON object, not {type(record).__name__}"
    if "sentences" in record or "paper" in record:  # what `kg build` and `kg extract` write
        return "the record has `paper` and `sentences`, as kg's extractions do" + _SWAPPED
    if not isinstance(record.get("text") or record.get("head"), str):
        return "a gold record has a `text` or `head` string"
    entities = record.get("entities")
    if not isinstance(entities, list):
        return "a gold record has a list of `entities`"
    if (problem := _entities_problem(entities)) is not None:
        return problem
    for field in ("relations", "optional", "results"):
        if not isinstance(record.get(field) or [], list):
            return f"`{field}` is {_short(record[field])}, not a list"
    for n, relation in enumerate(record.get("relations") or (), 1):
        if not (
            isinstance(relation, list)
            and len(relation) == 3
            and all(isinstance(x, str) for x in relation)
        ):
            return f"relation {n} is {_short(relation)}, not [head, relation, tail]" + _SWAPPED
    if not all(isinstance(o, str) for o in record.get("optional") or ()):
        return "`optional` holds something that is not a name"
    for n, result in enumerate(record.get("results") or (), 1):
        if not (isinstance(result, dict) and isinstance(result.get("subject"), str)):
            return f"result {n} is {_short(result)}, not an object with a `subject` name"
        if "value" not in result:
            return f"result {n} has no `value`"
    return None


def _entities_problem(entities: list) -> str | None:
    """What is wrong with a record's list of entities (each an object with a `name` and a
    `type` string and, if any, a list of `aliases` strings); None when nothing."""
    for n, entity in enumerate(entities, 1):
        if not (
            isinstance(entity, dict)
            and isinstance(entity.get("name"), str)
            and isinstance(entity.get("type"), str)
        ):
            return f"entity {n} is not an object with a `name` and a `type`"
        aliases = entity.get("aliases") or []
        if not (isinstance(aliases, list) and all(isinstance(a, str) for a in aliases)):
            return f"entity {n} has `aliases` that are not a list of strings"
    return None


def _predicted_problem(record: object) -> str | None:
    """What keeps `record` from being a predicted record; None when nothing."""
    if not isinstance(record, dict):
        return f"a predicted record is a JSON object, not {type(record).__name__}"
    for field in ("entities", "relations", "results"):
        if not isinstance(record.get(field) or [], list):
            return f"`{field}` is {_short(record[field])}, not a list"
    if (problem := _entities_problem(record.get("entities") or [])) is not None:
        return problem
    if not all(isinstance(r, dict) for r in record.get("results") or ()):
        return "`results` holds something that is not an object"
    for n, relation in enumerate(record.get("relations") or (), 1):
        if not isinstance(relation, dict | list):
            return f"relation {n} is {_short(relation)}, not an object or [head, relation, tail]"
    return None


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _checked(path: Path, *, gold: bool) -> list[dict]:
    records = load_jsonl(path)
    if gold and not records:
        raise InputError(path, "holds no gold record: nothing to score against")
    problem = _gold_problem if gold else _predicted_problem
    for line, record in zip(_lines(path), records, strict=True):
        if (found := problem(record)) is not None:
            raise InputError(path, found, line=line)
    return records


def read_gold(path: Path) -> list[dict]:
    """The records of a gold file, each checked.

    Raises:
        InputError: the file cannot be read, a line is not JSON, or a record is not a gold
            record (naming the line and what is wrong).
    """
    return _checked(path, gold=True)


def read_predictions(path: Path) -> list[dict]:
    """The records of a predictions file (`extractions.jsonl`), each checked.

    Raises:
        InputError: the file cannot be read, a line is not JSON, or a record is not a
            predicted record.
    """
    return _checked(path, gold=False)
