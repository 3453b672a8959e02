"""Score extractions against a gold file, by ../shared/gold/GUIDELINE.md.

The figures agree with the reference scorer `score.py` (a test checks it): records pair by
their text, names match after `kg.names.fold`, Dataset and Benchmark are one type in the
lenient mode, optional strings neither gain nor lose, and a second prediction for one gold
entity is a false positive.
"""

from __future__ import annotations

import difflib
import json
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kg.errors import InputError
from kg.ingest.structured import loads_json
from kg.ingest.text import split_lines
from kg.names import fold

if TYPE_CHECKING:
    from spacy.language import Language

CORE = ("Method", "Model", "Dataset", "Benchmark")
SCORED_RELATIONS = ("outperforms", "evaluated_on", "uses", "part_of")
MODES = ("strict", "lenient", "name")
LABELS = (*MODES, *CORE, "proposed", "relation")
#: scored only where a gold record carries results
RESULT = "result"
_LENIENT = {"Dataset": "Resource", "Benchmark": "Resource"}


@dataclass
class Counts:
    """True positives, false positives and false negatives per label."""

    tp: Counter[str] = field(default_factory=Counter)
    fp: Counter[str] = field(default_factory=Counter)
    fn: Counter[str] = field(default_factory=Counter)

    def prf(self, label: str) -> tuple[float, float, float]:
        """Precision, recall and F1 of one label (0.0 where undefined)."""
        tp, fp, fn = self.tp[label], self.fp[label], self.fn[label]
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)


@dataclass(frozen=True)
class Report:
    """Figures of one evaluation and the errors behind them, per abstract."""

    figures: dict[str, tuple[float, float, float]]
    abstracts: int
    unmatched: int
    errors: tuple[tuple[str, tuple[str, ...]], ...]
    notes: dict[str, int]

    def as_json(self) -> dict:
        """The figures in the reference scorer's --json shape."""
        out: dict = {
            label: dict(zip(("p", "r", "f1"), (round(x, 4) for x in prf), strict=True))
            for label, prf in self.figures.items()
        }
        out["abstracts"] = self.abstracts
        out["unmatched_abstracts"] = self.unmatched
        out["notes"] = self.notes
        return out


def load_jsonl(path: Path) -> list[dict]:
    """Records of a JSON Lines file; a line that does not parse names the file and line."""
    records: list = []  # any JSON value: each is checked by its reader (kg.evaluate.gold)
    try:
        lines = split_lines(path.read_text(encoding="utf-8-sig"))  # a BOM is no record
    except FileNotFoundError:
        raise InputError(path, "no such file or directory") from None
    except UnicodeDecodeError as error:
        raise InputError(path, f"not UTF-8 ({error.reason})") from None
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                records.append(loads_json(line))
            except json.JSONDecodeError as error:
                raise InputError(path, f"not JSON: {error.msg}", line=number) from None
            except ValueError as error:  # a crafted line: 5,000 [, a number of 5,000 digits
                raise InputError(path, f"not JSON: {error}", line=number) from None
    return records


def _text_key(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold() if c.isalnum())


def _names(entity: dict) -> set[str]:
    return {n for n in (fold(entity["name"]), *(fold(a) for a in entity.get("aliases") or ())) if n}


def _pair(gold: Sequence[dict], predicted: Sequence[dict]) -> list[dict | None]:
    exact = {_text_key(p.get("text", "")): p for p in predicted}
    openings = [(_text_key(p.get("text", ""))[:300], p) for p in predicted]
    paired: list[dict | None] = []
    for g in gold:
        key = _text_key(g.get("text") or g["head"])
        hit = exact.get(key)
        if hit is None:
            ratios = [
                (difflib.SequenceMatcher(None, key[:300], o, autojunk=False).ratio(), i)
                for i, (o, _) in enumerate(openings)
            ]
            best = max(ratios, default=(0.0, -1))
            hit = openings[best[1]][1] if best[0] >= 0.85 else None
        paired.append(hit)
    return paired


def _miss(counts: Counts, etype: str, proposed: bool) -> None:
    for mode in MODES:
        counts.fp[mode] += 1
    counts.fp[etype] += 1
    counts.fp["proposed"] += proposed


