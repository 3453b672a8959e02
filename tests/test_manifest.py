"""Which files of an exports directory are kg's (kg/export/manifest.py)."""

from __future__ import annotations

import pytest
from conftest import write

from kg.errors import ExportError
from kg.export.manifest import MANIFEST, claim, manifest_text, recorded


def test_a_missing_or_empty_directory_may_be_built_into(tmp_path):
    assert claim(tmp_path / "new") == frozenset()
    (tmp_path / "empty" / "papers").mkdir(parents=True)  # empty folders hold no files
    assert claim(tmp_path / "empty") == frozenset()


def test_only_temporaries_of_a_killed_first_build_are_no_one_elses(tmp_path):
    write(tmp_path / "papers" / ".kg-tmp.p1.html.x1y2.tmp", "half a page")
    assert claim(tmp_path) == frozenset()


def test_a_directory_holding_files_and_no_manifest_is_refused(tmp_path):
    write(tmp_path / "lib" / "helper.js", "mine")
    with pytest.raises(ExportError) as error:
        claim(tmp_path)
    message = str(error.value)
    assert message.startswith(f"{tmp_path}: holds files kg did not write (lib/helper.js)")
    assert "--force" in message and "\n" not in message
    assert claim(tmp_path, force=True) == frozenset()


def test_the_manifest_says_which_files_are_kgs(tmp_path):
    write(tmp_path / MANIFEST, manifest_text(["papers/p.html", "kg.nt", "kg.nt"]))
    write(tmp_path / "notes.md", "mine")
    assert claim(tmp_path) == {"kg.nt", "papers/p.html"}
    text = (tmp_path / MANIFEST).read_text(encoding="utf-8")
    assert text.splitlines()[1:] == ["kg.nt", "papers/p.html"]  # sorted, once each


@pytest.mark.parametrize("line", ["../outside.txt", "/etc/passwd", "a/../../b", "./kg.nt"])
def test_a_manifest_naming_a_file_outside_is_refused(tmp_path, line):
    write(tmp_path / MANIFEST, f"kg.nt\n{line}\n")
    with pytest.raises(ExportError, match=rf"{MANIFEST}:2: .* is not a file under"):
        recorded(tmp_path)


def test_an_unreadable_manifest_is_refused(tmp_path):
    write(tmp_path / MANIFEST, b"kg.nt\n\xff\n")
    with pytest.raises(ExportError, match="cannot read the manifest .not UTF-8."):
        claim(tmp_path, force=True)


def _inside_by_path(name: str) -> bool:
    """What `_inside` decides, as a path object reads it (the definition it replaced)."""
    from pathlib import PurePosixPath

    path = PurePosixPath(name)
    return (
        not path.is_absolute()
        and ".." not in path.parts
        and "\\" not in name
        and str(path) == name
        and name not in {".", MANIFEST}
    )


@pytest.mark.parametrize(
    "name",
    [
        "index.html",
        "papers/a.html",
        "a/b/c.html",
        ".kg-tmp.a.tmp",
        "a..b",
        "..a",
        "a.",
        "",
        ".",
        "..",
        "/etc/passwd",
        "//x",
        "a//b",
        "a/./b",
        "./a",
        "a/",
        "a/..",
        "../a",
        "a/../b",
        "a\\b",
        "\\",
        MANIFEST,
        f"x/{MANIFEST}",
        "...",
        "a/.../b",
        " ",
        "a b",
    ],
)
def test_a_manifest_line_is_read_as_a_path_object_reads_it(name):
    from kg.export.manifest import _inside

    assert _inside(name) == _inside_by_path(name)
