"""N-Triples to Turtle and JSON-LD (the syntaxes of `kg.export.outputs.CONVERTED`) by Oxigraph (the
JSON-LD compacted from Oxigraph's parse by `compact_jsonld`), in a process of its own, block
by block.

Oxigraph holds Python's GIL while it serialises, so a thread would not overlap with the rest
of a build; a child process does: a build writes GraphML and the views while the child
converts. The child runs this file as a script, which imports Oxigraph and nothing of kg
(no spaCy to load), so it starts in 0.15 s. It reads its plan as JSON on stdin and answers
where each block went as JSON on stdout, after its length in bytes and a newline: the parent
reads to the end whatever the size (a megabyte for 25,000 papers) and checks the length and
the shape, so a reply cut short or mixed with other output is a `ConversionError`, not a
traceback. Anything else the child prints goes to its stderr.

Each block of kg.nt (what papers share, then one block per paper: `kg.rdf.Triples`) is
converted on its own, or copied from the last build's file when the paper did not change
(`kg.builder.blocks`): a Turtle file is the prefixes and then each block's statements, a
JSON-LD file one document whose @context is the Turtle's prefixes and whose @graph is each block's
compacted node objects (`compact_jsonld`). Converting block by block costs what converting the
whole file does (measured), and a block's bytes do not depend on the blocks around it.
"""

from __future__ import annotations

import json
import mmap
import os
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

Span = tuple[int, int]


@dataclass(frozen=True)
class Target:
    """One conversion: into `path` (which must exist: the parent's temporary), in the syntax
    `format` (a `kg.export.outputs.RdfSyntax` name: "turtle", "jsonld"); blocks with a span in
    `reuse` are copied from `old`."""

    format: str
    path: Path
    old: Path | None = None
    reuse: Sequence[Span | None] = ()


def convert_blocks(
    nt: bytes | mmap.mmap,
    blocks: Sequence[Span],
    fmt: str,
    handle: BinaryIO,
    prefixes: Mapping[str, str],
    old: bytes | mmap.mmap | None = None,
    reuse: Sequence[Span | None] = (),
) -> list[Span]:
    """Write the N-Triples `nt` as Turtle (with `prefixes`) or JSON-LD, block by block.

    Args:
        nt: the N-Triples.
        blocks: the byte range of each block in `nt`.
        fmt: the name of a syntax Oxigraph converts into (`kg.export.outputs.CONVERTED`).
        handle: where to write.
        prefixes: the Turtle prefixes, written in the order of their names.
        old: the last build's file of this format.
        reuse: for each block, its range in `old` to copy instead of converting, or None.

    Returns:
        The byte range of each block's statements (Turtle) or objects (JSON-LD) in the
        output. Oxigraph writes triples in the order given: the same input, the same bytes.
    """
    from kg.export.outputs import rdf_syntax  # here: the child never imports kg (see `main`)

    syntax = rdf_syntax(fmt)
    out = _Out(syntax.media_type, syntax.framing, handle, old, reuse)
    return write_targets(nt, blocks, [out], prefixes)[0]


@dataclass
class _Out:
    """One output of `write_targets`: its syntax, where it goes, what it may copy."""

    media_type: str
    framing: str
    handle: BinaryIO
    old: bytes | mmap.mmap | None = None
    reuse: Sequence[Span | None] = ()


def write_targets(
    nt: bytes | mmap.mmap,
    blocks: Sequence[Span],
    outs: Sequence[_Out],
    prefixes: Mapping[str, str],
) -> list[list[Span]]:
    """Each output of `outs` written block by block (see `convert_blocks`), each block of
    `nt` parsed once for all of them (Turtle and JSON-LD: kg.nt was parsed twice); the byte
    range of each block in each output. A Turtle output is the prefixes, then each block's
    statements; a JSON-LD output one document, the prefixes as its @context, each block's
    node objects in its @graph, joined by ",\\n"."""
    import pyoxigraph as ox

    ordered = dict(sorted(prefixes.items()))
    targets = [ox.RdfFormat.from_media_type(out.media_type) for out in outs]
    framings = [_framing(out.framing, ordered) for out in outs]
    at: list[int] = []
    spans: list[list[Span]] = [[] for _ in outs]
    first = [True for _ in outs]
    for out, (start, _, _) in zip(outs, framings, strict=True):
        out.handle.write(start)
        at.append(len(start))
    for i, (a, b) in enumerate(blocks):
        triples: list | None = None
        for k, out in enumerate(outs):
            span = out.reuse[i] if i < len(out.reuse) else None
            if span is not None and out.old is not None:
                body = memoryview(out.old)[span[0] : span[1]]
            else:
                if triples is None:
                    # kg wrote the N-Triples itself (every IRI minted or escaped by kg.rdf,
                    # and the exports checked by rdflib and rapper in the tests): not
                    # validated again
                    triples = list(
                        ox.parse(bytes(nt[a:b]), format=ox.RdfFormat.N_TRIPLES, lenient=True)
                    )
                body = _converted(triples, out.framing, targets[k], ordered)
            if len(body) and not first[k]:
                out.handle.write(framings[k][1])
                at[k] += len(framings[k][1])
            first[k] = first[k] and not len(body)
            out.handle.write(body)
            spans[k].append((at[k], at[k] + len(body)))
            at[k] += len(body)
    for out, (_, _, end) in zip(outs, framings, strict=True):
        out.handle.write(end)
    return spans


