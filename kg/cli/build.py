"""`kg build`: abstracts in, the knowledge graph's exports out, with progress bars."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from kg.cli.app import F, handle_errors, input_options, main
from kg.export.outputs import COPIES, RDF_CHOICES, listed, parse_choice

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar

    from kg.builder.pipeline import BuildSummary


#: where and what a build writes (before --format and --strict in --help)
_OUTPUT_OPTIONS: list[Callable[[Any], Any]] = [
    click.option(
        "-o",
        "--out",
        type=click.Path(path_type=Path, file_okay=False),
        default=Path("exports"),
        show_default=True,
        help="Directory to write exports to.",
    ),
    click.option("-q", "--quiet", is_flag=True, help="No progress bars and no summary."),
    click.option(
        "--views",
        type=click.Choice(["all", "overview", "none"]),
        default="all",
        show_default=True,
        help="HTML views: all (overview, paper and entity pages), overview only, none.",
    ),
]
#: how a build runs (after --format and --strict in --help)
_RUN_OPTIONS: list[Callable[[Any], Any]] = [
    click.option(
        "--engine",
        type=click.Choice(["local", "dask"]),
        default="local",
        show_default=True,
        help="Run extraction in this process or on a Dask cluster.",
    ),
    click.option(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler address (default with --engine dask: a local cluster of "
        "two worker processes).",
    ),
    click.option(
        "--rdf",
        "rdf_formats",
        metavar="|".join(RDF_CHOICES[:2]) + "|LIST",
        callback=lambda ctx, param, value: _rdf_choice(value),
        default="auto",
        show_default=True,
        help="Copies of the graph: auto (every one up to 100,000 triples, kg.ttl alone "
        "above), all, or a comma list of "
        + listed([f"{name} ({e.file})" for name, e in COPIES.items()])
        + ", with at least one RDF syntax.",
    ),
    click.option(
        "--no-cache",
        is_flag=True,
        help="Extract, write and draw everything afresh; read and write no cache.",
    ),
    click.option(
        "--force",
        is_flag=True,
        help="Write into OUT although it holds files and kg never built into it (files of the "
        "names kg writes are replaced; no other file is removed).",
    ),
]


def _rdf_choice(value: str) -> str:
    """`--rdf` checked (`kg.export.outputs.parse_choice`), as given."""
    try:
        parse_choice(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None
    return value


def _options(options: list[Callable[[Any], Any]]) -> Callable[[F], F]:
    """Apply click options in the order given (the order --help lists them)."""

    def apply(func: F) -> F:
        for option in reversed(options):
            func = option(func)
        return func

    return apply


@main.command()
@click.argument("inputs", nargs=-1, type=click.Path(path_type=Path))
@_options(_OUTPUT_OPTIONS)
@input_options
@_options(_RUN_OPTIONS)
@handle_errors
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
    `abstract` (or `text`, as extractions.jsonl and gold files have it; optional id,
    authors, year, venue, url, arxiv_id, doi); CSV or TSV with a header; BibTeX entries
    with an `abstract` field. A record without an abstract (or
    with a placeholder: "TBD", "N/A") or a line that is not JSON is skipped with a warning
    naming file and line (--strict stops the build instead); a malformed DOI, arXiv id or
    year is dropped with a warning, never altered; records with one abstract are merged
    into one paper, with a count. An abstract over 8 MB or another field over 64 KB stops
    the build (exit 2), naming file, line and limit.

    Writes kg.ttl, kg.nt, kg.jsonld and void.ttl (RDF), kg.graphml (NetworkX),
    extractions.jsonl (per-abstract extractions with offsets) and the HTML views
    (index.html: open it in a browser, no network needed). Of a graph over 100,000 triples
    (about 1,000 abstracts) it writes one copy, kg.ttl, and not kg.nt, kg.jsonld or
    kg.graphml, which are the same graph again (--rdf all writes them). Every file is
    written to a temporary file and renamed, so a failed build leaves the previous exports
    whole. OUT keeps a manifest of what kg wrote there (.kg-manifest): files the last build
    wrote and this one did not (pages of papers no longer read) are removed, no other file
    is. A directory that holds files but no manifest is refused unless --force. Extractions
    are cached by abstract, and the cache remembers how kg drew OUT: a rebuild extracts only
    the abstracts that changed, copies the RDF of papers that did not change and draws only
    the pages that changed (--no-cache, `kg cache clear`).

    \b
    Examples:
      kg build
      kg build papers.jsonl --out /tmp/graph
      kg build icml2024.csv --views overview
      kg build icml2024.csv --rdf turtle,nt
    """
    from kg.builder.pipeline import build as run_build
    from kg.errors import InputError
    from kg.processes import terminated_as_interrupt

    if not inputs and not Path("seeds").exists():  # outside the repository
        raise InputError(
            Path("seeds"),
            "no such folder, and no INPUTS given: give files or folders of abstracts "
            "(kg build papers.jsonl; seeds/ is the repository's example)",
        )

    # SIGTERM and SIGHUP as Ctrl-C: the temporaries go (exports' and the query store's)
    with terminated_as_interrupt(), _Progress(show=not quiet and sys.stderr.isatty()) as progress:
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
    if not quiet:
        click.echo(_summary(summary, out))


def _summary(summary: BuildSummary, out: Path) -> str:
    """What a build read, made and wrote, a line each."""
    types = ", ".join(f"{n} {t}" for t, n in summary.entities_by_type.items())
    relations = ", ".join(f"{n} {r}" for r, n in summary.relations_by_type.items())
    lines = [
        f"papers:    {summary.papers} ({summary.cached} extractions from the cache)",
        f"entities:  {summary.entities} ({types})",
        f"relations: {sum(summary.relations_by_type.values())} ({relations})",
        f"results:   {summary.results}",
        f"triples:   {summary.triples}",
        f"wrote:     {_files(summary.files, out)}",
    ]
    if summary.left_out:
        lines.append(
            f"left out:  {listed(list(summary.left_out))}, the same graph again "
            "(--rdf all writes them)"
        )
    if summary.pages_kept or summary.blocks_reused:
        lines.append(
            f"kept:      {summary.pages_kept} pages and {summary.blocks_reused} papers' RDF "
            "as the last build wrote them"
        )
    return "\n".join(lines)


class _Progress:
    """A progress bar on stderr for each stage of a build that takes a while to show."""

    LABELS = {
        "extract": "Extracting",
        "link": "Linking",
        "RDF": "Writing RDF",
        "extractions.jsonl": "JSON Lines",
        "views": "Writing pages",
        "GraphML, Turtle and JSON-LD": "GraphML, Turtle",
        "store": "Storing graph",
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
    depth = len(out.parts)  # each file is out / its name: parts, not relative_to (29,000)
    for f in files:
        rel = f.parts[depth:]
        if len(rel) == 1:
            top.append(rel[0])
        else:
            folders[rel[0]] = folders.get(rel[0], 0) + 1
    parts = top + [f"{name}/ ({n} files)" for name, n in sorted(folders.items())]
    return f"{out}/: " + ", ".join(parts)