def _score(gold: dict, pred: dict, counts: Counts, notes: Counter[str]) -> list[str]:
    errors: list[str] = []
    core = [e for e in gold["entities"] if e["type"] in CORE]
    gold_names = [_names(e) for e in core]
    all_gold = set().union(*gold_names) if gold_names else set()
    optional = {fold(o) for o in gold.get("optional") or ()}
    optional |= {n for e in gold["entities"] if e["type"] not in CORE for n in _names(e)}
    text = fold(pred.get("text") or gold.get("text") or "")
    matched: dict[int, dict] = {}
    resolved: dict[str, int | None] = {}
    for p in pred.get("entities") or ():
        names = {n for n in _names(p) if n in text or n in all_gold}
        if p.get("type") not in CORE:
            if names and not (names & all_gold or names & optional):
                notes["unscored non-core entities"] += 1
            continue
        if not names:
            _miss(counts, p["type"], bool(p.get("proposed")))
            errors.append(f"  UNGROUNDED {p['type']} {p['name']} (no name occurs in the text)")
            continue
        hit = next((i for i, g in enumerate(gold_names) if names & g), None)
        for n in names:
            resolved.setdefault(n, hit)
        if hit is None:
            if not names & optional:
                _miss(counts, p["type"], bool(p.get("proposed")))
                errors.append(f"  FP {p['type']:<9} {p['name']}")
            continue
        if hit in matched:
            for mode in MODES:
                counts.fp[mode] += 1
            errors.append(f"  DUP {p['type']:<8} {p['name']} (same as {matched[hit]['name']})")
            continue
        matched[hit] = p
        g = core[hit]
        counts.tp["name"] += 1
        if p["type"] == g["type"]:
            counts.tp["strict"] += 1
            counts.tp[g["type"]] += 1
        else:
            counts.fp["strict"] += 1
            counts.fn["strict"] += 1
            counts.fp[p["type"]] += 1
            counts.fn[g["type"]] += 1
            errors.append(f"  TYPE {p['name']}: {p['type']} should be {g['type']}")
        same = _LENIENT.get(p["type"], p["type"]) == _LENIENT.get(g["type"], g["type"])
        (counts.tp if same else counts.fp)["lenient"] += 1
        if not same:
            counts.fn["lenient"] += 1
        gp, pp = bool(g.get("proposed")), bool(p.get("proposed"))
        counts.tp["proposed"] += gp and pp
        counts.fp["proposed"] += pp and not gp
        counts.fn["proposed"] += gp and not pp
    for i, g in enumerate(core):
        if i not in matched:
            for mode in MODES:
                counts.fn[mode] += 1
            counts.fn[g["type"]] += 1
            counts.fn["proposed"] += bool(g.get("proposed"))
            errors.append(f"  FN {g['type']:<9} {g['name']}")
    errors += _score_relations(gold, pred, core, resolved, optional, counts)
    if "results" in gold:
        errors += _score_results(gold, pred, core, resolved, counts)
    return errors


def _value(value: object) -> float | None:
    try:
        return round(float(value), 6)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def _score_results(
    gold: dict, pred: dict, core: list[dict], resolved: dict[str, int | None], counts: Counts
) -> list[str]:
    """Results: subject, value and benchmark must all match (metric and unit are not
    scored); a subject or benchmark matches by any name of the same gold entity."""
    index = {n: i for i, g in enumerate(core) for n in _names(g)}

    def who(name: object) -> object:
        n = fold(str(name or ""))
        if not n:
            return None
        return index[n] if n in index else resolved.get(n, ("?", n))

    def key(r: dict) -> tuple:
        return who(r.get("subject")), _value(r.get("value")), who(r.get("benchmark"))

    wanted = {key(r) for r in gold.get("results") or ()}
    got = {k for k in map(key, pred.get("results") or ()) if k[1] is not None}
    counts.tp[RESULT] += len(wanted & got)
    counts.fp[RESULT] += len(got - wanted)
    counts.fn[RESULT] += len(wanted - got)
    errors = [
        f"  FN result {r['subject']} = {r['value']} on {r.get('benchmark')}"
        for r in gold.get("results") or ()
        if key(r) not in got
    ]
    errors += [
        f"  FP result {r.get('subject')} = {r.get('value')} on {r.get('benchmark')}"
        for r in pred.get("results") or ()
        if key(r)[1] is not None and key(r) not in wanted
    ]
    return errors