def _framing(framing: str, prefixes: Mapping[str, str]) -> tuple[bytes, bytes, bytes]:
    """What a file of `framing` starts with, puts between blocks and ends with."""
    if framing == "statements":
        head = "".join(f"@prefix {name}: <{iri}> .\n" for name, iri in prefixes.items())
        return head.encode("utf-8"), b"", b""
    # "graph": one JSON-LD document, the prefixes as its @context
    context = json.dumps({"@context": prefixes}, ensure_ascii=False, separators=(",", ":"))
    return (context[:-1] + ',"@graph":[\n').encode("utf-8"), b",\n", b"\n]}\n"


def _converted(triples: list, framing: str, target: Any, prefixes: dict[str, str]) -> memoryview:
    """One block's triples in the syntax of `target`: JSON-LD node objects, or Turtle
    statements without the prefixes."""
    import pyoxigraph as ox

    if framing == "graph":
        return memoryview(compact_jsonld(triples, prefixes))
    out = ox.serialize(triples, format=target, prefixes=prefixes)
    assert out is not None  # given no output, serialize returns the bytes
    return _body(out)


def _body(out: bytes) -> memoryview:
    """A block's Turtle statements without the prefixes."""
    at = 0
    while out.startswith(b"@prefix", at):
        at = out.index(b"\n", at) + 1
    return memoryview(out)[at:]


_RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"


def compact_jsonld(triples: Iterable, prefixes: Mapping[str, str]) -> bytes:
    """Triples (Oxigraph's) as compacted JSON-LD node objects, one a line, joined by ",\\n":
    IRIs as compact IRIs of `prefixes` (the document's @context), `rdf:type` as `@type`, a
    plain string as a JSON string, a typed literal as `{"@value", "@type"}`. Subjects and
    properties keep the order of the N-Triples (sorted by kg): the same input, the same bytes.
    """
    names = sorted(prefixes.items(), key=lambda item: -len(item[1]))

    def short(iri: str) -> str:
        for name, space in names:
            if iri.startswith(space) and not iri.startswith("//", len(space)):
                return f"{name}:{iri[len(space) :]}"
        return iri

    nodes: dict[str, dict[str, list]] = {}
    for quad in triples:
        s, p, o = quad.subject, quad.predicate, quad.object
        node = nodes.setdefault(s.value, {})
        if p.value == _RDF_TYPE:
            node.setdefault("@type", []).append(short(o.value))
            continue
        if not hasattr(o, "datatype"):
            value: object = {"@id": short(o.value)}
        elif o.language:
            value = {"@value": o.value, "@language": o.language}
        elif o.datatype.value.endswith("#string"):
            value = o.value
        else:
            value = {"@value": o.value, "@type": short(o.datatype.value)}
        node.setdefault(short(p.value), []).append(value)
    lines = []
    for subject, properties in nodes.items():
        obj: dict[str, object] = {"@id": short(subject)}
        obj.update((k, v[0] if len(v) == 1 else v) for k, v in properties.items())
        lines.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
    return ",\n".join(lines).encode("utf-8")


def convert_file(nt: Path, fmt: str, handle: BinaryIO, prefixes: Mapping[str, str]) -> None:
    """Convert a whole N-Triples file as one block."""
    with _mapped(nt) as data:
        convert_blocks(data, [(0, len(data))], fmt, handle, prefixes)


@contextmanager
def _mapped(path: Path) -> Iterator[bytes | mmap.mmap]:
    """A file's bytes, mapped (a 230 MB kg.nt is not read into memory)."""
    with open(path, "rb") as handle:
        if os.fstat(handle.fileno()).st_size == 0:
            yield b""
            return
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            yield data


class ConversionError(Exception):
    """The child could not write a conversion: its message names the file and the cause."""


