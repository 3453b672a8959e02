"""The exports: what a build writes, declared once (`outputs`), written atomically
(`writer`, `manifest`), one module per format (`extractions`, `graphml`, `convert` for
Turtle and JSON-LD; N-Triples is `kg.rdf`'s own) and the HTML site (`views`).

Nothing is imported here: the converter's child process imports `outputs` alone.
"""
