"""The HTTP front of `kg serve`: it checks each request, then relays it to an Oxigraph
server of the pool, whose loopback address and port (random: `hidden_loopback`) nobody
else is told.

RefusedError (403): a `Host` that is not this server (DNS rebinding); a request other than GET or
HEAD from a page of another site (`Origin`); `SERVICE` or `LOAD`, which make the server
fetch URLs, unless allowed; updates and uploads to a read-only store. A query or update
that runs past the timeout, or whose client leaves, has its Oxigraph process killed.
"""

from __future__ import annotations

import logging
import select
import socket
import subprocess
import threading
import time
import urllib.parse
from dataclasses import dataclass
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from kg.serve.host_origin import Site
from kg.serve.pool import Pool, Worker
from kg.serve.prefixes import declare_prefixes
from kg.serve.remote_clauses import parsed_remote_clauses, scan

log = logging.getLogger(__name__)

#: the most bytes of a query or update (a body of the Graph Store Protocol may be larger)
MAX_SPARQL_BYTES = 16 * 1024 * 1024
#: the most characters of a query or update that a parser reads for `SERVICE` and `LOAD`
#: (where those letters appear in it outside strings and comments): rdflib's parser takes
#: seconds per 10 KB of nested operators, outside the query's timeout
MAX_PARSED_CHARS = 32 * 1024
#: parses at a time: a request waits for its turn (up to the timeout), so that a flood of
#: them takes no more than these threads' worth of the front's time
_PARSES = threading.BoundedSemaphore(2)
#: an answer up to this size is held back until complete, so that a timeout is a clean 503
HOLD_BYTES = 1024 * 1024
_PATHS = {"/": "page", "/query": "query", "/update": "update", "/store": "store"}
#: what Oxigraph's page at / loads beside it (its YASGUI editor, offline: no CDN)
_PAGE_FILES = ("/yasgui.min.js", "/yasgui.min.css", "/logo.svg")
_PATHS.update(dict.fromkeys(_PAGE_FILES, "page"))
#: the endpoint that page sends its queries to, which Oxigraph also takes updates at: it is
#: relayed to /query, so that it answers queries only
_PATHS["/sparql"] = "query"
_SPARQL_TYPES = {"query": "application/sparql-query", "update": "application/sparql-update"}
_FORM = "application/x-www-form-urlencoded"


@dataclass(frozen=True)
class Settings:
    """What a front accepts and how long a query may run."""

    site: Site
    writable: bool = False
    allow_remote: bool = False
    timeout: float = 30.0


