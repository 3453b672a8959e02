"""From groups to typed entities: the entity model decides each group (`decide`), lists
are completed, and the best non-overlapping spans are kept (`select`).

Groups are made in `groups.py`, described by features in `entity_features.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc

from kg.extract.classifier import LinearModel
from kg.extract.entity_features import LIST_SEPARATORS, Context
from kg.extract.groups import Group
from kg.extract.typing_rules import NAMING_EVIDENCE, type_at
from kg.model import EntityType

CORE = (EntityType.METHOD, EntityType.MODEL, EntityType.DATASET, EntityType.BENCHMARK)


def rule_type(doc: Doc, group: Group) -> tuple[EntityType | None, str]:
    """What the typing rules make of a group: its lexicon type, else `type_at` of its main
    span; where that says nothing (the default), what the text calls it at another of its
    mentions ("an evaluation framework called CatCode (Category Code)": the long form
    stands alone), if any says so outright (`NAMING_EVIDENCE`)."""
    if group.lexicon_type is not None:
        return group.lexicon_type, "lexicon"
    main = group.main()
    found = type_at(doc, *main)
    if found[1] == "default":
        for span in group.spans:
            if span != main:
                other = type_at(doc, *span)
                if other[1] in NAMING_EVIDENCE:
                    return other
    return found


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
            if ctx.lower[a - 1] not in LIST_SEPARATORS or ctx.lower[b] not in LIST_SEPARATORS:
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


def complete_slashes(
    groups: list[Group], decisions: list[Decision], ctx: Context
) -> list[Decision]:
    """ "AIME24/25", "Qwen2.5-VL-3B/7B-Instruct": the name a slash abbreviates (AIME25) is
    of the type of the kept name before the slash. The model decides the second name on
    its own, from little: no lexicon entry or shape of its own speaks for a bare "25"."""
    owner = {span: g for g, group in enumerate(groups) for span in group.spans}
    out = list(decisions)
    for g, group in enumerate(groups):
        if decisions[g].label in _LIST_TYPES:
            continue
        for a, _ in group.spans:
            if a < 2 or ctx.lower[a - 1] != "/" or (a, a + 1) not in group.names:
                continue
            # the name before the slash, if it is the one `select` keeps there: the likeliest
            # typed span over its last token, the longer first ("ImageNet 1" of "ImageNet
            # 1/8" loses to "ImageNet", and names nothing after the slash)
            typed = [
                (decisions[owner[s]].probability, s[1] - s[0], s)
                for s in ctx.covered.get(a - 2, ())
                if s in owner and decisions[owner[s]].label in _LIST_TYPES
            ]
            if typed:
                *_, span = max(typed)
                if span[1] == a - 1:
                    first = decisions[owner[span]]
                    out[g] = Decision(first.label, first.probability, "named by a slash")
                    break
    return out


def select(groups: list[Group], decisions: list[Decision]) -> list[tuple[tuple[int, int], int]]:
    """Non-overlapping (span, group index) pairs: spans of the most probable entities first,
    then the longer; a span that overlaps one already kept is dropped. A span inside a
    lexicon name is ranked no higher than that name ("AIME" of "AIME 2024", "Llama" of
    "Code Llama"): the name in full is kept unless something else overlaps it."""
    known = [
        (s, decisions[g].probability)
        for g, group in enumerate(groups)
        if group.concept is not None and decisions[g].label != "O"
        for s in group.spans
        if s[1] - s[0] > 1
    ]

    def rank(probability: float, s: tuple[int, int]) -> float:
        for (a, b), outer in known:
            if a <= s[0] and s[1] <= b and (a, b) != s:
                probability = min(probability, outer)
        return probability

    ranked = sorted(
        (
            (-rank(decisions[g].probability, s), -(s[1] - s[0]), s[0], s, g)
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
