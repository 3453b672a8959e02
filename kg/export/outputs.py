"""What a build writes, declared once: each RDF syntax and each export.

Every list of them is derived from here: the build's conversions (`kg.builder.pipeline`),
the files made of paper blocks (`kg.builder.blocks`), the converter's output format
(`kg.export.convert`), which file a query reads and how it parses it (`kg.query.load`), and
the `--rdf` choices and which of the graph's copies a build writes (`selected`).

A new RDF syntax is one `RdfSyntax` in `RDF_SYNTAXES`: Oxigraph converts kg.nt into it (with
a framing `kg.export.convert` knows: "statements" or "graph"). A new export is one `Export`
in `EXPORTS` and the step of `kg.builder.pipeline` that writes it.

This module imports nothing (the converter's child process need not load kg).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePath


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
    #: syntax kg writes itself (`kg.rdf.block_ntriples`, block by block)
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
    #: its name in `--rdf` when it is one more copy of the graph, which a build may leave
    #: out (`selected`); "" when every build writes it
    choice: str = ""


#: the exports, in the order they are written: kg.nt, then the syntaxes converted from it
EXPORTS: tuple[Export, ...] = (
    *(Export(s.file, s.label, blocks=True, choice=s.name) for s in (N_TRIPLES, *CONVERTED)),
    Export("void.ttl", "VoID description of the graph"),
    Export("extractions.jsonl", "one extraction record per abstract", blocks=True),
    Export("kg.graphml", "the NetworkX graph as GraphML", choice="graphml"),
)
#: the exports made of paper blocks
BLOCK_FILES = tuple(e.file for e in EXPORTS if e.blocks)
VOID, EXTRACTIONS, GRAPHML = "void.ttl", "extractions.jsonl", "kg.graphml"

#: the copies of the graph `--rdf` chooses among (the RDF syntaxes and GraphML), by name
COPIES: dict[str, Export] = {e.choice: e for e in EXPORTS if e.choice}
#: their files
COPIES_FILES = tuple(e.file for e in COPIES.values())
#: what `--rdf auto` writes of a large graph: Turtle alone, the syntax a query reads first
#: and the most compact that every RDF tool reads (ICML 2024: 13.6 MB, where kg.nt is 37.5)
LEAN = (RDF_SYNTAXES[0].name,)
#: `--rdf`: "auto" (every copy of a small graph, `LEAN` of a large one), "all", or a comma
#: list of `COPIES`
RDF_CHOICES = ("auto", "all", *COPIES)


def parse_choice(spec: str) -> tuple[str, ...]:
    """The names `--rdf spec` stands for: "auto" or "all" alone, else a comma list of
    `COPIES` naming at least one RDF syntax (queries, `kg serve` and `kg validate` read one).

    Raises:
        ValueError: with the reason, naming the choices.
    """
    names = tuple(dict.fromkeys(n.strip().lower() for n in spec.split(",") if n.strip()))
    if len(names) == 1 and names[0] in RDF_CHOICES[:2]:
        return names
    unknown = [n for n in names if n not in COPIES]
    if unknown or not names:
        what = f"unknown {listed(unknown)}" if unknown else "nothing named"
        raise ValueError(f"{what}: choose auto, all, or a comma list of {listed([*COPIES])}")
    if not any(n in {s.name for s in RDF_SYNTAXES} for n in names):
        syntaxes = listed([s.name for s in RDF_SYNTAXES], "or")
        raise ValueError(f"names no RDF syntax: add {syntaxes} (queries read one)")
    return names


def selected(spec: str, small: bool) -> frozenset[str]:
    """The files of `COPIES` that `--rdf spec` writes, for a graph `small` or not.

    Raises:
        ValueError: `spec` is not a choice (`parse_choice`).
    """
    names = parse_choice(spec)
    if names == ("auto",):
        names = tuple(COPIES) if small else LEAN
    elif names == ("all",):
        names = tuple(COPIES)
    return frozenset(COPIES[n].file for n in names)


def graph_in(folder: Path, first: RdfSyntax | None = None) -> Path | None:
    """The graph an exports directory holds, in the syntax `first` when it is there, else
    in the first of `RDF_SYNTAXES` there is; None when it holds none."""
    order = [first] if first is not None else []
    return next((p for s in [*order, *RDF_SYNTAXES] if (p := folder / s.file).is_file()), None)
