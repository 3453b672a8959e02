"""A real SPARQL endpoint over the exports (the Oxigraph server), and pushing the graph to
any SPARQL 1.1 store with the Graph Store HTTP Protocol."""

from __future__ import annotations

import logging
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kg.errors import KgError
from kg.export.outputs import N_TRIPLES, RdfSyntax, by_suffix
from kg.namespaces import DATASET, ONTOLOGY
from kg.processes import tied
from kg.query.load import graph_file
from kg.query.sparql import IRI
from kg.resources import ontology_dir
from kg.serve.front import Front, Settings, make_front
from kg.serve.host_origin import Site
from kg.serve.pool import Pool

log = logging.getLogger(__name__)

#: the named graph `kg push` replaces unless told otherwise
DEFAULT_GRAPH = str(DATASET)
#: seconds a query (or update) may run, at the endpoint and in `kg query`
DEFAULT_TIMEOUT = 30.0


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
    """The graph of an exports directory, in N-Triples where it is there (the fastest to
    load), else in the syntax there is (`kg build --rdf`); or the RDF file given."""
    return graph_file(exports, N_TRIPLES)


def _syntax(path: Path) -> RdfSyntax:
    """The syntax of an RDF file, by its suffix (N-Triples otherwise)."""
    return by_suffix().get(path.suffix, N_TRIPLES)


def _triples(path: Path, data: bytes) -> int:
    """How many triples the file `path` (its bytes `data`) holds: a line each in N-Triples."""
    syntax = _syntax(path)
    if syntax == N_TRIPLES:
        return sum(1 for line in data.splitlines() if line.strip())
    import pyoxigraph as ox

    fmt = ox.RdfFormat.from_media_type(syntax.media_type)
    return sum(1 for _ in ox.parse(data, format=fmt))


@dataclass
class Server:
    """A running `kg serve`: the checking front, its Oxigraph servers and their store."""

    front: Front
    pool: Pool
    url: str
    #: the process that started this one, when it started serving
    parent: int
    _tmp: Path
    _lock: int | None
    _thread: threading.Thread

    @property
    def query_url(self) -> str:
        """The SPARQL 1.1 Protocol endpoint."""
        return f"{self.url}/query"

    @property
    def store_url(self) -> str:
        """The Graph Store HTTP Protocol endpoint."""
        return f"{self.url}/store"

    @property
    def failure(self) -> str | None:
        """Why it stopped serving (an Oxigraph server died), else None."""
        return self.pool.failure

    def stop(self) -> None:
        """Stop serving, end the Oxigraph servers and remove their store."""
        if self._thread.is_alive():
            self.front.shutdown()
        self.front.server_close()
        self.pool.close()
        _remove(self._tmp, self._lock)
        self._lock = None


#: the temporary folders of kg serve, each locked (`lock`) by the process serving it
_TMP_PREFIX = "kg-serve-"


def _lock(path: Path, *, wait: bool = True) -> int | None:
    """An open file descriptor holding an exclusive lock on `path`, or None if another
    process holds it (or locks do not exist here)."""
    try:
        import fcntl
    except ImportError:
        return None
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except OSError:
        os.close(fd)
        return None
    return fd


def _remove_stale_stores() -> None:
    """Remove the store folders of kg serve processes that were killed: SIGKILL leaves
    no chance to clean up, but it releases the folder's lock."""
    for path in Path(tempfile.gettempdir()).glob(f"{_TMP_PREFIX}*"):
        if not (path / "lock").is_file():
            continue  # being made, or not ours
        fd = _lock(path / "lock", wait=False)
        if fd is not None:
            log.info("removing %s, left by a kg serve that was killed", path)
            shutil.rmtree(path, ignore_errors=True)
            os.close(fd)


def start_server(
    exports: Path | None,
    *,
    host: str = "127.0.0.1",
    port: int = 7878,
    writable: bool = False,
    query_timeout: float = DEFAULT_TIMEOUT,
    allow_remote: bool = False,
    allow_hosts: Sequence[str] = (),
    workers: int | None = None,
    start_timeout: float = 30.0,
) -> Server:
    """Load the exports (and the ontology) into a fresh store and serve it over HTTP.

    With `exports` None the store starts empty and writable (a target for `kg push`). The
    front on `host`:`port` checks every request (see `kg.serve.front`) and passes it to one
    of `workers` Oxigraph servers on loopback ports (one for a writable store).

    Raises:
        KgError: the address cannot be listened on, oxigraph is missing, the data cannot be
            loaded or the server does not start.
    """
    parent = os.getppid()
    binary = _oxigraph()
    if not 0 <= port <= 65535:
        raise KgError(f"port {port} is not a TCP port (0 to 65535)")
    if query_timeout <= 0:
        raise KgError("the query timeout must be more than 0 seconds")
    writable = writable or exports is None
    pool_size = workers or min(4, os.cpu_count() or 1)
    _remove_stale_stores()
    tmp = Path(tempfile.mkdtemp(prefix=_TMP_PREFIX))
    # locked under another name, then renamed: `lock` never exists unlocked, so another
    # kg serve starting now cannot take the folder for a stale one
    lock = _lock(tmp / "lock.new")
    if lock is not None:
        (tmp / "lock.new").rename(tmp / "lock")
    store, logs = tmp / "store", tmp / "logs"
    logs.mkdir()
    pool = Pool(
        binary,
        store,
        logs,
        writable=writable,
        size=pool_size,
        backstop_s=math.ceil(query_timeout) + 5,
        start_timeout=start_timeout,
    )
    front: Front | None = None
    try:
        try:
            front = make_front(host, port, Settings(Site.serving(host, port)), pool)
        except OSError as error:
            reason = error.strerror or str(error)
            raise KgError(f"cannot listen on {host}:{port}: {reason.lower()}") from None
        bound = int(front.server_address[1])  # the port, where `port` 0 asked for any
        url_host = f"[{host}]" if ":" in host else host
        front.settings = Settings(
            Site.serving(host, bound, allow_hosts), writable, allow_remote, query_timeout
        )
        if exports is not None:
            _load(binary, _export(exports), store)
        pool.start()
    except BaseException:
        if front is not None:
            front.server_close()
        pool.close()
        _remove(tmp, lock)
        raise
    thread = threading.Thread(target=front.serve_forever, name="kg-serve", daemon=True)
    thread.start()
    return Server(front, pool, f"http://{url_host}:{bound}", parent, tmp, lock, thread)


