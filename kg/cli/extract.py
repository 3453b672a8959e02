"""`kg extract` and `kg eval`: extractions without a graph, and their scores."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.app import handle_errors, input_options, main


@main.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@input_options
@handle_errors
def extract(inputs: tuple[Path, ...], fmt: str | None, strict: bool) -> None:
    """Print the extraction of each abstract in INPUTS as JSON Lines, without a graph.

    The records have the format ../shared/gold/score.py reads (text, entities, relations)
    plus offsets of every mention. INPUTS are read as by `kg build`; a JSON record's
    abstract may be its `text`, so a gold file, or this command's own output, is read as
    it is.

    \b
    Examples:
      kg extract seeds/004_b354a604767238da.txt > predicted.jsonl
      kg extract tests/data/dev.jsonl > predicted.jsonl   (a gold file, in a clone)
      kg eval tests/data/dev.jsonl predicted.jsonl
    """
    from kg.export.extractions import extractions_jsonl
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
@handle_errors
def evaluate(gold: Path, predicted: Path | None, verbose: bool, as_json: bool) -> None:
    """Score extractions against a GOLD file (precision, recall, F1 by type).

    PREDICTED is a JSON Lines file such as exports/extractions.jsonl; without it, kg
    extracts the gold file's abstracts afresh. Scoring follows the annotation guideline
    (../shared/gold/GUIDELINE.md): strict (type must match), lenient (Dataset and
    Benchmark are one type), name only, per type, proposed and relations.

    \b
    Examples:
      kg eval tests/data/dev.jsonl exports/extractions.jsonl --verbose
      kg eval tests/data/dev.jsonl        (tests/data/: gold files, in a clone)
    """
    import json

    from kg.evaluate.gold import read_gold, read_predictions
    from kg.evaluate.score import evaluate as run_eval
    from kg.evaluate.score import extract_gold_texts, format_report

    gold_records = read_gold(gold)
    records = read_predictions(predicted) if predicted else extract_gold_texts(gold_records)
    report = run_eval(gold_records, records)
    if as_json:
        click.echo(json.dumps(report.as_json(), indent=2))
    else:
        click.echo(format_report(report, verbose=verbose), nl=False)
