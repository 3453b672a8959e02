"""Oxigraph server processes on loopback ports, each answering one request at a time.

Oxigraph goes on computing a query after its client has left, so a request is stopped by
killing the process that answers it; one process per request in flight makes that safe for
the others. A supervising thread starts every process (the kernel kills them with it, see
`kg.processes.tied`), replaces the killed ones and any that a request crashed (a query
nested past Oxigraph's stack aborts it), and reports any that died with no request.
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from kg.errors import KgError
from kg.processes import tied

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"


def hidden_loopback() -> str:
    """A loopback address for a server nobody else is told of: on Linux, where every address
    of 127.0.0.0/8 is this machine's, a random one (with a random port, a web page that
    sends requests to guessed loopback ports, as pages can, finds it one time in some
    10^12); elsewhere 127.0.0.1. A process of this machine can still read it from
    /proc/net/tcp: the front's checks keep out web pages, not local users."""
    if not sys.platform.startswith("linux"):
        return LOOPBACK
    host = "127." + ".".join(str(secrets.randbelow(254) + 1) for _ in range(3))
    try:
        with socket.socket() as probe:
            probe.bind((host, 0))
    except OSError:  # a loopback of 127.0.0.1/32 alone (some containers, hardened hosts)
        return LOOPBACK
    return host


@dataclass(eq=False)
class Worker:
    """One Oxigraph server process and the loopback port it listens on."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    host: str = LOOPBACK  #: the loopback address it listens on (`hidden_loopback`)
    #: killed on purpose (a request ran out of time or its client left): to be replaced
    discarded: bool = field(default=False)


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    fds = Path(f"/proc/{pid}/fd")
    for fd in fds.iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def listening_port(pid: int) -> int | None:
    """The TCP port process `pid` listens on (Linux: read from /proc), or None yet."""
    try:
        inodes = _socket_inodes(pid)
    except OSError:
        return None
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                return int(fields[1].rsplit(":", 1)[1], 16)
    return None


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _reason(path: Path) -> str:
    """The error line of an Oxigraph log (it prints `Error: ...` then a backtrace)."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        lines = []
    return next((line[:300] for line in lines if line.startswith("Error")), "no message")


def _death(process: subprocess.Popen[bytes], log: Path) -> str:
    code = process.returncode
    if code is not None and code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit {code}: {_reason(log)}"


def _answers(host: str, port: int) -> bool:
    connection = http.client.HTTPConnection(host, port, timeout=5)
    try:
        connection.request(
            "POST",
            "/query",
            body=b"ASK {}",
            headers={
                "Content-Type": "application/sparql-query",
                "Accept": "application/sparql-results+json",
            },
        )
        response = connection.getresponse()
        return response.status == 200 and "boolean" in json.loads(response.read())
    except (OSError, ValueError, http.client.HTTPException):
        return False
    finally:
        connection.close()


