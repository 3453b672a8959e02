"""The build's last step: its graph in an Oxigraph store for queries (kg/query/store.py),
written by a child process while the build goes on (`start_store`, once kg.nt is written)
and named after the exports once they are in place (`store_for_queries`)."""

from __future__ import annotations

import logging
from pathlib import Path

from kg.builder.rdf_blocks import Rdf
from kg.errors import KgError
from kg.namespaces import DATASET, ONTOLOGY
from kg.query.store import StoreError, StoreJob

log = logging.getLogger(__name__)


def store_name(out: Path) -> str:
    """The name of the store of the exports in `out` as they are now (`store_key`)."""
    from kg.query.load import rdf_files
    from kg.query.store import store_key

    return store_key(rdf_files([out]))


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


def store_for_queries(job: StoreJob, out: Path) -> None:
    """Last step: wait for the store's child and name its store after the exports in
    place, so `kg query` opens them at once. A failure only warns."""
    from kg.query.load import rdf_files

    try:
        job.finish(rdf_files([out]))
    except (OSError, KgError, StoreError) as error:
        log.warning("the graph was not stored for queries (%s); kg query loads it", error)
