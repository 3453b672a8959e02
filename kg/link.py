"""Linking: one `Entity` per real-world thing across papers, and every merge explained.

Two names are one entity when they fold alike (MATH-500 = MATH500), when one is an acronym
the other expands in some abstract (ReaTTS = Reflective Entropy-Aware Test-Time Scaling),
or when both are labels of one lexicon concept. Folding keeps digits and suffixes, so
MATH ≠ MATH500 and Qwen3 ≠ Qwen3-VL.

An acronym means one thing across papers: the expansion most abstracts give it (DST is
dialogue state tracking, read in 13 abstracts, not Dynamic Sparse Training, read in 6;
singular and plural are one expansion). An abstract that expands it otherwise keeps its
own entity, under which its acronym stays. An acronym that is a lexicon name (SGD) means
what the lexicon says: "Schema-Guided Dialogue (SGD)" is no name of the optimiser.
"""

from __future__ import annotations

import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from urllib.parse import unquote

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
        #: who gives each alias, and which of them it joins (`_Aliases.joins`), ahead
        self._aliases = _Aliases()
        self._joins: dict[str, frozenset[str]] = {}
        self._givers: dict[str, frozenset[str]] = {}  #: who gave each alias, ahead

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
        self._aliases.add(self._ahead, self._names)
        self._joins = self._aliases.joins(self._names.concepts)
        self._givers = {ak: frozenset(keys) for ak, keys in self._aliases.given.items()}
        _group(self._ahead, self._names, self._uf, self._reasons, self._joins)
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
        self._aliases.add(later, self._names)
        joins = self._aliases.joins(self._names.concepts)
        if any(joins[alias] & self._givers[alias] != keys for alias, keys in self._joins.items()):
            # an alias now joins other names of the extractions linked ahead than it did (an
            # acronym means another thing): their groups are made anew
            return Linker(self._lexicon).link(extractions)
        _group(later, self._names, self._uf, self._reasons, joins)
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


class _Aliases:
    """Who gives each alias: by the alias's key, how many entities of each key name it;
    the names of each key that give an alias; and how many entities each key has."""

    def __init__(self) -> None:
        self.given: dict[str, Counter[str]] = defaultdict(Counter)
        self.named: dict[str, set[str]] = defaultdict(set)
        self.seen: Counter[str] = Counter()  #: entities of each key, with an alias or not

    def add(self, extractions: Iterable[Extraction], names: _Names) -> None:
        for ex in extractions:
            for e in ex.entities:
                k = names.of(e)
                self.seen[k] += 1
                for alias in e.aliases:
                    ak = names.key(alias)
                    if ak != k:
                        self.given[ak][k] += 1
                        self.named[k].add(e.name)

    def joins(self, concepts: Mapping[str, Concept]) -> dict[str, frozenset[str]]:
        """The keys each alias joins. A lexicon name whose concept has long names (of two
        words or more) joins the expansions alike one of them ("Generative Adversarial
        Nets (GAN)"; not "Schema-Guided Dialogue (SGD)"); one the lexicon knows by short
        names alone joins, of the expansions whose initials spell it (CLIP), the one most
        entities give it. Any other alias joins the expansion the most entities give it,
        its singular and plural counted as one (ties: the one with the most entities, with
        the alias or without, then the first by key), and the expansions alike it."""
        out: dict[str, frozenset[str]] = {}
        for ak, givers in self.given.items():
            concept = concepts.get(ak)
            keys = sorted(givers)
            if concept is not None:
                long = [_words(label) for label in concept.labels if len(label.split()) > 1]
                if long:
                    out[ak] = frozenset(
                        k
                        for k in keys
                        if any(_alike(_words(n), w) for n in self.named[k] for w in long)
                    )
                    continue
                keys = [k for k in keys if any(_spells(n, ak) for n in self.named[k])]
            out[ak] = self._voted(keys, givers)
        return out

    def _voted(self, keys: list[str], givers: Counter[str]) -> frozenset[str]:
        """Of `keys`, the expansion most entities give (`joins`) and those alike it."""
        if not keys:
            return frozenset()
        votes: Counter[str] = Counter()
        seen: Counter[str] = Counter()
        for k in keys:
            votes[_singular(k)] += givers[k]
            seen[_singular(k)] += self.seen[k]
        best = min(votes, key=lambda form: (-votes[form], -seen[form], form))
        words = [_words(n) for k in keys if _singular(k) == best for n in self.named[k]]
        return frozenset(
            k
            for k in keys
            if _singular(k) == best
            or any(_alike(_words(n), w) for n in self.named[k] for w in words)
        )


def _singular(word: str) -> str:
    """A key or word without its plural's ending: "graphs" is "graph", "processes"
    "process", "gaussianprocess" itself."""
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


@lru_cache(maxsize=65536)
def _words(name: str) -> frozenset[str]:
    """The words of a name, folded and singular ("Principal Components Analysis": principal,
    component, analysis)."""
    return frozenset(_singular(w) for w in _WORD.findall(name.casefold()))


_WORD = re.compile(r"[^\W_]+")


def _spells(name: str, acronym: str) -> bool:
    """Whether the initials of a name's words spell an acronym (the letters and digits of
    its key, a plural's "s" aside): each word's first letter, a number whole, the first
    letters of the parts of a hyphenated word or a small word as the acronym has them or
    not ("Contrastive Language-Image Pre-training" spells CLIP, "Grade School Math 8K"
    GSM8K, "Bidirectional Encoder Representations from Transformers" BERT)."""
    spelled = "".join(c for c in unquote(acronym) if c.isalnum())
    parts = []
    for word in name.casefold().split():
        first, *rest = _WORD.findall(word) or [""]
        if not first:
            continue
        head = re.escape(first if first[0].isdigit() else first[0])
        pattern = head + "".join(f"(?:{re.escape(r[0])})?" for r in rest)
        parts.append(f"(?:{pattern})?" if first in _SMALL_WORDS and not rest else pattern)
    return (
        bool(spelled) and bool(parts) and re.fullmatch("".join(parts) + "s?", spelled) is not None
    )


_SMALL_WORDS = frozenset({"a", "an", "and", "by", "for", "from", "in", "of", "on", "the", "to"})


def _alike(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two expansions of two words or more are one, give or take words at either
    end: each word of one is a word of the other, or its stem ("Nets" and "Network",
    "estimator" and "estimation", "Convolution" and "Convolutional")."""
    if len(a) < 2 or len(b) < 2:
        return False
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    return all(any(_same_word(w, v) for v in large) for w in small)


def _same_word(a: str, b: str) -> bool:
    """One word, or two of one stem: one begins the other (three letters or more), or they
    share all but their last three letters (five or more)."""
    if a == b:
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) >= 3 and long.startswith(short):
        return True
    common = len(os.path.commonprefix([a, b]))
    return common >= 5 and common >= len(short) - 3


def _group(
    extractions: list[Extraction],
    names: _Names,
    uf: _UnionFind,
    reasons: dict[str, set[str]],
    joins: Mapping[str, frozenset[str]],
) -> None:
    """Join every entity's key with the keys of the aliases that join it (`joins`: see
    `_Aliases.joins`) in `uf`, noting why (`reasons`)."""
    for ex in extractions:
        for e in ex.entities:
            k = names.of(e)
            uf.find(k)
            for alias in e.aliases:
                ak = names.key(alias)
                if ak != k and k in joins.get(ak, ()):
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
