"""kg: a knowledge graph of ML research built from paper abstracts.

The library API: `build` runs the whole pipeline; the stages can be called one by one:
`kg.ingest.read_inputs`, `kg.extract.extract`, `kg.link.link`, `kg.graph.to_networkx`,
`kg.rdf.to_rdf`, `kg.views.render_views` and `kg.export.ExportWriter`.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("kg")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

from kg.build import BuildSummary, build  # noqa: E402
from kg.errors import InputError, KgError, QueryError  # noqa: E402

__all__ = ["BuildSummary", "InputError", "KgError", "QueryError", "__version__", "build"]
