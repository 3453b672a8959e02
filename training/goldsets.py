"""The annotated abstracts the extractor's models learn from, and the sets it is scored on.

Every record has the shape of ../shared/gold/*.jsonl (`source`, `index`, `head`, `text`,
`entities`, `optional`, `relations`, `results`). The repository keeps only annotations:
the texts of the pool annotations are read from ../shared/gold/pool.jsonl by `id`.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
GOLD = SHARED / "gold"
ANNOTATIONS = HERE / "annotations" / "pool.jsonl"


def read_jsonl(path: Path) -> list[dict]:
    """Every record of a JSON Lines file."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def pool_texts() -> dict[str, str]:
    """Abstracts of ../shared/gold/pool.jsonl by id."""
    path = GOLD / "pool.jsonl"
    if not path.exists():
        raise SystemExit(f"{path} is missing: the pool annotations need their texts")
    return {r["id"]: r["abstract"] for r in read_jsonl(path)}


def is_pool_test(record_id: str) -> bool:
    """The tenth of the pool annotations kept back from training, by a hash of the id."""
    return int(hashlib.sha256(record_id.encode()).hexdigest(), 16) % 10 == 0


def pool(part: str = "train") -> list[dict]:
    """The pool annotations joined with their texts: "train", "test" or "all"."""
    joined = _joined(read_jsonl(ANNOTATIONS), pool_texts())
    if part == "all":
        return joined
    return [r for r in joined if is_pool_test(r["id"]) == (part == "test")]


def _joined(annotations: list[dict], texts: dict[str, str]) -> list[dict]:
    """Annotations by id joined with their texts, in the gold shape; `index` is the
    annotation's line (1-based)."""
    out = []
    for n, r in enumerate(annotations, 1):
        text = texts[r["id"]]
        out.append({"source": r["id"], "index": n, "head": text[:50], "text": text, **r})
    return out


#: a blind helper annotation of seed 004 by GUIDELINE.md (never trained on): its halves
#: are "seed004-odd" and "seed004-even"
SEED004 = HERE / "annotations" / "seed004.jsonl"


#: results annotated by GUIDELINE.md in abstracts of ../shared/data (SciREX and NLP-TDMS,
#: both Apache-2.0) that state figures: only their results are annotated, so they train the
#: result model alone (training/README.md: "Where the training data comes from")
RESULTS_EXTRA = HERE / "annotations" / "results_extra.jsonl"
#: results annotated the same way in the 578 abstracts of ACL, NAACL and COLING papers that
#: state figures (../shared/data/ml_abstracts: the ACL Anthology's, CC BY 4.0), none of them
#: in `ACL` or the pool (training/README.md: "Where the training data comes from")
RESULTS_ACL = HERE / "annotations" / "results_acl.jsonl"
DATA = SHARED / "data"
#: the ACL Anthology's files of ../shared/data/ml_abstracts
ACL_FILES = ("paperlists_acl.jsonl", "paperlists_naacl.jsonl", "paperlists_coling.jsonl")


#: the 271 abstracts of ../shared/data/nlp_tdms (NLP papers of 2014-2018, Apache-2.0),
#: annotated whole by GUIDELINE.md (training/README.md): their results are trained on
TDMS = HERE / "annotations" / "tdms.jsonl"


def _ending(text: str) -> str:
    """The last 200 letters and digits of a text: one paper in both corpora ("document :
    Title … section : Abstract …" in SciREX, its PDF's text in NLP-TDMS) ends alike."""
    return "".join(c for c in text if c.isalnum())[-200:].lower()


def extra_results() -> list[dict]:
    """The result annotations of `RESULTS_EXTRA` and `RESULTS_ACL` joined with their texts, in
    the gold shape (no entities, no relations); those whose corpus ../shared/data lacks are
    left out, with a note."""
    sources = {
        "scirex": (DATA / "scirex" / "train_abstracts.jsonl", "doc_id", "text"),
        "tdms": (DATA / "nlp_tdms" / "abstracts.jsonl", "paper", "abstract"),
    }
    texts: dict[str, str] = {}
    for prefix, (path, key, field) in sources.items():
        if not path.exists():
            print(
                f"{path} is missing: training without the result annotations of {prefix}",
                file=sys.stderr,
            )
            continue
        texts.update({f"{prefix}:{r[key]}": r[field] for r in read_jsonl(path)})
    texts.update(acl_texts("the result annotations of ACL Anthology abstracts"))
    seen: set[str] = set()
    out = []
    annotated = [*read_jsonl(RESULTS_EXTRA), *read_jsonl(RESULTS_ACL)]
    for n, r in enumerate(annotated, 1):
        text = texts.get(r["id"])
        if text is None or _ending(text) in seen:
            continue  # a paper in both corpora is read once
        seen.add(_ending(text))
        out.append(
            {
                "source": r["id"],
                "index": n,
                "head": text[:50],
                "text": text,
                "entities": [],
                "optional": [],
                "relations": [],
                "results": r["results"],
            }
        )
    return out


