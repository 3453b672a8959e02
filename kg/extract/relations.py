"""Rules that read `proposed` and typed relations off a Doc's sentences.

The subject of every entity-level relation is the paper's main contribution: the first
entity the paper proposes (a method if there is one).
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc, Span

from kg.extract.cues import load_cues
from kg.extract.texts import lowers
from kg.model import EntityType, RelationType

_SUBJECTS = {"we", "this", "our", "here"}
_NAMING = {"called", "named", "dubbed", "termed", "coined"}
_STOP_PROPOSAL = {
    "using",
    "with",
    "based",
    "built",
    "over",
    "than",
    "against",
    "on",
    "via",
    "from",
    "such",
    "e.g.",
    "like",
    "including",
    "outperforms",
    "surpasses",
}
_TRAIN_CUES = {
    "trained",
    "train",
    "training",
    "fine-tuned",
    "fine-tune",
    "finetuned",
    "on",
    "using",
    "with",
    "from",
}
_RESOURCE = (EntityType.BENCHMARK, EntityType.DATASET)
_SYSTEMS = (EntityType.METHOD, EntityType.MODEL)


@dataclass(frozen=True)
class Found:
    """A mention as the rules see it: its span, the group it belongs to, and that group."""

    span: Span
    key: str
    type: EntityType
    known: bool  #: in the lexicon: an existing thing, never proposed here
    sent: int = 0  #: the number of the sentence it is in


def proposed_keys(doc: Doc, found: list[Found]) -> list[str]:
    """Keys of the entities the paper introduces, in order of first proposal."""
    cues = load_cues()
    lower = lowers(doc)
    out: list[str] = []
    for n, sent in enumerate(doc.sents):
        in_sent = [f for f in found if f.sent == n]
        verb = _proposal_verb(lower, sent, cues.proposal_verbs)
        if verb is not None:
            last: Found | None = None
            for f in in_sent:
                if f.span.start < verb or f.known or f.type is EntityType.METRIC:
                    continue
                words = set(lower[(last.span.end if last else verb) : f.span.start])
                if last is not None and not (
                    words <= {",", "and", "or", "*", "**", "(", ")"}
                    or words & _NAMING
                    or words & cues.proposal_verbs
                ):
                    break
                if last is None and words & _STOP_PROPOSAL and out:
                    break
                if f.key not in out:
                    out.append(f.key)
                last = f
        for f in in_sent:  # "our X"
            if f.span.start > 0 and lower[f.span.start - 1] == "our" and not f.known:
                if f.key not in out:
                    out.append(f.key)
        if out and _is_component_sentence(lower, sent, cues.component_cues, out[0], in_sent):
            for f in in_sent:
                if not f.known and f.type is not EntityType.METRIC and f.key not in out:
                    out.append(f.key)
    return out


def _proposal_verb(lower: list[str], sent: Span, verbs: frozenset[str]) -> int | None:
    seen_subject = False
    for i in range(sent.start, sent.end):
        if lower[i] in _SUBJECTS:
            seen_subject = True
        elif seen_subject and lower[i] in verbs:
            return i
    return None


def _is_component_sentence(
    lower: list[str], sent: Span, cues: frozenset[str], main: str, in_sent: list[Found]
) -> bool:
    has_cue = not cues.isdisjoint(lower[sent.start : sent.end])
    main_first = bool(in_sent) and in_sent[0].key == main
    return has_cue and (main_first or lower[sent.start] in {"it", "its"})


def find_relations(
    doc: Doc, found: list[Found], proposed: list[str]
) -> list[tuple[str, RelationType, str, int]]:
    """(head key, relation, tail key, sentence index) for every relation the rules read."""
    if not proposed:
        return []
    cues = load_cues()
    lower = lowers(doc)
    types = {f.key: f.type for f in found}
    systems = [k for k in proposed if types.get(k) in _SYSTEMS]
    main = systems[0] if systems else proposed[0]
    # a paper that proposes only a dataset or benchmark: no "the dataset uses X"
    main_is_system = types.get(main) in _SYSTEMS
    out: dict[tuple[str, RelationType, str], int] = {}

    # the evidence for a relation is best a sentence that names both ends
    named = {(f.key, f.sent) for f in found}

    def add(head: str, rel: RelationType, tail: str, sentence: int) -> None:
        if head == tail:
            return
        key = (head, rel, tail)
        if key not in out or ((head, out[key]) not in named and (head, sentence) in named):
            out[key] = sentence

    for index, sent in enumerate(doc.sents):
        in_sent = [f for f in found if f.sent == index]
        beaten: set[str] = set()
        strong = cues.strong_comparison_cues
        cue = next((i for i in range(sent.start, sent.end) if lower[i] in strong), None)
        if cue is not None and main_is_system:
            for f in in_sent:
                if f.span.start > cue and f.type in _SYSTEMS and f.key not in proposed:
                    add(main, RelationType.OUTPERFORMS, f.key, index)
                    beaten.add(f.key)
        for f in in_sent:
            if f.key == main or f.key in beaten:
                continue
            if f.key in proposed:
                if f.key.startswith(main) or _is_component_sentence(
                    lower, sent, cues.component_cues, main, in_sent
                ):
                    add(f.key, RelationType.PART_OF, main, index)
                continue
            if not main_is_system:
                continue
            window = set(lower[max(sent.start, f.span.start - 4) : f.span.start])
            if f.type in _RESOURCE:
                if window & {"trained", "training", "train", "fine-tuned", "pretrained"}:
                    add(main, RelationType.USES, f.key, index)
                else:
                    add(main, RelationType.EVALUATED_ON, f.key, index)
            elif f.type is EntityType.MODEL:
                add(main, RelationType.USES, f.key, index)
            elif f.type is EntityType.METHOD and window & cues.method_use_cues:
                add(main, RelationType.USES, f.key, index)
    # name-derived parts: V₁-Infer is part of V₁
    for key in proposed:
        if key != main and key.startswith(main):
            out.setdefault((key, RelationType.PART_OF, main), 0)
    return [(h, r, t, s) for (h, r, t), s in out.items()]
