"""What extraction reads of a Doc through its caches (kg/extract/texts.py, wordclass.py and
the sentence bounds kg_sentences keeps) is what spaCy's own objects say."""

from __future__ import annotations

import gc

import pytest
from spacy.attrs import SENT_START

from kg.collector import collector_paused
from kg.extract import wordclass
from kg.extract.cues import load_cues
from kg.extract.sentences import SENTENCE_BOUNDS, sentence_bounds
from kg.extract.texts import Known, lowers, offsets, positions, span_text, words

TEXTS = [
    "We propose FooNet, a model for GSM8K. It beats GPT-4 and Qwen2.5-7B (by 4.2%)!",
    "Unlike Smith et al. (2020), we introduce **Heima** — a benchmark; see https://x.org/a.",
    "",
    "ÉCOLE naïve Straße ǅemal ΣΊΣΥΦΟΣ 3ViewSense",
]


@pytest.mark.parametrize("text", TEXTS)
def test_token_texts_and_lower_cases_are_spacys(nlp, text):
    doc = nlp(text)
    again = nlp(text)  # the second Doc reads its words from the caches
    for d in (doc, again):
        assert words(d) == [t.text for t in d]
        assert lowers(d) == [t.lower_ for t in d]
        assert offsets(d) == [t.idx for t in d]


@pytest.mark.parametrize("text", TEXTS)
def test_the_kept_sentence_bounds_are_those_of_the_flags(nlp, text):
    doc = nlp(text)
    if not len(doc):
        assert sentence_bounds(doc) == []
        return
    kept = doc.user_data[SENTENCE_BOUNDS]
    flags = doc.to_array(SENT_START).tolist()
    starts = [0] + [i for i in range(1, len(doc)) if flags[i] == 1]
    assert kept == list(zip(starts, [*starts[1:], len(doc)], strict=True))
    assert kept == [(s.start, s.end) for s in doc.sents]
    del doc.user_data[SENTENCE_BOUNDS]
    assert sentence_bounds(doc) == kept  # read back off SENT_START


def _every_cue_word() -> set[str]:
    cues = load_cues()
    return (
        {"our", "proposed", "we", "this", "here", "baseline", "baselines", "called", "and"}
        | cues.proposal_verbs
        | cues.train_words
        | cues.eval_words
        | cues.strong_comparison_cues
        | cues.versus_cues
        | cues.example_cues
        | set(cues.type_heads)
        | cues.naming_cues
    )


def test_the_cue_classes_looked_up_are_those_the_rules_give():
    # `_CUE_CLASSES` lists every word `_role`, `_cue` or `_head` classes; any other is " @ "
    for word in sorted(_every_cue_word()) + ["model", "xyz", "the", "Our", "DATASET"]:
        lower = word.lower()
        expected = wordclass._role(lower) + wordclass._cue(lower) + wordclass._head(lower)
        assert wordclass._cue_classes(lower) == expected, word


@pytest.mark.parametrize(
    "word", ["model", "FooNet", "GPT-4", ",", ".", "/", "2024", "Video-Holmes", "ǅemal", "।"]
)
def test_a_words_cached_classes_are_its_classes(word):
    assert wordclass._CODES[word] == wordclass._classes(word)
    assert len(wordclass._classes(word)) == 8


def test_a_cache_makes_each_value_once_and_forgets_all_when_full():
    made: list[str] = []

    def make(key: str) -> str:
        made.append(key)
        return key.upper()

    cache = Known(make)
    cache.LIMIT = 2
    assert [cache[k] for k in ["a", "b", "a", "c"]] == ["A", "B", "A", "C"]
    assert made == ["a", "b", "c"]
    cache["d"]  # over the limit: forgotten, then made again
    assert len(cache) == 1 and made == ["a", "b", "c", "d"]


def test_the_collector_is_paused_for_extraction_and_restored():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # left as it was
    finally:
        gc.enable()


@pytest.mark.parametrize(
    "tokens",
    [[], ["as"], ["we", "call", "it", "X", "as", "in", "as", "(", "as"], ["(", "(", "or", "Or"]],
)
def test_positions_are_the_indices_of_the_wanted_tokens_in_order(tokens):
    wanted = frozenset({"as", "call", "(", "Or"})
    assert positions(tokens, wanted) == [i for i, t in enumerate(tokens) if t in wanted]


@pytest.mark.parametrize("text", TEXTS + ["Two  spaces,\nnew line\t tab  end ", "  lead"])
def test_a_spans_text_is_spacys(nlp, text):
    doc = nlp(text)
    for start in range(len(doc)):
        for end in range(start + 1, min(len(doc), start + 6) + 1):
            assert span_text(doc, start, end) == doc[start:end].text
