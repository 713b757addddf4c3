"""Tokenisation per SPEC §4.4: NFC → UAX-29 words → per-character lowercase → drop non-alnum."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from spanproof.text.tokens import lower_chars, nfc, token_texts, tokenize


def texts(s: str) -> list[str]:
    return [t.text for t in tokenize(s)]


def test_decomposed_and_composed_accents_give_the_same_token() -> None:
    decomposed = "cafe\u0301"
    composed = "caf\u00e9"
    assert decomposed != composed
    assert texts(decomposed) == texts(composed) == ["caf\u00e9"]


def test_offsets_index_the_nfc_form_of_decomposed_input() -> None:
    text = "Cafe\u0301 au lait"
    tokens = tokenize(text)
    assert [(t.start, t.end) for t in tokens] == [(0, 4), (5, 7), (8, 12)]
    assert nfc(text)[tokens[0].start : tokens[0].end] == "Caf\u00e9"


def test_apostrophe_contraction_is_one_token() -> None:
    assert texts("Don't stop") == ["don't", "stop"]


def test_dotted_acronym_is_one_token() -> None:
    assert texts("U.S.A is big") == ["u.s.a", "is", "big"]


def test_decimal_number_is_one_token() -> None:
    assert texts("dose 12.5 mg") == ["dose", "12.5", "mg"]


def test_digit_group_number_is_one_token() -> None:
    assert texts("1,000 cells") == ["1,000", "cells"]


def test_hyphenated_identifier_splits_at_the_hyphen() -> None:
    assert texts("IL-6 levels") == ["il", "6", "levels"]


def test_lowercase_is_per_character_not_casefold() -> None:
    # Sharp s stays "ß" (a full casefold would give "ss"); final sigma is not special-cased.
    assert texts("STRAßE ΣΟΦΟΣ") == ["straße", "σοφοσ"]
    assert lower_chars("İ") == "i\u0307"


def test_tokens_without_alphanumerics_are_dropped() -> None:
    assert texts("hello — world !! ... 😀 ,;") == ["hello", "world"]
    assert tokenize("— !! ... ") == []


def test_empty_text_has_no_tokens() -> None:
    assert tokenize("") == []
    assert token_texts("") == []


def test_no_stopword_list() -> None:
    assert texts("The cat and the hat") == ["the", "cat", "and", "the", "hat"]


def test_rtl_and_non_latin_scripts_tokenize() -> None:
    assert texts("שלום עולם") == ["שלום", "עולם"]
    assert texts("Größe Ärzte") == ["größe", "ärzte"]


def test_token_texts_matches_tokenize() -> None:
    text = "Aspirin (ASA) lowered IL-6 by 12.5% in 2,000 U.S. adults, didn't it?"
    assert token_texts(text) == texts(text)


_PIECE = st.one_of(
    st.characters(),
    st.sampled_from(
        [
            "a",
            "Z",
            "e",
            "\u0301",  # combining acute
            "\u0308",  # combining diaeresis
            "\u05e9",  # hebrew shin
            "\u0627",  # arabic alef
            "\u200f",  # RLM
            "\u200d",  # ZWJ
            "😀",
            "👍🏽",  # emoji + skin tone modifier
            "🇫🇷",  # regional indicator pair
            "1.5",
            "U.S.A",
            "don't",
            "İ",
            "ß",
            "Σ",
            "'",
            ".",
            ",",
            "-",
            "1",
            " ",
            "\n",
            "_",
        ]
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECE, max_size=40).map("".join))
def test_token_offsets_slice_back_to_the_token(text: str) -> None:
    normal = nfc(text)
    tokens = tokenize(text)
    previous_end = 0
    for token in tokens:
        assert 0 <= previous_end <= token.start < token.end <= len(normal)
        assert lower_chars(normal[token.start : token.end]) == token.text
        assert any(ch.isalnum() for ch in token.text)
        previous_end = token.end
    assert token_texts(text) == [t.text for t in tokens]


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECE, max_size=30).map("".join))
def test_tokens_are_invariant_under_normalization_form(text: str) -> None:
    assert token_texts(unicodedata.normalize("NFD", text)) == token_texts(text)
