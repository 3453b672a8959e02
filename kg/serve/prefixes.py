"""The prefixes `kg query` declares (kg, entity, paper, skos, dcterms, ...), declared for a
query or update sent to `kg serve` too: Oxigraph's server declares none, so a query copied
from `kg query` failed there with a parser's error ("Prefix not found")."""

from __future__ import annotations

import re

from kg.namespaces import PREFIXES

#: a prefix the text declares itself ("PREFIX kg: <...>"), which is left as it is
_DECLARED = re.compile(r"(?i)\bPREFIX\s+([A-Za-z][\w.-]*)?\s*:")
#: a prefixed name of one of kg's prefixes ("kg:Paper", "entity:math500"), not the scheme
#: or host of an IRI ("<https://schema.org/>")
_USED = {prefix: re.compile(rf"(?<![\w.:/<-]){re.escape(prefix)}:(?!//)") for prefix in PREFIXES}


def declare_prefixes(text: str) -> str:
    """`text` with a declaration of each of kg's prefixes it uses and does not declare, put
    before it on its first line (the lines of a parser's error stay where they were); the
    text as it is where there is none to declare."""
    declared = {m.group(1) or "" for m in _DECLARED.finditer(text)}
    missing = [
        f"PREFIX {prefix}: <{iri}> "
        for prefix, iri in PREFIXES.items()
        if prefix not in declared and _USED[prefix].search(text)
    ]
    return "".join(missing) + text if missing else text
