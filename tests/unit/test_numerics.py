"""Numeric atoms and the numeric gate (SPEC §4.4)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spanproof.text.numerics import (
    MONTHS,
    canonical_number,
    numeric_gate_trips,
    numerics,
    with_magnitudes,
)
from spanproof.text.tokens import token_texts


def nums(text: str, **kw: bool) -> list[str]:
    return numerics(token_texts(text), **kw)


def test_month_table_has_the_twelve_english_months_in_order() -> None:
    assert list(MONTHS.items()) == [
        ("january", 1),
        ("february", 2),
        ("march", 3),
        ("april", 4),
        ("may", 5),
        ("june", 6),
        ("july", 7),
        ("august", 8),
        ("september", 9),
        ("october", 10),
        ("november", 11),
        ("december", 12),
    ]


@pytest.mark.parametrize(
    ("name", "number"), [("January", "1"), ("september", "9"), ("DECEMBER", "12")]
)
def test_month_name_reads_as_its_number(name: str, number: str) -> None:
    assert nums(name) == nums(number)


def test_iso_date_and_prose_date_give_the_same_atom_multiset() -> None:
    iso = nums("2026-03-05")
    prose = nums("5 March 2026")
    assert Counter(iso) == Counter(prose)
    assert Counter(iso) == Counter(nums("2026 3 5"))
    assert len(iso) == 3


@pytest.mark.parametrize("text", ["3-4", "3/4", "3:4"])
def test_digit_tokens_split_on_hyphen_slash_and_colon(text: str) -> None:
    assert nums(text) == nums("3 4")


def test_split_applies_inside_a_single_token() -> None:
    # "12:30" or "3/4" may already be split by UAX-29; the raw-token path must split too.
    assert numerics(["2020-01-02"]) == numerics(["2020", "1", "2"])
    assert numerics(["1/2"]) == numerics(["1", "2"])
    assert numerics(["10:45"]) == numerics(["10", "45"])


def test_digit_group_commas_are_stripped() -> None:
    assert nums("1,000") == nums("1000")
    assert nums("10,000,000") == nums("10000000")


def test_comma_not_grouping_three_digits_is_not_stripped_as_a_group() -> None:
    assert nums("1,00") != nums("100")


@pytest.mark.parametrize("text", ["500", "500.0", "0500", "500.00"])
def test_equal_values_canonicalise_to_one_atom(text: str) -> None:
    assert nums(text) == nums("500")
    assert len(nums(text)) == 1


def test_different_values_are_different_atoms() -> None:
    assert nums("500") != nums("50")
    assert nums("12.5") != nums("125")


def test_non_numeric_tokens_are_ignored() -> None:
    assert nums("aspirin lowered fever in adults") == []
    assert numerics(["nan", "inf", "infinity", "e"]) == []


def test_duplicates_are_kept_in_order() -> None:
    assert nums("5 and 5 then 7") == [*nums("5"), *nums("5"), *nums("7")]


def test_canonical_number_rejects_text_without_digits() -> None:
    assert canonical_number("") is None
    assert canonical_number("nan") is None
    assert canonical_number("inf") is None
    assert canonical_number("abc") is None
    assert canonical_number("5") == canonical_number("5.000")


def test_negative_zero_and_zero_are_one_atom() -> None:
    assert canonical_number("-0") == canonical_number("0")


def test_v1_reads_may_alone_as_month_five() -> None:
    assert nums("it may rain") == nums("5")


def test_months_need_digits_ignores_a_bare_modal_may() -> None:
    assert nums("it may rain", months_need_digits=True) == []
    assert nums("May", months_need_digits=True) == []


def test_months_need_digits_keeps_month_next_to_a_digit() -> None:
    assert Counter(nums("5 May 2020", months_need_digits=True)) == Counter(nums("5 5 2020"))
    assert Counter(nums("May 2020", months_need_digits=True)) == Counter(nums("5 2020"))
    assert Counter(nums("on 12 march", months_need_digits=True)) == Counter(nums("12 3"))


def test_months_need_digits_reads_may_as_a_month_only_before_a_number() -> None:
    assert nums("group 2 may benefit", months_need_digits=True) == nums("2")
    assert nums("on 12 may", months_need_digits=True) == nums("12")


def test_number_parts_reads_numbers_joined_to_units() -> None:
    assert nums("10mg") == []
    assert nums("10mg", number_parts=True) == nums("10")
    assert nums("2.5mg/kg", number_parts=True) == nums("2.5")


def test_number_parts_leaves_identifiers_alone() -> None:
    assert nums("NR5A2 and H1N1", number_parts=True) == []


def test_strict_float_parsing_rejects_underscores_and_non_ascii_digits() -> None:
    assert canonical_number("1_000") is None
    assert canonical_number("١٢") is None


def test_gate_trips_when_one_of_two_claim_numbers_is_missing() -> None:
    claim = nums("dose 10 mg for 14 days")
    span = nums("a dose of 10 mg daily")
    assert numeric_gate_trips(claim, span)


def test_gate_holds_when_every_claim_number_is_present() -> None:
    claim = nums("dose 10 mg for 14 days")
    span = nums("for 14 days patients took 10 mg and 20 mg")
    assert not numeric_gate_trips(claim, span)


def test_gate_never_trips_without_claim_numerics() -> None:
    assert not numeric_gate_trips([], [])
    assert not numeric_gate_trips([], nums("42 and 7"))


def test_gate_trips_against_a_span_with_no_numbers() -> None:
    assert numeric_gate_trips(nums("42 patients"), [])


def test_gate_matches_across_number_formats() -> None:
    assert not numeric_gate_trips(
        nums("1,000 patients in 2026-03-05"), nums("1000 on 5 March 2026")
    )


_atoms = st.lists(st.integers(0, 50).map(lambda n: repr(float(n))), max_size=6)


@given(_atoms, _atoms)
def test_gate_is_universal_coverage(claim: list[str], span: list[str]) -> None:
    assert numeric_gate_trips(claim, span) == (not set(claim) <= set(span))


@pytest.mark.parametrize(
    ("surface", "atom"),
    [(".001", "0.001"), ("2\u00b79", "2.9"), ("671 945", "671945.0"), ("10\u2009000", "10000.0"),
     ("1\u00a0234\u00a0567", "1234567.0"), ("1,500", "1500.0")],
)  # fmt: skip
def test_a_figure_in_another_format_reads_as_its_number(surface: str, atom: str) -> None:
    assert canonical_number(surface) == atom


def test_a_space_not_between_digit_groups_is_no_number() -> None:
    assert canonical_number("12 34") is None and canonical_number("1 2345") is None


@pytest.mark.parametrize(
    ("text", "atoms"),
    [
        ("HR \u22121.5 (\u22122.0 to -0.3)", ["-1.5", "-2.0", "-0.3"]),
        ("a loss of -1,000 cells at -20/-30 \u00b0C", ["-1000.0", "-20.0", "30.0"]),
        ("IL-6 in 5-10 patients", ["6.0", "5.0", "10.0"]),
    ],
)
def test_a_figure_keeps_its_minus_sign_where_the_segmentation_keeps_it(
    text: str, atoms: list[str]
) -> None:
    assert numerics(token_texts(text, number_formats=True, signs=True)) == atoms
    assert numerics(token_texts(text, number_formats=True)) == [a.lstrip("-") for a in atoms]


def test_a_span_s_negative_figure_covers_its_magnitude_not_the_reverse() -> None:
    span = with_magnitudes(["-2.3", "5.0"])
    assert span == {"-2.3", "2.3", "5.0"}
    assert not numeric_gate_trips(["2.3"], span)  # "fell by 2.3 mmHg" against "−2.3 mmHg"
    assert numeric_gate_trips(["-5.0"], span)  # a sign the span lacks


def test_fold_words_read_a_number_word_joined_to_fold_as_its_figure() -> None:
    tokens = token_texts("a twofold rise, a tenfold fall and a 3-fold change")
    assert numerics(tokens, fold_words=True) == ["2.0", "10.0", "3.0"]
    assert numerics(tokens) == ["3.0"]
    assert numerics(token_texts("a manifold and a fold"), fold_words=True) == []


def test_number_words_read_a_cardinal_from_two_to_ninety_as_its_figure() -> None:
    tokens = token_texts("Four hours after the dose, three of twenty mice and 12 rats")
    assert numerics(tokens, number_words=True) == ["4.0", "3.0", "20.0", "12.0"]
    assert numerics(tokens) == ["12.0"]
    # "one" is as often a pronoun or an article as a count
    assert numerics(token_texts("one of the studies, no one, one hour"), number_words=True) == []


@pytest.mark.parametrize(
    "text",
    [
        "twenty five patients",
        "two hundred patients",
        "two thirds of patients",
        "two and a half hours",
        "fifty one patients and twelve",
    ],
)
def test_a_number_word_within_a_larger_or_fractional_figure_is_left_out(text: str) -> None:
    found = numerics(token_texts(text), number_words=True)
    assert found in ([], ["12.0"]), found
    if text.endswith("twelve"):  # "and" before a figure word joins no figure
        assert found == ["12.0"]
