"""The `kg` command group, and what its commands share: errors become exit codes here."""

from __future__ import annotations

import logging
import math
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from kg import __version__
from kg.errors import KgError
from kg.ingest import FORMATS

F = TypeVar("F", bound=Callable[..., Any])


def handle_errors(func: F) -> F:
    """Turn a `KgError` into one line on stderr and its exit code (2: bad input or usage)."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except KgError as error:
            click.echo(f"Error: {error}", err=True)
            sys.exit(error.exit_code)
        except KeyboardInterrupt as interrupt:  # Ctrl-C, or `kg.processes.Terminated`
            command = click.get_current_context(silent=True)
            if command is not None and command.info_name == "build":
                if getattr(interrupt, "exports_written", False):  # after they were put in place
                    click.echo("Interrupted: the new exports are in place", err=True)
                else:
                    click.echo("Interrupted: the previous exports are unchanged", err=True)
            else:
                click.echo("Interrupted", err=True)
            sys.exit(128 + getattr(interrupt, "signum", 2))  # 130 for SIGINT, 143 SIGTERM

    return wrapper  # type: ignore[return-value]


class _EchoHandler(logging.Handler):
    """Log records to stderr as "Warning: ..." lines, through click (so tests see them)."""

    def emit(self, record: logging.LogRecord) -> None:
        label = "Warning" if record.levelno >= logging.WARNING else "Info"
        click.echo(f"{label}: {record.getMessage()}", err=True)


#: the longest time limit a command takes: a week (the poll of a pipe takes at most 49 days)
MAX_SECONDS = 7 * 24 * 3600


class Seconds(click.FloatRange):
    """A time limit in seconds: a number from 0 (or above it, `min_open`) to a week; not
    nan, not inf (which a plain FloatRange lets through to fail later)."""

    name = "seconds"

    def __init__(self, min_open: bool = False) -> None:
        super().__init__(min=0, max=MAX_SECONDS, min_open=min_open)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return number


def input_options(func: F) -> F:
    """--format and --strict, shared by the commands that read abstracts."""
    func = click.option(
        "--strict",
        is_flag=True,
        help="Stop at the first bad record (bad JSON line, no abstract) instead of skipping it.",
    )(func)
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(FORMATS),
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
