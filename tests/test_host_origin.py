"""A local server answers its own names only, and takes changes from its own pages only."""

from __future__ import annotations

import pytest

from kg.serve.host_origin import Site

LOOPBACK = Site.serving("127.0.0.1", 7878)


@pytest.mark.parametrize(
    "host", ["127.0.0.1:7878", "localhost:7878", "LOCALHOST:7878", "[::1]:7878", "localhost.:7878"]
)
def test_loopback_names_are_this_server(host):
    assert LOOPBACK.accepts_host(host)


@pytest.mark.parametrize(
    "host",
    [None, "", "evil.example:7878", "evil.example", "127.0.0.1:7879", "127.0.0.1", "10.0.0.1:7878"],
)
def test_other_names_and_ports_are_not(host):
    assert not LOOPBACK.accepts_host(host)


def test_extra_names_and_every_interface():
    assert Site.serving("127.0.0.1", 80, ["kg.internal"]).accepts_host("kg.internal")
    anywhere = Site.serving("0.0.0.0", 7878)
    assert anywhere.accepts_host("192.168.1.20:7878") and anywhere.accepts_host("[fe80::1]:7878")
    assert not anywhere.accepts_host("evil.example:7878")


@pytest.mark.parametrize(
    ("origin", "accepted"),
    [
        (None, True),  # curl, kg push: no browser page
        ("http://127.0.0.1:7878", True),
        ("http://localhost:7878", True),
        ("http://evil.example", False),
        ("http://localhost:8000", False),  # another local server's page
        ("https://127.0.0.1:7878", False),
        ("null", False),
        ("", False),
    ],
)
def test_origin(origin, accepted):
    assert LOOPBACK.accepts_origin(origin) is accepted
