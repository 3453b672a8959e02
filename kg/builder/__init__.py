"""The build: the pipeline as a list of steps (`pipeline`), where extraction runs
(`engines`), and what lets a rebuild redo only what changed: the extraction cache keyed by
the extractor's fingerprint (`cache`, `fingerprint`) and the memos of the last build's
pages and paper blocks (`memo`, `blocks`).

Nothing is imported here: `kg cache info` reads the cache without loading the pipeline.
"""
