"""Typed relations between an abstract's entities: the relation rules, and the relation
model that reads a pair of entities with the rules' verdict and the words around them.

Pairs considered: every entity the paper proposes with every other entity, and every
named system (method or model) with every dataset or benchmark and every other model:
studies that propose nothing still state that GPT-4 was evaluated on MMLU.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from spacy.tokens import Doc

from kg.extract.classifier import LinearModel
from kg.extract.cues import load_cues
from kg.extract.found import Found
from kg.extract.proposals import is_component_sentence, prior_work_cues, proposal_verbs_of
from kg.extract.sentences import sentence_bounds
from kg.extract.texts import lowers
from kg.model import EntityType, RelationType

_RESOURCE = (EntityType.BENCHMARK, EntityType.DATASET)
_SYSTEMS = (EntityType.METHOD, EntityType.MODEL)
_VERSUS = load_cues().versus_words  # kg/data/cues.json
_TRAINING = load_cues().training_words  # kg/data/cues.json
#: words that may stand between "on" and a resource of the list it opens ("on the two
#: popular benchmarks MNIST and ImageNet")
_CHAIN = frozenset(
    {"the", "a", "an", "both", "and", "or", ",", "(", ")", "e.g.", "including", "such", "as"}
    | {"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "several"}
    | {"various", "multiple", "standard", "popular", "public", "challenging", "diverse"}
    | {"widely", "used", "well-known", "real-world"}
    | {"benchmark", "benchmarks", "dataset", "datasets"}
)
_ON = frozenset({"on", "across"})
#: the most tokens between a system and a resource it is said to run on
_CHAIN_REACH = 30
#: what stands before a noun by which an abstract names its own system ("our framework")
_SELF_DETERMINERS = frozenset({"our", "the", "this", "proposed"})

Triple = tuple[str, RelationType, str]


def find_relations(doc: Doc, found: list[Found], proposed: list[str]) -> dict[Triple, int]:
    """(head key, relation, tail key) → sentence index, for every relation the rules read.

    The subject of every rule is the paper's main contribution: the first entity it
    proposes (a method or model if there is one).
    """
    if not proposed:
        return {}
    systems = proposed_systems(found, proposed)
    main = systems[0] if systems else proposed[0]
    out = _subject_rules(doc, found, proposed, main, None)
    # name-derived parts: V₁-Infer is part of V₁
    for key in proposed:
        if key != main and key.startswith(main):
            out.setdefault((key, RelationType.PART_OF, main), 0)
    return out


def proposed_systems(found: list[Found], proposed: list[str]) -> list[str]:
    """The methods and models the paper proposes, in the order proposed (the first is the
    paper's main system)."""
    types: dict[str, EntityType] = {}
    for f in found:
        types.setdefault(f.key, f.type)
    return [k for k in proposed if types.get(k) in _SYSTEMS]


def other_relations(doc: Doc, found: list[Found], proposed: list[str]) -> dict[Triple, int]:
    """The same rules with each other system the paper proposes as their subject, read only
    in the sentences that name it ("we also introduce BarNet, trained on FooSet")."""
    systems = proposed_systems(found, proposed)
    out: dict[Triple, int] = {}
    for key in systems[1:]:
        where = {f.sent for f in found if f.key == key}
        for triple, sentence in _subject_rules(doc, found, proposed, key, where).items():
            out.setdefault(triple, sentence)
    return out


def _subject_rules(
    doc: Doc, found: list[Found], proposed: list[str], main: str, where: set[int] | None
) -> dict[Triple, int]:
    """The rules' relations of `main` in the sentences `where` (every one when None); the
    parts of the main contribution only when `where` is None."""
    cues = load_cues()
    lower = lowers(doc)
    types = {f.key: f.type for f in found}
    # a paper that proposes only a dataset or benchmark: no "the dataset uses X"
    main_is_system = types.get(main) in _SYSTEMS
    out: dict[Triple, int] = {}

    # the evidence for a relation is best a sentence that names both ends
    named = {(f.key, f.sent) for f in found}

    def add(head: str, rel: RelationType, tail: str, sentence: int) -> None:
        if head == tail:
            return
        key = (head, rel, tail)
        if key not in out or ((head, out[key]) not in named and (head, sentence) in named):
            out[key] = sentence

    by_sentence: dict[int, list[Found]] = {}
    for f in found:
        by_sentence.setdefault(f.sent, []).append(f)
    gains = gain_points(doc)
    for index, (start, end) in enumerate(sentence_bounds(doc)):
        if where is not None and index not in where:
            continue
        in_sent = by_sentence.get(index, [])
        beaten: set[str] = set()
        strong = cues.strong_comparison_cues
        cue = next((i for i in range(start, end) if lower[i] in strong), None)
        points = [g for g in gains if start <= g < end]
        if (cue is not None or points) and main_is_system:
            for f in in_sent:
                if f.type not in _SYSTEMS or f.key in proposed:
                    continue
                # "outperforms A and B": every system after the verb; "an improvement over
                # A": the systems of the phrase after "over", not "… over X when used for Y"
                if (cue is not None and f.start > cue) or any(
                    _gained_over(lower, g, f.start) for g in points
                ):
                    add(main, RelationType.OUTPERFORMS, f.key, index)
                    beaten.add(f.key)
        for f in in_sent:
            if f.key == main or f.key in beaten:
                continue
            if f.key in proposed:
                if where is None and (
                    f.key.startswith(main)
                    or is_component_sentence(lower, start, end, cues.component_cues, main, in_sent)
                ):
                    add(f.key, RelationType.PART_OF, main, index)
                continue
            if not main_is_system:
                continue
            window = set(lower[max(start, f.start - 4) : f.start])
            if f.type in _RESOURCE:
                if window & _TRAINING:
                    add(main, RelationType.USES, f.key, index)
                else:
                    add(main, RelationType.EVALUATED_ON, f.key, index)
            elif f.type is EntityType.MODEL:
                add(main, RelationType.USES, f.key, index)
            elif f.type is EntityType.METHOD and window & cues.method_use_cues:
                add(main, RelationType.USES, f.key, index)
    return out


#: what stands between a gain word and what it is gained over
_OVER = frozenset({"over", "than", "upon"})
#: words that end the phrase after a gain's "over" ("over X when applied to Y")
_GAIN_PHRASE_ENDS = frozenset(
    {"for", "on", "in", "with", "to", "from", "when", "of", "by", "at", "while", "which", "that"}
    | {"."}
)
#: how far after a gain's "over" its phrase may name the system gained over
_GAIN_REACH = 10


def _gained_over(lower: list[str], point: int, start: int) -> bool:
    """Whether the name at token `start` is in the phrase that the gain's "over" at token
    `point` opens: "an improvement over the strong A and B", not "over 10%", not "over
    training steps for A"."""
    if not point < start <= point + _GAIN_REACH:
        return False
    return _GAIN_PHRASE_ENDS.isdisjoint(lower[point + 1 : start])


def gain_points(doc: Doc) -> frozenset[int]:
    """The token of every "over" of a gain: "a 29.7% relative improvement over", "2x faster
    than", "improves upon" (a gain word at most 3 tokens before it, in its sentence); found
    once per Doc."""
    found = doc.user_data.get(_GAIN_POINTS)
    if found is None:
        lower, gain = lowers(doc), load_cues().gain_words
        found = doc.user_data[_GAIN_POINTS] = frozenset(
            k
            for first, end in sentence_bounds(doc)
            for k in range(first, end)
            if lower[k] in _OVER
            and not gain.isdisjoint(lower[max(first, k - 3) : k])
            and not (k + 1 < end and lower[k + 1][:1].isdigit())  # "by over 10%": a size
        )
    return found


_GAIN_POINTS = "kg_gain_points"


#: beyond this many entities in one text, only entities named close together are paired
MAX_ALL_PAIRS = 80
#: how close, in tokens of one sentence, when pairs are limited
NEAR_TOKENS = 30


def candidate_pairs(found: list[Found], proposed: list[str]) -> Iterator[tuple[str, str]]:
    """The ordered (head, tail) pairs the relation model reads.

    In an abstract every pair of entities is read. A text with more than `MAX_ALL_PAIRS`
    entities (a whole file on one line, a list of thousands of names) would make their
    number quadratic, so there only entities named within `NEAR_TOKENS` tokens of each
    other in one sentence are paired: linear in the text's length.
    """
    types: dict[str, EntityType] = {}
    for f in found:
        types.setdefault(f.key, f.type)
    keys = [k for k in types if types[k] in (*_SYSTEMS, *_RESOURCE)]
    mine = set(proposed)
    if len(keys) > MAX_ALL_PAIRS:
        wanted = set(keys)
        pairs = _near_pairs([f for f in found if f.key in wanted])
    else:
        pairs = [(h, t) for h in keys for t in keys if h != t]
    for head, tail in pairs:
        if head in mine:
            yield head, tail
        elif types[head] in _SYSTEMS and (
            types[tail] in _RESOURCE
            or (types[tail] is EntityType.MODEL and types[head] is EntityType.MODEL)
        ):
            yield head, tail


def _near_pairs(found: list[Found]) -> list[tuple[str, str]]:
    """Ordered pairs of different entities named within `NEAR_TOKENS` in one sentence, in
    the order of their first such meeting."""
    ordered = sorted(found, key=lambda f: f.start)
    out: dict[tuple[str, str], None] = {}
    for i, f in enumerate(ordered):
        for g in ordered[i + 1 : i + 1 + NEAR_TOKENS]:
            if g.sent != f.sent or g.start - f.end > NEAR_TOKENS:
                break
            if g.key != f.key:
                out.setdefault((f.key, g.key), None)
                out.setdefault((g.key, f.key), None)
    return list(out)


def _confidence(p: float) -> str:
    """The entity model's confidence in a name's type, coarsely."""
    return "low" if p < 0.6 else "mid" if p < 0.8 else "high"


def _bucket(n: int) -> str:
    return "0" if n == 0 else "1" if n == 1 else "2-3" if n <= 3 else "4+"


@dataclass(frozen=True)
class Pairs:
    """What the features of every pair of one abstract share."""

    by_key: dict[str, list[Found]]  #: each entity's mentions, in order
    proposed: list[str]
    mine: frozenset[str]
    main: str | None  #: the first system the paper proposes
    ranked: dict[str, int]  #: each proposed entity's rank, most mentioned first
    rules: dict[Triple, int]
    others: dict[Triple, int]  #: the rules' relations of the other proposed systems
    first_proposal: int  #: the first sentence with a proposal verb (0 when none)
    spans: dict[int, Found] = field(default_factory=dict)  #: mention by its first token
    flags: dict[int, tuple[str, ...]] = field(default_factory=dict)  #: by sentence
    #: what the words before each entity's first mention say of it (computed once per key)
    prior: dict[str, list[str]] = field(default_factory=dict)
    #: whether each entity is named as a system under study (computed once per key)
    studied: dict[str, bool] = field(default_factory=dict)
    #: the features of the words around each tail's mentions (`_tail_words`, once per key)
    told: dict[str, frozenset[str]] = field(default_factory=dict)


def _pairs(doc: Doc, found: list[Found], proposed: list[str], rules: dict[Triple, int]) -> Pairs:
    by_key: dict[str, list[Found]] = {}
    for f in found:
        by_key.setdefault(f.key, []).append(f)
    systems = proposed_systems(found, proposed)
    ranked = {k: n for n, k in enumerate(sorted(proposed, key=lambda k: -len(by_key[k])))}
    others = other_relations(doc, found, proposed)
    first = next((n for n, v in enumerate(proposal_verbs_of(doc)) if v is not None), 0)
    main = systems[0] if systems else None
    spans = {f.start: f for f in found}
    return Pairs(by_key, proposed, frozenset(proposed), main, ranked, rules, others, first, spans)


def pair_features(doc: Doc, head: str, tail: str, shared: Pairs) -> list[str]:
    """The relation model's features of the ordered pair (head, tail)."""
    cues = load_cues()
    vocabulary = cues.relation_cues
    lower = lowers(doc)
    hs, ts = shared.by_key[head], shared.by_key[tail]
    proposed, rules, mine, ranked = shared.proposed, shared.rules, shared.mine, shared.ranked
    ht, tt = hs[0].type.value, ts[0].type.value
    pair = f"{ht}>{tt}"
    out = [f"h:{ht}", f"t:{tt}", f"ht:{pair}"]
    role = ("hp" if head in mine else "hn") + ("tp" if tail in mine else "tn")
    out += [f"role:{role}", f"role:{role}|{pair}"]
    if shared.main == head:
        out.append("main")
    if shared.main == tail:
        out.append("tail_main")
    if head in mine:
        out.append(f"h_rank:{min(ranked[head], 2)}")
    if tail in mine:
        out.append(f"t_rank:{min(ranked[tail], 2)}")
    out.append("h_more" if len(hs) > len(ts) else "h_less" if len(hs) < len(ts) else "h_same")
    out.append("h_first" if hs[0].start < ts[0].start else "t_first")
    if not proposed:
        out.append("nothing_proposed")
    elif shared.main is None:
        out.append(f"no_system|{role}|{pair}")  # a paper that proposes only a dataset
    if head in mine and head != shared.main and tail == shared.main:
        ways = {w for f in hs for w in _part_sentence(doc, f.sent, tail, shared)}
        out += sorted(f"part_sent:{w}" for w in ways)
    studied = shared.studied.get(head)
    if studied is None:
        bounds = sentence_bounds(doc)
        studied = shared.studied[head] = any(_studied(lower, f, bounds) for f in hs)
    if studied:
        out.append(f"h_studied|{role}")
    if ts[0].known:
        out.append("tail_known")
    prior = shared.prior.get(tail)
    if prior is None:
        prior = shared.prior[tail] = prior_work_cues(doc, ts[0])
    out += [f"t_{w}|{tt}" for w in prior]
    out.append(f"h_conf:{_confidence(hs[0].probability)}")
    out.append(f"t_conf:{_confidence(ts[0].probability)}")
    for rel in RelationType:
        if (head, rel, tail) in rules:
            out += [f"rule:{rel.value}", f"rule:{rel.value}|{tt}"]
        if (tail, rel, head) in rules:
            out.append(f"rule_back:{rel.value}")
        if (head, rel, tail) in shared.others:
            out += [f"rule2:{rel.value}", f"rule2:{rel.value}|{tt}"]
    head_sents = {f.sent for f in hs}
    tail_sents = {f.sent for f in ts}
    both = head_sents & tail_sents
    out.append(f"together:{_bucket(len(both))}")
    out.append(f"tail_n:{_bucket(len(ts))}")
    first_head = min(head_sents)
    if max(tail_sents) < first_head:
        out.append("tail_before_head")
    if max(tail_sents) < shared.first_proposal:
        out.append(f"t_background|{tt}")  # named only before the paper says what it proposes
    if tail.startswith(head) or head.startswith(tail):
        out.append("prefix")
    told = shared.told.get(tail)
    if told is None:
        told = shared.told[tail] = _tail_words(doc, ts, tt)
    seen: set[str] = set(told)
    for f in hs:
        for g in ts:
            if f.sent != g.sent:
                continue
            a, b = sorted((f.end, g.start)) if f.start < g.start else sorted((g.end, f.start))
            if f.start < g.start and not cues.strong_comparison_cues.isdisjoint(lower[a:b]):
                seen.add("h_compared_to_t")  # "FooNet ... outperforms ... GRPO"
            if (
                f.start < g.start
                and g.type in _RESOURCE
                and _evaluated_chain(lower, f, g, shared.spans)
            ):
                seen.add("on_chain")
                seen.add(f"on_chain|{role}")
            if b - a <= 12:
                order = "ht" if f.start < g.start else "th"
                seen.add(f"near:{order}")
                for w in lower[a:b]:
                    if w in vocabulary:
                        seen.add(f"b:{w}")
                        seen.add(f"b:{w}|{tt}")
    for n in tail_sents:
        seen.update(_sentence_flags(doc, n, shared.flags))
    out += sorted(seen)
    return out


def _tail_words(doc: Doc, ts: list[Found], tt: str) -> frozenset[str]:
    """The features of the words around the tail's mentions (of type `tt`), whatever the
    head: cue words before and after it, a comparison or a gain before it."""
    cues = load_cues()
    vocabulary = cues.relation_cues
    lower = lowers(doc)
    bounds = sentence_bounds(doc)
    seen: set[str] = set()
    for f in ts:
        a, b = f.start, f.end
        start = max(0, a - 5)
        for w in lower[start:a]:
            if w in vocabulary:
                seen.add(f"c:{w}")
                seen.add(f"c:{w}|{tt}")
        first = bounds[f.sent][0]
        for w in lower[max(first, a - 12) : max(first, start)]:
            if w in vocabulary:
                seen.add(f"far:{w}|{tt}")
        before = set(lower[max(first, a - 10) : a])
        if before & cues.strong_comparison_cues:
            seen.add("t_compared")  # "surpasses several systems, including LLaMA-2-Chat"
        if before & _VERSUS:
            seen.add("t_versus")
        if not gain_points(doc).isdisjoint(range(max(first, a - 10), a)):
            seen.add("t_gain_over")  # "a 29.7% relative improvement over SimCLR"
        for w in lower[b : b + 3]:
            if w in vocabulary:
                seen.add(f"a:{w}")
    return frozenset(seen)


def _studied(lower: list[str], f: Found, bounds: list[tuple[int, int]]) -> bool:
    """A system named after "we evaluate / analyze / compare" in its sentence."""
    verbs = load_cues().study_verbs
    return not verbs.isdisjoint(lower[max(bounds[f.sent][0], f.start - 12) : f.start])


def _part_sentence(doc: Doc, n: int, main: str, shared: Pairs) -> list[str]:
    """How sentence `n` speaks of the parts of `main`: with a part word, and naming `main`
    or referring back to it ("our framework", "it", "the algorithm, which")."""
    cues = load_cues()
    a, b = sentence_bounds(doc)[n]
    lower = lowers(doc)
    words = lower[a:b]
    if cues.component_cues.isdisjoint(words) and cues.part_words.isdisjoint(words):
        return []
    out = ["cue"]
    if any(f.sent == n for f in shared.by_key[main]):
        out.append("named")
    if (words and words[0] in {"it", "its"}) or "which" in words:
        out.append("anaphor")
    for k in range(a, b - 1):
        if lower[k] in _SELF_DETERMINERS and (
            lower[k + 1] in cues.self_nouns or (k + 2 < b and lower[k + 2] in cues.self_nouns)
        ):
            out.append("self")
            break
    return out


def _evaluated_chain(lower: list[str], head: Found, tail: Found, spans: dict[int, Found]) -> bool:
    """ "ResNets on MNIST, CIFAR10 and ImageNet": the head, then "on" (or "across") with no
    other "on" before it, then the tail within the list that word opens."""
    if tail.start - head.end > _CHAIN_REACH:
        return False
    place = next((k for k in range(head.end, tail.start) if lower[k] in _ON), None)
    if place is None:
        return False
    k = place + 1
    while k < tail.start:
        other = spans.get(k)
        if other is not None:
            if other.type not in _RESOURCE:
                return False
            k = other.end
            continue
        if lower[k] not in _CHAIN:
            return False
        k += 1
    return True


def _sentence_flags(doc: Doc, n: int, known: dict[int, tuple[str, ...]]) -> tuple[str, ...]:
    """What sentence `n` says of the relations in it (computed once per sentence)."""
    flags = known.get(n)
    if flags is None:
        cues = load_cues()
        a, b = sentence_bounds(doc)[n]
        words = set(lowers(doc)[a:b])
        flags = tuple(
            flag
            for flag, vocabulary in (
                ("s:compare", cues.strong_comparison_cues),
                ("s:component", cues.component_cues),
                ("s:train", _TRAINING),
                ("s:eval", cues.eval_words),
            )
            if not words.isdisjoint(vocabulary)
        )
        known[n] = flags
    return flags


def decide_relations(
    doc: Doc, found: list[Found], proposed: list[str], model: LinearModel | None
) -> tuple[dict[Triple, int], dict[tuple[str, str], list[str]]]:
    """The relations (→ the sentence that states them) and every pair's features."""
    rules = find_relations(doc, found, proposed)
    pairs = list(candidate_pairs(found, proposed))
    shared = _pairs(doc, found, proposed, rules)
    features = {p: pair_features(doc, *p, shared) for p in pairs}
    if model is None:
        return rules, features
    # one relation per pair of entities: the likelier direction and label
    best: dict[frozenset[str], tuple[float, str, str, str]] = {}
    for head, tail in pairs:
        label, p = model.predict(features[(head, tail)])
        if label == "O":
            continue
        key = frozenset((head, tail))
        if key not in best or p > best[key][0]:
            best[key] = (p, head, label, tail)
    out: dict[Triple, int] = {}
    for _, head, label, tail in sorted(best.values(), key=lambda b: (b[1], b[3])):
        rel = RelationType(label)
        out[(head, rel, tail)] = rules.get((head, rel, tail), _evidence(found, head, tail))
    return out, features


def _evidence(found: list[Found], head: str, tail: str) -> int:
    """The sentence that best states a relation: the first that names both, else the
    tail's first."""
    heads = {f.sent for f in found if f.key == head}
    tails = [f.sent for f in found if f.key == tail]
    return next((s for s in tails if s in heads), tails[0])
