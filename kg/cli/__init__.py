"""The `kg` command line: one small module per command group over the library.

`app` holds the `main` group and what every command shares (errors become exit codes there);
each other module registers its commands on `main` when imported.
"""

from kg.cli import build, cache, extract, inspect, query, serve  # noqa: F401 (registers them)
from kg.cli.app import main

__all__ = ["main"]
