"""The entity model's features of a group: how it was found (SHAPE, TITLE, LEX, ...), what
the typing rules make of it (`typing_rules.decide_type`), its shape, and the words around
its mentions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc

from kg.extract.appositions import FEATURE, called
from kg.extract.cues import load_cues
from kg.extract.families import family_suffix, model_family
from kg.extract.groups import Group
from kg.extract.sentences import sentence_bounds, sentence_of
from kg.extract.shapes import is_size
from kg.extract.texts import Known, lowers
from kg.extract.texts import urls as doc_urls
from kg.extract.texts import words as token_texts
from kg.extract.typing_rules import lexicon_variant
from kg.extract.wordclass import (
    CMP,
    CUE_CHARS,
    EX,
    HEAD_TYPES,
    NO_CUE,
    VS,
    WordClasses,
    word_classes,
)
from kg.model import EntityType
from kg.names import fold

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
#: words between the names of a list: "A, B and C", "A/B"
LIST_SEPARATORS = frozenset({",", "and", "or", "&", "/"})
#: words before a list at which its head noun is looked for no further ("FooNet models
#: on A, B and C": "models" is not the list's)
_LIST_STOPS = frozenset(
    {"on", "in", "across", "at", "with", "for", "from", "to", "over", "than", "by"}
    | {"against", "using", "via", "under", "outperforms", "outperform", "beats"}
)
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
        if any(p in cues.list_joiners for p in parts[1:-1]):
            out.append("joined")  # "Direct Reasoner and Indirect Reasoner": a list, or one name
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
    #: the spans of lexicon names, by their last token
    lexical: dict[int, list[tuple[int, int]]]


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
    lexical: dict[int, list[tuple[int, int]]] = {}
    for n, g in enumerate(groups):
        rule = rules[n] if rules else (None, "")
        for s in g.spans:
            if g.lexicon_type is not None:
                lexical.setdefault(s[1], []).append(s)
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
        lexical,
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
        # how the field writes this concept: "Transformer" is mostly a generic word, LoRA a
        # method (learnt from the annotations, for concepts they name twice or more)
        out.append(f"lex:={group.key}")
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
    seen = _context_features(group, ctx)
    out += sorted(seen)
    # how a coined-looking name is used: compared against, listed, proposed
    if group.labels & _SHAPED:
        out += [f"shaped|{f}" for f in sorted(seen & _SHAPED_CONTEXT)]
    if len(group.key) > 3 and group.key in ctx.urls:
        out.append("in_url")
    if "proposal_sentence" in seen:
        out += [f"self:{t}" for t in ctx.self_types]
    return out


def _context_features(group: Group, ctx: Context) -> set[str]:
    """What the words around a group's first mentions say of it."""
    lower = ctx.lower
    n = len(lower)
    sentence, classes = ctx.sentence, ctx.classes
    heads, cues, roles = classes.head, classes.cue, classes.role
    seen: set[str] = set()
    for a, b in group.spans[:6]:
        here = sentence[a]
        first, last_token = ctx.bounds[here]
        # most windows hold no head noun and no cue word: a blank run is skipped at once
        left = heads[max(first, a - 4) : a]
        if not left.isspace():
            seen.update(_HEAD_LEFT[c] for c in set(left) if c != " ")
        right = heads[b : min(last_token, b + 5)]
        if not right.isspace():
            seen.update(_HEAD_RIGHT[c] for c in set(right) if c != " ")
        if cues[max(0, a - 6) : a].strip(NO_CUE):  # the widest of the three windows
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
        seen.add(_P1[prev1])
        seen.add(_P2[lower[a - 2] if a > 1 else "<s>"])
        seen.add(_N1[next1])
        seen.add(_N2[lower[b + 1] if b + 1 < n else "</s>"])
        if prev1 in LIST_SEPARATORS and a >= 2:  # across ", and" too
            two = lower[a - 2] in LIST_SEPARATORS and a >= 3
            _siblings(ctx, a - 3 if two else a - 2, (a, b), seen)
        if next1 in LIST_SEPARATORS:
            two = b + 1 < n and lower[b + 1] in LIST_SEPARATORS
            _siblings(ctx, b + 2 if two else b + 1, (a, b), seen)
        if prev1 in LIST_SEPARATORS or next1 in LIST_SEPARATORS:
            _whole_list(ctx, (a, b), first, last_token, seen)
        # "X, a retrieval model", "a diffusion model …, named X": what the text calls it
        appos = called(lower, heads, a, b, first, last_token)
        if appos is not None:
            seen.add("appos:" + FEATURE[appos])
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
        if any(c > a and _name_words(ctx.words[a:c]) for c, _ in ctx.lexical.get(b, ())):
            # "Autoregressive Metropolis Hastings", "Adaptive Sequential Monte Carlo": a
            # known name and capitalised words that make it another
            seen.add("ends_in_lexicon")
    if all(a in ctx.starts for a, _ in group.spans):
        seen.add("only_sent_start")
    if sentence[group.spans[0][0]] in ctx.proposal_sentences:
        seen.add("first_in_proposal")
    return seen


