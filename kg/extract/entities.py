"""From candidates to typed entities: group the spans of one name, describe each group by
features, let the entity model decide, and keep the best non-overlapping spans.

A group is every candidate span of one name in an abstract, an acronym and its long form
together. Its features say how it was found (SHAPE, TITLE, LEX, ...), what the typing rules
make of it (`typing_rules.decide_type`), its shape, and the words around its mentions.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from spacy.tokens import Doc, Span

from kg.extract.candidates import Abbreviation, Candidate
from kg.extract.classifier import LinearModel
from kg.extract.cues import load_cues
from kg.extract.sentences import sentence_bounds, sentence_of
from kg.extract.shapes import is_size
from kg.extract.texts import lowers, span_text
from kg.extract.texts import urls as doc_urls
from kg.extract.texts import words as token_texts
from kg.extract.typing_rules import decide_type, family_suffix, lexicon_variant, model_family
from kg.extract.wordclass import (
    CMP,
    CUE_CHARS,
    EX,
    HEAD_TYPES,
    VS,
    WordClasses,
    word_classes,
)
from kg.model import EntityType
from kg.names import fold

CORE = (EntityType.METHOD, EntityType.MODEL, EntityType.DATASET, EntityType.BENCHMARK)
_DATA_SIZE = re.compile(r"\d(\.\d+)?[kKM]$")
_DIGIT = re.compile(r"\d")
_UPPERS = re.compile(r"[A-Z]+")  # for ASCII names
_LOWERS = re.compile(r"[a-z]+")
_DIGITS = re.compile(r"\d+")
_RUNS = re.compile(r"(.)\1+")
_PARTS = re.compile(r"[-_ ]")
_HYPHENS = re.compile(r"[-–]")
_INDEX = re.compile(r"[a-z]-\d+")
_PLURAL_ACRONYM = re.compile(r"[A-Z]{2,6}s")
_SEPARATORS = frozenset({",", "and", "or", "&", "/"})
_SHAPED = frozenset({"SHAPE", "WEAK", "LEX"})
_SHAPED_CONTEXT = frozenset(
    {
        "cmp_before",
        "versus_before",
        "example_of",
        "list",
        "proposal_sentence",
        "baseline_near",
        "first_in_proposal",
        "use:eval",
        "use:train",
        "use:train+eval",
    }
)


@dataclass
class Group:
    """The candidate spans of one name in one abstract."""

    key: str  #: the lexicon key, or the folded name (of the long form, for an acronym)
    spans: list[tuple[int, int]] = field(default_factory=list)
    labels: set[str] = field(default_factory=set)
    concept: str | None = None  #: lexicon concept key
    lexicon_type: EntityType | None = None
    names: dict[tuple[int, int], str] = field(default_factory=dict)  #: a span's own name
    long: tuple[int, int] | None = None  #: the long form, for an acronym pair
    short: bool = False

    def name_of(self, doc: Doc, span: tuple[int, int]) -> str:
        """The name a span stands for: its text, or the name a slash abbreviates."""
        return self.names.get(span) or span_text(doc, *span)

    def main(self) -> tuple[int, int]:
        """The span that names the group best: the long form, else its first span of the
        most frequent length (spans of one key differ in spelling, not in words, but for
        a lexicon name and its alternative labels)."""
        if len(self.spans) == 1:
            return self.spans[0]
        if self.long is not None and self.long in self.spans:
            return self.long
        lengths = Counter(s[1] - s[0] for s in self.spans)
        return min(self.spans, key=lambda s: (-lengths[s[1] - s[0]], -(s[1] - s[0]), s[0]))


def build_groups(
    doc: Doc, candidates: list[Candidate], pairs: list[Abbreviation], lexicon: list[Span]
) -> list[Group]:
    """Group candidate and lexicon spans by the name they stand for."""
    words = token_texts(doc)
    spans: dict[tuple[int, int], set[str]] = {}
    names: dict[tuple[int, int], str] = {}
    for c in candidates:
        spans.setdefault((c.start, c.end), set()).update(c.labels)
        if c.name:
            names[(c.start, c.end)] = c.name
    concept: dict[tuple[int, int], Span] = {}
    for s in lexicon:
        spans.setdefault((s.start, s.end), set()).add("LEX")
        concept[(s.start, s.end)] = s
    short_to_long: dict[str, str] = {}
    long_of: dict[str, tuple[int, int]] = {}
    for p in pairs:
        long_key = _key(doc, (p.start, p.end), concept, names)
        short_key = fold(words[p.short])
        if short_key and short_key != long_key:
            short_to_long.setdefault(short_key, long_key)
            long_of.setdefault(long_key, (p.start, p.end))
    keys = {span: _key(doc, span, concept, names) for span in spans}
    known = set(keys.values())

    def canonical(key: str) -> tuple[str, bool]:
        """The group key of a span key, and whether it is an acronym: NFPs and NFP are the
        short forms of one long form; EP-GFlowNets is the plural of EP-GFlowNet."""
        for k in (key, key + "s", key[:-1] if key.endswith("s") else None):
            if k and k in short_to_long:
                return short_to_long[k], True
        if key.endswith("s") and len(key) > 3 and key[:-1] in known:
            return key[:-1], False
        return key, False

    groups: dict[str, Group] = {}
    for span in sorted(spans):
        key = keys[span]
        if not key:
            continue
        key, short = canonical(key) if span not in concept else (key, False)
        group = groups.get(key)
        if group is None:
            group = groups[key] = Group(key)
        group.spans.append(span)
        group.labels |= spans[span]
        group.short |= short
        if span in names:
            group.names[span] = names[span]
        if span in concept and group.concept is None:
            group.concept = concept[span].kb_id_
            group.lexicon_type = EntityType(concept[span].label_)
    for key, group in groups.items():
        group.long = long_of.get(key)
    return list(groups.values())


def _key(
    doc: Doc,
    span: tuple[int, int],
    concept: dict[tuple[int, int], Span],
    names: dict[tuple[int, int], str],
) -> str:
    if span in concept:
        return concept[span].kb_id_
    return fold(names.get(span) or span_text(doc, *span))


@lru_cache(maxsize=4096)
def _label_features(labels: frozenset[str]) -> tuple[str, ...]:
    return tuple(f"g:{label}" for label in sorted(labels))


@lru_cache(maxsize=4096)
def _rule_features(kind: EntityType | None, why: str) -> tuple[str, ...]:
    if kind is None:
        return ()
    return (f"rule:{kind.value}", f"why:{why}", f"rule:{kind.value}|{why}")


@lru_cache(maxsize=65536)
def _shape(text: str) -> str:
    """ReaForest → XxXx, GPT-4 → X-d, Qwen2.5-7B → Xxd.d-dX: character classes, runs joined."""
    if text.isascii():
        return _RUNS.sub(r"\1", _DIGITS.sub("d", _LOWERS.sub("x", _UPPERS.sub("X", text))))[:8]
    out: list[str] = []
    for c in text:
        k = "X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c
        if not out or out[-1] != k:
            out.append(k)
    return "".join(out[:8])


@lru_cache(maxsize=65536)
def _name_features(name: str) -> tuple[str, ...]:
    """What the name itself looks like."""
    cues = load_cues()
    parts = name.split()
    out = [f"ntok:{min(len(parts), 4)}"]
    last = parts[-1]
    if len(parts) == 1:
        out.append(f"shape:{_shape(name)}")
        low = name.lower()
        if len(low) >= 4:
            out += [f"suf2:{low[-2:]}", f"suf3:{low[-3:]}"]
    else:
        out.append(f"shape1:{_shape(parts[0])}")
        out.append(f"shapeN:{_shape(last)}")
        if parts[0].lower() in cues.generic_first_words:
            out.append(f"first:{parts[0].lower()}")
        if all(p.islower() for p in parts):
            out.append("all_lower")
        elif all(
            p[:1].isupper() or not p.isalpha()
            for p in parts
            if p.lower() not in {"of", "for", "and", "the", "with", "in", "on", "to", "via", "from"}
        ):
            out.append("title_case")
    low_last = last.lower()
    if len(parts) > 1 and low_last in cues.task_heads:
        out.append("task_head")
    head = cues.type_heads.get(low_last)
    if head is not None and len(parts) > 1:
        out.append(f"head:{head.value}")
        out.append(f"last:{low_last}")
    elif low_last in cues.candidate_heads and len(parts) > 1:
        out.append(f"last:{low_last}")
    if _DIGIT.search(name):
        out.append("digit")
        if any(is_size(p) for p in _PARTS.split(name)):
            out.append("size")
    if _DATA_SIZE.search(name):
        out.append("datasize")
    low = name.lower()
    if low.endswith(cues.benchmark_suffixes) or "-bench" in low:
        out.append("bench_suffix")
    if model_family(name):
        out.append("family")
    elif family_suffix(name):
        out.append("family_suffix")
    variant = lexicon_variant(name)
    if variant is not None:
        out.append(f"variant:{variant.value}")
    return tuple(out)


@lru_cache(maxsize=65536)
def _generic(text: str) -> bool:
    """A generic term (LLMs, GPU), an adjective made of a name (LLM-based), an index (L-1)."""
    cues = load_cues()
    lower = text.lower()
    if lower.endswith(("'s", "’s")):
        lower = lower[:-2]
    if lower in cues.generic_terms or lower.rstrip("s") in cues.generic_terms:
        return True
    if "-" in lower or "–" in lower:
        if _HYPHENS.split(lower)[-1] in cues.adjective_suffixes:
            return True
        return bool(_INDEX.fullmatch(lower))  # "L-1": an index, not a name
    return False


@dataclass(frozen=True)
class Context:
    """What the features read of a Doc, computed once."""

    words: list[str]
    lower: list[str]
    sentence: list[int]
    starts: frozenset[int]
    bounds: list[tuple[int, int]]
    proposal_sentences: frozenset[int]
    urls: str  #: the folded text of every URL
    covered: dict[int, list[tuple[int, int]]]  #: token → candidate spans over it
    typed: dict[tuple[int, int], str]  #: span → the type the rules give it (not by default)
    classes: WordClasses
    sentence_use: list[str]  #: "train", "eval", "train+eval" or "" per sentence
    sentence_words: _Telling  #: "sw:" features: the type-telling words of each sentence
    self_types: tuple[str, ...]  #: how the paper calls its own work: "our model" → Model


def context(
    doc: Doc, groups: list[Group], rules: list[tuple[EntityType | None, str]] | None = None
) -> Context:
    """The look-ups the features share; `rules` are what `rule_type` makes of each group."""
    lower = lowers(doc)
    sentence = sentence_of(doc)
    bounds = sentence_bounds(doc)
    classes = word_classes(doc)
    roles = classes.role
    proposal = frozenset(n for n, (a, b) in enumerate(bounds) if _PROPOSING.search(roles, a, b))
    use = []
    for a, b in bounds:
        part = roles[a:b]
        train, evaluate = "t" in part, "e" in part
        use.append(
            "train+eval" if train and evaluate else "train" if train else "eval" if evaluate else ""
        )
    covered: dict[int, list[tuple[int, int]]] = {}
    typed: dict[tuple[int, int], str] = {}
    for n, g in enumerate(groups):
        rule = rules[n] if rules else (None, "")
        for s in g.spans:
            for i in range(s[0], s[1]):
                covered.setdefault(i, []).append(s)
            if rule[0] is not None and rule[1] != "default":
                typed[s] = rule[0].value
    heads = load_cues().type_heads
    own = set()
    for m in _OWN.finditer(roles):
        i = m.start()
        for j in (i + 1, i + 2) if lower[i] == "our" else (i + 1,):
            if j < len(lower) and lower[j] in heads:
                own.add(heads[lower[j]].value)
                break
    return Context(
        token_texts(doc),
        lower,
        sentence,
        frozenset(a for a, _ in bounds),
        bounds,
        proposal,
        " ".join(fold(url) for _, _, url in doc_urls(doc)),
        covered,
        typed,
        classes,
        use,
        _Telling(lower, bounds),
        tuple(sorted(own)),
    )


class _Telling:
    """The "sw:" features of each sentence (its type-telling words), made when first read."""

    def __init__(self, lower: list[str], bounds: list[tuple[int, int]]) -> None:
        self.lower, self.bounds = lower, bounds
        self.done: dict[int, frozenset[str]] = {}

    def __getitem__(self, n: int) -> frozenset[str]:
        found = self.done.get(n)
        if found is None:
            a, b = self.bounds[n]
            words = load_cues().type_context_words.intersection(self.lower[a:b])
            found = self.done[n] = frozenset("sw:" + w for w in words)
        return found


_PROPOSING = re.compile(r"[so].*[vp]")
_OWN = re.compile(r"[op]")


def group_features(
    doc: Doc, group: Group, ctx: Context, rule: tuple[EntityType | None, str]
) -> list[str]:
    """The entity model's features of one group; `rule` is what `rule_type` makes of it."""
    main = group.main()
    name = group.name_of(doc, main)
    out = [*_label_features(frozenset(group.labels)), *_name_features(name)]
    names = {group.name_of(doc, s) for s in group.spans}
    if any(_generic(n) for n in names):
        out.append("generic")
    if any(_PLURAL_ACRONYM.fullmatch(n) for n in names):
        # "DLMs", "DAGs" name classes of things, unless a coined long form spells them (NFPs)
        out.append("plural_acronym" if group.long is None else "plural_acronym_defined")
    if group.lexicon_type is not None:
        out.append(f"lex:{group.lexicon_type.value}")
    out += _rule_features(*rule)
    out.append(f"n:{min(len(group.spans), 4)}")
    if group.long is not None:
        out.append("acronym")
        long_words = ctx.words[group.long[0] : group.long[1]]
        # "Time series forecasting (TSF)": lower case but for a capital that starts a sentence
        if all(w.islower() for w in long_words[1:] if w.isalpha()):
            out.append("acronym_lower" if long_words[0].islower() else "acronym_lower_tail")
        last = long_words[-1].lower()
        if last.endswith("s") and last in load_cues().type_heads:
            out.append("acronym_of_a_class")  # "Large Language Models (LLMs)"
    if group.short and group.long is None:
        out.append("short_only")
    lower = ctx.lower
    n = len(lower)
    sentence, classes = ctx.sentence, ctx.classes
    heads, cues, roles = classes.head, classes.cue, classes.role
    seen: set[str] = set()
    for a, b in group.spans[:6]:
        here = sentence[a]
        first, last_token = ctx.bounds[here]
        for c in set(heads[max(first, a - 4) : a]):
            if c != " ":
                seen.add(_HEAD_FEATURE[c] + ":L")
        for c in set(heads[b : min(last_token, b + 5)]):
            if c != " ":
                seen.add(_HEAD_FEATURE[c] + ":R")
        if not CUE_CHARS[CMP].isdisjoint(cues[max(0, a - 6) : a]):
            seen.add("cmp_before")
        if not CUE_CHARS[VS].isdisjoint(cues[max(0, a - 3) : a]):
            seen.add("versus_before")
        if not CUE_CHARS[EX].isdisjoint(cues[max(0, a - 4) : a]):
            seen.add("example_of")
        if "x" in roles[max(0, a - 5) : b + 5]:
            seen.add("baseline_near")
        seen.update(ctx.sentence_words[here])
        use = ctx.sentence_use[here]
        if use:
            seen.add("use:" + use)
        prev1 = lower[a - 1] if a > 0 else "<s>"
        next1 = lower[b] if b < n else "</s>"
        seen.add("p1:" + prev1)
        seen.add("p2:" + (lower[a - 2] if a > 1 else "<s>"))
        seen.add("n1:" + next1)
        seen.add("n2:" + (lower[b + 1] if b + 1 < n else "</s>"))
        for j in (a - 2 if prev1 in _SEPARATORS else -1, b + 1 if next1 in _SEPARATORS else -1):
            siblings = [s for s in ctx.covered.get(j, ()) if s != (a, b)] if j >= 0 else []
            if siblings:
                seen.add("list")
                # "on NExTQA, Video-Holmes and VRBench": what the rules make of its neighbours
                seen.update("sib:" + ctx.typed[s] for s in siblings if s in ctx.typed)
        if a in ctx.starts:
            seen.add("sent_start")
        if here in ctx.proposal_sentences:
            seen.add("proposal_sentence")
        if here == 0:
            seen.add("first_sentence")
        for s in ctx.covered.get(a, ()):
            if s != (a, b) and s[0] <= a and b <= s[1] and s[1] - s[0] > b - a:
                seen.add("inside_longer")
                break
    if all(a in ctx.starts for a, _ in group.spans):
        seen.add("only_sent_start")
    if sentence[group.spans[0][0]] in ctx.proposal_sentences:
        seen.add("first_in_proposal")
    out += sorted(seen)
    # how a coined-looking name is used: compared against, listed, proposed
    if group.labels & _SHAPED:
        out += [f"shaped|{f}" for f in sorted(seen & _SHAPED_CONTEXT)]
    if len(group.key) > 3 and group.key in ctx.urls:
        out.append("in_url")
    if "proposal_sentence" in seen:
        out += [f"self:{t}" for t in ctx.self_types]
    return out


