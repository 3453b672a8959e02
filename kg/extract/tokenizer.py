"""A tokenizer for ML names: hyphenated names stay one token (Qwen2.5-Math-7B-Instruct)."""

from __future__ import annotations

import re

from spacy.attrs import ORTH
from spacy.lang.char_classes import HYPHENS
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex

from kg.extract.cues import load_cues

#: a special case of spaCy's made only of punctuation and digits with a bracket, a colon
#: or an equals sign in it: an emoticon (":)", "):", "(=", "8)", "<3")
_EMOTICON = re.compile(r"(?=.*[()\[\]{}:;=<>|])[^A-Za-z\s]+")
#: a special case of a lower-case letter and its period ("n.", "ü.")
_LETTER_PERIOD = re.compile(r"[^\W\d_A-Z]\.")


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
    # "FigureQA.We": a sentence's period written without its space
    infixes += [
        r"—",
        r"---+",  # LaTeX's em-dash: "Mamba---end-to-end" (its en-dash, "Runge--Kutta", stays)
        r"(?<=[0-9A-Za-z%])/(?=[0-9A-Za-z])",
        r"[()]",
        r"(?<=[0-9A-Za-z])\.(?=[A-Z][a-z])",
        # "ResNet18|MobileNetV2|DeiT-Tiny", "5.61%|3.90%": a bar lists; "5.9%→10.9%",
        # "MNIST↔SVHN" (TeX's `MNIST$\leftrightarrow$SVHN`)
        r"\|",
        r"[→⇒←↔⇔⇐↦]",
        r"(?<=[0-9])%(?=[|/→⇒←↔⇔⇐↦])",  # "45.2%/60.1%": a slash lists figures too
        # "FID=3.88", "F1=85.2", "(Spearman=0.80)": a measure and its figure joined by an
        # equals sign
        r"(?<=[A-Za-z0-9)])=(?=[0-9.])",
    ]
    # a sentence-final period after a name: "on GSM8K." (abbreviations are special cases);
    # units after a digit stay in the name (Math23K, Llama2-7B-128K, 30K), but for "%"
    # "GPT-4-based", "BERT-style", "CLIP-guided": a name inside an adjective is split from it
    adjectives = "|".join(sorted(load_cues().adjective_suffixes))
    suffixes = [
        rf"(?<=[A-Za-z0-9])-(?:{adjectives})",
        # an image resolution after a dataset: "CelebA-64×64", "ImageNet-256x256"
        r"(?<=[A-Za-z0-9])-(?P<side>[0-9]{2,4})[×x](?P=side)",  # square: not ResNet-50x64
        r"\*+",
        r"---+",
        r"(?<=[A-Z0-9])\.",
        # a sentence's period after a symbol: "speeds up by 2.5×. We", "in L∞. Then" (TeX's
        # `$128\times$.`); spaCy's rules split it after letters, digits and brackets only
        r"(?<=[^\w\s.])\.",
        r"(?<=[0-9])%",
        *(rule for rule in defaults.suffixes or () if "km|km²" not in str(rule)),
    ]
    # one new Tokenizer, not three setters: each setter loads the 5,000 special cases again
    # (0.2 s of every build that extracts anything)
    # "Smith et al. (2020)", "w.r.t. the input": a period that ends no sentence stays in its word
    # spaCy's emoticons are no tokens of an abstract: "(GAES):" is "(", "GAES", ")", ":",
    # not "(", "GAES", "):"; "(= {x})" opens a parenthesis
    # a lower-case letter and a period ("n.", spaCy's exceptions for a list's "a. … b. …")
    # is a variable ending a sentence in an abstract: "no polynomial dependence on n. Then"
    rules = {
        k: v
        for k, v in (tokenizer.rules or {}).items()
        if not _EMOTICON.fullmatch(k) and not _LETTER_PERIOD.fullmatch(k)
    }
    for abbreviation in load_cues().dotted_abbreviations:
        rules[abbreviation] = [{ORTH: abbreviation}]
    nlp.tokenizer = Tokenizer(
        nlp.vocab,
        rules=rules,
        prefix_search=compile_prefix_regex([r"\*+", r"---+", *(defaults.prefixes or ())]).search,
        suffix_search=compile_suffix_regex(suffixes).search,
        infix_finditer=compile_infix_regex(infixes).finditer,
        token_match=tokenizer.token_match,
        url_match=tokenizer.url_match,
    )
