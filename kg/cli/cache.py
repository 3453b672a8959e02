"""`kg cache info` and `kg cache clear`: the cache that makes rebuilds fast."""

from __future__ import annotations

import click

from kg.cli.app import handle_errors, main


@main.group()
def cache() -> None:
    """The cache of extractions and pages that makes rebuilds fast.

    `kg build` keeps every abstract's extraction, keyed by the abstract and the extractor
    (its version, lexicon and word lists), in $KG_CACHE_DIR (default ~/.cache/kg). A
    rebuild extracts only new or changed abstracts; a new extractor starts afresh. It also
    remembers, for each exports directory, what the last build read and wrote there: a
    rebuild parses only the changed lines of a JSON Lines file, copies each unchanged
    paper's RDF and keeps each unchanged page.

    \b
    Example:
      kg cache info
      kg cache clear
    """


@cache.command(name="info")
@handle_errors
def cache_info() -> None:
    """Where the cache is and how many extractions, page memos and stored graphs it holds.

    \b
    Example:
      kg cache info
    """
    from kg.builder.cache import ExtractionCache, fingerprint
    from kg.builder.memo import remembered
    from kg.query.store import stored, stores_dir

    store = ExtractionCache()
    click.echo(f"{store.path}: {store.count()} extractions (extractor {fingerprint()})")
    click.echo(f"{store.directory}: memos of {remembered(store.directory)} exports directories")
    click.echo(f"{stores_dir()}: {len(stored())} stored graphs for kg query")
    store.close()


@cache.command(name="clear")
@handle_errors
def cache_clear() -> None:
    """Remove every cached extraction, memo, snapshot and stored graph.

    \b
    Example:
      kg cache clear
    """
    from kg.builder.cache import ExtractionCache
    from kg.builder.memo import clear_memos
    from kg.query.store import clear_stores

    store = ExtractionCache()
    click.echo(f"removed {store.clear()} extractions from {store.path}")
    click.echo(f"removed the memos of {clear_memos(store.directory)} exports directories")
    click.echo(f"removed {clear_stores()} stored graphs")
    store.close()
