"""The `kg` command line: a thin layer over the library; errors become exit codes here."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from kg import __version__
from kg.errors import KgError

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar

F = TypeVar("F", bound=Callable[..., Any])


def _handle_errors(func: F) -> F:
    """Turn a `KgError` into one line on stderr and its exit code (2: bad input or usage)."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except KgError as error:
            click.echo(f"Error: {error}", err=True)
            sys.exit(error.exit_code)
        except KeyboardInterrupt:
            click.echo(
                "Interrupted: nothing was written; the previous exports are unchanged", err=True
            )
            sys.exit(130)

    return wrapper  # type: ignore[return-value]


class _EchoHandler(logging.Handler):
    """Log records to stderr as "Warning: ..." lines, through click (so tests see them)."""

    def emit(self, record: logging.LogRecord) -> None:
        label = "Warning" if record.levelno >= logging.WARNING else "Info"
        click.echo(f"{label}: {record.getMessage()}", err=True)


def _input_options(func: F) -> F:
    """--format and --strict, shared by the commands that read abstracts."""
    func = click.option(
        "--strict",
        is_flag=True,
        help="Stop at the first bad record (bad JSON line, no abstract) instead of skipping it.",
    )(func)
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(["lines", "paragraphs", "jsonl", "json", "csv", "tsv", "bibtex"]),
        default=None,
        help="Input format [default: from the extension and content].",
    )(func)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kg")
@click.option("-v", "--verbose", is_flag=True, help="Log what each stage does.")
def main(verbose: bool) -> None:
    """Build a knowledge graph of ML research from paper abstracts, and query it.

    \b
    Start here:
      kg build                 # seeds/ -> exports/ (Turtle, GraphML, JSONL, HTML)
      kg stats                 # what the graph holds
      kg query 'SELECT ...'    # SPARQL over exports/
    """
    log = logging.getLogger("kg")
    log.handlers = [_EchoHandler()]
    log.setLevel(logging.INFO if verbose else logging.WARNING)
    log.propagate = False