def _name_words(words: list[str]) -> bool:
    """Whether words before a known name are a name's: capitalised, and none a word that
    opens a sentence or a phrase ("Unlike", "Standard", "To")."""
    generic = load_cues().generic_first_words
    return all(
        w[:1].isupper() and w.lower() not in STOP_WORDS and w.lower() not in generic for w in words
    )


def _siblings(ctx: Context, j: int, span: tuple[int, int], seen: set[str]) -> None:
    """The "list" features of a mention whose neighbour in a list covers token `j`: "on
    NExTQA, Video-Holmes and VRBench", and what the rules make of its neighbours."""
    siblings = [s for s in ctx.covered.get(j, ()) if s != span]
    if siblings:
        seen.add("list")
        seen.update("sib:" + ctx.typed[s] for s in siblings if s in ctx.typed)


def _whole_list(ctx: Context, span: tuple[int, int], first: int, last: int, seen: set[str]) -> None:
    """The "lst" features of a mention in a list of names, read from the whole list, not
    only its neighbours: what the rules make of any other name of it ("FashionIQ,
    Fashion200k, and Shoes": FashionIQ is known), and the kind a head noun right before or
    after the list names ("three public datasets, i.e., A, B, and C", "A, B, and C
    datasets"). `first` and `last` bound the mention's sentence."""
    members = [span]
    start, end = span
    while (left := _neighbour(ctx, start, -1, first)) is not None:
        members.append(left)
        start = left[0]
    heads = ctx.classes.head
    while not _closes(ctx, end) and (right := _neighbour(ctx, end, 1, last)) is not None:
        members.append(right)  # (not past a name that ends in a list's head noun)
        end = right[1]
    if len(members) < 2:
        return
    if len(members) > 2:  # of a pair, the neighbour's "sib" features read it
        seen.update("lst:" + ctx.typed[s] for s in members[1:] if s in ctx.typed)
    j = start - 1  # back to a preposition: "models on A, B and C" is no head of the list
    while j >= max(first, start - 5) and ctx.lower[j] not in _LIST_STOPS:
        if heads[j] != " ":
            seen.add("lst_" + _HEAD_LEFT[heads[j]])
        j -= 1
    for k in range(end, min(last, end + 2)):  # up to a preposition: "A, B and C with models"
        if ctx.lower[k] in _LIST_STOPS:
            break
        if heads[k] != " ":
            seen.add("lst_" + _HEAD_RIGHT[heads[k]])


def _closes(ctx: Context, end: int) -> bool:
    """Whether the name ending before token `end` ends in a lower-case head noun, which
    closes its list ("A and B models, and C datasets")."""
    return ctx.classes.head[end - 1] != " " and not ctx.words[end - 1][:1].isupper()


def _neighbour(ctx: Context, at: int, way: int, bound: int) -> tuple[int, int] | None:
    """The longest candidate next in a list from token `at` (a span's start, `way` -1, or
    its end, `way` 1) across one list word or a comma and one ("A, B, and C"), within the
    sentence (`bound`); of those, one that does not end in a lower-case head noun where
    there is one (the list's closing "models" is read as its head, not as part of its last
    name; "BarPics Dataset" is a name). None across a lower-case head noun, which closes a
    list before."""
    lower = ctx.lower
    j = at - 1 if way < 0 else at
    if not (0 <= j < len(lower)) or lower[j] not in LIST_SEPARATORS:
        return None
    k = j + way
    if 0 <= k < len(lower) and lower[k] in LIST_SEPARATORS and lower[k] != lower[j]:
        k += way  # ", and"
    if (way < 0 and k < bound) or (way > 0 and k >= bound):
        return None
    if way < 0 and _closes(ctx, k + 1):
        return None  # a head noun closes the list before: "A and B models, and C datasets"
    ends = [s for s in ctx.covered.get(k, ()) if (s[1] == k + 1 if way < 0 else s[0] == k)]
    if not ends:
        return None
    longest = max(ends, key=_length)
    if not _closes(ctx, longest[1]):
        return longest  # no head noun, or a capitalised one: "B Dataset, and C"
    # a name, not a name with the list's head noun ("… and BarPics models": BarPics)
    bare = [s for s in ends if ctx.classes.head[s[1] - 1] == " "]
    return max(bare, key=_length) if bare else longest


def _length(span: tuple[int, int]) -> tuple[int, tuple[int, int]]:
    """How long a span is (ties: by where it is), for `max`."""
    return span[1] - span[0], span


_HEAD_FEATURE = {c: f"wh:{t.value}" for c, t in HEAD_TYPES.items()}
_HEAD_LEFT = {c: f + ":L" for c, f in _HEAD_FEATURE.items()}
_HEAD_RIGHT = {c: f + ":R" for c, f in _HEAD_FEATURE.items()}
#: the features of the words around a mention, made once per word (one string each: its
#: hash is computed once, for the feature set and the model's weights alike)
_P1, _P2, _N1, _N2 = (Known(prefix.__add__) for prefix in ("p1:", "p2:", "n1:", "n2:"))
