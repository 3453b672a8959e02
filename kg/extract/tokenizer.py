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
    # a sentence-final period after a name: "on GSM8K." (abbreviations are special cases)
    suffixes = [r"\*+", r"(?<=[A-Z0-9])\.", *(defaults.suffixes or ())]
    # one new Tokenizer, not three setters: each setter loads the 5,000 special cases again
    # (0.2 s of every build that extracts anything)
    nlp.tokenizer = Tokenizer(
        nlp.vocab,
        rules=tokenizer.rules,
        prefix_search=compile_prefix_regex([r"\*+", *(defaults.prefixes or ())]).search,
        suffix_search=compile_suffix_regex(suffixes).search,
        infix_finditer=compile_infix_regex(infixes).finditer,
        token_match=tokenizer.token_match,
        url_match=tokenizer.url_match,
    )
