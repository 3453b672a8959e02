"""Digests of plain values (strings, integers, and tuples and lists of them), as the
rebuild's memos keep them (`kg.export.views.pages.Signatures`, `kg.builder.page_scope`).

The bytes hashed are marshal's version 0: one for one with the value, and, unlike its later
versions, sharing no object, so that equal values give equal bytes however their strings
were made. A third of the time `repr` took on a paper's attributes (its abstract, its
edges' evidence sentences), which a rebuild digests for every node of the graph.
"""

from __future__ import annotations

import hashlib
import marshal
from typing import Any


def serialized(value: Any) -> bytes:
    """`value` as bytes, one for one: marshal's version 0 (ValueError for a value that is
    no string, number, or tuple, list, set or dict of them)."""
    return marshal.dumps(value, 0)


def digest(value: Any) -> str:
    """The SHA-1 of `serialized(value)`, in hexadecimal."""
    return hashlib.sha1(serialized(value)).hexdigest()
