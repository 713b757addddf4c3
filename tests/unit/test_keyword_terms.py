"""The keyword terms both store dialects index and search (``spanproof.text.keywords``)."""

from __future__ import annotations

import regex
from hypothesis import given
from hypothesis import strategies as st

from spanproof.text.keywords import (
    MAX_QUERY_TERMS,
    MAX_TERM_CHARS,
    STOP_WORDS,
    fold,
    query_terms,
    terms,
)

_TERM = regex.compile(r"[\p{L}\p{M}\p{N}]+|\p{Nd}+(?:\.\p{Nd}+)+")


def test_accents_and_case_are_folded() -> None:
    assert fold("Café CRÈME brûlée Ångström") == "cafe creme brulee angstrom"
    assert fold("Straße") == "strasse"
    assert fold("µg ﬁsh ①") == "μg fish 1"  # compatibility forms: micro sign, ligature, circled
    assert terms("CAFÉ") == terms("cafe") == ["cafe"]


def test_marks_that_spell_a_script_stay() -> None:
    assert terms("हिन्दी") == ["हिन्दी"]  # Devanagari vowel signs and virama
    assert terms("ガ カ") == ["ガ", "カ"]  # the kana voicing mark is not an accent


def test_a_decimal_is_one_term_and_other_punctuation_splits() -> None:
    found = terms("HR 1.5 (95% CI 1.2-1.9), p<.001")
    assert found == ["hr", "1.5", "95", "ci", "1.2", "1.9", "p", "001"]
    found = terms("COVID-19 long-term Ärzte's e-mail")
    assert found == ["covid", "19", "long", "term", "arzt", "e", "mail"]
    assert terms("version 1.2.3.") == ["version", "1.2.3"]


def test_stop_words_are_dropped_and_words_stemmed() -> None:
    assert terms("To be or not to be") == []
    assert terms("The results were fairly consistent") == ["result", "fair", "consist"]
    assert terms("running runs ran") == ["run", "run", "ran"]
    assert len(STOP_WORDS) == 127  # PostgreSQL's english.stop


def test_a_query_searches_its_distinct_terms_in_order() -> None:
    assert query_terms("Aspirin and aspirins, ASPIRIN: headache") == ["aspirin", "headach"]
    many = " ".join(f"w{n}" for n in range(100))
    assert query_terms(many) == [f"w{n}" for n in range(MAX_QUERY_TERMS)]


def test_an_over_long_word_is_not_a_term() -> None:
    assert terms("x" * (MAX_TERM_CHARS + 1) + " aspirin") == ["aspirin"]
    assert terms("x" * MAX_TERM_CHARS) == ["x" * MAX_TERM_CHARS]


@given(st.text(max_size=300))
def test_terms_hold_only_letters_marks_digits_and_a_decimals_dots(text: str) -> None:
    found = terms(text)
    assert all(_TERM.fullmatch(term) and len(term) <= MAX_TERM_CHARS for term in found)
    assert query_terms(text) == list(dict.fromkeys(found))[:MAX_QUERY_TERMS]