def _remove(tmp: Path, lock: int | None) -> None:
    shutil.rmtree(tmp, ignore_errors=True)
    if lock is not None:
        os.close(lock)


def _load(binary: str, export: Path, store: Path) -> None:
    """The export into the default graph, the ontology into a named graph of its own
    (as `kg.query.load.graph_of` does): a COUNT over the default graph is the export's
    `void:triples`."""
    ontology = ontology_dir() / "kg.ttl"
    for file, graph in ((export, []), (ontology, ["--graph", str(ONTOLOGY)])):
        done = subprocess.run(
            tied([binary, "load", "--location", str(store), "--file", str(file), *graph]),
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            lines = done.stderr.splitlines()
            error = next((x for x in lines if x.startswith("Error")), done.stderr)
            raise KgError(f"oxigraph could not load the exports: {error.strip()[:300]}")


#: the signals that stop `kg serve` (each left alone where it was ignored: nohup, or SIGINT
#: of a job a script started with &)
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def run_server(exports: Path | None, on_ready: Callable[[Server], None], **options: Any) -> str:
    """Start a server (`start_server` with `options`), tell `on_ready`, and serve until
    SIGINT, SIGTERM or SIGHUP, or until the process that started this one ends; then stop
    it: its Oxigraph servers end and its store is removed. Call it from the main thread; a
    signal that comes while the store loads stops it as soon as it is loaded.

    Returns:
        What stopped it: the signal's name or "parent process ended".

    Raises:
        KgError: it could not start, or an Oxigraph server died or could not be restarted.
    """
    stopped: list[str] = []
    wake = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        stopped.append(signal.Signals(signum).name)
        wake.set()

    previous = {}
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) != signal.SIG_IGN:
            previous[signum] = signal.signal(signum, on_signal)
    try:
        try:
            server = start_server(exports, **options)
        except KgError:
            if stopped:  # Ctrl-C reached `oxigraph load` too
                return stopped[0]
            raise
        try:
            if not wake.is_set():
                on_ready(server)
            while not wake.wait(0.2):
                if server.failure is not None:
                    raise KgError(server.failure)
                if os.getppid() != server.parent:
                    stopped.append("parent process ended")
                    break
        finally:
            server.stop()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return stopped[0]


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


def _check_store_url(endpoint: str) -> None:
    """Refuse an endpoint that is no http(s) URL of a host, or that has a fragment: the
    `?graph=` added after a `#` would never be sent, and a PUT to the bare store would
    replace every graph in it.

    Raises:
        KgError: what is wrong with it.
    """
    try:
        parts = urllib.parse.urlsplit(endpoint)
        parts.port  # noqa: B018 - checks it: a port that is no number raises here
    except ValueError as error:
        raise KgError(f"--endpoint {endpoint}: not a URL ({error})") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise KgError(f"--endpoint {endpoint}: not an http:// or https:// URL of a store")
    if "#" in endpoint:
        raise KgError(f"--endpoint {endpoint}: a URL with a #fragment (the graph would be lost)")
    if not endpoint.isprintable() or " " in endpoint:
        raise KgError(f"--endpoint {endpoint!r}: a URL holds no spaces or control characters")


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
        exports: the exports directory (its kg.nt is sent, else its kg.ttl or kg.jsonld:
            `kg build --rdf`) or an RDF file (N-Triples, Turtle or JSON-LD, by suffix).
        endpoint: the store's Graph Store Protocol URL (Oxigraph: http://host:7878/store;
            Fuseki: http://host:3030/DATASET/data).
        graph: the IRI of the named graph to replace.

    Returns:
        The number of triples sent.

    Raises:
        KgError: the endpoint is not an HTTP(S) URL, the store cannot be reached or it
            refuses the graph.
    """
    _check_store_url(endpoint)
    if not IRI.fullmatch(graph):
        raise KgError(f"--graph {graph!r}: not an absolute IRI (such as {DEFAULT_GRAPH})")
    path = _export(exports)
    data = path.read_bytes()
    separator = "&" if "?" in endpoint else "?"
    url = f"{endpoint}{separator}graph={urllib.parse.quote(graph, safe='')}"
    request = urllib.request.Request(
        url, data=data, method="PUT", headers={"Content-Type": _syntax(path).media_type}
    )
    _request(request, timeout=600)
    return _triples(path, data)
