"""The bundled query library (queries/*.rq): names, descriptions, parameters.

A bundled query starts with comment lines: the first says what it answers, and each
`# param NAME = DEFAULT: help` (or `# param NAME: help`, no default) names a variable that
`--param NAME=VALUE` binds. A value is an entity name in any spelling (MATH-500), a paper id,
a prefixed name (entity:qwen) or an IRI, bare or in <angle brackets>.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from kg.errors import QueryError
from kg.names import fold
from kg.namespaces import PAPER, PREFIXES
from kg.processes import ChildDiedError, TimedOutError, run_timed
from kg.query.load import load_graph, load_store
from kg.query.sparql import IRI, Answer, Term, read_query, run_query
from kg.resources import queries_dir

#: an absolute IRI given without angle brackets: https://w3id.org/kg-ml/id/entity/math500
_BARE_IRI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s<>\"{}|\\^`]+")
#: what a bundled query's name looks like (no SPARQL query does)
_NAME = re.compile(r"[A-Za-z0-9_-]+")
_PARAM = re.compile(r"^#\s*param\s+(\w+)(!?)\s*(?:=\s*([^:]+?))?\s*:\s*(.*)$")


@dataclass(frozen=True)
class Param:
    """A variable of a bundled query that `--param` binds."""

    name: str
    default: str | None
    help: str
    required: bool = False


@dataclass(frozen=True)
class BundledQuery:
    """A query of queries/*.rq."""

    name: str
    description: str
    params: tuple[Param, ...]
    text: str


def query_file(text: str, name: str = "query") -> BundledQuery:
    """A query text with its `# param` declarations read (for .rq files users bring)."""
    return _parse_text(name, text)


def _parse(path: Path) -> BundledQuery:
    return _parse_text(path.stem, path.read_text(encoding="utf-8"))


def _parse_text(name: str, text: str) -> BundledQuery:
    comments = [line for line in text.splitlines() if line.startswith("#")]
    params = []
    for line in comments:
        match = _PARAM.match(line)
        if match:
            variable, required, default, help_text = match.groups()
            params.append(
                Param(variable, (default or "").strip() or None, help_text.strip(), bool(required))
            )
    description = comments[0].lstrip("# ").strip() if comments else ""
    return BundledQuery(name, description, tuple(params), text)


def bundled_queries() -> list[BundledQuery]:
    """Every bundled query, by name."""
    return [_parse(p) for p in sorted(queries_dir().glob("*.rq"))]


def find_query(name: str) -> BundledQuery | None:
    """The bundled query of that name, or None (and for anything that is no name, such as
    a query's text, which no file name could hold)."""
    if not _NAME.fullmatch(name):
        return None
    path = queries_dir() / f"{name}.rq"
    return _parse(path) if path.is_file() else None


def _no_such_query(name: str) -> str:
    """What to say of a name that is no bundled query: the nearest one (difflib), if any."""
    names = [q.name for q in bundled_queries()]
    near = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    hint = f"; did you mean {near[0]}?" if near else ""
    return f"no bundled query is called {name!r}{hint} (`kg query --list` lists them)"


def check_required(query: BundledQuery, values: Mapping[str, str]) -> None:
    """Raise when a required parameter has no value."""
    missing = [p.name for p in query.params if p.required and p.name not in values]
    if missing:
        example = " ".join(f"--param {name}=..." for name in missing)
        raise QueryError(f"{query.name} needs {example}")


def parse_params(pairs: Sequence[str]) -> dict[str, str]:
    """`["benchmark=MATH500"]` → {"benchmark": "MATH500"}."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip() or not re.fullmatch(r"\w+", name.strip()):
            raise QueryError(f"--param {pair!r}: write NAME=VALUE, e.g. benchmark=MATH500")
        if name.strip() in out:
            raise QueryError(f"--param {name.strip()} is given twice: give each once")
        out[name.strip()] = value.strip()
    return out


def prepare_query(query: str, params: Sequence[str] = ()) -> tuple[str, dict[str, str]]:
    """The text of `query` and the values of its parameters, as `kg query` runs it.

    Args:
        query: the name of a bundled query, a .rq file or a query string.
        params: `NAME=VALUE` pairs; they override the `# param` defaults that a bundled
            query or a .rq file declares.

    Raises:
        InputError: the .rq file is missing.
        QueryError: a pair is not NAME=VALUE, a required parameter has no value, or `query`
            is a name (letters, digits, hyphens) that no bundled query has.
    """
    bundled = find_query(query) if not query.endswith(".rq") else query_file(read_query(query))
    if bundled is None and _NAME.fullmatch(query):
        raise QueryError(_no_such_query(query))
    values = {p.name: p.default for p in (bundled.params if bundled else ()) if p.default}
    values.update(parse_params(params))
    if bundled is None:
        return query, values
    check_required(bundled, values)
    return bundled.text, values


#: the labels that may fold to `?wanted` (`kg.names.fold`): every label outside printable
#: ASCII, and each label of printable ASCII whose fold, done here in SPARQL, is `?wanted`.
#: On printable ASCII `fold` is lower case, spaces stripped, a suffix (" dataset", ...)
#: dropped and the noise characters (space - _ . ' ` ") removed, which this filter does; the
#: caller folds the few labels found to choose, as a scan of every label would. 0.1 s
#: instead of 0.77 s at 25,000 abstracts (32,000 labels fetched and folded in Python).
_LABELS = """SELECT ?e ?label ?votes WHERE {
  { ?e skos:prefLabel ?label } UNION { ?e skos:altLabel ?label }
  OPTIONAL { ?e kg:typeVotes ?votes }
  FILTER (REGEX(STR(?label), "[^ -~]") || ?wanted = REPLACE(REPLACE(REPLACE(
    LCASE(STR(?label)), "^ +| +$", ""), " +(dataset|datasets|benchmark|benchmarks|suite)$", ""),
    "[ _.'`\\"-]+", "")) }"""


def _is_text(value: str) -> bool:
    """Whether `value` is Unicode text, which the query's text must be: not when it holds
    a lone surrogate (Python's stand-in for a byte of an argument that is not UTF-8)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def entity_named(name: str, paths: Sequence[Path], engine: str, store: object | None) -> str | None:
    """The entity one of whose labels (skos:prefLabel or altLabel) folds as `name` does
    (`kg.names.fold`: MATH-500 is MATH500), the first IRI in order when several do; None
    when none does."""
    wanted = fold(name)
    if not _is_text(wanted):  # a byte no label holds (in an argument that is not UTF-8)
        return None
    answer = run_query(
        _LABELS, paths, engine=engine, store=store, bindings={"wanted": Term("literal", wanted)}
    )
    found = [
        (-voted(votes.value if votes is not None else ""), str(entity), str(label), entity)
        for entity, label, votes in answer.rows
        if entity is not None and label is not None and fold(label.value) == wanted
    ]
    if not found:
        return None
    # the entity most papers name (an acronym that a few abstracts expand otherwise names
    # their entities too: kg.link), then in the terms' text's order, as kg always chose
    return min(found, key=lambda row: row[:3])[3].value


def voted(votes: str) -> int:
    """How many papers' mentions an entity's `kg:typeVotes` counts ("Method 20, Dataset
    2": 22; 0 for the lexicon's concepts no paper names)."""
    return sum(int(n) for n in re.findall(r"(?<= )\d+(?=,|$)", votes))


def resolve(
    values: Mapping[str, str],
    paths: Sequence[Path],
    engine: str,
    store: object | None,
    defaulted: frozenset[str] = frozenset(),
) -> dict[str, Term]:
    """Turn parameter values into RDF terms: names of entities into their IRIs.
    `defaulted` names the parameters left at the query's default (a bundled query's names
    an entity of the seeds' graph): another graph may have none of that name."""
    out: dict[str, Term] = {}
    for name, value in values.items():
        prefix, _, local = value.partition(":")
        if value.startswith("<") and value.endswith(">"):
            if not IRI.fullmatch(value[1:-1]):
                raise QueryError(f"--param {name}={value}: not an IRI")
            out[name] = Term("uri", value[1:-1])
        elif _BARE_IRI.fullmatch(value):
            out[name] = Term("uri", value)
        elif re.fullmatch(r"[0-9a-f]{16}", value):
            out[name] = Term("uri", str(PAPER[value]))
        elif prefix in PREFIXES and local and " " not in value:
            if not IRI.fullmatch(PREFIXES[prefix] + local):
                raise QueryError(f"--param {name}={value}: not a name of the prefix {prefix}:")
            out[name] = Term("uri", PREFIXES[prefix] + local)
        else:
            entity = entity_named(value, paths, engine, store)
            if entity is None and name in defaulted:
                raise QueryError(
                    f"{name}={value}, the query's default, names no entity of this graph: "
                    f"give one with --param {name}=NAME (`kg stats` lists the most used names)"
                )
            if entity is None:
                raise QueryError(
                    f"--param {name}={value}: no entity has that name "
                    "(try `kg stats` or `kg explain`)"
                )
            out[name] = Term("uri", entity)
    return out


def answer_query(
    text: str,
    paths: Sequence[Path],
    *,
    engine: str = "oxigraph",
    values: Mapping[str, str] | None = None,
    timeout: float | None = None,
    defaulted: frozenset[str] = frozenset(),
) -> Answer:
    """Load the graph, bind `values` (see `resolve`; `defaulted`: those left at the query's
    defaults) and run the query, in a child process
    killed once the query has run `timeout` seconds (None: no limit; loading is not
    counted). Neither engine can stop a query midway; killing its process can.

    Raises:
        QueryError: the query is malformed, unsafe, fails or runs past the timeout.
        InputError: an RDF file is missing or malformed.
    """

    def prepare() -> object:
        return load_graph(paths) if engine == "rdflib" else load_store(paths)

    def task(store: object) -> Answer:
        bindings = resolve(values or {}, paths, engine, store, defaulted)
        return run_query(text, paths, engine=engine, bindings=bindings, store=store)

    try:
        return run_timed(prepare, task, timeout)
    except TimedOutError:
        raise QueryError(
            f"the query ran past the {timeout:g} s timeout (give more with --timeout)"
        ) from None
    except ChildDiedError:
        # Oxigraph aborts on a query nested past its stack (a property path of thousands of
        # steps, thousands of operators in a row): the process is gone, not this one
        raise QueryError(
            f"the {engine} engine stopped on this query (out of memory, or nested too "
            "deeply?): simplify it"
        ) from None
