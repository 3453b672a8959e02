"""Which `Host` and `Origin` headers a local server accepts.

A web page the user opens can make the browser send requests to a server on the user's
machine: with a DNS name it controls that resolves to 127.0.0.1 (DNS rebinding) the `Host`
header names the attacker's domain, and a form it posts names the page's site in `Origin`.
A server that answers only its own names, and takes changes only from pages of its own
origin (or from clients that send no `Origin`: curl, kg push, SPARQL libraries), is out of
reach of both.
"""

from __future__ import annotations

import ipaddress
import socket
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass

_LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
_ANY = frozenset({"", "0.0.0.0", "::"})


def _normal(name: str) -> str:
    return name.strip().lower().removesuffix(".")


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_loopback(name: str) -> bool:
    return name == "localhost" or (_is_ip(name) and ipaddress.ip_address(name).is_loopback)


@dataclass(frozen=True)
class Site:
    """The names and port a server answers to."""

    names: frozenset[str]
    port: int
    #: bound to every interface: any IP address reaches it (an address cannot be rebound)
    any_address: bool = False

    @classmethod
    def serving(cls, host: str, port: int, extra: Iterable[str] = ()) -> Site:
        """The site of a server listening on `host`:`port`, also known as the `extra` names.

        On a loopback address it is also localhost, 127.0.0.1 and ::1; on every interface
        (0.0.0.0, ::) also any IP address and this machine's host names.
        """
        host = _normal(host)
        names = {host, *(_normal(n) for n in extra)}
        if _is_loopback(host):
            names |= _LOOPBACK_NAMES
        wildcard = host in _ANY
        if wildcard:
            names |= _LOOPBACK_NAMES | {_normal(socket.gethostname()), _normal(socket.getfqdn())}
        return cls(frozenset(names - {""}), port, wildcard)

    def _known(self, name: str) -> bool:
        name = _normal(name)
        return name in self.names or (self.any_address and _is_ip(name))

    def accepts_host(self, header: str | None) -> bool:
        """Whether a request's `Host` header names this server (its name and its port)."""
        if not header:
            return False
        parts = urllib.parse.urlsplit(f"//{header.strip()}")
        try:
            port = parts.port if parts.port is not None else 80
        except ValueError:
            return False
        return parts.hostname is not None and self._known(parts.hostname) and port == self.port

    def accepts_origin(self, header: str | None) -> bool:
        """Whether a request's `Origin` header is absent (not from a browser page) or a page
        of this server itself (same scheme, name and port)."""
        if header is None:
            return True
        parts = urllib.parse.urlsplit(header.strip())
        if parts.scheme != "http" or parts.hostname is None:
            return False  # "null" (a sandboxed page or a file), https or nonsense
        try:
            port = parts.port if parts.port is not None else 80
        except ValueError:
            return False
        return self._known(parts.hostname) and port == self.port