class Pool:
    """`size` Oxigraph servers over one store directory (read-only ones can share it; a
    writable store takes one server)."""

    def __init__(
        self,
        binary: str,
        store: Path,
        logs: Path,
        *,
        writable: bool,
        size: int,
        backstop_s: int,
        start_timeout: float = 30.0,
    ) -> None:
        self._binary = binary
        self._store = store
        self._logs = logs
        self._mode = "serve" if writable else "serve-read-only"
        self.size = 1 if writable else max(1, size)
        self._backstop_s = backstop_s
        self._start_timeout = start_timeout
        self._workers: list[Worker] = []
        self._idle: list[Worker] = []
        self._started = 0
        self._ready = threading.Event()
        self._closing = threading.Event()
        self._changed = threading.Condition()
        #: why the pool stopped serving (a server died or could not start), else None
        self.failure: str | None = None
        self._thread = threading.Thread(target=self._supervise, name="oxigraph-pool", daemon=True)

    def start(self) -> None:
        """Start the servers and wait until they all answer.

        Raises:
            KgError: one did not start.
        """
        self._thread.start()
        self._ready.wait()
        if self.failure is not None:
            self.close()
            raise KgError(self.failure)

    def pids(self) -> list[int]:
        """The process ids of the servers."""
        with self._changed:
            return [w.process.pid for w in self._workers]

    def acquire(self, timeout: float) -> Worker | None:
        """An idle server, waiting up to `timeout` seconds; None if none came free."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not self._idle:
                left = deadline - time.monotonic()
                if left <= 0 or self.failure is not None or self._closing.is_set():
                    return None
                self._changed.wait(left)
            return self._idle.pop()

    def release(self, worker: Worker) -> None:
        """Give a server back after a request it answered in full, unless it died meanwhile
        (its answer ended as it died): then the supervisor replaces it, as one a request
        crashed, and never takes it for one that died idle."""
        with self._changed:
            alive = worker.process.poll() is None
            if worker in self._workers and not worker.discarded and alive:
                self._idle.append(worker)
                self._changed.notify()

    def discard(self, worker: Worker) -> None:
        """Kill a server now (its request is abandoned); another replaces it."""
        worker.discarded = True
        worker.process.kill()

    def close(self) -> None:
        """Stop supervising and kill every server."""
        self._closing.set()
        with self._changed:
            self._changed.notify_all()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join()
        for worker in self._workers:
            worker.process.kill()
            worker.process.wait()

    def _fail(self, reason: str) -> None:
        with self._changed:
            if self.failure is None:
                self.failure = reason
            self._changed.notify_all()
        self._ready.set()

    def _supervise(self) -> None:
        while not self._closing.is_set():
            with self._changed:
                for worker in [w for w in self._workers if w.process.poll() is not None]:
                    self._workers.remove(worker)
                    idle = worker in self._idle
                    if idle:
                        self._idle.remove(worker)
                    death = _death(worker.process, worker.log)
                    if not worker.discarded and idle:  # no request: the machine, not a query
                        self._fail(
                            f"the oxigraph server (pid {worker.process.pid}) stopped "
                            f"unexpectedly ({death})"
                        )
                        return
                    if not worker.discarded:  # a query crashed it: the others go on
                        log.warning(
                            "the oxigraph server (pid %d) stopped answering a request (%s): "
                            "replaced",
                            worker.process.pid,
                            death,
                        )
                missing = self.size - len(self._workers)
            for _ in range(missing):
                try:
                    worker = self._spawn()
                except KgError as error:
                    self._fail(str(error))
                    return
                with self._changed:
                    self._workers.append(worker)
                    self._idle.append(worker)
                    self._changed.notify()
            self._ready.set()
            self._closing.wait(0.05)

    def _spawn(self) -> Worker:
        self._started += 1
        path = self._logs / f"oxigraph-{self._started}.log"
        on_proc = Path("/proc/self/fd").is_dir()
        host = hidden_loopback()
        port = 0 if on_proc else _free_port(host)
        with path.open("wb") as out:
            process = subprocess.Popen(
                tied(
                    [
                        self._binary,
                        self._mode,
                        "--location",
                        str(self._store),
                        "--bind",
                        f"{host}:{port}",
                        "--timeout-s",
                        str(self._backstop_s),
                    ]
                ),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                start_new_session=True,  # Ctrl-C in a terminal is for kg serve to handle
            )
        deadline = time.monotonic() + self._start_timeout
        while time.monotonic() < deadline and not self._closing.is_set():
            if process.poll() is not None:
                raise KgError(f"oxigraph stopped at start: {_reason(path)}")
            # the port this very process listens on: an answer from another server that
            # holds the port is never taken for ours
            found = listening_port(process.pid) if on_proc else port
            if found and _answers(host, found):
                log.debug("oxigraph %s (pid %d) on %s:%d", self._mode, process.pid, host, found)
                return Worker(process, found, path, host)
            time.sleep(0.05)
        process.kill()
        process.wait()
        raise KgError(f"oxigraph did not answer within {self._start_timeout:.0f} s")