_HEAD_FEATURE = {c: f"wh:{t.value}" for c, t in HEAD_TYPES.items()}


def rule_type(doc: Doc, group: Group) -> tuple[EntityType | None, str]:
    """What the typing rules make of a group: its lexicon type, else `decide_type`."""
    if group.lexicon_type is not None:
        return group.lexicon_type, "lexicon"
    start, end = group.main()
    return decide_type(doc[start:end], doc)


@dataclass(frozen=True)
class Decision:
    """The entity model's verdict on one group."""

    label: str  #: an EntityType value, or "O"
    probability: float  #: of the best class that is not "O"
    evidence: str


def decide(
    rule: tuple[EntityType | None, str], features: list[str], model: LinearModel | None
) -> Decision:
    """The type of a group (or "O"), by the model, or by the rules (`rule`, what
    `rule_type` made of it) when there is none."""
    kind, why = rule
    if model is None:
        return Decision(kind.value if kind is not None else "O", 1.0, why)
    label, _, probability = model.best(features)
    if kind is EntityType.METRIC and why == "metric name":
        return Decision(EntityType.METRIC.value, probability, why)  # Pass@1, kept for results
    if kind is EntityType.TASK and "first_in_proposal" not in features:
        # "five VideoQA benchmarks", "Time series forecasting": a kind of thing or a task,
        # unless the paper introduces it ("we propose Graph Anomaly Detection")
        return Decision(EntityType.TASK.value, probability, why)
    if label != "O" and kind is not None and kind.value == label:
        evidence = why
    elif label != "O":
        top = model.top_features(features, label)
        evidence = "context: " + ", ".join(top) if top else "context"
    else:
        evidence = ""
    return Decision(label, probability, evidence)


