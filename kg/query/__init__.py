"""The query side: the exports loaded (`load`), SPARQL over them with Oxigraph or rdflib
(`sparql`), the stores kept for it (`store`), the bundled library and its parameters
(`library`), the answer's formats (`answers`), and the looks into a built graph: `stats`,
`validate`, `explain`.
"""
