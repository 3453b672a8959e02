"""The build's last step: its graph in an Oxigraph store for queries (kg/query/store.py),
written by a child process while the build goes on (`start_store`, once kg.nt is written)
and named after the exports this build put in place (`store_for_queries`)."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from kg.builder.rdf_blocks import Rdf
from kg.errors import KgError
from kg.namespaces import DATASET, ONTOLOGY
from kg.query.store import FileState, StoreError, StoreJob, file_state

log = logging.getLogger(__name__)


def placed_states(out: Path, placed: Mapping[Path, os.stat_result]) -> list[FileState] | None:
    """The states (`kg.query.store.FileState`) of the RDF files a query of `out` loads, as
    this build put them in place (`placed`: `ExportWriter.placed`, taken at its commit),
    the ontology's as it is; None when `out` holds one this build did not put there."""
    from kg.query.load import rdf_files

    root = out.resolve()
    resolved: dict[Path, os.stat_result] | None = None  # made only if a file is not named
    states = []
    for file in rdf_files([out]):
        # the writer names its files as `rdf_files` does (out / name): resolving the
        # 29,000 pages a build placed to find three of them took a tenth of a rebuild
        stat = placed.get(file)
        if stat is None and file.resolve().is_relative_to(root):
            if resolved is None:
                resolved = {path.resolve(): stat for path, stat in placed.items()}
            stat = resolved.get(file.resolve())
        if stat is not None:
            states.append(file_state(file, stat))
        elif file.resolve().is_relative_to(root):
            return None
        else:  # the ontology, kg's own
            states.append(file_state(file))
    return states


def start_store(rdf: Rdf, cache_dir: Path | None) -> StoreJob | None:
    """Start writing the graph's store for queries (kg/query/store.py) in a child process:
    an update of the last build's store where the memo has one and the change is small
    (`kg.builder.delta`), else loaded from kg.nt; the ontology and VoID in their graphs. A
    failure only warns."""
    from kg.export.outputs import rdf_syntax
    from kg.resources import ontology_dir

    turtle = rdf_syntax("turtle").media_type
    ontology = (ontology_dir() / "kg.ttl").read_bytes()
    graphs = [(str(ONTOLOGY), turtle, ontology), (str(DATASET), turtle, rdf.void)]
    log.info("store: %s", "updated" if rdf.delta is not None else "loaded from kg.nt")
    try:
        return StoreJob(rdf.nt, graphs, cache_dir, rdf.delta)
    except OSError as error:
        log.warning("the graph is not stored for queries (%s); kg query loads it", error)
        return None


def store_for_queries(job: StoreJob, out: Path, placed: Sequence[FileState] | None) -> None:
    """Last step: wait for the store's child and name its store after the exports this
    build put in place (`placed_states`), so `kg query` opens them at once; not when they
    are no longer those in `out`. A failure only warns."""
    from kg.query.load import rdf_files

    try:
        if placed is None:
            raise StoreError(f"{out} holds RDF files this build did not write")
        job.finish(rdf_files([out]), placed)
    except (OSError, KgError, StoreError) as error:
        log.warning("the graph was not stored for queries (%s); kg query loads it", error)