@main.command()
@click.argument("inputs", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("exports"),
    show_default=True,
    help="Directory to write exports to.",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bars and no summary.")
@click.option(
    "--views",
    type=click.Choice(["all", "overview", "none"]),
    default="all",
    show_default=True,
    help="HTML views: all (overview, paper and entity pages), overview only, none.",
)
@_input_options
@click.option(
    "--engine",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="Run extraction in this process or on a Dask cluster.",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Dask scheduler address (default with --engine dask: a local cluster of "
    "two worker processes).",
)
@click.option(
    "--rdf",
    "rdf_formats",
    type=click.Choice(["all", "nt"]),
    default="all",
    show_default=True,
    help="RDF exports: all (kg.nt, kg.ttl, kg.jsonld) or nt only (large graphs).",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Extract, write and draw everything afresh; read and write no cache.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Write into OUT although it holds files and kg never built into it (files of the "
    "names kg writes are replaced; no other file is removed).",
)
@_handle_errors
def build(
    inputs: tuple[Path, ...],
    out: Path,
    quiet: bool,
    views: str,
    fmt: str | None,
    strict: bool,
    engine: str,
    scheduler: str | None,
    no_cache: bool,
    rdf_formats: str,
    force: bool,
) -> None:
    """Read abstracts and write the knowledge graph to OUT.

    INPUTS are files or directories of abstracts (default: seeds/): a heading line naming
    the collection ("ICML 2026 Papers") then one abstract per line; plain text with one
    abstract per paragraph; JSON Lines or a JSON array of records with `title` and
    `abstract` (and optional id, authors, year, venue, url, arxiv_id, doi); CSV or TSV with
    a header; BibTeX entries with an `abstract` field. A record without an abstract (or
    with a placeholder: "TBD", "N/A") or a line that is not JSON is skipped with a warning
    naming file and line (--strict stops the build instead); a malformed DOI, arXiv id or
    year is dropped with a warning, never altered; records with one abstract are merged
    into one paper, with a count. An abstract over 8 MB or another field over 64 KB stops
    the build (exit 2), naming file, line and limit.

    Writes kg.ttl, kg.nt, kg.jsonld and void.ttl (RDF), kg.graphml (NetworkX),
    extractions.jsonl (per-abstract extractions with offsets) and the HTML views
    (index.html: open it in a browser, no network needed). Every file is written to a
    temporary file and renamed, so a failed build leaves the previous exports whole. OUT
    keeps a manifest of what kg wrote there (.kg-manifest): files the last build wrote and
    this one did not (pages of papers no longer read) are removed, no other file is. A
    directory that holds files but no manifest is refused unless --force. Extractions are
    cached by abstract, and the cache remembers how kg drew OUT: a rebuild extracts only
    the abstracts that changed, copies the RDF of papers that did not change and draws
    only the pages that changed (--no-cache, `kg cache clear`).

    \b
    Examples:
      kg build
      kg build papers.jsonl --out /tmp/graph
      kg build icml2024.csv --views overview
    """
    from kg.builder import build as run_build

    with _Progress(show=not quiet and sys.stderr.isatty()) as progress:
        summary = run_build(
            list(inputs) or [Path("seeds")],
            out,
            on_progress=progress,
            views=views,
            fmt=fmt,
            strict=strict,
            engine=engine,
            scheduler=scheduler,
            cache=not no_cache,
            rdf_formats=rdf_formats,
            force=force,
        )
    if quiet:
        return
    types = ", ".join(f"{n} {t}" for t, n in summary.entities_by_type.items())
    relations = ", ".join(f"{n} {r}" for r, n in summary.relations_by_type.items())
    click.echo(f"papers:    {summary.papers} ({summary.cached} extractions from the cache)")
    click.echo(f"entities:  {summary.entities} ({types})")
    click.echo(f"relations: {sum(summary.relations_by_type.values())} ({relations})")
    click.echo(f"results:   {summary.results}")
    click.echo(f"triples:   {summary.triples}")
    click.echo(f"wrote:     {_files(summary.files, out)}")
    if summary.pages_kept or summary.blocks_reused:
        click.echo(
            f"kept:      {summary.pages_kept} pages and {summary.blocks_reused} papers' RDF "
            "as the last build wrote them"
        )


class _Progress:
    """A progress bar on stderr for each stage of a build that takes a while to show."""

    LABELS = {
        "extract": "Extracting",
        "link": "Linking",
        "RDF": "Writing RDF",
        "extractions.jsonl": "JSON Lines",
        "views": "Writing pages",
        "GraphML, Turtle and JSON-LD": "GraphML, Turtle",
    }

    def __init__(self, show: bool) -> None:
        self.show = show
        self.stage: str | None = None
        self.bar: ProgressBar[int] | None = None

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *error: object) -> None:
        self._close()

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.show or stage not in self.LABELS:
            return
        if stage != self.stage:
            self._close()
            label = f"{self.LABELS[stage]:<16}"
            self.bar = click.progressbar(length=total, label=label, file=sys.stderr)
            self.stage = stage
        assert self.bar is not None
        self.bar.length = total
        self.bar.update(done - self.bar.pos)

    def _close(self) -> None:
        if self.bar is not None:
            self.bar.render_finish()
            self.bar = None


def _files(files: tuple[Path, ...], out: Path) -> str:
    """ "kg.ttl, kg.nt, ..., papers/ (38 pages)": what a build wrote, folders counted."""
    top: list[str] = []
    folders: dict[str, int] = {}
    for f in files:
        rel = f.relative_to(out)
        if len(rel.parts) == 1:
            top.append(rel.name)
        else:
            folders[rel.parts[0]] = folders.get(rel.parts[0], 0) + 1
    parts = top + [f"{name}/ ({n} files)" for name, n in sorted(folders.items())]
    return f"{out}/: " + ", ".join(parts)


@main.command()
@click.argument("query", required=False)
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(["table", "csv", "tsv", "json", "turtle"]),
    default="table",
    show_default=True,
    help="How to print the answer (turtle: for CONSTRUCT and DESCRIBE).",
)
@click.option(
    "-p",
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="Bind ?NAME to an entity (any of its names), a paper id or an IRI.",
)
@click.option(
    "--engine",
    type=click.Choice(["oxigraph", "rdflib"]),
    default="oxigraph",
    show_default=True,
    help="SPARQL engine: Oxigraph (fast) or rdflib.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0),
    default=30.0,
    show_default=True,
    help="Seconds the query may run (loading the graph not counted); 0: no limit.",
)
@click.option("--list", "list_queries", is_flag=True, help="List the bundled queries.")
@_handle_errors
def query(
    query: str | None,
    paths: tuple[Path, ...],
    fmt: str,
    params: tuple[str, ...],
    engine: str,
    timeout: float,
    list_queries: bool,
) -> None:
    """Run a SPARQL QUERY over the exports (default: exports/).

    QUERY is the name of a bundled query (see --list), a .rq file or a query string. PATHS
    are Turtle, N-Triples or JSON-LD files or directories. The prefixes kg, entity, paper,
    skos, rdfs, dcterms, prov, oa, ... are declared for you. An ASK query prints yes or no
    and exits 0 or 1; CONSTRUCT and DESCRIBE print Turtle. A query that runs past --timeout
    is stopped (exit 2).

    \b
    Examples:
      kg query --list
      kg query papers-on-benchmark --param benchmark=MATH-500
      kg query leaderboard -p benchmark=MATH500 --format csv
      kg query 'SELECT ?p WHERE { ?p a kg:Paper; kg:evaluatedOn entity:math500 }'
    """
    from kg.errors import QueryError
    from kg.queries import (
        answer_query,
        bundled_queries,
        check_required,
        find_query,
        parse_params,
        query_file,
    )
    from kg.query import format_answer, read_query

    if list_queries:
        for q in bundled_queries():
            names = " ".join(
                f"{p.name}={p.default}" if p.default else p.name + ("!" if p.required else "")
                for p in q.params
            )
            click.echo(f"{q.name:<22} {q.description}" + (f" [{names}]" if names else ""))
        return
    if query is None:
        raise QueryError("give a QUERY (a bundled name, a .rq file or a string) or --list")
    # a bundled name, or a .rq file: both may declare `# param` defaults
    bundled = find_query(query) if not query.endswith(".rq") else query_file(read_query(query))
    text = bundled.text if bundled else read_query(query)
    values = {p.name: p.default for p in (bundled.params if bundled else ()) if p.default}
    values.update(parse_params(params))
    if bundled:
        check_required(bundled, values)
    targets = list(paths) or [Path("exports")]
    answer = answer_query(text, targets, engine=engine, values=values, timeout=timeout or None)
    click.echo(format_answer(answer, fmt), nl=False)
    if answer.boolean is False:
        sys.exit(1)


@main.command()
@click.argument("exports", default=Path("exports"), type=click.Path(path_type=Path))
@click.option("-n", "--top", default=10, show_default=True, help="How many entities to list.")
@_handle_errors
def stats(exports: Path, top: int) -> None:
    """Counts by type and the most connected entities of a built graph.

    \b
    Example:
      kg stats            # reads exports/kg.graphml
      kg stats /tmp/graph --top 20
    """
    from kg.stats import stats as run_stats

    result = run_stats(exports, top=top)
    click.echo(f"papers: {result.papers}")
    click.echo("entities by type:")
    for name, count in result.entities_by_type.items():
        click.echo(f"  {name:<10} {count}")
    click.echo("relations by type:")
    for name, count in result.relations_by_type.items():
        click.echo(f"  {name:<13} {count}")
    click.echo("most mentioned entities (by papers):")
    for name, kind, papers in result.top_entities:
        click.echo(f"  {papers:>3}  {name} ({kind})")


@main.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@_input_options
@_handle_errors
def extract(inputs: tuple[Path, ...], fmt: str | None, strict: bool) -> None:
    """Print the extraction of each abstract in INPUTS as JSON Lines, without a graph.

    The records have the format ../shared/gold/score.py reads (text, entities, relations)
    plus offsets of every mention.

    \b
    Example:
      kg extract seeds/004_b354a604767238da.txt > predicted.jsonl
    """
    from kg.export import extractions_jsonl
    from kg.extract import extract as run_extract
    from kg.ingest import read_inputs
    from kg.link import link

    papers = read_inputs(inputs, fmt, strict)
    click.echo(extractions_jsonl(link(run_extract(papers))), nl=False)


@main.command(name="eval")
@click.argument("gold", type=click.Path(path_type=Path))
@click.argument("predicted", required=False, type=click.Path(path_type=Path))
@click.option("--verbose", is_flag=True, help="List every error, abstract by abstract.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@_handle_errors
def evaluate(gold: Path, predicted: Path | None, verbose: bool, as_json: bool) -> None:
    """Score extractions against a GOLD file (precision, recall, F1 by type).

    PREDICTED is a JSON Lines file such as exports/extractions.jsonl; without it, kg
    extracts the gold file's abstracts afresh. Scoring follows the annotation guideline
    (../shared/gold/GUIDELINE.md): strict (type must match), lenient (Dataset and
    Benchmark are one type), name only, per type, proposed and relations.

    \b
    Examples:
      kg eval ../shared/gold/dev.jsonl exports/extractions.jsonl --verbose
      kg eval ../shared/gold/gsap_abstracts.jsonl
    """
    import json

    from kg.evaluate import evaluate as run_eval
    from kg.evaluate import extract_gold_texts, format_report
    from kg.gold import read_gold, read_predictions

    gold_records = read_gold(gold)
    records = read_predictions(predicted) if predicted else extract_gold_texts(gold_records)
    report = run_eval(gold_records, records)
    if as_json:
        click.echo(json.dumps(report.as_json(), indent=2))
    else:
        click.echo(format_report(report, verbose=verbose), nl=False)


@main.command()
@click.argument("exports", default=Path("exports"), type=click.Path(path_type=Path))
@_handle_errors
def validate(exports: Path) -> None:
    """Check the exports against the SHACL shapes of ontology/shapes.ttl.

    Exits 0 when kg.ttl conforms, 1 when it violates a shape (each violation is listed with
    its focus node, property and shape), 2 when it cannot be read.

    \b
    Example:
      kg validate            # checks exports/kg.ttl
    """
    from kg.validate import validate as run_validate

    violations = run_validate(exports)
    if not violations:
        click.echo("conforms: every node matches its shape")
        return
    for v in violations:
        path = f" {v.path}:" if v.path else ""
        click.echo(f"{v.focus}{path} {v.message} (shape {v.shape})")
    click.echo(f"{len(violations)} violation{'s' if len(violations) != 1 else ''}", err=True)
    sys.exit(1)


@main.command()
@click.argument("name")
@click.argument("exports", default=Path("exports"), type=click.Path(path_type=Path))
@_handle_errors
def explain(name: str, exports: Path) -> None:
    """Explain an entity: its names, type votes, merges, family and every mention.

    NAME is any of its names in any spelling (MATH-500, math500, ASMC).

    \b
    Example:
      kg explain MATH-500
      kg explain ReaTTS
    """
    from kg.explain import explain as run_explain

    e = run_explain(name, exports)
    click.echo(f"{e.name}  ({e.type}, entity:{e.key})")
    if e.aliases:
        click.echo("also written: " + ", ".join(e.aliases))
    click.echo(f"type votes:   {e.type_votes}")
    if e.family:
        click.echo("variant of:   " + " < ".join(e.family))
    for note in e.merges:
        click.echo(f"merged:       {note}")
    papers = sorted({o.paper for o in e.occurrences})
    click.echo(f"mentions:     {len(e.occurrences)} in {len(papers)} paper(s)")
    for o in e.occurrences:
        click.echo(f"  {o.source}:{o.line} [{o.start}:{o.end}] {o.text!r}: {o.sentence}")


@main.command()
@click.argument("exports", default=Path("exports"), type=click.Path(path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=7878,
    show_default=True,
    help="Port to listen on (0: any free port, printed).",
)
@click.option("--writable", is_flag=True, help="Accept SPARQL updates and graph uploads.")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=30.0,
    show_default=True,
    help="Seconds a query or update may run before it is stopped (HTTP 503).",
)
@click.option(
    "--allow-remote",
    is_flag=True,
    help="Run SERVICE (federated queries) and LOAD, which make the server fetch URLs.",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Another name the server answers to in the Host header (a DNS name, a proxy's).",
)
@_handle_errors
def serve(
    exports: Path,
    host: str,
    port: int,
    writable: bool,
    timeout: float,
    allow_remote: bool,
    allow_hosts: tuple[str, ...],
) -> None:
    """Serve the exports as a SPARQL 1.1 endpoint (Oxigraph), read-only by default.

    Loads kg.nt and the ontology into a fresh store and answers the SPARQL 1.1 Protocol at
    /query (/update with --writable) and the Graph Store Protocol at /store, on 127.0.0.1
    unless --host says otherwise, until Ctrl-C, SIGTERM or SIGHUP, or until the process
    that started it ends; then the store is removed.

    Refused with HTTP 403: a Host header that is not this server (DNS rebinding: the
    loopback names, the --host, the --allow-host names); a POST, PUT or DELETE from a web
    page of another site (its Origin header); SERVICE and LOAD unless --allow-remote;
    changes unless --writable. A query or update is stopped after --timeout seconds (30),
    or as soon as its client leaves. Exits 2 with one line if it cannot listen (the port is
    taken) or Oxigraph stops.

    \b
    Example:
      kg serve --port 7878 &
      curl -H 'Accept: text/csv' --data-urlencode 'query=SELECT * { ?s ?p ?o } LIMIT 3' \\
           http://127.0.0.1:7878/query
    """
    from kg.endpoint import Server, run_server

    def ready(server: Server) -> None:
        mode = "read-write" if writable else "read-only"
        click.echo(f"SPARQL endpoint ({mode}): {server.query_url}")
        click.echo(f"Graph Store endpoint:    {server.store_url}")
        click.echo(f"Queries stop after {timeout:g} s; Ctrl-C to stop", err=True)

    stopped = run_server(
        exports,
        ready,
        host=host,
        port=port,
        writable=writable,
        query_timeout=timeout,
        allow_remote=allow_remote,
        allow_hosts=allow_hosts,
    )
    click.echo(f"Stopped ({stopped}); the store is removed", err=True)


@main.command()
@click.argument("exports", default=Path("exports"), type=click.Path(path_type=Path))
@click.option(
    "--endpoint",
    required=True,
    help="Graph Store Protocol URL, e.g. http://127.0.0.1:7878/store (Oxigraph) or "
    "http://localhost:3030/kg/data (Fuseki).",
)
@click.option(
    "--graph",
    "graph_iri",
    default=None,
    help="Named graph to replace [default: https://w3id.org/kg-ml/id/dataset].",
)
@_handle_errors
def push(exports: Path, endpoint: str, graph_iri: str | None) -> None:
    """Send the graph to a SPARQL 1.1 store, replacing one named graph (HTTP PUT).

    Works with any store that speaks the Graph Store HTTP Protocol: Oxigraph, Apache Jena
    Fuseki, GraphDB, Virtuoso, QLever. A rebuild pushed again replaces the graph; nothing is
    duplicated.

    \b
    Example:
      kg push --endpoint http://127.0.0.1:7878/store
    """
    from kg.endpoint import DEFAULT_GRAPH
    from kg.endpoint import push as run_push

    graph = graph_iri or DEFAULT_GRAPH
    count = run_push(exports, endpoint, graph)
    click.echo(f"pushed {count} triples to <{graph}> at {endpoint}")


@main.group()
def cache() -> None:
    """The cache of extractions and pages that makes rebuilds fast.

    `kg build` keeps every abstract's extraction, keyed by the abstract and the extractor
    (its version, lexicon and word lists), in $KG_CACHE_DIR (default ~/.cache/kg). A
    rebuild extracts only new or changed abstracts; a new extractor starts afresh. It also
    remembers, for each exports directory, what the last build wrote there: a rebuild copies
    each unchanged paper's RDF and keeps each unchanged page.

    \b
    Example:
      kg cache info
      kg cache clear
    """


@cache.command(name="info")
@_handle_errors
def cache_info() -> None:
    """Where the cache is and how many extractions and page memos it holds.

    \b
    Example:
      kg cache info
    """
    from kg.cache import ExtractionCache, fingerprint
    from kg.memo import remembered

    store = ExtractionCache()
    click.echo(f"{store.path}: {store.count()} extractions (extractor {fingerprint()})")
    click.echo(f"{store.directory}: memos of {remembered(store.directory)} exports directories")
    store.close()


@cache.command(name="clear")
@_handle_errors
def cache_clear() -> None:
    """Remove every cached extraction and page memo.

    \b
    Example:
      kg cache clear
    """
    from kg.cache import ExtractionCache
    from kg.memo import clear_memos

    store = ExtractionCache()
    click.echo(f"removed {store.clear()} extractions from {store.path}")
    click.echo(f"removed the memos of {clear_memos(store.directory)} exports directories")
    store.close()
