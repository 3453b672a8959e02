"""Linking: one `Entity` per real-world thing across papers, and every merge explained.

Two names are one entity when they fold alike (MATH-500 = MATH500), when one is an acronym
the other expands in some abstract (ReaTTS = Reflective Entropy-Aware Test-Time Scaling),
or when both are labels of one lexicon concept. Folding keeps digits and suffixes, so
MATH ≠ MATH500 and Qwen3 ≠ Qwen3-VL.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from kg.extract.families import model_family
from kg.lexicon import Concept, default_lexicon
from kg.metrics import metric_name
from kg.model import (
    Assertion,
    Entity,
    EntityRef,
    EntityType,
    ExtractedEntity,
    Extraction,
    KnowledgeGraph,
    LinkedResult,
    RelationType,
)
from kg.names import entity_key, fold


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _assertion_order(a: Assertion) -> tuple:
    """Assertions by paper, head, relation, tail and then sentence: a paper may state one
    relation in two sentences, and a set's order differs with the hash seed."""
    return (a.paper, a.head, a.relation, a.tail, a.sentence.start, a.sentence.end)


def link(
    extractions: Iterable[Extraction], lexicon: tuple[Concept, ...] | None = None
) -> KnowledgeGraph:
    """Merge the entities of all extractions into graph nodes and relations into assertions.

    Args:
        extractions: per-paper extraction records.
        lexicon: known concepts (default: the bundled lexicon); a name that folds to one of
            their labels takes that concept's identity.

    Returns:
        A `KnowledgeGraph` with papers, entities, assertions and results sorted by key.
    """
    return Linker(lexicon).link(extractions)


class Linker:
    """`link` in two steps: `ahead` makes the entities of the extractions at hand, and
    `link` makes again only those of the groups that the other extractions join. A rebuild
    links its cached extractions while its worker starts spaCy for the few it must extract
    (`kg.builder.engines.run_extraction`'s `meanwhile`). The graph is the one `link` makes
    of all of them at once (tested): an entity depends on its group's members, not on their
    order, and a group no later extraction joins keeps its members. Each step runs once;
    where the extractions linked ahead are not each once among those `link` is given, it
    links them all afresh."""

    def __init__(self, lexicon: tuple[Concept, ...] | None = None) -> None:
        self._lexicon = lexicon
        self._names = _Names(lexicon if lexicon is not None else default_lexicon())
        self._uf = _UnionFind()
        self._reasons: dict[str, set[str]] = defaultdict(set)
        #: the extractions linked ahead (kept, so that their ids stay theirs)
        self._ahead: list[Extraction] | None = None
        self._made: dict[str, Entity] = {}  #: the entities made ahead, by their group's root
        self._linked = False

    def _keys_of(self) -> dict[str, set[str]]:
        """The keys of each group, by its root."""
        keys_of: dict[str, set[str]] = defaultdict(set)
        for k in list(self._uf.parent):
            keys_of[self._uf.find(k)].add(k)
        return keys_of

    def ahead(self, extractions: Sequence[Extraction]) -> None:
        """Group `extractions` and make the entity of every group they form (once, before
        `link`)."""
        if self._ahead is not None or self._linked:
            raise RuntimeError("a Linker links ahead once, before it links")
        self._ahead = list(extractions)
        _group(self._ahead, self._names, self._uf, self._reasons)
        members, _ = _members(self._ahead, self._uf, self._names)
        keys_of = self._keys_of()
        self._made = {
            root: _entity(items, keys_of[root], self._names.concepts, self._reasons)
            for root, items in members.items()
        }

    def link(self, extractions: Iterable[Extraction]) -> KnowledgeGraph:
        """The graph of `extractions`, which hold those linked ahead (once each), or it is
        linked afresh (once)."""
        if self._linked:
            raise RuntimeError("a Linker links once")
        self._linked = True
        extractions = list(extractions)
        ahead = {id(ex) for ex in self._ahead or ()}
        if ahead:
            given = [id(ex) for ex in extractions]
            if len(set(given)) != len(given) or not ahead <= set(given):
                return Linker(self._lexicon).link(extractions)
        later = [ex for ex in extractions if id(ex) not in ahead]
        _group(later, self._names, self._uf, self._reasons)
        # the groups a later extraction joins: the roots its names and aliases lead to now
        joined = {
            self._uf.find(k)
            for ex in later
            for e in ex.entities
            for k in (self._names.of(e), *map(self._names.key, e.aliases))
        }
        members, local = _members(extractions, self._uf, self._names)
        keys_of = self._keys_of()
        final_key: dict[str, str] = {}
        entities: list[Entity] = []
        for root, items in members.items():
            entity = self._made.get(root) if root not in joined else None
            if entity is None:
                entity = _entity(items, keys_of[root], self._names.concepts, self._reasons)
            final_key[root] = entity.key
            entities.append(entity)
        assertions, results = _statements(extractions, final_key, local)
        return KnowledgeGraph(
            papers=tuple(sorted((ex.paper for ex in extractions), key=lambda p: p.id)),
            entities=tuple(sorted(entities, key=lambda e: e.key)),
            assertions=tuple(sorted(assertions, key=_assertion_order)),
            results=tuple(sorted(results, key=lambda r: (r.paper, r.sentence.start, r.text))),
            extractions=tuple(extractions),
            links=tuple(
                sorted((pid, name, final_key[root]) for (pid, name), root in local.items())
            ),
        )


