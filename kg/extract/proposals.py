"""What a paper introduces: the proposal rules, and the proposed model that weighs them with
how the abstract speaks of each entity ("we propose X", "our X", "X, a novel ...", the
repository name of its code URL)."""

from __future__ import annotations

import re

from spacy.tokens import Doc

from kg.extract.classifier import LinearModel
from kg.extract.cues import Cues, load_cues
from kg.extract.found import Found
from kg.extract.sentences import sentence_bounds
from kg.extract.texts import lowers
from kg.extract.wordclass import word_classes
from kg.model import EntityType

_STOP_PROPOSAL = load_cues().proposal_object_stop  # kg/data/cues.json
_NOVEL = load_cues().novelty_words  # kg/data/cues.json


def proposed_keys(doc: Doc, found: list[Found]) -> dict[str, str]:
    """Keys of the entities the rules read as introduced, in order of first proposal, each
    with the reason: "verb" (we propose X), "our" (our X) or "component" (X comprises Y)."""
    cues = load_cues()
    naming = cues.naming_cues
    lower = lowers(doc)
    out: dict[str, str] = {}
    verbs = proposal_verbs_of(doc)
    by_sentence: dict[int, list[Found]] = {}
    for f in found:
        by_sentence.setdefault(f.sent, []).append(f)
    for n, (start, end) in enumerate(sentence_bounds(doc)):
        in_sent = by_sentence.get(n)
        if not in_sent:
            continue
        verb = verbs[n]
        if verb is not None:
            last: Found | None = None
            for f in in_sent:
                if f.start < verb or f.known or f.type is EntityType.METRIC:
                    continue
                words = set(lower[(last.end if last else verb) : f.start])
                if last is not None and not (
                    words <= {",", "and", "or", "*", "**", "(", ")"}
                    or words & naming
                    or words & cues.proposal_verbs
                ):
                    break
                if last is None and words & _STOP_PROPOSAL and out:
                    break
                out.setdefault(f.key, "verb")
                last = f
        for f in in_sent:  # "our X"
            if f.start > 0 and lower[f.start - 1] == "our" and not f.known:
                out.setdefault(f.key, "our")
        main = next(iter(out), None)
        if main and is_component_sentence(lower, start, end, cues.component_cues, main, in_sent):
            for f in in_sent:
                if not f.known and f.type is not EntityType.METRIC:
                    out.setdefault(f.key, "component")
    return out


def proposal_verbs_of(doc: Doc) -> list[int | None]:
    """The proposal verb of every sentence ("we propose", "this paper introduces"), if any."""
    found = doc.user_data.get("kg_proposal_verbs")
    if found is None:
        roles = word_classes(doc).role
        found = doc.user_data["kg_proposal_verbs"] = [
            m.end() - 1 if (m := _VERB_AFTER_SUBJECT.search(roles, a, b)) else None
            for a, b in sentence_bounds(doc)
        ]
    return found


#: the first proposal verb after the first subject of a sentence, in the role classes
#: (`WordClasses.role`: s "we", "this", "here"; o "our"; v a proposal verb; p "proposed")
_VERB_AFTER_SUBJECT = re.compile(r"[so].*?[vp]")


def is_component_sentence(
    lower: list[str], start: int, end: int, cues: frozenset[str], main: str, in_sent: list[Found]
) -> bool:
    """A sentence that lists the parts of the main contribution ("X comprises A and B")."""
    has_cue = not cues.isdisjoint(lower[start:end])
    main_first = bool(in_sent) and in_sent[0].key == main
    return has_cue and (main_first or lower[start] in {"it", "its"})


