"""A real SPARQL endpoint over the exports (the Oxigraph server), and pushing the graph to
any SPARQL 1.1 store with the Graph Store HTTP Protocol."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from kg.errors import InputError, KgError
from kg.namespaces import DATASET
from kg.resources import ontology_dir

#: the named graph `kg push` replaces unless told otherwise
DEFAULT_GRAPH = str(DATASET)


def oxigraph_binary() -> str | None:
    """The `oxigraph` server of this environment (beside its Python), else the one on PATH."""
    beside = Path(sys.executable).parent / "oxigraph"
    return str(beside) if beside.is_file() else shutil.which("oxigraph")


def _oxigraph() -> str:
    path = oxigraph_binary()
    if path is None:
        raise KgError("the oxigraph server is not installed: pip install oxigraph")
    return path


def _export(exports: Path) -> Path:
    path = exports / "kg.nt" if exports.is_dir() else exports
    if not path.is_file():
        raise InputError(path, "no such file; run `kg build` first")
    return path


@dataclass
class Server:
    """A running Oxigraph server: its process, its URLs and its store directory."""

    process: subprocess.Popen[bytes]
    url: str
    store: Path
    _tmp: tempfile.TemporaryDirectory[str] | None = None

    @property
    def query_url(self) -> str:
        """The SPARQL 1.1 Protocol endpoint."""
        return f"{self.url}/query"

    @property
    def store_url(self) -> str:
        """The Graph Store HTTP Protocol endpoint."""
        return f"{self.url}/store"

    def stop(self) -> None:
        """Stop the server and remove its temporary store."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self._tmp is not None:
            self._tmp.cleanup()


def start_server(
    exports: Path | None,
    *,
    host: str = "127.0.0.1",
    port: int = 7878,
    writable: bool = False,
    timeout: float = 30.0,
) -> Server:
    """Load the exports (and the ontology) into a fresh store and serve it over HTTP.

    With `exports` None the store starts empty and writable (a target for `kg push`).

    Raises:
        KgError: oxigraph is missing, the data cannot be loaded or the server does not start.
    """
    binary = _oxigraph()
    tmp = tempfile.TemporaryDirectory(prefix="kg-oxigraph-")
    store = Path(tmp.name)
    if exports is not None:
        files = [_export(exports), ontology_dir() / "kg.ttl"]
        file_args = [arg for f in files for arg in ("--file", str(f))]
        done = subprocess.run(
            [binary, "load", "--location", str(store), *file_args],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            tmp.cleanup()
            raise KgError(f"oxigraph could not load the exports: {done.stderr.strip()[:300]}")
    mode = "serve" if writable or exports is None else "serve-read-only"
    process = subprocess.Popen(
        [binary, mode, "--location", str(store), "--bind", f"{host}:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    server = Server(process, f"http://{host}:{port}", store, tmp)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            err = process.stderr.read().decode(errors="replace") if process.stderr else ""
            tmp.cleanup()
            raise KgError(f"oxigraph stopped at start on {host}:{port}: {err.strip()[:300]}")
        try:
            ask(server.query_url, "ASK { }")
            return server
        except KgError:
            time.sleep(0.1)
    server.stop()
    raise KgError(f"oxigraph did not answer on {host}:{port} within {timeout:.0f} s")


def _request(request: urllib.request.Request, timeout: float = 60.0) -> bytes:
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return response.read()
    except urllib.error.HTTPError as error:
        body = error.read().decode(errors="replace").strip()[:300]
        raise KgError(f"{request.full_url}: HTTP {error.code} {error.reason}: {body}") from None
    except urllib.error.URLError as error:
        reason = getattr(error.reason, "strerror", None) or str(error.reason)
        raise KgError(f"cannot reach {request.full_url}: {reason}; is the store running?") from None
    except (TimeoutError, ConnectionError) as error:
        raise KgError(f"cannot reach {request.full_url}: {error}") from None


def sparql_select(endpoint: str, query: str) -> dict:
    """POST a query to a SPARQL 1.1 Protocol endpoint; the SPARQL Results JSON answer."""
    import json

    request = urllib.request.Request(
        endpoint,
        data=query.encode("utf-8"),
        method="POST",
        headers={
            "Content-Type": "application/sparql-query",
            "Accept": "application/sparql-results+json",
        },
    )
    return json.loads(_request(request))


def ask(endpoint: str, query: str) -> bool:
    """An ASK query's answer from a SPARQL endpoint."""
    return bool(sparql_select(endpoint, query)["boolean"])


def push(exports: Path, endpoint: str, graph: str = DEFAULT_GRAPH) -> int:
    """Replace one named graph of a store with the export (Graph Store Protocol PUT).

    A PUT replaces the graph, so pushing a rebuild never duplicates triples.

    Args:
        exports: the exports directory (its kg.nt is sent) or an N-Triples file.
        endpoint: the store's Graph Store Protocol URL (Oxigraph: http://host:7878/store;
            Fuseki: http://host:3030/DATASET/data).
        graph: the IRI of the named graph to replace.

    Returns:
        The number of triples sent.

    Raises:
        KgError: the store cannot be reached or refuses the graph.
    """
    path = _export(exports)
    data = path.read_bytes()
    separator = "&" if "?" in endpoint else "?"
    url = f"{endpoint}{separator}graph={urllib.parse.quote(graph, safe='')}"
    request = urllib.request.Request(
        url, data=data, method="PUT", headers={"Content-Type": "application/n-triples"}
    )
    _request(request, timeout=600)
    return sum(1 for line in data.splitlines() if line.strip())
