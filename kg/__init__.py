"""kg: a knowledge graph of ML research built from paper abstracts.

The library API: `build` (`kg.builder.pipeline.build`) runs the whole pipeline; the stages can be
called one by one:
`kg.ingest.read_inputs`, `kg.extract.extract`, `kg.link.link`, `kg.graph.to_networkx`,
`kg.rdf.to_rdf`, `kg.export.views.render_views` and `kg.export.writer.ExportWriter`.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("kg")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

from typing import TYPE_CHECKING, Any  # noqa: E402

from kg.errors import InputError, KgError, QueryError  # noqa: E402

if TYPE_CHECKING:
    from kg.builder.pipeline import BuildSummary, build

__all__ = ["BuildSummary", "InputError", "KgError", "QueryError", "__version__", "build"]


def __getattr__(name: str) -> Any:
    """`kg.build` and `kg.BuildSummary`, imported when first used: the pipeline loads spaCy,
    rdflib and networkx (a second), which `kg --help` or `kg query` need not wait for."""
    if name in ("build", "BuildSummary"):
        from kg.builder import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module 'kg' has no attribute {name!r}")
