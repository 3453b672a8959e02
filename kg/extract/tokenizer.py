"""A tokenizer for ML names: hyphenated names stay one token (Qwen2.5-Math-7B-Instruct)."""

from __future__ import annotations

from spacy.lang.char_classes import HYPHENS
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex


def customize_tokenizer(nlp: Language) -> None:
    """Keep letter-hyphen-letter compounds whole and split markdown emphasis (`**X**`)."""
    defaults = nlp.Defaults
    tokenizer = nlp.tokenizer
    assert isinstance(tokenizer, Tokenizer)
    hyphen_rule = f"(?:{HYPHENS})"
    infixes = [
        str(rule).replace(r"[+\-\*^]", r"[+\*^]")  # digit-hyphen-digit: Gemma3-4B, Qwen3-0.6B
        for rule in defaults.infixes or ()
        if hyphen_rule not in str(rule)
    ]
    tokenizer.infix_finditer = compile_infix_regex(infixes).finditer
    tokenizer.prefix_search = compile_prefix_regex([r"\*+", *(defaults.prefixes or ())]).search
    tokenizer.suffix_search = compile_suffix_regex([r"\*+", *(defaults.suffixes or ())]).search
