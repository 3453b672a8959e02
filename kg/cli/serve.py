"""`kg serve` and `kg push`: the graph behind a SPARQL endpoint, or sent to a store."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.app import Seconds, handle_errors, main


@main.command()
@click.argument("exports", default=Path("exports"), type=click.Path(path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=7878,
    show_default=True,
    help="Port to listen on (0: any free port, printed).",
)
@click.option("--writable", is_flag=True, help="Accept SPARQL updates and graph uploads.")
@click.option(
    "--timeout",
    type=Seconds(min_open=True),
    default=30.0,
    show_default=True,
    help="Seconds a query or update may run before it is stopped (HTTP 503).",
)
@click.option(
    "--allow-remote",
    is_flag=True,
    help="Run SERVICE (federated queries) and LOAD, which make the server fetch URLs.",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Another name the server answers to in the Host header (a DNS name, a proxy's).",
)
@handle_errors
def serve(
    exports: Path,
    host: str,
    port: int,
    writable: bool,
    timeout: float,
    allow_remote: bool,
    allow_hosts: tuple[str, ...],
) -> None:
    """Serve the exports as a SPARQL 1.1 endpoint (Oxigraph), read-only by default.

    Loads the graph (kg.nt, else kg.ttl or kg.jsonld) and the ontology into a fresh store
    and answers the SPARQL 1.1 Protocol at /query (/update with --writable) and the Graph
    Store Protocol at /store, on 127.0.0.1 unless --host says otherwise, until Ctrl-C,
    SIGTERM or SIGHUP, or until the process that started it ends; then the store is removed.

    Refused with HTTP 403: a Host header that is not this server (DNS rebinding: the
    loopback names, the --host, the --allow-host names); a POST, PUT or DELETE from a web
    page of another site (its Origin header); SERVICE and LOAD unless --allow-remote;
    changes unless --writable. A query or update is stopped after --timeout seconds (30),
    or as soon as its client leaves; one that crashes its Oxigraph server gets HTTP 502, and
    the server is replaced. Exits 2 with one line if it cannot listen (the port is taken)
    or an Oxigraph server stops with no request.

    \b
    Example:
      kg serve --port 7878 &
      curl -H 'Accept: text/csv' --data-urlencode 'query=SELECT * { ?s ?p ?o } LIMIT 3' \\
           http://127.0.0.1:7878/query
    """
    from kg.serve.endpoint import Server, run_server

    def ready(server: Server) -> None:
        mode = "read-write" if writable else "read-only"
        click.echo(f"SPARQL endpoint ({mode}): {server.query_url}")
        click.echo(f"Graph Store endpoint:    {server.store_url}")
        click.echo(f"Queries stop after {timeout:g} s; Ctrl-C to stop", err=True)

    stopped = run_server(
        exports,
        ready,
        host=host,
        port=port,
        writable=writable,
        query_timeout=timeout,
        allow_remote=allow_remote,
        allow_hosts=allow_hosts,
    )
    click.echo(f"Stopped ({stopped}); the store is removed", err=True)


@main.command()
@click.argument("exports", default=Path("exports"), type=click.Path(path_type=Path))
@click.option(
    "--endpoint",
    required=True,
    help="Graph Store Protocol URL, e.g. http://127.0.0.1:7878/store (Oxigraph) or "
    "http://localhost:3030/kg/data (Fuseki).",
)
@click.option(
    "--graph",
    "graph_iri",
    default=None,
    help="Named graph to replace [default: https://w3id.org/kg-ml/id/dataset].",
)
@handle_errors
def push(exports: Path, endpoint: str, graph_iri: str | None) -> None:
    """Send the graph to a SPARQL 1.1 store, replacing one named graph (HTTP PUT).

    Works with any store that speaks the Graph Store HTTP Protocol: Oxigraph, Apache Jena
    Fuseki, GraphDB, Virtuoso, QLever. Sends kg.nt, else kg.ttl or kg.jsonld (`kg build
    --rdf`). A rebuild pushed again replaces the graph; nothing is duplicated.

    \b
    Example:
      kg push --endpoint http://127.0.0.1:7878/store
    """
    from kg.serve.endpoint import DEFAULT_GRAPH
    from kg.serve.endpoint import push as run_push

    graph = DEFAULT_GRAPH if graph_iri is None else graph_iri
    count = run_push(exports, endpoint, graph)
    click.echo(f"pushed {count} triples to <{graph}> at {endpoint}")
