"""`kg serve` under hostile use, on loopback: no fetching of other URLs, no answers to other
names, no changes from other sites' pages, no query past its timeout or its client, no
Oxigraph or store left behind however it is stopped, and a clear exit when it cannot serve.
"""

from __future__ import annotations

import http.client
import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from conftest import ROOT, need_tool

from kg.cli import main
from kg.errors import KgError
from kg.serve.endpoint import sparql_select, start_server

HEAVY = "SELECT (COUNT(*) AS ?n) { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
FORM = "application/x-www-form-urlencoded"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def oxigraph():
    from kg.serve.endpoint import oxigraph_binary

    if oxigraph_binary() is None:
        need_tool("oxigraph")


class Listener:
    """A loopback HTTP server that records every request it gets (the target of SSRF)."""

    def __init__(self, answer: bytes = b"", content_type: str = "text/plain") -> None:
        self.hits: list[str] = []
        hits = self.hits

        class Handler(http.server.BaseHTTPRequestHandler):
            def _any(self) -> None:
                hits.append(f"{self.command} {self.path}")
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            do_GET = do_POST = do_PUT = _any  # noqa: N815

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    server = Listener()
    yield server
    server.close()


@pytest.fixture(scope="module")
def served(oxigraph, built):
    server = start_server(built, port=free_port())
    yield server
    server.stop()


@pytest.fixture
def writable(oxigraph, built):
    server = start_server(built, port=free_port(), writable=True)
    yield server
    server.stop()


