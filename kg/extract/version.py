"""The extractor's name in the exports' provenance (spaCy-free, so that writing the exports
of a build whose extractions all come from the cache does not load spaCy)."""

EXTRACTOR_VERSION = "kg-extractor/0.1.0"
