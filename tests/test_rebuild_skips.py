"""What a rebuild after one changed abstract does not do again (issue 16), and that its
exports are still those of a clean build of the changed input."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import SEEDS, files

import kg.rdf
from kg.builder.pipeline import build
from kg.builder.store_step import placed_states
from kg.query.store import file_state


def change_one_word(source: Path) -> str:
    """One word of one abstract in the middle of the file, as a user edits it."""
    lines = source.read_text(encoding="utf-8").splitlines()
    middle = len(lines) // 2
    while " the " not in lines[middle]:
        middle += 1
    lines[middle] = lines[middle].replace(" the ", " this ", 1)
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return lines[middle]


def test_a_rebuild_after_one_word_equals_a_clean_build_of_the_changed_input(source, tmp_path):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache)
    change_one_word(source)
    again = build([source], out, cache_dir=cache)
    assert again.cached == again.papers - 1
    assert again.blocks_reused == again.papers - 1
    build([source], tmp_path / "clean", cache_dir=tmp_path / "other")
    assert files(out) == files(tmp_path / "clean")


def test_a_rebuild_reads_links_only_from_the_abstracts_it_makes_blocks_of(
    source, tmp_path, monkeypatch
):
    out, cache = tmp_path / "out", tmp_path / "cache"
    build([source], out, cache_dir=cache, views="none")
    changed = change_one_word(source)
    read: list[str] = []
    real = kg.rdf.links

    def counted(text: str) -> kg.rdf.Links:
        read.append(text)
        return real(text)

    monkeypatch.setattr(kg.rdf, "links", counted)
    again = build([source], out, cache_dir=cache, views="none")
    made = again.papers - again.blocks_reused
    assert made == 1
    # the changed paper's block, and the entities one paper alone proposes (their links
    # are in the shared block, made by every build); not every abstract, none twice
    assert changed.strip() in read
    assert len(read) < again.papers
    assert len(read) == len(set(read))


def _old_placed_states(out: Path, placed: dict[Path, os.stat_result]) -> list | None:
    """What `placed_states` gave before it stopped resolving every placed file."""
    from kg.query.load import rdf_files

    mine = {path.resolve(): stat for path, stat in placed.items()}
    states = []
    for file in rdf_files([out]):
        if file.resolve() in mine:
            states.append(file_state(file, mine[file.resolve()]))
        elif file.resolve().is_relative_to(out.resolve()):
            return None
        else:
            states.append(file_state(file))
    return states


def test_placed_states_resolves_no_page_and_gives_what_it_did(tmp_path, monkeypatch):
    out = tmp_path / "out"
    (out / "papers").mkdir(parents=True)
    for name in ("kg.ttl", "void.ttl", *(f"papers/{i}.html" for i in range(200))):
        (out / name).write_text(name, encoding="utf-8")
    placed = {out / p.relative_to(out): p.stat() for p in out.rglob("*") if p.is_file()}
    expected = _old_placed_states(out, placed)
    resolved = []
    real = Path.resolve

    def counted(self: Path, strict: bool = False) -> Path:
        resolved.append(self)
        return real(self, strict)

    monkeypatch.setattr(Path, "resolve", counted)
    assert placed_states(out, placed) == expected
    assert expected is not None and len(expected) == 3  # kg.ttl, void.ttl, the ontology
    assert len(resolved) < 20  # not one per placed file (200 pages)
    unplaced = {path: stat for path, stat in placed.items() if path.name != "void.ttl"}
    assert placed_states(out, unplaced) is None  # an RDF file this build did not write


@pytest.mark.parametrize("out", ["/tmp/x", "x", ".", "/", "a/b/", "./a"])
def test_the_writer_names_its_files_as_relative_to_does(out):
    from kg.export.writer import _names

    root = Path(out)
    targets = [root / "papers/q.html", root / "kg.ttl", root / "lib" / "a b.js", root / "x"]
    assert _names(root, targets) == {t.relative_to(root).as_posix() for t in targets}


def test_page_workers_inherit_every_signature_made_once(nlp, tmp_path):
    from kg.builder.pages import PageMemo, draw_all
    from kg.export.views import Signatures, render_views
    from kg.extract import extract
    from kg.graph import to_networkx
    from kg.ingest import read_inputs
    from kg.link import link

    kg = link(extract(read_inputs([SEEDS]), nlp))
    graph = to_networkx(kg)
    forked = render_views(kg, graph, "seeds", "x")
    drawn = list(draw_all(forked, PageMemo(None, tmp_path), workers=2))
    # signed before the page workers forked: they inherit them, none signs a node again
    assert forked.signatures is not None
    assert forked.signatures._made == {n: Signatures(graph)(n) for n in graph.nodes}
    here = render_views(kg, graph, "seeds", "x")
    assert list(draw_all(here, PageMemo(None, tmp_path), workers=1)) == drawn
