"""The exports' Oxigraph store kept in the cache: same answers, never stale."""

from __future__ import annotations

import os
import shutil

from conftest import ROOT

from kg.query.load import load_store, rdf_files
from kg.query.sparql import run_query
from kg.query.store import KEEP, open_store, stores_dir, write_store

QUERY = "SELECT ?s ?p ?o WHERE { ?s ?p ?o }"


def test_a_stored_graph_answers_as_the_files_do(tmp_path, monkeypatch):
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "exports"
    shutil.copytree(ROOT / "exports", out)
    files = rdf_files([out])
    in_memory = set(run_query(QUERY, [out]).rows)  # no store yet: the files are loaded
    assert open_store(files) is None
    write_store(files, [out / "kg.nt" if f == out / "kg.ttl" else f for f in files])
    stored = open_store(files)
    assert stored is not None and len(stored) == len(load_store([out]))
    assert set(run_query(QUERY, [out]).rows) == in_memory
    # a file changed since: its store is not read
    os.utime(out / "void.ttl", ns=(0, 0))
    assert open_store(rdf_files([out])) is None


def test_only_the_latest_stores_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    source = ROOT / "exports" / "void.ttl"
    for n in range(KEEP + 2):
        copy = tmp_path / f"void{n}.ttl"
        shutil.copy(source, copy)
        write_store([copy])
    kept = [p for p in stores_dir().iterdir() if not p.name.startswith(".")]
    assert len(kept) == KEEP
    assert open_store([tmp_path / f"void{KEEP + 1}.ttl"]) is not None  # the newest stays


def test_a_build_writes_the_store_of_its_exports(tmp_path, monkeypatch):
    from kg.builder.pipeline import build

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "exports"
    build([ROOT / "seeds"], out, views="none")
    assert open_store(rdf_files([out])) is not None


def test_a_graph_over_the_limit_is_not_stored(tmp_path, monkeypatch):
    import kg.builder.pipeline
    from kg.builder.pipeline import build

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(kg.builder.pipeline, "STORE_UP_TO", 10)
    out = tmp_path / "exports"
    build([ROOT / "seeds"], out, views="none")
    assert open_store(rdf_files([out])) is None


def test_a_lean_build_stores_its_graph_loaded_from_kg_nt_aside(tmp_path, monkeypatch):
    """No kg.nt among the exports: the store is loaded from the copy kept aside in the
    cache (the fastest to load), and holds what kg.ttl does."""
    import pyoxigraph as ox

    import kg.query.store
    from kg.builder.pipeline import build
    from kg.query.store import load_into

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    loaded = []

    def spy(store, files):
        loaded.append([f.name for f in files])
        load_into(store, files)

    monkeypatch.setattr(kg.query.store, "load_into", spy)
    out = tmp_path / "exports"
    build([ROOT / "seeds"], out, views="none", rdf_formats="turtle")
    [aside] = (tmp_path / "cache" / "blocks").glob("*.kg.nt")
    assert not (out / "kg.nt").exists() and loaded == [[aside.name, "void.ttl", "kg.ttl"]]
    stored = open_store(rdf_files([out]))
    memory = ox.Store()
    load_into(memory, rdf_files([out]))
    assert stored is not None and len(stored) == len(memory) > 4_000