class Conversion:
    """Conversions of one N-Triples file running in a child process.

    Args:
        nt: the N-Triples file, complete.
        targets: `Target`s, or (format, path) pairs; each path must exist (the parent's
            temporary file): the child writes into it and never makes one, so a child
            outliving a failed build cannot leave a file behind.
        prefixes: the prefixes of the Turtle output.
        blocks: the byte range of each block in `nt` (default: the whole file, one block).
    """

    def __init__(
        self,
        nt: Path,
        targets: Sequence[Target | tuple[str, Path]],
        prefixes: Mapping[str, str],
        blocks: Sequence[Span] | None = None,
    ) -> None:
        from kg.export.outputs import rdf_syntax  # here: the child never imports kg (see `main`)

        plan = {
            "nt": str(nt),
            "prefixes": dict(prefixes),
            "blocks": [list(span) for span in blocks] if blocks is not None else None,
            "targets": [
                {
                    "format": t.format,
                    "media_type": rdf_syntax(t.format).media_type,
                    "framing": rdf_syntax(t.format).framing,
                    "path": str(t.path),
                    "old": str(t.old) if t.old else None,
                    "reuse": [list(span) if span else None for span in t.reuse],
                }
                for t in (t if isinstance(t, Target) else Target(*t) for t in targets)
            ],
        }
        self._process = None
        self._feeder: threading.Thread | None = None
        self.spans: list[list[Span]] = []
        self._expected = (len(targets), len(blocks) if blocks is not None else 1)
        if targets:
            self._process = subprocess.Popen(
                _command(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
            # the plan (a megabyte for 25,000 papers) is sent while the build goes on
            self._feeder = threading.Thread(
                target=_feed, args=(self._process, json.dumps(plan).encode("utf-8")), daemon=True
            )
            self._feeder.start()

    def wait(self) -> list[list[Span]]:
        """Wait for the child to finish; where each block went, per target.

        Raises:
            ConversionError: the child failed (its message, or its exit status).
        """
        if self._process is None:
            return []
        assert self._feeder is not None
        self._feeder.join()
        self._process.stdin = None  # closed by the feeder: nothing more for communicate
        out, err = self._process.communicate()
        if self._process.returncode != 0:
            message = err.decode("utf-8", "replace").strip().splitlines()
            raise ConversionError(
                message[-1] if message else f"converter exited with {self._process.returncode}"
            )
        self.spans = read_reply(out, *self._expected)
        return self.spans

    def cancel(self) -> None:
        """Stop the child if it is still running (the build failed or was interrupted)."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()


def _command() -> list[str]:
    """How the child is started: this file run as a script."""
    return [sys.executable, __file__]


def reply(spans: Sequence[Sequence[Span]]) -> bytes:
    """The child's answer: each target's spans as JSON, after its length and a newline."""
    body = json.dumps([[list(span) for span in target] for target in spans]).encode("utf-8")
    return b"%d\n%s" % (len(body), body)


def read_reply(data: bytes, targets: int, blocks: int) -> list[list[Span]]:
    """The spans in the child's answer (see `reply`): `targets` lists of `blocks` spans.

    Raises:
        ConversionError: the answer is cut short, not JSON or not of that shape.
    """
    head, newline, body = data.partition(b"\n")
    if not newline or not head.isdigit() or int(head) != len(body):
        raise ConversionError(
            f"the converter's reply is broken ({len(data):,} bytes that are not "
            "a length and as many bytes of JSON: cut short or mixed with other output)"
        )
    try:
        answer = json.loads(body)
        spans = [[(int(a), int(b)) for a, b in target] for target in answer]
    except (ValueError, TypeError) as error:
        why = str(error).splitlines()[0] if str(error) else type(error).__name__
        broken = f"the converter's reply is broken (not spans as JSON: {why})"
        raise ConversionError(broken) from None
    if len(spans) != targets or any(len(target) != blocks for target in spans):
        raise ConversionError(
            f"the converter's reply is broken ({[len(t) for t in spans]} spans for "
            f"{targets} target(s) of {blocks} block(s))"
        )
    return spans


def _feed(process: subprocess.Popen, plan: bytes) -> None:
    """Send the plan to the child and close its input."""
    assert process.stdin is not None
    try:
        process.stdin.write(plan)
        process.stdin.close()
    except OSError:  # the child is gone: `wait` reports why
        pass


def main() -> int:
    """Carry out the plan on stdin (see `Conversion`); answer each target's spans on stdout."""
    answer_to = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # no other output in the answer
    plan = json.load(sys.stdin)
    try:
        with _mapped(Path(plan["nt"])) as nt, ExitStack() as files:
            blocks = plan["blocks"] if plan["blocks"] is not None else [(0, len(nt))]
            outs = []
            for target in plan["targets"]:
                # the parent's file: never made here
                handle = files.enter_context(open(target["path"], "r+b"))
                reuse = [tuple(span) if span else None for span in target["reuse"]]
                old_path = target["old"] if any(reuse) else None
                old = files.enter_context(_mapped(Path(old_path)) if old_path else _nothing())
                outs.append(_Out(target["media_type"], target["framing"], handle, old, reuse))
            answer = write_targets(nt, blocks, outs, plan["prefixes"])
            for out in outs:
                out.handle.flush()
                os.fsync(out.handle.fileno())
    except OSError as error:
        print(f"{error.filename or plan['nt']}: {error.strerror}", file=sys.stderr)
        return 1
    with answer_to:
        answer_to.write(reply(answer))
    return 0


@contextmanager
def _nothing() -> Iterator[None]:
    yield None


if __name__ == "__main__":
    sys.exit(main())
