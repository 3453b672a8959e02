"""`kg stats`, `kg validate` and `kg explain`: look into a built graph."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kg.cli.app import handle_errors, main


@main.command()
@click.argument("exports", default=Path("exports"), type=click.Path(path_type=Path))
@click.option(
    "-n",
    "--top",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="How many entities to list.",
)
@handle_errors
def stats(exports: Path, top: int) -> None:
    """Counts by type and the most connected entities of a built graph.

    \b
    Example:
      kg stats            # reads exports/kg.graphml, else exports/kg.ttl
      kg stats /tmp/graph --top 20
    """
    from kg.query.stats import stats as run_stats

    result = run_stats(exports, top=top)
    click.echo(f"papers: {result.papers}")
    if result.triples is not None:
        click.echo(f"triples: {result.triples}")
    click.echo(f"entities: {result.entities}")
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
@click.argument("exports", default=Path("exports"), type=click.Path(path_type=Path))
@handle_errors
def validate(exports: Path) -> None:
    """Check the exports against the SHACL shapes of ontology/shapes.ttl.

    Exits 0 when kg.ttl conforms, 1 when it violates a shape (each violation is listed with
    its focus node, property and shape), 2 when it cannot be read.

    \b
    Example:
      kg validate            # checks exports/kg.ttl
    """
    from kg.query.validate import validate as run_validate

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
@handle_errors
def explain(name: str, exports: Path) -> None:
    """Explain an entity: its names, type votes, merges, family and every mention.

    NAME is any of its names in any spelling (MATH-500, math500, ASMC).

    \b
    Example:
      kg explain MATH-500
      kg explain ReaTTS
      kg explain qwen      # a family: lists its variants
    """
    from kg.query.explain import explain as run_explain

    e = run_explain(name, exports)
    click.echo(f"{e.name}  ({e.type}, entity:{e.key})")
    if e.aliases:
        click.echo("also written: " + ", ".join(e.aliases))
    click.echo(f"type votes:   {e.type_votes}")
    if e.family:
        click.echo("variant of:   " + " < ".join(e.family))
    if e.variants:
        click.echo(f"variants:     {len(e.variants)}: " + ", ".join(e.variants))
    for note in e.merges:
        click.echo(f"merged:       {note}")
    papers = sorted({o.paper for o in e.occurrences})
    click.echo(f"mentions:     {len(e.occurrences)} in {len(papers)} paper(s)")
    for o in e.occurrences:
        click.echo(f"  {o.source}:{o.line} [{o.start}:{o.end}] {o.text!r}: {o.sentence}")