def tdms() -> list[dict]:
    """The NLP-TDMS annotations joined with their texts; [] with a note when
    ../shared/data/nlp_tdms or the annotations are missing."""
    path = DATA / "nlp_tdms" / "abstracts.jsonl"
    for needed in (path, TDMS):
        if not needed.exists():
            print(f"{needed} is missing: training without NLP-TDMS", file=sys.stderr)
            return []
    texts = {f"tdms:{r['paper']}": r["abstract"] for r in read_jsonl(path)}
    return _joined(read_jsonl(TDMS), texts)


#: abstracts of ACL, NAACL and COLING papers in ../shared/data/ml_abstracts (the ACL
#: Anthology's, CC BY 4.0), annotated whole by GUIDELINE.md (training/README.md)
ACL = HERE / "annotations" / "acl.jsonl"


def acl_texts(what: str) -> dict[str, str]:
    """The abstracts of `ACL_FILES` by id; {} with a note naming the missing file when one is
    (training goes on without `what`)."""
    paths = [DATA / "ml_abstracts" / name for name in ACL_FILES]
    for needed in paths:
        if not needed.exists():
            print(f"{needed} is missing: training without {what}", file=sys.stderr)
            return {}
    return {r["id"]: r["abstract"] for path in paths for r in read_jsonl(path)}


def acl() -> list[dict]:
    """The ACL Anthology annotations joined with their texts; [] with a note when
    ../shared/data/ml_abstracts or the annotations are missing."""
    if not ACL.exists():
        print(f"{ACL} is missing: training without the ACL annotations", file=sys.stderr)
        return []
    texts = acl_texts("the ACL annotations")
    return _joined(read_jsonl(ACL), texts) if texts else []


def stage_extra(whole: bool = False) -> dict[str, list[dict]]:
    """The records each stage learns from beside the pool and train.jsonl: the results of the
    NLP-TDMS abstracts and of SciREX's teach the result model, each paper once
    (training/README.md: read by the entity model too, NLP-TDMS gained the cross-validation
    and lost every held-out set); with `whole`, the ACL Anthology annotations teach every
    stage too (measured and left out: training/README.md)."""
    out: dict[str, dict] = {}
    for r in tdms() + extra_results():  # the whole annotation first, its copies left out
        out.setdefault(_ending(r["text"]), r)
    stages = {"result": list(out.values())}
    more = acl() if whole else []
    if more:
        for stage in ("entity", "proposed", "relation"):
            stages[stage] = more
        stages["result"] = more + stages["result"]
    return stages


def _halves(records: list[dict], name: str) -> list[dict]:
    """The records of the odd or even `index` when `name` ends in -odd or -even, else all."""
    if name.endswith("-odd"):
        return [r for r in records if r["index"] % 2 == 1]
    if name.endswith("-even"):
        return [r for r in records if r["index"] % 2 == 0]
    return records


def gold(name: str) -> list[dict]:
    """A gold set: dev, gsap, train, train-odd, train-even (by `index`), pool-train,
    pool-test, pool, seed004, seed004-odd, seed004-even, tdms, acl, acl-odd or acl-even."""
    if name.startswith("pool"):
        return pool({"pool": "all", "pool-train": "train", "pool-test": "test"}[name])
    if name.startswith("train"):
        return _halves(read_jsonl(GOLD / "train.jsonl"), name)
    if name.startswith("seed004"):
        return _halves(read_jsonl(SEED004), name)
    if name == "tdms":
        return tdms()
    if name.startswith("acl"):
        return _halves(acl(), name)
    files = {"dev": "dev.jsonl", "gsap": "gsap_abstracts.jsonl"}
    return read_jsonl(GOLD / files[name])


def score(records: list[dict], predictions: list[dict], out: Path, verbose: bool = False) -> str:
    """What ../shared/gold/score.py prints for `predictions` against `records`, both written
    to `out` (gold.jsonl, pred.jsonl) first."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "gold.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (out / "pred.jsonl").write_text("".join(json.dumps(p) + "\n" for p in predictions))
    command = [sys.executable, str(GOLD / "score.py"), str(out / "gold.jsonl")]
    command += [str(out / "pred.jsonl"), *(["--verbose"] if verbose else [])]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout
