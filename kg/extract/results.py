"""Reported figures: "80.6% exact-match accuracy on MATH500", "a FID of 6.61 on COCO",
"from 40% to 70% on HMMT 2025" (70 is the paper's figure).

Every number of an abstract is a candidate; the result model (`kg.extract.classifier`)
tells scores from improvements, settings, sizes and counts by the words around it. A score
belongs to the system named last before it in its sentence (else the paper's own: of the
kind its sentence says, "our model", where the paper proposes one system of it), and is
on the benchmark named after it ("on X"), before it, or in the same place of a list that
"respectively" pairs with the figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from spacy.tokens import Doc

from kg.extract.classifier import LinearModel
from kg.extract.cues import Cues, load_cues
from kg.extract.figures import (
    RESOURCES,
    SYSTEMS,
    Figure,
    figure_features,
    figures,
    is_metric,
    list_pairs,
    not_scores,
    number,
    opened_by,
    spread,
)
from kg.extract.found import Found
from kg.extract.sentences import sentence_bounds
from kg.extract.texts import LIST_WORDS, lowers
from kg.model import EntityType

_SYSTEMS = SYSTEMS
_RESOURCES = RESOURCES

#: (subject key, metric, value, unit, benchmark key, (first, last) tokens of the figure)
Reported = tuple[str | None, str | None, Decimal, str | None, str | None, tuple[int, int]]


def _metric_phrase(doc: Doc, fig: Figure, cues: Cues) -> str | None:
    """ "exact-match accuracy" after the figure, or "accuracy of" before it."""
    lower = lowers(doc)
    last = None
    for j in range(fig.end, min(len(doc), fig.end + 4)):
        token = doc[j]
        if not (token.is_alpha or "-" in token.text or "@" in token.text) or token.is_stop:
            break
        if is_metric(lower[j], cues):
            last = j
    if last is not None:
        return doc[fig.end : last + 1].text
    for j in range(fig.start - 1, max(-1, fig.start - 5), -1):
        if is_metric(lower[j], cues):
            first = j
            while first > 0 and (doc[first - 1].is_alpha and not doc[first - 1].is_stop):
                first -= 1
                if fig.start - first > 4:
                    break
            return doc[first : j + 1].text
    return None


def _subject(
    fig: Figure,
    kept: list[Figure],
    in_sent: list[Found],
    subject: str | None,
    lower: list[str],
    first: int = 0,
    figs: Sequence[Figure] = (),
) -> str | None:
    """Who scored the figure: the systems of a list paired in order with as many figures
    ("A, B and C achieve 83.1%, 84.3% and 85.0%, respectively"); a system right after it in
    parentheses or after "for" ("3% of tasks (Llama2-70B)", "from 29% to 3% for Claude");
    a system in parentheses around it ("BM25 (9.8%)"); else the system named last before it
    in its sentence, else the paper's own: but a system named as a means or a rival ("with
    GPT-4", "over CoT") when the paper's own system is named in the sentence, or stands
    behind "our"; of a pair of figures joined by "vs." after a named rival, as `_versus`
    says. `first` is the first token of the figure's sentence, `figs` every number of the
    abstract (`kept` are its scores)."""
    systems = [f for f in in_sent if f.type in _SYSTEMS]
    mine = [g for g in kept if g.sent == fig.sent]
    if (
        len(mine) > 1
        and "respectively" in lower[mine[-1].end :][:8]
        and all(f.end <= mine[0].start for f in systems)
    ):
        # the systems named before the figures, but for a means outside their list ("…
        # ConvNeXt-T models on ImageNet with FooNet, which achieve 83.1%, 84.3% and 85.0%,
        # respectively"; "the accuracies of A, B and C" keep A)
        listed = [f for f in systems if not _is_means(f, lower) or _in_list(f, systems, lower)]
        keys = list(dict.fromkeys(f.key for f in listed))
        if len(keys) == len(mine):
            return keys[mine.index(fig)]
    versus = _versus(fig, [g for g in figs if g.sent == fig.sent], systems, subject, lower, first)
    if versus is not _NO_PAIR:
        return versus
    after = [f for f in systems if fig.end <= f.start <= fig.end + 5]
    if after and _names_it(lower, fig.end, after[0].start):
        return after[0].key  # "from 29% to 3% for Claude 3.5 Sonnet"
    before = [f for f in systems if f.end <= fig.start]
    if _unnamed_rival(lower, fig, before[-1].end if before else 0):
        return None  # "65.07% (vs. previous SOTA 24.68%)", "the best baseline result of 66.6%"
    if not before:
        if not systems and _about_others(lower[first : fig.start]):
            return None  # "Experiments on frontier LLMs reveal … approximately 0.2"
        return subject
    last = before[-1]
    if last.end == fig.start - 1 and lower[last.end] in _OWNERS:
        return last.key  # "BM25 (9.8%)", "surpassing CLIP's 68.3%"
    if last.key != subject and subject is not None:
        ours = "our" in lower[last.end : fig.start]  # "(Qwen-2.5-7B), our framework boosts"
        own = subject in {f.key for f in in_sent} or "our" in lower[before[0].start : fig.start]
        if ours or (_is_means(last, lower) and own):
            return subject
    if _is_means(last, lower):
        # "LLaMA-3-8B achieves the best results using the RLHF approach, scoring 0.87"
        scorer = next((f for f in reversed(before) if not _is_means(f, lower)), None)
        if scorer is not None and scorer.key != last.key:
            return scorer.key
        if scorer is None and subject is not None:
            return subject  # "in experiments using ChatGPT, accuracy rises to 63.8%"
    return last.key


def _own_of_kind(
    words: list[str], proposed: frozenset[str], kinds: dict[str, EntityType]
) -> str | None:
    """The paper's own system a sentence names by its kind before a figure: "our model
    achieves 68.1%" ("our proposed model") is the proposed Model's where the paper proposes
    a Method too. Only the "our" nearest the figure is read, with the kind word among the
    three words after it; None when it names no kind of system or the paper proposes not
    exactly one of that kind."""
    heads = load_cues().type_heads
    at = next((k for k in range(len(words) - 1, -1, -1) if words[k] == "our"), None)
    if at is None:
        return None
    kind = next((heads[w] for w in words[at + 1 : at + 4] if w in heads), None)
    if kind not in _SYSTEMS:
        return None
    own = [key for key in proposed if kinds.get(key) is kind]
    return own[0] if len(own) == 1 else None


def _in_list(f: Found, systems: list[Found], lower: list[str]) -> bool:
    """Whether a system is one of a list of them: another right before or after it, with
    only a comma, "and" or "or" between ("of ResNet-50, ViT-S and ConvNeXt-T")."""

    def joined(a: Found, b: Found) -> bool:  # a, then a list word or two, then b
        return 0 < b.start - a.end <= 2 and all(w in LIST_WORDS for w in lower[a.end : b.start])

    return any(joined(f, g) or joined(g, f) for g in systems)


#: what `_versus` answers for a figure in no "A vs. B" pair after a named rival
_NO_PAIR = "\x00"


def _versus(
    fig: Figure,
    mine: list[Figure],
    systems: list[Found],
    subject: str | None,
    lower: list[str],
    first: int,
) -> str | None:
    """Who scored a figure of a pair joined by "vs." after a comparison word and the rival it
    names ("FooNet outperforms GPT-4 (71.2% vs. 68.0%)", "surpasses RepQ-ViT by 3.92%
    (82.24% VS 78.32%)"): the second is the rival's; the first the comparer's, the system
    named before the comparison word (not as a means), else the paper's own. Only where the
    rival is the one system between the comparison word, which it follows closely, and
    the pair, and no clause begins between them: `_NO_PAIR` for any other figure, left to
    the other rules (`mine` are the numbers of its sentence, which starts at `first`)."""
    if fig not in mine:
        return _NO_PAIR
    k = mine.index(fig)
    if k + 1 < len(mine) and _joined(lower, fig, mine[k + 1]):
        pair_start, second = fig.start, False
    elif k > 0 and _joined(lower, mine[k - 1], fig):
        if k > 1 and _joined(lower, mine[k - 2], mine[k - 1]):
            return _NO_PAIR  # "A vs. B vs. C": no pair
        pair_start, second = mine[k - 1].start, True
    else:
        return _NO_PAIR
    cue = next((j for j in range(pair_start - 1, first - 1, -1) if lower[j] in _RIVALS), None)
    if cue is None or any(w in _CLAUSE_BREAKS for w in lower[cue:pair_start]):
        return _NO_PAIR
    rivals = [f for f in systems if cue < f.start and f.end <= pair_start]
    if len(rivals) != 1 or rivals[0].start - cue > _RIVAL_REACH:
        return _NO_PAIR  # "(83.4% vs. 60.0%)" of an unnamed baseline: as any other figure
    if second:
        return rivals[0].key
    comparers = [f for f in systems if f.end <= cue and not _is_means(f, lower)]
    return comparers[-1].key if comparers else subject


#: the most tokens from a comparison word to the rival it names ("surpasses the strong X")
_RIVAL_REACH = 3


def _joined(lower: list[str], a: Figure, b: Figure) -> bool:
    """Whether two figures are joined by "vs." (or "versus") alone, TeX's dollars aside
    ("$82.24\\%$ VS $78.32\\%$")."""
    between = [w for w in lower[a.end : b.start] if w != "$"]
    return bool(between) and all(w in _VERSUS for w in between)


_VERSUS = frozenset({"vs", "vs.", "versus"})


def _about_others(words: list[str]) -> bool:
    """Whether the words of a sentence before its figure, naming no system, speak of
    others' systems: a class of them marked as others' ("frontier LLMs", "existing methods",
    "prior models") and no word of the paper's own ("we", "our", "it"); "Fine-tuned models
    reach 72.1%" may be the paper's."""
    if not _SELF.isdisjoint(words):
        return False
    return any(
        w in _CLASSES and not _OTHERS.isdisjoint(words[max(0, k - 3) : k])
        for k, w in enumerate(words)
    )


_SELF = frozenset({"we", "our", "ours", "it", "its", "proposed", "this"})
#: words for a class of systems: the figure after them, in a sentence naming none, is theirs
_CLASSES = frozenset({"llms", "models", "methods", "baselines", "systems", "approaches"})
#: words that make such a class others' ("frontier LLMs", "existing methods")
_OTHERS = frozenset(
    {
        "frontier",
        "existing",
        "prior",
        "previous",
        "other",
        "current",
        "leading",
        "competing",
        "proprietary",
        "commercial",
        "state-of-the-art",
        "sota",
        "popular",
        "baseline",
    }
)


def _unnamed_rival(lower: list[str], fig: Figure, after: int) -> bool:
    """Whether a rival's word stands shortly before the figure with no system named between:
    the figure is that unnamed rival's."""
    return any(w in _RIVAL_WORDS for w in lower[max(after, fig.start - 5) : fig.start])


_RIVAL_WORDS = load_cues().result_rival_words  # kg/data/cues.json
#: what stands between a figure's name and the figure it owns: "BM25 (9.8%)", "CLIP's 68.3%"
_OWNERS = frozenset({"(", "'s", "’s"})


def _names_it(lower: list[str], end: int, start: int) -> bool:
    """Whether the words from a figure's end to a system name it as the one scored: "3% for
    Claude", "3% of tasks (Llama2-70B)", "46.35 for vanilla GPT-4"; no figure between."""
    between = lower[end:start]
    if any(number(w) is not None for w in between):
        return False
    return bool(between) and (between[-1] in ("for", "(") or between[0] == "for")


def _is_means(f: Found, lower: list[str]) -> bool:
    """Whether a system is named as a means or a rival: "with GPT-4", "using the RLHF"."""
    at = f.start - 1
    if at > 0 and lower[at] in _ARTICLES:
        at -= 1
    return at >= 0 and lower[at] in _MEANS


_ARTICLES = load_cues().articles  # kg/data/cues.json


def _benchmark(
    fig: Figure,
    kept: list[Figure],
    figs: list[Figure],
    in_sent: list[Found],
    lower: list[str],
    sentence: list[str],
) -> str | None:
    """The benchmark a figure is on: paired in order with a list of as many benchmarks
    ("respectively", or all named before or all after the figures), else named after it,
    else before it, in its sentence."""
    resources = [f for f in in_sent if f.type in _RESOURCES]
    keys = list(dict.fromkeys(f.key for f in resources))
    if not keys:
        return None
    for pool in (kept, figs):  # the scores kept, else every number of the sentence
        mine = [g for g in pool if g.sent == fig.sent]
        if len(keys) > 1 and len(keys) == len(mine):
            listed = all(f.end <= mine[0].start for f in resources) or all(
                f.start >= mine[-1].end for f in resources
            )
            if listed or "respectively" in sentence:
                return keys[mine.index(fig)]
    after = [f for f in resources if f.start >= fig.end]
    before = [f for f in resources if f.end <= fig.start]
    opened = opened_by(lower, fig.start)
    named = next((f for f in reversed(before) if f.end == opened), None)
    if named is not None:
        return named.key  # "GSM8K (5.9%→10.9%)", "MMLU (71.2 vs. 68.0)"
    if after and (not before or _on(lower, fig.end, after[0].start)):
        return after[0].key
    return before[-1].key if before else resources[-1].key


def _on(lower: list[str], end: int, start: int) -> bool:
    """Whether a resource after a figure is what it was measured on: near it ("85.3% on
    ModelNet40", "38.2 BLEU@4 on MS COCO"), not named after a rival ("outperforming Foo on
    Bar by 1.2%") or after another figure."""
    between = lower[end:start]
    if any(number(w) is not None or w in _RIVALS or w in _CLAUSE_BREAKS for w in between):
        return False
    return len(between) <= 4 or any(w in _PLACES for w in between)


_RIVALS = load_cues().strong_comparison_cues  # kg/data/cues.json
_PLACES = frozenset({"on", "in", "across"})
_CLAUSE_BREAKS = load_cues().result_clause_breaks  # kg/data/cues.json


#: words before a system's name that make it a means or a rival, not the one scored
_MEANS = load_cues().means_words  # kg/data/cues.json


def find_results(
    doc: Doc,
    found: list[Found],
    subject: str | None,
    proposed: frozenset[str],
    model: LinearModel | None,
) -> tuple[list[Reported], list[tuple[Figure, list[str]]]]:
    """The reported scores, and every number with its features (for training)."""
    cues = load_cues()
    lower = lowers(doc)
    figs = figures(doc, found)
    featured = [(fig, figure_features(doc, fig, found, proposed)) for fig in figs]
    out: list[Reported] = []
    bounds = sentence_bounds(doc)
    pairs = list_pairs(doc, figs, found)
    differences = not_scores(featured, pairs)
    scores = {
        fig.start
        for fig, features in featured
        if (
            model.predict(features)[0] == "yes"
            if model is not None
            else fig.unit == "%" and "signed" not in features and "skip_before" not in features
        )
    }
    # a list's figures are all scores or none: "AUCs of 97.5%, 95.9% and 88.1%"
    scores = spread(scores, [p for p in pairs if p[0].unit == p[1].unit])
    kept = [fig for fig in figs if fig.start in scores and fig.start not in differences]
    # a metric's name (CIDEr, ROUGE-1) or a number is neither who scored nor what on
    named = [
        f for f in found if not is_metric(f.name.lower(), cues) and any(c.isalpha() for c in f.name)
    ]
    by_sentence: dict[int, list[Found]] = {}
    for f in named:
        by_sentence.setdefault(f.sent, []).append(f)
    only = list(dict.fromkeys(f.key for f in named if f.type in _RESOURCES))
    systems = [f.key for f in named if f.type in _SYSTEMS]
    if subject not in systems:  # a metric's name (ROUGE-1) scores nothing: the next proposed
        subject = next((k for k in systems if k in proposed), None)
    earlier: str | None = None
    # else the one benchmark the paper itself introduces ("We introduce FooBench ...")
    mine = [k for k in only if k in proposed]
    own = mine[0] if len(mine) == 1 else None
    kinds = {f.key: f.type for f in named}
    for fig in kept:
        in_sent = by_sentence.get(fig.sent, [])
        start, end = bounds[fig.sent]
        # the paper's own system of the kind the sentence says ("our model"), unless the
        # sentence names one of its systems before the figure ("FooLM, trained with our
        # method, achieves": FooLM's)
        named_own = any(
            f.key in proposed and f.type in _SYSTEMS and f.end <= fig.start for f in in_sent
        )
        ours = None if named_own else _own_of_kind(lower[start : fig.start], proposed, kinds)
        owner = _subject(fig, kept, in_sent, ours or subject, lower, start, figs)
        if owner is None:
            continue  # the score of an unnamed system
        bench = _benchmark(fig, kept, figs, in_sent, lower, lower[start:end])
        if bench is None:
            # the benchmark of the figures reported before ("29.8% on AlpacaEval. FooNet
            # raises this score to 69.0%"), else the one benchmark the abstract names, else
            # the one it introduces
            bench = earlier or (only[0] if len(only) == 1 else None) or own
        else:
            earlier = bench
        if bench == owner:
            bench = None
        metric = _metric_phrase(doc, fig, cues)
        out.append((owner, metric, fig.value, fig.unit, bench, (fig.start, fig.end)))
    return out, featured
