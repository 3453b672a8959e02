"""The prefixes `kg query` declares (kg, entity, paper, skos, dcterms, ...), declared for a
query or update sent to `kg serve` too: Oxigraph's server declares none, so a query copied
from `kg query` failed there with a parser's error ("Prefix not found")."""

from __future__ import annotations

import re

from kg.namespaces import PREFIXES

#: a prefix the text declares ("PREFIX kg: <...>"); no space may come between a prefix's
#: name and its colon, and none is looked for (a run of spaces after "PREFIX" would make the
#: search quadratic: one request, a comment of spaces, held the server for minutes)
_DECLARED = re.compile(r"(?i)\bPREFIX\s+([A-Za-z][\w.-]*)?:")
#: a prefixed name of one of kg's prefixes ("kg:Paper", "kg:resultOf/skos:prefLabel"), not
#: the scheme or host of an IRI ("<https://schema.org/>")
_USED = {prefix: re.compile(rf"(?<![\w.:<-]){re.escape(prefix)}:(?!//)") for prefix in PREFIXES}


def declare_prefixes(text: str) -> str:
    """`text` with a declaration of each of kg's prefixes it uses before declaring it (an
    update may declare one in a later operation), put before it on its first line (the
    lines of a parser's error stay where they were); the text as it is where there is none
    to declare."""
    declared: dict[str, int] = {}
    for match in _DECLARED.finditer(text):
        declared.setdefault(match.group(1) or "", match.start())
    missing = []
    for prefix, iri in PREFIXES.items():
        used = _USED[prefix].search(text)
        if used is not None and used.start() < declared.get(prefix, len(text)):
            missing.append(f"PREFIX {prefix}: <{iri}> ")
    return "".join(missing) + text if missing else text
