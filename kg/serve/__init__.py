"""`kg serve` and `kg push`: the graph behind a SPARQL endpoint (`endpoint`): Oxigraph
servers on loopback ports (`pool`) behind an HTTP front that checks each request (`front`,
`host_origin`, `remote_clauses`); or the graph sent to any SPARQL 1.1 store.
"""