def _score_relations(
    gold: dict,
    pred: dict,
    core: list[dict],
    resolved: dict[str, int | None],
    optional: set[str],
    counts: Counts,
) -> list[str]:
    errors = []
    index = {n: i for i, g in enumerate(core) for n in _names(g)}
    wanted = set()
    for head, rel, tail in gold.get("relations") or ():
        h, t = index.get(fold(head)), index.get(fold(tail))
        if h is not None and t is not None:
            wanted.add((h, rel, t))
    got = set()
    for r in pred.get("relations") or ():
        if isinstance(r, list):  # the gold form [head, relation, tail]
            r = dict(zip(("head", "relation", "tail"), r, strict=False))
        if r.get("relation") not in SCORED_RELATIONS:
            continue
        hn, tn = fold(r.get("head", "")), fold(r.get("tail", ""))
        if hn not in resolved or tn not in resolved:
            continue
        h, t = resolved[hn], resolved[tn]
        if h is None or t is None:
            if hn not in optional and tn not in optional:
                counts.fp["relation"] += 1
                errors.append(f"  FP relation {r.get('head')} {r.get('relation')} {r.get('tail')}")
            continue
        got.add((h, r["relation"], t))
    counts.tp["relation"] += len(wanted & got)
    counts.fp["relation"] += len(got - wanted)
    counts.fn["relation"] += len(wanted - got)
    for h, rel, t in sorted(wanted - got):
        errors.append(f"  FN relation {core[h]['name']} {rel} {core[t]['name']}")
    for h, rel, t in sorted(got - wanted):
        errors.append(f"  FP relation {core[h]['name']} {rel} {core[t]['name']}")
    return errors


def evaluate(gold: Sequence[dict], predicted: Iterable[dict]) -> Report:
    """Score predicted records against gold records (both in the scorer's JSON shape)."""
    pairs = _pair(gold, list(predicted))
    counts, notes = Counts(), Counter[str]()
    errors = []
    for g, p in zip(gold, pairs, strict=True):
        found = _score(g, p or {"entities": [], "relations": []}, counts, notes)
        if p is None:
            found.insert(0, "  (no predicted record for this abstract)")
        if found:
            head = g.get("head") or (g.get("text") or "")[:50]
            errors.append(
                (f"{g.get('source', 'gold')} #{g.get('index', '?')}: {head}", tuple(found))
            )
    labels = (*LABELS, RESULT) if any("results" in g for g in gold) else LABELS
    return Report(
        figures={label: counts.prf(label) for label in labels},
        abstracts=len(gold),
        unmatched=sum(p is None for p in pairs),
        errors=tuple(errors),
        notes=dict(notes),
    )


def format_report(report: Report, verbose: bool = False) -> str:
    """The figures as the reference scorer prints them; with `verbose`, every error first."""
    lines = []
    if verbose:
        for head, errors in report.errors:
            lines += [head, *errors]
        lines.append("")
    lines.append(f"abstracts: {report.abstracts}, with no predicted record: {report.unmatched}")
    for label, figures in report.figures.items():
        # rounded to four places first, as the reference scorer rounds them: 0.98255 is
        # 0.983 there (0.9826), and printed straight, 0.982
        p, r, f = (round(x, 4) for x in figures)
        lines.append(f"{label:<10} P {p:.3f}  R {r:.3f}  F1 {f:.3f}")
    lines += [f"({note}: {n})" for note, n in sorted(report.notes.items())]
    return "\n".join(lines) + "\n"


def extract_gold_texts(gold: Sequence[dict], nlp: Language | None = None) -> list[dict]:
    """Run kg's extractor (`nlp`, or the shipped pipeline) on the abstracts of a gold file,
    linked across them as `kg build` links; records in the scorer's shape."""
    from kg.export.extractions import extraction_record
    from kg.extract import extract
    from kg.ingest import paper_id
    from kg.link import link
    from kg.model import Paper

    papers: dict[str, Paper] = {}
    for n, g in enumerate(gold, 1):
        if not g.get("text"):
            raise InputError(
                g.get("source", "gold"), "gold record has no text to extract from", line=n
            )
        pid = paper_id(g["text"])
        papers.setdefault(
            pid,
            Paper(
                id=pid,
                text=g["text"],
                source=str(g.get("source", "")),
                line=n,
                index=int(g.get("index", n)),
            ),
        )
    kg = link(extract(papers.values(), nlp))
    keys = kg.entity_key_of()
    return [extraction_record(ex, keys) for ex in kg.extractions]
