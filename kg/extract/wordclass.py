"""One character per token for each scan the rules make, computed once per Doc.

The candidate and feature rules look for runs of capitalised words, names after "called",
proposal verbs after "we", head nouns near a name... Done token by token in Python, each
scan costs as much as spaCy's tokenizer. Instead every word is classified once (cached by
word, since words repeat) into a few characters, a Doc's classes are joined into strings,
and the scans are regular expressions and substring tests on those strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.lang.lex_attrs import is_punct
from spacy.pipeline import Sentencizer
from spacy.tokens import Doc

from kg.extract.cues import load_cues
from kg.extract.families import model_family
from kg.extract.shapes import is_name_shape, is_weak_name_shape
from kg.extract.texts import Known, words
from kg.model import EntityType

#: words that join the capitalised words of one name: "Unified Alignment for Agents"
JOINERS = load_cues().name_joiners  # kg/data/cues.json
LIST_JOINERS = frozenset({"and", "&"})
OPEN_QUOTES = {'"': '"', "“": "”", "‘": "’", "'": "'"}
TRAIN_WORDS = load_cues().train_words  # kg/data/cues.json
EVAL_WORDS = load_cues().eval_words  # kg/data/cues.json
VERSUS = load_cues().versus_cues  # kg/data/cues.json
EXAMPLES = load_cues().example_cues  # kg/data/cues.json

#: bits of the cue class (`WordClasses.cue`): a comparison, "than"/"versus", "such as"
CMP, VS, EX = 1, 2, 4
#: the cue character of a word with no bit set (no cue), the base of every cue character
NO_CUE = chr(64)
#: the cue characters that carry each bit
CUE_CHARS = {
    bit: frozenset(chr(ord(NO_CUE) + b) for b in range(8) if b & bit) for bit in (CMP, VS, EX)
}
#: the head-noun class of each type (`WordClasses.head`)
HEAD_CHARS = {
    EntityType.METHOD: "M",
    EntityType.MODEL: "m",
    EntityType.DATASET: "D",
    EntityType.BENCHMARK: "B",
    EntityType.TASK: "T",
    EntityType.METRIC: "R",
}
HEAD_TYPES = {c: t for t, c in HEAD_CHARS.items()}


@dataclass(frozen=True)
class WordClasses:
    """A Doc's classes, one character per token in each string.

    - `shape`: s a coined name's shape (ReaForest, GRPO), w a name only in context
      (Video-Holmes), m a model's name in lower case (gpt-3.5-turbo, o1-preview), / a
      slash, . other;
    - `phrase`: A a capitalised word (a: a capitalised stop word), B b a capitalised
      compound, N n a naming cue (called, dubbed; N capitalised, as in "Named Entity"), k
      "and", j another joiner, q an opening quote, . other;
    - `role`: s a proposal's subject (we, this, here), o "our", v a proposal verb,
      p "proposed", t a training word, e an evaluation word, x "baseline(s)", space other;
    - `cue`: `NO_CUE` plus the bits of CMP, VS, EX;
    - `head`: the type whose head noun the word is (`HEAD_CHARS`), or a space.
    """

    shape: str
    phrase: str
    role: str
    cue: str
    head: str
    number: str  #: d for a token that starts like a number (80.6, 7, .5), . otherwise
    cased: str  #: c for a token that may be a name written in any case (not lower-case, a
    #: letter or digit first), . otherwise
    sentence: str  #: f a sentence-final character, p other punctuation, w any other token


def word_classes(doc: Doc) -> WordClasses:
    """The classes of a Doc's tokens, computed once."""
    found = doc.user_data.get("kg_word_classes")
    if found is None:
        codes = "".join(map(_CODES.__getitem__, words(doc)))
        found = doc.user_data["kg_word_classes"] = WordClasses(
            *(codes[k::_WIDTH] for k in range(_WIDTH))
        )
    return found


_WIDTH = 8  #: classes per word


