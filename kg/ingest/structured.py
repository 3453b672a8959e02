"""Structured inputs: JSON Lines, JSON arrays, CSV and TSV with a header, BibTeX."""

from __future__ import annotations

import bisect
import csv
import io
import json
import logging
import re
from pathlib import Path

from kg.errors import InputError
from kg.ingest.limits import ABSTRACT_FIELDS, MAX_ABSTRACT_BYTES, oversized
from kg.ingest.papers import WARNINGS, paper_from_record
from kg.ingest.remembered import RememberedLines, line_key
from kg.ingest.text import LINE_END, split_lines
from kg.model import Paper

log = logging.getLogger(__name__)


def _skip(path: Path, line: int, message: str, strict: bool) -> None:
    if strict:
        raise InputError(path, message, line=line)
    log.warning("%s:%d: %s; skipped", path, line, message)


def loads_json(text: str) -> object:
    """`json.loads`, its failures all ValueErrors that say what is wrong: a syntax error at
    a column, nesting past Python's recursion limit, a number of more digits than Python
    converts (4,300): a crafted file is one line of error, not a traceback.

    Raises:
        ValueError: the text is not JSON kg can read.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise ValueError("nested too deeply") from None
    except ValueError as error:  # "Exceeds the limit (4300 digits) for integer string ..."
        raise ValueError(f"a number too long: {str(error).split(';')[0]}") from None


def read_jsonl(
    path: Path, text: str, strict: bool, known: RememberedLines | None = None
) -> list[Paper | None]:
    """One JSON object a line; with `known`, a line the last build read is not parsed again
    (`kg.ingest.remembered`)."""
    papers: list[Paper | None] = []
    for number, line in enumerate(split_lines(text), 1):
        if not line.strip():
            continue
        key = None
        if known is not None:
            key = line_key(path.name, line)
            paper = known.paper(key, number, len(papers) + 1)
            if paper is not None:
                papers.append(paper)
                continue
        try:
            record = loads_json(line)
        except json.JSONDecodeError as error:
            _skip(path, number, f"not JSON ({error.msg}: column {error.colno})", strict)
            continue
        except ValueError as error:
            _skip(path, number, f"not JSON ({error})", strict)
            continue
        if not isinstance(record, dict):
            _skip(path, number, "not a JSON object", strict)
            continue
        warned = WARNINGS.get()
        paper = paper_from_record(
            record, source=path, line=number, index=len(papers) + 1, strict=strict
        )
        papers.append(paper)
        if known is not None and key is not None and paper is not None:
            if WARNINGS.get() == warned:  # one that warned is read again, and warns again
                known.remember(key, paper)
    return papers


def read_json(path: Path, text: str, strict: bool) -> list[Paper | None]:
    """A JSON array of objects (or an object with a list under "papers" or "records")."""
    try:
        data = loads_json(text)
    except json.JSONDecodeError as error:
        where = f"{error.msg}: column {error.colno}"
        raise InputError(path, f"not JSON ({where})", line=error.lineno) from None
    except ValueError as error:
        raise InputError(path, f"not JSON ({error})") from None
    if isinstance(data, dict):
        data = next(
            (data[k] for k in ("papers", "records", "items") if isinstance(data.get(k), list)),
            [data],
        )
    if not isinstance(data, list):
        raise InputError(path, "expected a JSON array of records with an abstract")
    papers: list[Paper | None] = []
    for i, record in enumerate(data, 1):
        if not isinstance(record, dict):
            _skip(path, 1, f"item {i} is not a JSON object", strict)
            continue
        papers.append(paper_from_record(record, source=path, line=1, index=i, strict=strict))
    return papers


def read_table(path: Path, text: str, strict: bool, delimiter: str) -> list[Paper | None]:
    """CSV or TSV with a header row that names an `abstract` (or `text`) column."""
    # the csv module's own limit (128 KB a cell) is below an abstract's: lifted while reading,
    # so that a cell too large gets kg's message
    previous = csv.field_size_limit(MAX_ABSTRACT_BYTES + 1)
    try:
        return _read_table(path, text, strict, delimiter)
    finally:
        csv.field_size_limit(previous)


def _read_table(path: Path, text: str, strict: bool, delimiter: str) -> list[Paper | None]:
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
    papers: list[Paper | None] = []
    done = 0  # the last line of the last record read
    try:
        header = [h.strip().lower() for h in reader.fieldnames or []]
        done = reader.line_num
        if not set(ABSTRACT_FIELDS) & set(header):
            found = ", ".join(header) or "none"
            raise InputError(
                path, f"no `abstract` (or `text`) column in the header (found: {found})", line=1
            )
        for i, row in enumerate(reader, 1):
            done = reader.line_num
            if None in row:  # more cells than the header names
                _skip(path, reader.line_num, "more cells than the header has columns", strict)
                continue
            papers.append(
                paper_from_record(row, source=path, line=reader.line_num, index=i, strict=strict)
            )
    except csv.Error as error:
        if "field larger than field limit" in str(error):
            what = f"a cell of the record is over {MAX_ABSTRACT_BYTES:,} characters"
            raise oversized(path, done + 1, what, MAX_ABSTRACT_BYTES) from None
        raise InputError(
            path, f"not {('CSV', 'TSV')[delimiter == chr(9)]}: {error}", line=reader.line_num
        ) from None
    return papers


def read_bibtex(path: Path, text: str, strict: bool) -> list[Paper | None]:
    """BibTeX entries with an `abstract` field (bibtexparser)."""
    import bibtexparser
    from bibtexparser.bparser import BibTexParser

    parser = BibTexParser(common_strings=True, ignore_nonstandard_types=False)
    try:
        database = bibtexparser.loads(text, parser=parser)
    except Exception as error:  # bibtexparser raises pyparsing and its own errors
        raise InputError(path, f"not BibTeX: {error}") from None
    starts = _entry_lines(text)
    read = {entry.get("ID", "") for entry in database.entries}
    for key, lines in starts.items():
        if key not in read:  # bibtexparser drops an entry it cannot read, and says nothing
            _skip(path, lines[0], f"the entry {key} is not BibTeX that can be read", strict)
    entries = sum(1 for m in _ANY_ENTRY.finditer(text) if m.group(1).lower() not in _NOT_ENTRIES)
    unnamed = entries - len(database.entries) - sum(k not in read for k in starts)
    if unnamed > 0:  # its key cannot be read either ("@article{key with space,")
        _skip(path, 1, f"{unnamed} entries are not BibTeX that can be read", strict)
    papers: list[Paper | None] = []
    for i, entry in enumerate(database.entries, 1):
        lines = starts.get(entry.get("ID", ""), [])
        line = lines.pop(0) if lines else 1  # a key met twice: each entry its own line
        papers.append(paper_from_record(entry, source=path, line=line, index=i, strict=strict))
    return papers


#: where a BibTeX entry begins: "@article{key," (or "@article(key,"), at a line's start or
#: after a space (two entries on one line)
_ENTRY = re.compile(r"(?:^|(?<=\s))@[ \t]*(\w+)[ \t]*[{(][ \t]*([^,\s{}()]+)[ \t]*,")
#: the start of any entry, its key readable or not ("@article{key with space,")
_ANY_ENTRY = re.compile(r"(?:^|(?<=\s))@[ \t]*(\w+)[ \t]*[{(]")
_NOT_ENTRIES = frozenset({"comment", "string", "preamble"})


def _entry_lines(text: str) -> dict[str, list[int]]:
    """The line each entry begins on, by key, in order, in one pass over the text (looking
    up each key's line in every line made a 3,000-entry file take 18 s, and took the first
    line that held the key anywhere)."""
    breaks = [m.end() for m in LINE_END.finditer(text)]
    out: dict[str, list[int]] = {}
    for match in _ENTRY.finditer(text):
        if match.group(1).lower() not in _NOT_ENTRIES:
            line = bisect.bisect_right(breaks, match.start()) + 1
            out.setdefault(match.group(2), []).append(line)
    return out