class RefusedError(Exception):
    """A request the front does not pass on: its HTTP status and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Relayed:
    """A request as the front sends it to Oxigraph."""

    kind: str  #: "page", "query", "update" or "store"
    target: str  #: path and query string
    content_type: str | None = None
    body: bytes | None = None


def check_request(method: str, target: str, headers: Message, settings: Settings) -> Relayed:
    """The checks that need no body: the path, the method, `Host`, `Origin`, read-only.

    Raises:
        RefusedError: the request is not passed on.
    """
    if not settings.site.accepts_host(headers.get("Host")):
        raise RefusedError(
            403, f"Host {headers.get('Host')!r} is not this server (see --allow-host)"
        )
    parts = urllib.parse.urlsplit(target)
    kind = _PATHS.get(parts.path)
    if kind is None or parts.scheme or parts.netloc or not target.isprintable():
        raise RefusedError(
            404, f"no such endpoint: use /query, /update or /store, not {parts.path}"
        )
    safe = method in ("GET", "HEAD")
    origin = headers.get("Origin")
    cross_site = headers.get("Sec-Fetch-Site", "").lower() == "cross-site"
    if not safe and (cross_site or not settings.site.accepts_origin(origin)):
        raise RefusedError(403, f"a request from the page of another site ({origin}) is refused")
    allowed = {"page": ("GET", "HEAD"), "query": ("GET", "HEAD", "POST"), "update": ("POST",)}
    if kind in allowed and method not in allowed[kind]:
        raise RefusedError(405, f"{method} is not accepted at {parts.path}")
    if not settings.writable and (kind == "update" or (kind == "store" and not safe)):
        raise RefusedError(403, "this endpoint is read-only (kg serve --writable accepts changes)")
    if parts.path == "/sparql":
        target = "/query" + target[len("/sparql") :]
    return Relayed(kind, target)


def _pairs(encoded: str) -> list[tuple[str, str | None]]:
    """application/x-www-form-urlencoded pairs, a value None where there is no `=`."""
    out: list[tuple[str, str | None]] = []
    for piece in encoded.split("&"):
        if piece:
            name, eq, value = piece.partition("=")
            unquote = urllib.parse.unquote_plus
            out.append((unquote(name), unquote(value) if eq else None))
    return out


def _encode(pairs: list[tuple[str, str | None]]) -> str:
    quote = urllib.parse.quote_plus
    return "&".join(quote(k) + ("" if v is None else "=" + quote(v)) for k, v in pairs)


def check_sparql(
    request: Relayed, content_type: str | None, body: bytes, settings: Settings
) -> Relayed:
    """A query or update checked for clauses that fetch URLs, rebuilt from what was checked
    (so that Oxigraph reads exactly that text), with kg's prefixes that it uses declared
    (`kg.serve.prefixes`).

    Raises:
        RefusedError: the request holds `SERVICE` or `LOAD` (and they are not allowed), or its
            query cannot be read.
    """
    name = request.kind  # the parameter: query or update
    parts = urllib.parse.urlsplit(request.target)
    # the bytes as sent (http.server reads the request line as Latin-1), read as UTF-8
    url_pairs = _pairs(parts.query.encode("latin-1").decode("utf-8", errors="replace"))
    media = (content_type or "").split(";")[0].strip().lower()
    body_pairs: list[tuple[str, str | None]] = []
    texts = [v or "" for k, v in url_pairs if k == name]
    forward_type: str | None = None
    raw = ""  # a body sent as the query or update itself
    if body or media:
        if media == _SPARQL_TYPES[name]:
            try:
                raw = body.decode("utf-8")
            except UnicodeDecodeError:
                raise RefusedError(400, f"the {name} is not UTF-8") from None
            texts.append(raw)
            forward_type = media
        elif media == _FORM:
            body_pairs = _pairs(body.decode("utf-8", errors="replace"))
            texts += [v or "" for k, v in body_pairs if k == name]
            forward_type = _FORM
        else:
            raise RefusedError(415, f"send the {name} as {_SPARQL_TYPES[name]} or {_FORM}")
    if name == "query" and not texts and any(k == "update" for k, _ in url_pairs + body_pairs):
        # Oxigraph's page sends updates where it sends queries (/sparql, relayed to /query)
        raise RefusedError(400, "an update goes to /update (kg serve --writable), not here")
    if not settings.allow_remote:
        scans = [(text, *scan(text)) for text in texts]  # one pass of each text
        found = sorted({k for _, keys, _ in scans for k in keys})
        # a parser's reading too (it tells a less-than from an IRI), of a text where the
        # keywords' letters appear outside strings and comments
        suspect = [text for text, _, named in scans if named]
        if not found and any(len(text) > MAX_PARSED_CHARS for text in suspect):
            raise RefusedError(
                413,
                f"a {name} that holds the letters of SERVICE or LOAD outside its strings "
                f"and comments is checked up to {MAX_PARSED_CHARS // 1024} KB",
            )
        if not found and suspect:
            if not _PARSES.acquire(timeout=settings.timeout):
                raise RefusedError(503, "busy checking other queries: try again")
            try:
                found = sorted({k for text in suspect for k in parsed_remote_clauses(text, name)})
            finally:
                _PARSES.release()
        if found == ["unparsable"]:
            raise RefusedError(400, f"the {name} cannot be read as SPARQL 1.1")
        if found:
            raise RefusedError(
                403,
                f"{' and '.join(found)} would make this server fetch other URLs: refused "
                "(kg serve --allow-remote permits it)",
            )
    # kg's prefixes declared, as `kg query` declares them (the text was checked without)
    forward_body: bytes | None = None
    if forward_type == _FORM:
        forward_body = _encode(_declared(body_pairs, name)).encode("ascii")
    elif forward_type is not None:
        forward_body = declare_prefixes(raw).encode("utf-8")
    query = _declared(url_pairs, name)
    target = parts.path + (f"?{_encode(query)}" if query else "")
    return Relayed(request.kind, target, forward_type, forward_body)


def _declared(pairs: list[tuple[str, str | None]], name: str) -> list[tuple[str, str | None]]:
    """`pairs` with kg's prefixes declared in each value of the parameter `name`."""
    return [(k, declare_prefixes(v) if k == name and v else v) for k, v in pairs]


def _exited(worker: Worker) -> bool:
    try:
        worker.process.wait(timeout=1)
    except subprocess.TimeoutExpired:
        return False
    return True


def _one_line(value: str | None) -> str | None:
    """A header value to pass on, or None when it holds a line break (a folded header)."""
    if value is None or "\r" in value or "\n" in value:
        return None
    return value


class Front(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], settings: Settings, pool: Pool) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.settings = settings
        self.pool = pool
        super().__init__(address, _Handler)


def make_front(host: str, port: int, settings: Settings, pool: Pool) -> Front:
    """A front listening on `host`:`port` (not serving yet: call `serve_forever`).

    Raises:
        OSError: the address cannot be listened on (taken, not this machine's, ...).
    """
    return Front((host, port), settings, pool)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "kg-serve"
    timeout = 60  # seconds a client may stay silent
    server: Front

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        log.debug("%s %s", self.address_string(), format % args)

    def do_GET(self) -> None:  # noqa: N802
        try:
            self._handle()
        except OSError as error:  # the client reset or left mid-request: nothing to answer
            log.info("%s %s: connection lost (%s)", self.command, self.path, error)
            self.close_connection = True

    do_HEAD = do_POST = do_PUT = do_DELETE = do_GET  # noqa: N815

    def _refuse(self, status: int, message: str) -> None:
        log.info("refused %s %s: %s", self.command, self.path, message)
        data = (message + "\n").encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _handle(self) -> None:
        self.close_connection = True
        settings = self.server.settings
        unread = 0
        try:
            if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                raise RefusedError(411, "send a Content-Length (chunked bodies are not accepted)")
            length = unread = self._length()
            request = check_request(self.command, self.path, self.headers, settings)
            if request.kind in ("query", "update"):
                if length > MAX_SPARQL_BYTES:
                    raise RefusedError(413, f"a {request.kind} may have {MAX_SPARQL_BYTES} bytes")
                body = self.rfile.read(length) if length else b""
                unread = 0
                if len(body) < length:
                    return  # the client left
                request = check_sparql(request, self.headers.get("Content-Type"), body, settings)
            worker = self.server.pool.acquire(settings.timeout)
            if worker is None:
                raise RefusedError(503, "busy or stopping: try again")
        except RefusedError as refusal:
            if 0 < unread <= HOLD_BYTES:
                self.rfile.read(unread)  # closing on unread bytes would reset the connection
            self._refuse(refusal.status, str(refusal))
            return
        timed = request.kind in ("query", "update")
        try:
            outcome = self._relay(worker, request, length, settings.timeout if timed else None)
        except BaseException:
            self.server.pool.discard(worker)  # its request is in an unknown state
            raise
        if outcome == "done":
            self.server.pool.release(worker)
            return
        if outcome == "no answer" and _exited(worker):
            # the request crashed it (a query nested past Oxigraph's stack): the pool
            # replaces it, and the endpoint goes on
            self._refuse(502, "the oxigraph server stopped on this request (nested too deeply?)")
            return
        self.server.pool.discard(worker)
        log.info("%s %s: %s, its oxigraph process killed", self.command, self.path, outcome)
        if outcome == "timeout":
            self._refuse(503, f"ran past the {settings.timeout:g} s timeout (kg serve --timeout)")
        elif outcome == "no answer":
            self._refuse(502, "the oxigraph server did not answer")

    def _length(self) -> int:
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            raise RefusedError(400, "bad Content-Length") from None
        if length < 0:
            raise RefusedError(400, "bad Content-Length")
        return length

    def _upstream_head(self, worker: Worker, request: Relayed, length: int) -> bytes:
        lines = [f"{self.command} {request.target} HTTP/1.1", f"Host: {worker.host}:{worker.port}"]
        lines.append("Connection: close")
        content_type = _one_line(request.content_type or self.headers.get("Content-Type"))
        accept = _one_line(self.headers.get("Accept"))
        if accept:
            lines.append(f"Accept: {accept}")
        if content_type:
            lines.append(f"Content-Type: {content_type}")
        size = len(request.body) if request.body is not None else length
        if size or self.command in ("POST", "PUT"):
            lines.append(f"Content-Length: {size}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    def _relay(self, worker: Worker, request: Relayed, length: int, timeout: float | None) -> str:
        """Send the request to `worker` and its answer to the client: "done", "timeout",
        "timeout after the answer began", "client left" or "no answer"."""
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            upstream = socket.create_connection((worker.host, worker.port), timeout=10)
        except OSError:
            return "no answer"
        with upstream:
            try:
                upstream.sendall(self._upstream_head(worker, request, length))
                if request.body is not None:
                    upstream.sendall(request.body)
                else:
                    left = length
                    while left:
                        chunk = self.rfile.read(min(left, 65536))
                        if not chunk:
                            return "client left"
                        upstream.sendall(chunk)
                        left -= len(chunk)
            except OSError:
                return "client left" if self._client_gone() else "no answer"
            return self._answer(upstream, deadline)

    def _client_gone(self) -> bool:
        try:
            return self.connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except BlockingIOError:
            return False
        except OSError:
            return True

    def _answer(self, upstream: socket.socket, deadline: float | None) -> str:
        held = bytearray()
        sent = False
        watch_client = True
        while True:
            wait = 0.25 if deadline is None else min(0.25, deadline - time.monotonic())
            if wait <= 0:
                return "timeout after the answer began" if sent else "timeout"
            sources = [upstream, self.connection] if watch_client else [upstream]
            readable, _, _ = select.select(sources, [], [], wait)
            if self.connection in readable:
                if self._client_gone():
                    return "client left"
                watch_client = False  # it sent more: its end is open
            if upstream not in readable:
                continue
            try:
                chunk = upstream.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            try:
                if sent:
                    self.wfile.write(chunk)
                else:
                    held += chunk
                    if len(held) > HOLD_BYTES:
                        self.wfile.write(held)
                        sent = True
            except OSError:
                return "client left"
        if not sent and not held:
            return "no answer"
        try:
            if not sent:
                self.wfile.write(held)
        except OSError:
            return "client left"
        return "done"
