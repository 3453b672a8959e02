"""A tokenizer for ML names: hyphenated names stay one token (Qwen2.5-Math-7B-Instruct)."""

from __future__ import annotations

from spacy.lang.char_classes import HYPHENS
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex


def customize_tokenizer(nlp: Language) -> None:
    """Keep hyphenated names whole (Qwen2.5-Math-7B-Instruct, Gemma3-4B), split em-dashes,
    slashes and parentheses inside words, and markdown emphasis (`**X**`)."""
    defaults = nlp.Defaults
    tokenizer = nlp.tokenizer
    assert isinstance(tokenizer, Tokenizer)
    hyphen_rule = f"(?:{HYPHENS})"
    infixes = [
        str(rule).replace(r"[+\-\*^]", r"[+\*^]")  # digit-hyphen-digit: Gemma3-4B, Qwen3-0.6B
        for rule in defaults.infixes or ()
        if hyphen_rule not in str(rule)
    ]
    # split what joins words without being part of a name: "(UniR)—a", "3B/7B", "x)y"
    infixes += [r"—", r"(?<=[0-9A-Za-z])/(?=[0-9A-Za-z])", r"[()]"]
    tokenizer.infix_finditer = compile_infix_regex(infixes).finditer
    tokenizer.prefix_search = compile_prefix_regex([r"\*+", *(defaults.prefixes or ())]).search
    # a sentence-final period after a name: "on GSM8K." (abbreviations are special cases)
    suffixes = [r"\*+", r"(?<=[A-Z0-9])\.", *(defaults.suffixes or ())]
    tokenizer.suffix_search = compile_suffix_regex(suffixes).search