def call(url: str, method: str = "GET", body: bytes | None = None, **headers: str):
    """(status, body) of one request, with headers as given (Host too)."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    try:
        connection.putrequest(method, target, skip_host="Host" in headers)
        for name, value in {k.replace("_", "-"): v for k, v in headers.items()}.items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def triples(server) -> int:
    answer = sparql_select(server.query_url, "SELECT (COUNT(*) AS ?n) { ?s ?p ?o }")
    return int(answer["results"]["bindings"][0]["n"]["value"])


# --- SERVICE and LOAD: the server fetches no URL ---


def service(listener: Listener) -> str:
    return f"SELECT * {{ SERVICE <{listener.url}/sparql> {{ ?s ?p ?o }} }}"


def test_service_is_refused_in_every_way_of_sending_a_query(served, listener):
    text = service(listener)
    answers = [
        call(served.query_url, "POST", text.encode(), Content_Type="application/sparql-query"),
        call(f"{served.query_url}?{urllib.parse.urlencode({'query': text})}"),
        call(
            served.query_url,
            "POST",
            urllib.parse.urlencode({"query": text}).encode(),
            Content_Type=FORM,
        ),
    ]
    time.sleep(0.3)
    assert listener.hits == []
    for status, body in answers:
        assert status == 403
        assert b"SERVICE would make this server fetch other URLs" in body


def test_a_query_that_only_names_service_is_answered(served):
    text = 'SELECT ?service { ?service ?p "SERVICE <x> { }" } # SERVICE'
    status, body = call(
        served.query_url, "POST", text.encode(), Content_Type="application/sparql-query"
    )
    assert status == 200 and json.loads(body)["head"]["vars"] == ["service"]


def test_allow_remote_lets_service_through(oxigraph, built, listener):
    server = start_server(built, port=0, allow_remote=True)
    try:
        call(
            server.query_url,
            "POST",
            service(listener).encode(),
            Content_Type="application/sparql-query",
        )
    finally:
        server.stop()
    assert listener.hits and listener.hits[0].endswith("/sparql")


def test_load_is_refused_on_a_writable_store(writable, listener):
    update = f"LOAD <{listener.url}/data.ttl>"
    status, body = call(
        writable.url + "/update",
        "POST",
        urllib.parse.urlencode({"update": update}).encode(),
        Content_Type=FORM,
    )
    time.sleep(0.3)
    assert status == 403 and b"LOAD" in body
    assert listener.hits == []


def test_the_page_at_the_root_loads_and_queries_through_the_front(served):
    """Oxigraph's page loaded its editor from paths the front answered 404, and sent its
    queries to /sparql, answered 404 too (an adversarial review, 2026-12-07)."""
    status, page = call(served.url + "/")
    assert status == 200 and b"yasgui.min.js" in page and b'url + "/sparql"' in page
    for name in ("/yasgui.min.js", "/yasgui.min.css", "/logo.svg"):
        status, body = call(served.url + name)
        assert status == 200 and len(body) > 100, name
        assert b"https://cdn" not in body[:2000]
    status, body = call(
        served.url + "/sparql", "POST", b"ASK { ?s ?p ?o }", Content_Type="application/sparql-query"
    )
    assert status == 200 and json.loads(body)["boolean"] is True
    # where Oxigraph takes updates too, the front passes on queries only
    insert = urllib.parse.urlencode({"update": "INSERT DATA { <urn:a> <urn:b> 1 }"}).encode()
    assert call(served.url + "/sparql", "POST", insert, Content_Type=FORM)[0] >= 400
    assert call(served.url + "/yasgui.min.js", "POST", b"x", Content_Type=FORM)[0] == 405


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="127.0.0.0/8 is Linux's")
def test_the_oxigraph_servers_listen_where_no_page_can_guess(served):
    """They check no Host, Origin or SERVICE themselves: on 127.0.0.1 a web page that tries
    loopback ports could reach one past the front (an adversarial review, 2026-12-07)."""
    from kg.serve.pool import hidden_loopback

    front = urllib.parse.urlsplit(served.url).port
    listening = [
        c.laddr
        for p in psutil.Process().children(recursive=True)
        if "oxigraph" in p.name()
        for c in p.net_connections(kind="inet")
        if c.status == psutil.CONN_LISTEN
    ]
    assert listening and all(a.ip != "127.0.0.1" and a.port != front for a in listening)
    assert all(a.ip.startswith("127.") for a in listening)
    hosts = {hidden_loopback() for _ in range(50)}
    assert len(hosts) > 45 and all(h.startswith("127.") and h.count(".") == 3 for h in hosts)


# --- Host and Origin ---


def test_a_host_that_is_not_this_server_is_refused(served):
    port = urllib.parse.urlsplit(served.url).port
    query = "?query=" + urllib.parse.quote("ASK {}")
    for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1:{port + 1}"):
        status, body = call(served.query_url + query, Host=host)
        assert status == 403, host
        assert b"is not this server" in body
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        assert call(served.query_url + query, Host=host)[0] == 200


def test_a_page_of_another_site_cannot_change_the_store(writable):
    before = triples(writable)
    form = urllib.parse.urlencode({"update": "DROP ALL"}).encode()
    status, body = call(
        writable.url + "/update", "POST", form, Content_Type=FORM, Origin="http://evil.example"
    )
    assert status == 403 and b"another site" in body
    upload = b"<http://e/s> <http://e/p> <http://e/o> .\n"
    put = call(
        writable.store_url + "?default",
        "PUT",
        upload,
        Content_Type="application/n-triples",
        Origin="http://evil.example",
    )
    assert put[0] == 403
    assert triples(writable) == before
    insert = urllib.parse.urlencode({"update": "INSERT DATA { <http://e/s> <http://e/p> 1 }"})
    own = call(
        writable.url + "/update", "POST", insert.encode(), Content_Type=FORM, Origin=writable.url
    )
    assert own[0] == 204  # its own page, or a client that sends no Origin, may
    assert triples(writable) == before + 1


def test_a_read_only_store_refuses_changes(served):
    form = urllib.parse.urlencode({"update": "DROP ALL"}).encode()
    status, body = call(served.url + "/update", "POST", form, Content_Type=FORM)
    assert status == 403 and b"read-only" in body


# --- timeouts: no core kept busy ---


def busy_seconds(pids: list[int], window: float = 1.0) -> float:
    """CPU seconds the processes `pids` use during `window` seconds."""

    def total() -> float:
        seconds = 0.0
        for pid in pids:
            try:
                times = psutil.Process(pid).cpu_times()
            except psutil.NoSuchProcess:
                continue
            seconds += times.user + times.system
        return seconds

    before = total()
    time.sleep(window)
    return total() - before


@pytest.mark.slow
def test_a_heavy_query_stops_at_the_timeout(oxigraph, built):
    server = start_server(built, port=0, query_timeout=1)
    try:
        pids = server.pool.pids()
        start = time.monotonic()
        status, body = call(
            server.query_url, "POST", HEAVY.encode(), Content_Type="application/sparql-query"
        )
        took = time.monotonic() - start
        assert status == 503 and b"ran past the 1 s timeout" in body
        assert took < 5
        assert busy_seconds(pids) < 0.3
        assert triples(server) > 0  # and it answers the next query
    finally:
        server.stop()


@pytest.mark.slow
def test_a_heavy_query_stops_when_its_client_leaves(oxigraph, built):
    server = start_server(built, port=0, query_timeout=60)
    try:
        pids = server.pool.pids()
        port = urllib.parse.urlsplit(server.url).port
        with socket.create_connection(("127.0.0.1", port)) as client:
            body = HEAVY.encode()
            client.sendall(
                b"POST /query HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                b"Content-Type: application/sparql-query\r\nContent-Length: %d\r\n\r\n%s"
                % (port, len(body), body)
            )
            time.sleep(1)
        time.sleep(0.5)
        assert busy_seconds(pids) < 0.3
    finally:
        server.stop()


# --- stopping kg serve: nothing left behind ---


def kg_serve(tmp_path: Path, *args: str, **popen) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)}
    return subprocess.Popen(
        [sys.executable, "-m", "kg", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
        **popen,
    )


def serving(process: subprocess.Popen[str]) -> tuple[str, list[psutil.Process]]:
    """The query URL kg serve prints, and its Oxigraph processes."""
    assert process.stdout is not None
    line = process.stdout.readline()
    assert "SPARQL endpoint" in line, line + (process.stderr.read() if process.stderr else "")
    children = [
        p for p in psutil.Process(process.pid).children(recursive=True) if "oxigraph" in p.name()
    ]
    assert children
    return line.split()[-1], children


def ended(
    process: subprocess.Popen[str],
    children: list[psutil.Process],
    tmp_path: Path,
    store_left: bool = False,
) -> None:
    try:
        process.wait(timeout=15)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(running(c) for c in children):
            time.sleep(0.05)
    finally:
        alive = [c for c in children if running(c)]
        for child in alive:
            child.kill()
        if process.poll() is None:
            process.kill()
    assert alive == [], "an Oxigraph server outlived kg serve"
    assert bool(list(tmp_path.glob("kg-*"))) is store_left, "its store was left behind"


def running(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_every_signal_ends_oxigraph_and_removes_the_store(oxigraph, built, tmp_path, signum):
    process = kg_serve(tmp_path, str(built), "--port", str(free_port()))
    url, children = serving(process)
    assert sparql_select(url, "ASK { }")["boolean"] is True
    process.send_signal(signum)
    ended(process, children, tmp_path)
    assert process.returncode == 0


def test_sigterm_stops_it_where_sigint_is_ignored(oxigraph, built, tmp_path):
    # a job started with & from a script ignores SIGINT
    process = kg_serve(
        tmp_path,
        str(built),
        "--port",
        str(free_port()),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    url, children = serving(process)
    process.send_signal(signal.SIGINT)
    time.sleep(0.5)
    assert process.poll() is None and sparql_select(url, "ASK { }")["boolean"] is True
    process.send_signal(signal.SIGTERM)
    ended(process, children, tmp_path)


@pytest.mark.slow
def test_it_stops_when_the_process_that_started_it_dies(oxigraph, built, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)}
    script = f"{sys.executable} -m kg serve {built} --port {free_port()} & echo $!; wait"
    shell = subprocess.Popen(
        ["bash", "-c", script], stdout=subprocess.PIPE, text=True, env=env, cwd=tmp_path
    )
    assert shell.stdout is not None
    kg = psutil.Process(int(shell.stdout.readline()))
    assert "SPARQL endpoint" in shell.stdout.readline()
    children = [p for p in kg.children(recursive=True) if "oxigraph" in p.name()]
    shell.kill()
    shell.wait()
    try:
        kg.wait(timeout=15)
    finally:
        alive = [c for c in [kg, *children] if running(c)]
        for p in alive:
            p.kill()
    assert alive == []
    assert list(tmp_path.glob("kg-*")) == []


def test_killed_with_sigkill_its_oxigraph_dies_and_the_next_start_removes_its_store(
    oxigraph, built, tmp_path, monkeypatch
):
    import tempfile

    process = kg_serve(tmp_path, str(built), "--port", str(free_port()))
    _, children = serving(process)
    process.kill()
    ended(process, children, tmp_path, store_left=True)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    start_server(built, port=0).stop()
    assert list(tmp_path.glob("kg-*")) == []


# --- exit non-zero with one line when it cannot serve ---


def test_a_taken_port_is_one_line_and_exit_2(oxigraph, built, runner):
    other = Listener(b'{"head":{},"boolean":true}', "application/sparql-results+json")
    try:
        result = runner.invoke(main, ["serve", str(built), "--port", str(other.port)])
    finally:
        other.close()
    assert result.exit_code == 2
    assert (
        result.stderr == f"Error: cannot listen on 127.0.0.1:{other.port}: address already in use\n"
    )
    assert result.stdout == ""


def test_serve_prints_its_endpoints_answers_and_stops_on_ctrl_c(oxigraph, built, runner):
    port, answers, done = free_port(), [], threading.Event()
    url = f"http://127.0.0.1:{port}"

    def ask_then_interrupt() -> None:
        while not done.wait(0.2):
            try:
                answers.append(sparql_select(f"{url}/query", "ASK { ?s ?p ?o }"))
            except KgError:
                continue  # not listening yet
            os.kill(os.getpid(), signal.SIGINT)  # what Ctrl-C sends; `kg serve` handles it
            return

    client = threading.Thread(target=ask_then_interrupt, daemon=True)
    client.start()
    try:
        result = runner.invoke(main, ["serve", str(built), "--port", str(port)])
    finally:
        done.set()
        client.join()
    assert result.exit_code == 0, result.output
    assert answers == [{"head": {}, "boolean": True}]
    assert result.stdout == (
        f"SPARQL endpoint (read-only): {url}/query\nGraph Store endpoint:    {url}/store\n"
    )
    assert result.stderr == (
        "Queries stop after 30 s; Ctrl-C to stop\nStopped (SIGINT); the store is removed\n"
    )


def test_serve_without_exports_says_build_first(runner, tmp_path):
    result = runner.invoke(main, ["serve", str(tmp_path / "nothing"), "--port", "0"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"Error: {tmp_path / 'nothing'}: no such file; run `kg build` first\n"


def test_a_query_that_crashes_oxigraph_gets_502_and_the_endpoint_goes_on(oxigraph, built, tmp_path):
    """A 10,000-step property path aborts Oxigraph: any client could stop the endpoint
    with one read-only query (an adversarial review, 2026-12-07)."""
    process = kg_serve(tmp_path, str(built), "--port", str(free_port()))
    url, children = serving(process)
    deep = "SELECT ?x WHERE { ?x " + "/".join(["<p:a>"] * 10_000) + " ?o }"
    with pytest.raises(KgError, match="HTTP 502") as crashed:
        sparql_select(url, deep)
    assert "stopped on this request" in str(crashed.value)
    for _ in range(3):  # the next requests are answered, by a new server
        assert sparql_select(url, "ASK { ?s ?p ?o }")["boolean"] is True
    assert process.poll() is None
    process.send_signal(signal.SIGTERM)
    ended(process, children, tmp_path)
    assert process.returncode == 0
    assert process.stderr is not None
    assert "stopped answering a request (killed by SIGABRT): replaced" in process.stderr.read()


def test_an_oxigraph_that_dies_stops_it_with_exit_2(oxigraph, built, tmp_path):
    process = kg_serve(tmp_path, str(built), "--port", str(free_port()))
    _, children = serving(process)
    children[0].kill()
    ended(process, children, tmp_path)
    assert process.returncode == 2
    assert process.stderr is not None
    errors = [line for line in process.stderr.read().splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and "stopped unexpectedly" in errors[0], errors


def test_a_port_out_of_range_is_a_usage_error(runner, built):
    result = runner.invoke(main, ["serve", str(built), "--port", "80000"])
    assert result.exit_code == 2
    assert "80000 is not in the range 0<=x<=65535" in result.stderr
    assert "Stack backtrace" not in result.stderr and "os error" not in result.stderr


def test_push_refuses_a_url_that_is_not_http(runner, built, tmp_path):
    target = tmp_path / "store.nt"
    target.write_text("")
    result = runner.invoke(main, ["push", str(built), "--endpoint", target.as_uri()])
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: --endpoint {target.as_uri()}: not an http:// or https:// URL of a store\n"
    )
    assert target.read_text() == ""


@pytest.mark.parametrize(
    ("endpoint", "graph", "message"),
    [
        # the ?graph= went after the fragment, never sent: a PUT to the bare store
        # replaced every graph of it (an adversarial review, 2026-12-07)
        (
            "http://127.0.0.1:1/store#kg",
            None,
            "--endpoint http://127.0.0.1:1/store#kg: a URL with a #fragment",
        ),
        ("http://[::1", None, "--endpoint http://[::1: not a URL (Invalid IPv6 URL)"),
        ("http://127.0.0.1:abc/store", None, "--endpoint http://127.0.0.1:abc/store: not a URL"),
        ("http:///store", None, "not an http:// or https:// URL of a store"),
        ("http://127.0.0.1:1/store", "", "--graph '': not an absolute IRI"),
        ("http://127.0.0.1:1/store", "not an iri", "--graph 'not an iri': not an absolute IRI"),
    ],
)
def test_push_checks_the_endpoint_and_graph_before_sending(runner, built, endpoint, graph, message):
    args = ["push", str(built), "--endpoint", endpoint]
    result = runner.invoke(main, args + (["--graph", graph] if graph is not None else []))
    assert result.exit_code == 2, result.output
    # refused before any request: port 1 has no store, and reaching for it says so
    assert message in result.stderr and "cannot reach" not in result.stderr


def test_serve_help_states_the_defaults_and_what_is_refused(runner):
    text = runner.invoke(main, ["serve", "--help"]).stdout
    for words in ("127.0.0.1", "[default: 30", "SERVICE", "Host", "Origin", "--allow-remote"):
        assert words in text, words


def test_a_server_that_died_as_its_answer_ended_is_not_given_back(tmp_path):
    """Given back as idle, it was then taken for one that died with no request, which stops
    kg serve (a review, 2026-12-07: kill -9 of a server mid-answer stopped it, 3 of 3)."""
    from kg.serve.pool import Pool, Worker

    pool = Pool("oxigraph", tmp_path, tmp_path, writable=False, size=1, backstop_s=30)
    dead = subprocess.Popen(["true"])
    dead.wait()
    alive = subprocess.Popen(["sleep", "30"])
    try:
        workers = [Worker(dead, 1, tmp_path / "a.log"), Worker(alive, 2, tmp_path / "b.log")]
        pool._workers.extend(workers)
        for worker in workers:
            pool.release(worker)
        assert pool._idle == [workers[1]]
    finally:
        alive.kill()
        alive.wait()


def test_where_loopback_is_127_0_0_1_alone_the_servers_listen_there(monkeypatch):
    import kg.serve.pool as pool

    class Refusing(socket.socket):
        def bind(self, address):
            if address[0] != "127.0.0.1":
                raise OSError(99, "Cannot assign requested address")
            super().bind(address)

    monkeypatch.setattr(pool.socket, "socket", Refusing)
    monkeypatch.setattr(pool.sys, "platform", "linux")
    assert pool.hidden_loopback() == "127.0.0.1"
