"""Run by tests/test_cue_lists.py in a process of its own: each cue list emptied in turn
(a forked child per list, the pipeline built again with the emptied list), the facts of
its sentences printed as JSON. Reads {list name: sentence} as JSON on stdin."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import tempfile
import traceback

import spacy  # noqa: F401 - imported once, before the forks

import kg.extract.cues as cue_module
from kg.model import Extraction, Paper

SHIPPED = cue_module.load_cues()


def facts(ex: Extraction) -> list[str]:
    out = []
    for e in ex.entities:
        out += [f"entity:{e.name}", f"type:{e.name}={e.type.value}"]
        if e.proposed:
            out.append(f"proposed:{e.name}")
    for r in ex.relations:
        head = "paper" if r.head == ex.paper.id else r.head
        out.append(f"relation:{head} {r.relation.value} {r.tail}")
    for r in ex.results:
        out.append(f"result:{r.subject}={r.value}@{r.benchmark}")
    return sorted(out)


def run(emptied: str | None, texts: list[str], path: str) -> None:
    cues = SHIPPED
    if emptied is not None:
        cues = dataclasses.replace(SHIPPED, **{emptied: type(getattr(SHIPPED, emptied))()})
    cue_module.load_cues = lambda: cues  # before any module that reads the cues is imported
    from kg.extract import extract, make_nlp

    papers = [Paper(id="p1", text=t, source="t.txt", line=1, index=1) for t in texts]
    nlp = make_nlp()
    with open(path, "w", encoding="utf-8") as handle:
        json.dump([facts(extract([p], nlp)[0]) for p in papers], handle)


def main() -> None:
    cases = json.load(sys.stdin)  # {list name: its sentence}
    names = sorted(cases)
    jobs = [(None, names)] + [(name, [name]) for name in names]
    out: dict[str, dict[str, list[str]]] = {"shipped": {}, "emptied": {}}
    with tempfile.TemporaryDirectory() as tmp:
        running: list[int] = []
        for n, (emptied, which) in enumerate(jobs):
            pid = os.fork()
            if pid == 0:
                path = os.path.join(tmp, f"{n}.json")
                try:
                    run(emptied, [cases[w] for w in which], path)
                except BaseException:  # the test names the list and shows why
                    with open(path, "w", encoding="utf-8") as handle:
                        json.dump([{"error": traceback.format_exc()}] * len(which), handle)
                finally:
                    os._exit(0)
            running.append(pid)
            if len(running) >= max(1, min(2, os.cpu_count() or 1)):
                os.waitpid(running.pop(0), 0)
        for pid in running:
            os.waitpid(pid, 0)
        for n, (emptied, which) in enumerate(jobs):
            try:
                with open(os.path.join(tmp, f"{n}.json"), encoding="utf-8") as handle:
                    got = json.load(handle)
            except (OSError, ValueError) as error:  # the child died before writing
                got = [{"error": f"no output from its process: {error}"}] * len(which)
            out["emptied" if emptied else "shipped"].update(zip(which, got, strict=True))
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