def complete_lists(
    groups: list[Group], decisions: list[Decision], features: list[list[str]], ctx: Context
) -> list[Decision]:
    """ "on NExTQA, Video-Holmes and VRBench": a name between two kept names of one type,
    in a list, is one of them too (the model decides each name on its own)."""
    owner = {span: g for g, group in enumerate(groups) for span in group.spans}
    out = list(decisions)
    for g, group in enumerate(groups):
        if decisions[g].label != "O" or "generic" in features[g]:
            continue
        if not group.labels & {"SHAPE", "WEAK", "CAPWORD"}:
            continue
        for a, b in group.spans:
            if not (a >= 2 and b + 1 < len(ctx.lower)):
                continue
            if ctx.lower[a - 1] not in _SEPARATORS or ctx.lower[b] not in _SEPARATORS:
                continue
            sides = set()
            for j in (a - 2, b + 1):
                for span in ctx.covered.get(j, ()):
                    if span in owner and decisions[owner[span]].label in _LIST_TYPES:
                        sides.add(decisions[owner[span]].label)
            if len(sides) == 1 and all(
                any(s in owner and decisions[owner[s]].label != "O" for s in ctx.covered.get(j, ()))
                for j in (a - 2, b + 1)
            ):
                out[g] = Decision(sides.pop(), decisions[g].probability, "list of its type")
                break
    return out


_LIST_TYPES = {t.value for t in CORE}


def select(groups: list[Group], decisions: list[Decision]) -> list[tuple[tuple[int, int], int]]:
    """Non-overlapping (span, group index) pairs: spans of the most probable entities first,
    then the longer; a span that overlaps one already kept is dropped."""
    ranked = sorted(
        (
            (-decisions[g].probability, -(s[1] - s[0]), s[0], s, g)
            for g, group in enumerate(groups)
            if decisions[g].label != "O"
            for s in group.spans
        ),
    )
    taken: set[int] = set()
    kept = []
    for *_, span, g in ranked:
        tokens = range(span[0], span[1])
        if any(i in taken for i in tokens):
            continue
        taken.update(tokens)
        kept.append((span, g))
    return sorted(kept)
