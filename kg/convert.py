"""N-Triples to Turtle and JSON-LD by Oxigraph, in a process of its own.

Oxigraph holds Python's GIL while it serialises, so a thread would not overlap with the rest
of a build; a child process does: a build writes GraphML and the views while the child
converts. The child runs this file as a script, which imports Oxigraph and nothing of kg
(no spaCy to load), so it starts in 0.15 s:

    python kg/convert.py kg.nt '{"kg": "https://..."}' turtle=kg.ttl jsonld=kg.jsonld
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import BinaryIO


def convert_file(nt: Path, fmt: str, handle: BinaryIO, prefixes: Mapping[str, str]) -> None:
    """Stream an N-Triples file to Turtle (with `prefixes`) or JSON-LD.

    Oxigraph writes the triples in the order given, so the same input gives the same bytes;
    the prefix lines are put in a fixed order, whatever the writer's map does.
    """
    import pyoxigraph as ox

    target = {"turtle": ox.RdfFormat.TURTLE, "jsonld": ox.RdfFormat.JSON_LD}[fmt]
    # kg wrote the N-Triples itself (every IRI minted or escaped by kg.rdf, and the exports
    # checked by rdflib and rapper in the tests): parsed without validating again, 35% faster
    triples = ox.parse(path=str(nt), format=ox.RdfFormat.N_TRIPLES, lenient=True)
    if fmt != "turtle":
        ox.serialize(triples, output=handle, format=target)
        handle.write(b"\n")
        return
    with tempfile.TemporaryFile() as body:
        ox.serialize(triples, output=body, format=target, prefixes=dict(sorted(prefixes.items())))
        body.seek(0)
        head = []
        while (line := body.readline()).startswith(b"@prefix"):
            head.append(line)
        handle.write(b"".join(sorted(head)))
        handle.write(line)
        shutil.copyfileobj(body, handle)


class ConversionError(Exception):
    """The child could not write a conversion: its message names the file and the cause."""


class Conversion:
    """Conversions of one N-Triples file running in a child process.

    Args:
        nt: the N-Triples file, complete.
        targets: (format, path) pairs; each path must exist (the parent's temporary file):
            the child writes into it and never makes one, so a child outliving a failed
            build cannot leave a file behind.
        prefixes: the prefixes of the Turtle output.
    """

    def __init__(
        self, nt: Path, targets: Sequence[tuple[str, Path]], prefixes: Mapping[str, str]
    ) -> None:
        command = [sys.executable, __file__, str(nt), json.dumps(dict(prefixes))]
        command += [f"{fmt}={path}" for fmt, path in targets]
        self._process = (
            subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
            )
            if targets
            else None
        )

    def wait(self) -> None:
        """Wait for the child to finish.

        Raises:
            ConversionError: the child failed (its message, or its exit status).
        """
        if self._process is None:
            return
        _, err = self._process.communicate()
        if self._process.returncode != 0:
            message = err.decode("utf-8", "replace").strip().splitlines()
            raise ConversionError(
                message[-1] if message else f"converter exited with {self._process.returncode}"
            )

    def cancel(self) -> None:
        """Stop the child if it is still running (the build failed or was interrupted)."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()


def main(argv: Sequence[str]) -> int:
    """Convert argv[0] (N-Triples) with prefixes argv[1] (JSON) into each FORMAT=PATH."""
    nt, prefixes = Path(argv[0]), json.loads(argv[1])
    for spec in argv[2:]:
        fmt, path = spec.split("=", 1)
        try:
            with open(path, "r+b") as handle:  # the parent's temporary: never made here
                convert_file(nt, fmt, handle, prefixes)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as error:
            print(f"{error.filename or path}: {error.strerror}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
