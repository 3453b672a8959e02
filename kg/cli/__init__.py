"""The `kg` command line: one small module per command group over the library.

`app` holds the `main` group and what every command shares (errors become exit codes there);
each other module registers its commands on `main` when imported. `run` is the program.
"""

from typing import NoReturn

from kg import teardown
from kg.cli import build, cache, extract, inspect, query, serve  # noqa: F401 (registers them)
from kg.cli.app import main

__all__ = ["main", "run"]


def run() -> NoReturn:
    """The `kg` program: `main`, then the process ends without the interpreter freeing
    what the command made (`kg.teardown`)."""
    teardown.arm()
    try:
        main.main()
    except SystemExit as done:
        if done.code is not None and not isinstance(done.code, int):
            raise  # a message for Python to print (status 1)
        teardown.end_process(done.code or 0)
    teardown.end_process(0)  # click's standalone mode always ends with SystemExit