class _Names:
    """The key a name links under: its lexicon concept's, or its own folded key."""

    def __init__(self, lexicon: Iterable[Concept]) -> None:
        self.concepts = {c.key: c for c in lexicon}
        self._label_to_concept = {
            fold(label): c.key for c in self.concepts.values() for label in c.labels
        }
        self._keys: dict[str, str] = {}  # a name recurs across papers ("GPT-4": thousands)

    def key(self, name: str) -> str:
        """The key of `name`."""
        found = self._keys.get(name)
        if found is None:
            found = self._keys[name] = self._label_to_concept.get(fold(name)) or entity_key(name)
        return found

    def of(self, e: ExtractedEntity) -> str:
        """The key of an extracted entity: its concept's, or its name's."""
        return e.concept or self.key(e.name)


def _group(
    extractions: list[Extraction],
    names: _Names,
    uf: _UnionFind,
    reasons: dict[str, set[str]],
) -> None:
    """Join every entity's key with its aliases' keys (in `uf`), noting why (`reasons`)."""
    for ex in extractions:
        for e in ex.entities:
            k = names.of(e)
            uf.find(k)
            for alias in e.aliases:
                ak = names.key(alias)
                if ak != k:
                    uf.union(k, ak)
                    reasons[k].add(f"{alias!r} is an alias of {e.name!r} in paper {ex.paper.id}")


_Members = dict[str, list[tuple[str, ExtractedEntity]]]


def _members(
    extractions: list[Extraction], uf: _UnionFind, names: _Names
) -> tuple[_Members, dict[tuple[str, str], str]]:
    """The (paper, entity) pairs of each group, and the group of each (paper, name)."""
    members: _Members = defaultdict(list)
    local: dict[tuple[str, str], str] = {}  # (paper, name in paper) -> group root
    for ex in extractions:
        for e in ex.entities:
            root = uf.find(names.of(e))
            members[root].append((ex.paper.id, e))
            for n in (e.name, *e.aliases):
                local[(ex.paper.id, n)] = root
    return members, local


def _entity(
    items: list[tuple[str, ExtractedEntity]],
    keys: set[str],
    concepts: dict[str, Concept],
    reasons: dict[str, set[str]],
) -> Entity:
    """The entity of one group: the lexicon's name and type, or the most common ones."""
    concept = next((concepts[k] for k in sorted(keys) if k in concepts), None)
    names = Counter(e.name for _, e in items)
    if concept is not None:
        name, key = concept.label, concept.key
    else:
        name = sorted(names, key=lambda n: (-names[n], -len(n), n))[0]
        key = entity_key(name)
    votes = Counter(e.type.value for _, e in items)
    etype = (
        concept.type
        if concept is not None
        else EntityType(sorted(votes, key=lambda t: (-votes[t], t))[0])
    )
    aliases = sorted({n for _, e in items for n in (e.name, *e.aliases)} - {name})
    broader = (
        concept.broader
        if concept is not None
        else (model_family(name) if etype is EntityType.MODEL else None)
    )
    refs = sorted(
        (EntityRef(pid, m) for pid, e in items for m in e.mentions),
        key=lambda r: (r.paper, r.mention.start),
    )
    return Entity(
        key=key,
        name=name,
        type=etype,
        aliases=tuple(aliases),
        papers=tuple(sorted({pid for pid, _ in items})),
        mentions=tuple(refs),
        concept=concept.key if concept else None,
        broader=broader,
        type_votes=tuple(sorted(votes.items())),
        merge_reasons=tuple(_why(name, aliases, concept, keys, reasons)),
    )


def _why(
    name: str,
    aliases: list[str],
    concept: Concept | None,
    keys: set[str],
    reasons: dict[str, set[str]],
) -> list[str]:
    """Why the names of one entity were merged, sorted; its lexicon concept last."""
    notes: set[str] = set().union(*(reasons.get(k, set()) for k in keys))
    for alias in aliases:
        if fold(alias) == fold(name):
            notes.add(
                f"{alias!r} and {name!r} fold alike (case, spaces, hyphens, dots and "
                "apostrophes aside)"
            )
        elif concept is not None and alias in concept.alt_labels:
            notes.add(f"{alias!r} is a lexicon name of {concept.label!r}")
    why = sorted(notes)
    if concept is not None:
        why.append(f"lexicon concept {concept.key} ({concept.label})")
    return why


def _statements(
    extractions: list[Extraction],
    final_key: dict[str, str],
    local: dict[tuple[str, str], str],
) -> tuple[set[Assertion], list[LinkedResult]]:
    """Each paper's relations and results, their names resolved to entity keys."""
    assertions: set[Assertion] = set()
    results: list[LinkedResult] = []
    for ex in extractions:
        pid = ex.paper.id

        def resolve(name: str, pid: str = pid) -> str:
            return final_key[local[(pid, name)]]

        for r in ex.relations:
            head = pid if r.relation is RelationType.PROPOSES else resolve(r.head)
            assertions.add(
                Assertion(head, r.relation, resolve(r.tail), pid, ex.sentences[r.sentence])
            )
        for res in ex.results:
            results.append(
                LinkedResult(
                    paper=pid,
                    subject=resolve(res.subject) if res.subject else None,
                    metric=metric_name(res.metric),
                    value=res.value,
                    unit=res.unit,
                    benchmark=resolve(res.benchmark) if res.benchmark else None,
                    sentence=ex.sentences[res.sentence],
                    text=res.text,
                )
            )
    return assertions, results