def _classes(word: str) -> str:
    if word.isalpha() and word.islower():
        # most words: no name's shape, no capital, no number, no punctuation
        phrase = (
            "n"
            if word in _NAMING
            else "k"
            if word in LIST_JOINERS
            else "j"
            if word in JOINERS
            else "."
        )
        return "." + phrase + _cue_classes(word) + "..w"
    lower = word.lower()
    number = "d" if word[:1].isdigit() or (word[:1] == "." and word[1:2].isdigit()) else "."
    cased = "." if word.islower() or not word[:1].isalnum() else "c"
    return (
        _shape(word) + _phrase(word, lower) + _cue_classes(lower) + number + cased + _sentence(word)
    )


def _cue_classes(lower: str) -> str:
    """The role, cue and head classes of a lower-case word: those of a cue word, else none."""
    return _CUE_CLASSES.get(lower, " @ ")


#: the classes of every word read so far
_CODES = Known(_classes)
_NAMING = load_cues().naming_cues
_FINAL = frozenset(Sentencizer.default_punct_chars)


def _sentence(word: str) -> str:
    """f: a sentence-final character, p: other punctuation, w: anything else."""
    if word[:1].isalnum():
        return "w"  # a letter or a digit is no punctuation (and no sentence-final character)
    if word in _FINAL:
        return "f"
    return "p" if is_punct(word) else "w"


def _shape(word: str) -> str:
    if not any(map(str.isupper, word)):
        if word == "/":
            return "/"
        # a name's shape, strong or weak, has a capital; a model's version may not
        return "m" if _lower_model(word) else "."
    if is_name_shape(word):
        return "s"
    if is_weak_name_shape(word):
        return "w"
    return "/" if word == "/" else "."


def _lower_model(word: str) -> bool:
    """A lexicon model's variant written in lower case: gpt-3.5-turbo, o3-mini, t5-base."""
    return bool(_LOWER_MODEL.match(word)) and model_family(word) is not None


_LOWER_MODEL = re.compile(r"^[a-z][a-z0-9.]*[-0-9][a-z0-9.\-]*[a-z0-9]$")


def word_kind(word: str) -> int:
    """1 for a capitalised word or name (Heat, GPT-4), 2 for a capitalised compound
    (Long-Range, Video-Holmes), 0 otherwise."""
    if len(word) > 1 and word[0].isupper() and (word.isalpha() or is_name_shape(word)):
        return 1
    if is_weak_name_shape(word) or (
        word[:1].isupper() and "-" in word and word.replace("-", "").isalpha()
    ):
        return 2
    return 0


def _phrase(word: str, lower: str) -> str:
    kind = word_kind(word)
    stop = lower in STOP_WORDS
    if lower in _NAMING:
        return "N" if kind == 1 and not stop else "n"
    if kind:
        return ("a" if stop else "A") if kind == 1 else ("b" if stop else "B")
    if lower in LIST_JOINERS:
        return "k"
    if lower in JOINERS:
        return "j"
    return "q" if word in OPEN_QUOTES else "."


#: the subjects of a proposal but "our" ("we propose", "this paper introduces", "here we")
_SUBJECTS = load_cues().proposal_subjects - {"our"}


def _role(lower: str) -> str:
    if lower == "our":
        return "o"
    if lower == "proposed":
        return "p"
    if lower in _SUBJECTS:
        return "s"
    if lower in load_cues().proposal_verbs:
        return "v"
    if lower in TRAIN_WORDS:
        return "t"
    if lower in EVAL_WORDS:
        return "e"
    return "x" if lower in {"baseline", "baselines"} else " "


def _cue(lower: str) -> str:
    bits = (
        (CMP if lower in load_cues().strong_comparison_cues else 0)
        | (VS if lower in VERSUS else 0)
        | (EX if lower in EXAMPLES else 0)
    )
    return chr(ord(NO_CUE) + bits)


def _head(lower: str) -> str:
    head = load_cues().type_heads.get(lower)
    return HEAD_CHARS[head] if head is not None else " "


#: `_role`, `_cue` and `_head` of every word whose classes are not " @ " (none of them)
_CUE_CLASSES = {
    w: _role(w) + _cue(w) + _head(w)
    for w in {"our", "proposed", "baseline", "baselines"}
    | load_cues().proposal_subjects
    | load_cues().proposal_verbs
    | TRAIN_WORDS
    | EVAL_WORDS
    | load_cues().strong_comparison_cues
    | VERSUS
    | EXAMPLES
    | set(load_cues().type_heads)
}
