"""The query side: SPARQL over the exports with Oxigraph or rdflib (`sparql`), the stores
kept for it (`store`), the bundled library and its parameters (`library`), the answer's
formats (`answers`), and the looks into a built graph: `stats`, `validate`, `explain`.
"""
