"""`kg query`: SPARQL over the exports, bundled queries and their parameters."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kg.cli.app import Seconds, handle_errors, main


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
    type=Seconds(),
    default=30.0,
    show_default=True,
    help="Seconds the query may run (loading the graph not counted); 0: no limit.",
)
@click.option("--list", "list_queries", is_flag=True, help="List the bundled queries.")
@handle_errors
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

    QUERY is the name of a bundled query (see --list: `[benchmark=MATH500]` is a parameter
    and its default, an entity of the seeds' graph; `paper!` one you must give), a .rq file
    or a query string. PATHS are Turtle, N-Triples or JSON-LD files or directories. The
    prefixes kg, entity, paper, skos, rdfs, dcterms, prov, oa, ... are declared for you (by
    `kg serve` too). An ASK query prints yes or no and exits 0 or 1; CONSTRUCT and
    DESCRIBE print Turtle. A query that runs past --timeout is stopped (exit 2).

    \b
    Examples:
      kg query --list
      kg query papers-on-benchmark --param benchmark=MATH-500
      kg query leaderboard -p benchmark=MATH500 --format csv
      kg query 'SELECT ?p WHERE { ?p a kg:Paper; kg:evaluatedOn entity:math500 }'
    """
    from kg.errors import QueryError
    from kg.query.answers import format_answer
    from kg.query.library import answer_query, parse_params, prepare_query

    if list_queries:
        click.echo(_listing(), nl=False)
        return
    if query is None:
        raise QueryError("give a QUERY (a bundled name, a .rq file or a string) or --list")
    text, values = prepare_query(query, params)
    given = set(parse_params(params))  # the rest were left at the query's defaults
    targets = list(paths) or [Path("exports")]
    answer = answer_query(
        text,
        targets,
        engine=engine,
        values=values,
        timeout=timeout or None,
        defaulted=frozenset(values) - given,
    )
    click.echo(format_answer(answer, fmt), nl=False)
    if answer.boolean is False:
        sys.exit(1)


def _listing() -> str:
    """The bundled queries, a line each: name, description, [parameters]."""
    from kg.query.library import bundled_queries

    lines = []
    for q in bundled_queries():
        names = " ".join(
            f"{p.name}={p.default}" if p.default else p.name + ("!" if p.required else "")
            for p in q.params
        )
        lines.append(f"{q.name:<22} {q.description}" + (f" [{names}]" if names else "") + "\n")
    return "".join(lines)