def proposed_features(
    doc: Doc, found: list[Found], key: str, rules: dict[str, str], urls: str
) -> list[str]:
    """The proposed model's features of the entity `key`."""
    cues = load_cues()
    lower = lowers(doc)
    mine = [f for f in found if f.key == key]
    first = mine[0]
    out = [f"type:{first.type.value}", f"n:{min(len(mine), 4)}"]
    if key in rules:
        why = rules[key]
        out += ["rule", f"rule:{why}", f"rule|type:{first.type.value}"]
        if next(iter(rules)) == key:
            out.append("rule_first")
    if first.known:
        out.append("known")
    bounds = sentence_bounds(doc)
    verbs = proposal_verbs_of(doc)
    proposal_sents = [n for n, v in enumerate(verbs) if v is not None]
    out.append(f"first_sent:{min(first.sent, 3)}")
    if proposal_sents and first.sent < proposal_sents[0]:
        if not _our_appos(clause_before(lower, bounds, first)):
            out.append("before_proposal")  # not "Our method, X, …" before "We propose Y"
    seen: set[str] = set()
    for f in mine:
        a, b = f.start, f.end
        prev1 = lower[a - 1] if a > 0 else "<s>"
        prev2 = lower[a - 2] if a > 1 else "<s>"
        seen.add(f"p1:{prev1}")
        if prev2 in _NOVEL or prev2 in cues.proposal_verbs or prev2 in cues.naming_cues:
            seen.add(f"p2:{prev2}")
        verb = verbs[f.sent]
        if verb is not None and verb < a:
            gap = a - verb
            seen.add(
                "after_verb:"
                + ("1" if gap == 1 else "2-3" if gap <= 3 else "4-8" if gap <= 8 else "9+")
            )
            between = set(lower[verb + 1 : a])
            if between & cues.naming_cues:
                seen.add("named_after_verb")
            if not any(g.start > verb and g.start < a for g in found if g.key != key):
                seen.add("first_after_verb")
        if prev1 in cues.naming_cues:
            seen.add("named")
        window = lower[b : b + 5]
        if window[:1] in ([","], ["("]) and set(window[1:]) & _NOVEL:
            seen.add("appos_novel")
        if f.sent > 0 and lower[bounds[f.sent][0]] in {"our", "we"}:
            seen.add("our_sentence")
        before = clause_before(lower, bounds, f)
        if _our_appos(before):
            seen.add("our_appos")  # "our method, X"
        if f is first:
            seen.update(before_features(before, cues))
    out += sorted(seen)
    if len(key) > 3 and key in urls:
        out.append("in_url")
    return out


#: the words before a mention that `before_features` reads (cut at its clause's start)
CLAUSE_WORDS = 6


def clause_before(lower: list[str], bounds: list[tuple[int, int]], f: Found) -> list[str]:
    """The `CLAUSE_WORDS` words before the mention `f`, within its sentence."""
    return lower[max(bounds[f.sent][0], f.start - CLAUSE_WORDS) : f.start]


def _our_appos(before: list[str]) -> bool:
    """Whether the words before a mention name it by "our": "our method, X"."""
    return before[-1:] in ([","], [":"]) and "our" in before[:-1]


def prior_work_cues(doc: Doc, f: Found) -> list[str]:
    """`before_features` of the words before the mention `f` in its sentence."""
    return before_features(clause_before(lowers(doc), sentence_bounds(doc), f), load_cues())


def before_features(before: list[str], cues: Cues) -> list[str]:
    """What the words of its clause before a name's first mention say of someone else's
    work: "existing methods such as X", "compared with X", "the popular X"."""
    cut = max((i + 1 for i, w in enumerate(before) if w in _CLAUSE_ENDS), default=0)
    before = before[cut:]
    out = []
    if not cues.prior_work_words.isdisjoint(before):
        out.append("prior_before")
    if not cues.example_cues.isdisjoint(before[-4:]):
        out.append("example_before")
    if not cues.versus_words.isdisjoint(before):
        out.append("versus_before")
    return out


_CLAUSE_ENDS = frozenset({",", ";", ":", "(", ")"})


def decide_proposed(
    doc: Doc, found: list[Found], urls: str, model: LinearModel | None
) -> tuple[list[str], dict[str, list[str]]]:
    """Keys the paper proposes, in order of first mention (by the model; by the rules
    alone when there is none), and each key's features."""
    rules = proposed_keys(doc, found)
    keys = list(dict.fromkeys(f.key for f in found))
    features = {k: proposed_features(doc, found, k, rules, urls) for k in keys}
    if model is None:
        return list(rules), features
    chosen = {k for k in keys if model.predict(features[k])[0] == "yes"}
    return [k for k in keys if k in chosen], features
