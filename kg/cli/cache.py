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
    import sqlite3

    from kg.builder.cache import ExtractionCache, default_cache_dir
    from kg.builder.memo import clear_memos
    from kg.errors import KgError
    from kg.query.store import clear_stores

    try:
        store = ExtractionCache()
        try:
            click.echo(f"removed {store.clear()} extractions from {store.path}")
        finally:
            store.close()
    except (KgError, sqlite3.DatabaseError) as error:
        if not (default_cache_dir() / "extractions.sqlite").is_file():
            raise KgError(str(error)) from None  # no database to remove (a file in the way)
        # damaged past reading: its files go, as clearing it would have emptied it
        click.echo(f"removed {ExtractionCache.remove()}, which could not be read")
    directory = default_cache_dir()
    click.echo(f"removed the memos of {clear_memos(directory)} exports directories")
    click.echo(f"removed {clear_stores()} stored graphs")
