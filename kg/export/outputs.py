"""What a build writes, declared once: each RDF syntax and each export.

Every list of them is derived from here: the build's conversions (`kg.builder.pipeline`),
the files made of paper blocks (`kg.builder.blocks`), the converter's output format
(`kg.export.convert`), which file a query reads and how it parses it (`kg.query.load`), and
the `--rdf` choices.

A new RDF syntax is one `RdfSyntax` in `RDF_SYNTAXES`: Oxigraph converts kg.nt into it (with
a framing `kg.export.convert` knows: "statements" or "graph"). A new export is one `Export`
in `EXPORTS` and the step of `kg.builder.pipeline` that writes it.

This module imports nothing (the converter's child process need not load kg).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath


@dataclass(frozen=True)
class RdfSyntax:
    """One syntax the graph is exported in."""

    name: str  #: its name in `--rdf`, the converter's plans and `kg.export.convert`
    label: str  #: its name for people ("Turtle")
    file: str  #: the export's file name ("kg.ttl")
    media_type: str  #: its media type, which also tells Oxigraph the format
    rdflib: str  #: rdflib's parser for it
    #: how its blocks are joined in one file by `kg.export.convert` ("statements": Turtle's
    #: prefixes, then each block's statements; "graph": one compacted JSON-LD document,
    #: the prefixes its @context, each block's node objects in its @graph), or "" for the
    #: syntax kg writes itself (`kg.rdf.write_ntriples`)
    framing: str = ""

    @property
    def suffix(self) -> str:
        """The file name's suffix (".ttl")."""
        return PurePath(self.file).suffix

    @property
    def converted(self) -> bool:
        """Whether Oxigraph converts kg.nt into it (else kg writes it itself)."""
        return bool(self.framing)


#: the graph's syntaxes, in the order a query prefers them (it reads the first there is)
RDF_SYNTAXES: tuple[RdfSyntax, ...] = (
    RdfSyntax("turtle", "Turtle", "kg.ttl", "text/turtle", "turtle", "statements"),
    RdfSyntax("nt", "N-Triples", "kg.nt", "application/n-triples", "nt"),
    RdfSyntax("jsonld", "JSON-LD", "kg.jsonld", "application/ld+json", "json-ld", "graph"),
)
#: the syntax kg writes itself, which the others are converted from
N_TRIPLES = next(s for s in RDF_SYNTAXES if not s.converted)
#: the syntaxes Oxigraph converts kg.nt into, in the order they are converted
CONVERTED = tuple(s for s in RDF_SYNTAXES if s.converted)
#: `--rdf`: "all" syntaxes, or only the one kg writes itself (large graphs)
RDF_CHOICES = ("all", N_TRIPLES.name)


def rdf_syntax(name: str) -> RdfSyntax:
    """The syntax called `name` ("turtle").

    Raises:
        KeyError: there is none of that name.
    """
    for syntax in RDF_SYNTAXES:
        if syntax.name == name:
            return syntax
    raise KeyError(name)


def by_suffix() -> dict[str, RdfSyntax]:
    """Each syntax by its file suffix, in the order a query prefers them."""
    return {s.suffix: s for s in RDF_SYNTAXES}


def listed(words: list[str], last: str = "and") -> str:
    """The words as "a, b and c"."""
    return f"{', '.join(words[:-1])} {last} {words[-1]}" if len(words) > 1 else "".join(words)


@dataclass(frozen=True)
class Export:
    """One file (besides the HTML views) a build writes into the exports directory."""

    file: str
    about: str  #: what it holds, for people
    blocks: bool = False  #: made of paper blocks that a rebuild may copy (`kg.builder.blocks`)


#: the exports, in the order they are written: kg.nt, then the syntaxes converted from it
EXPORTS: tuple[Export, ...] = (
    *(Export(s.file, s.label, blocks=True) for s in (N_TRIPLES, *CONVERTED)),
    Export("void.ttl", "VoID description of the graph"),
    Export("extractions.jsonl", "one extraction record per abstract", blocks=True),
    Export("kg.graphml", "the NetworkX graph as GraphML"),
)
#: the exports made of paper blocks
BLOCK_FILES = tuple(e.file for e in EXPORTS if e.blocks)
VOID, EXTRACTIONS, GRAPHML = "void.ttl", "extractions.jsonl", "kg.graphml"
