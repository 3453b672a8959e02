"""kg.graphml: the NetworkX graph as GraphML."""

from __future__ import annotations

from typing import BinaryIO

import networkx as nx


def write_graphml(graph: nx.MultiDiGraph, handle: BinaryIO) -> None:
    """The NetworkX graph as GraphML (for Gephi, Cytoscape, networkx.read_graphml), streamed
    by lxml. Its text is XML-safe: `kg.ingest` replaced what XML cannot hold."""
    nx.write_graphml_lxml(graph, handle, prettyprint=True)
