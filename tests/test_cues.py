"""The cue words are data, checked against their schema when read."""

from __future__ import annotations

import json

import pytest

from kg.errors import InputError
from kg.extract.cues import load_cues, read_cues
from kg.resources import data_dir

SHIPPED = data_dir() / "cues.json"


def test_the_shipped_cues_are_valid():
    cues = load_cues()
    assert "propose" in cues.proposal_verbs and cues.type_heads


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda raw: raw.pop("proposal_verbs"), "'proposal_verbs' is a required property"),
        (lambda raw: raw.update(metric_words="accuracy"), "$.metric_words"),
        (lambda raw: raw.update(naming_cues=["dubbed", "dubbed"]), "$.naming_cues"),
        (lambda raw: raw["type_heads"].update(Gadget=["gadget"]), "Gadget"),
        (lambda raw: raw.update(new_list=["x"]), "new_list"),
    ],
)
def test_a_broken_cue_file_is_named_with_its_fault(tmp_path, change, said):
    raw = json.loads(SHIPPED.read_text(encoding="utf-8"))
    change(raw)
    path = tmp_path / "cues.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_cues(path)
    assert str(path) in str(caught.value) and said in str(caught.value)


def test_a_cue_file_that_is_no_json_names_its_line(tmp_path):
    path = tmp_path / "cues.json"
    path.write_text('{\n  "generic_terms": [\n    "x",\n  ]\n}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"cues.json:4: not JSON"):
        read_cues(path)
