"""Tokenisation per SPEC §4.4: NFC → UAX-29 words → per-character lowercase → drop non-alnum."""

from __future__ import annotations

import itertools
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spanproof.text.tokens import lower_chars, nfc, number_segments, segments, token_texts, tokenize


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


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        ("Lower mortality (P < .001) and (P=.04).", [".001", ".04"]),
        ("A ratio of .85 in the trial", [".85"]),
        (".5 of them", [".5"]),
        ("gained 2\u00b79 years (2\u00b79-3\u00b70)", ["2\u00b79", "2\u00b79", "3\u00b70"]),
        ("in 671 945 women and 10\u2009000 men", ["671 945", "10\u2009000"]),
        ("n = 1 234 567 people", ["1 234 567"]),
        # not decimals: a dot after a letter or a closing bracket (a footnote)
        ("cells.5 and (OMIM 608612).12 These", ["5", "608612", "12"]),
        # not one figure: a hyphen or a dot before the first group, a group of two or four
        ("aged 60-64 100 patients", ["60", "64", "100"]),
        ("in 2010 2 000 patients and 12 34 mice", ["2010", "2 000", "12", "34"]),
        ("dose 12.5 mg and 1,500 units", ["12.5", "1,500"]),
    ],
)
def test_number_segments_keep_a_figure_word_segmentation_splits(
    text: str, figures: list[str]
) -> None:
    found = [seg for seg, _, _ in number_segments(text) if any(c.isdigit() for c in seg)]
    assert found == figures


def test_tokens_keep_plain_word_segmentation_unless_asked() -> None:
    assert texts("P < .001 in 671 945 women") == ["p", "001", "in", "671", "945", "women"]
    assert [t.text for t in tokenize("P < .001 in 671 945 women", number_formats=True)] == [
        "p", ".001", "in", "671 945", "women"
    ]  # fmt: skip
    assert token_texts("2\u00b79 years", number_formats=True) == ["2\u00b79", "years"]


@settings(max_examples=300)
@given(st.text(alphabet=" .,()<=-\u00b7\u2009\u00a0019aB", max_size=40))
def test_number_segments_index_the_text_and_only_widen_figures(text: str) -> None:
    found = number_segments(text)
    assert all(text[start:end] == seg for seg, start, end in found)
    assert all(a[2] <= b[1] for a, b in itertools.pairwise(found))
    words = [seg for seg, _, _ in segments(text) if not any(c.isdigit() for c in seg)]
    assert [seg for seg, _, _ in found if not any(c.isdigit() for c in seg)] == words


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        ("HR \u22121.5 (\u22122.0 to -0.3)", ["\u22121.5", "\u22122.0", "-0.3"]),
        ("r = -0.45, P<.001 at -20 \u00b0C", ["-0.45", ".001", "-20"]),
        ("a loss of -1,000 cells", ["-1,000"]),
        # no minus: a hyphen after a letter, a digit or a closing bracket, a dash before a space
        ("IL-6 in 5-10 (n)-2 and x - 3", ["6", "5", "10", "2", "3"]),
    ],
)
def test_number_segments_with_signs_keep_a_figure_s_minus(text: str, figures: list[str]) -> None:
    found = [
        seg for seg, _, _ in number_segments(text, signs=True) if any(c.isdigit() for c in seg)
    ]
    assert found == figures
    plain = [seg for seg, _, _ in number_segments(text) if any(c.isdigit() for c in seg)]
    assert plain == [f.lstrip("-\u2212") for f in figures]


def test_a_math_minus_and_a_hyphen_minus_are_one_token() -> None:
    assert token_texts("\u22121.5 and -1.5", number_formats=True, signs=True) == [
        "-1.5", "and", "-1.5"
    ]  # fmt: skip
    assert [t.text for t in tokenize("at \u221220 \u00b0C", number_formats=True, signs=True)] == [
        "at", "-20", "c"
    ]  # fmt: skip


@settings(max_examples=300)
@given(st.text(alphabet=" .,()<=-\u2212\u00b7\u2009019aB", max_size=40))
def test_number_segments_with_signs_only_widen_figures_by_their_minus(text: str) -> None:
    signed, plain = number_segments(text, signs=True), number_segments(text)
    assert all(text[start:end] == seg for seg, start, end in signed)
    assert [end for _, _, end in signed] == [end for _, _, end in plain]
    for (seg, start, _), (_, old, _) in zip(signed, plain, strict=True):
        assert start in (old, old - 1) and (start == old or seg[0] in "-\u2212")
