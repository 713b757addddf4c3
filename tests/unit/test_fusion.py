"""Geometric fusion and the whole-score numeric cap (SPEC §4.4)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spanproof.verify.fusion import BETA, GATE_CAP, PARTIAL_MIN, clamp01, fuse, pair_score


class NoPow(float):
    """A float that fails if anything raises it to a power or uses it as an exponent."""

    def __pow__(self, other: object, mod: object = None) -> float:
        raise AssertionError("power evaluated")

    def __rpow__(self, other: object, mod: object = None) -> float:
        raise AssertionError("power evaluated")


def test_constants_are_the_seed_values() -> None:
    assert BETA == 0.65
    assert GATE_CAP == 0.2
    assert PARTIAL_MIN == 0.50


def test_fuse_is_the_weighted_geometric_mean() -> None:
    assert fuse(0.81, 0.64, 0.5) == pytest.approx(0.9 * 0.8, rel=1e-12)
    assert fuse(0.25, 1.0, 0.5) == pytest.approx(0.5, rel=1e-12)
    assert fuse(0.8, 0.5) == pytest.approx(0.8**0.65 * 0.5**0.35, rel=1e-12)
    assert fuse(1.0, 1.0) == 1.0


def test_fuse_uses_default_beta() -> None:
    assert fuse(0.9, 0.4) == fuse(0.9, 0.4, BETA)


def test_zero_lexical_evidence_gives_zero() -> None:
    assert fuse(1.0, 0.0) == 0.0


def test_negative_cosine_is_clamped_to_zero_before_fusion() -> None:
    assert fuse(-0.5, 1.0) == 0.0
    assert fuse(-1.0, 0.3, 0.5) == 0.0


def test_cosine_above_one_is_clamped() -> None:
    assert fuse(1.5, 1.0) == 1.0
    assert fuse(1.0 + 1e-9, 0.49, 0.5) == pytest.approx(0.7, rel=1e-12)


def test_beta_zero_returns_lexical() -> None:
    assert fuse(0.0, 0.0, 0.0) == 0.0
    assert fuse(0.0, 0.7, 0.0) == 0.7
    assert fuse(0.3, 0.7, 0.0) == 0.7


def test_beta_one_returns_cosine() -> None:
    assert fuse(0.7, 0.0, 1.0) == 0.7
    assert fuse(0.0, 0.0, 1.0) == 0.0


def test_fast_paths_evaluate_no_power() -> None:
    # NoPow survives clamp01 (in-range values are returned as is), so any ** would raise.
    assert fuse(NoPow(0.0), 0.7, 0.0) == 0.7
    assert fuse(0.7, NoPow(0.0), 1.0) == 0.7


def test_beta_is_clamped() -> None:
    assert fuse(0.3, 0.7, -2.0) == 0.7
    assert fuse(0.3, 0.7, 5.0) == 0.3


def test_nan_inputs_read_as_zero() -> None:
    assert clamp01(math.nan) == 0.0
    assert fuse(math.nan, 1.0) == 0.0
    assert fuse(1.0, math.nan) == 0.0
    assert pair_score(math.nan, math.nan, BETA, False) == 0.0


def test_numeric_gate_caps_whole_pair_score() -> None:
    # Near verbatim span, wrong number: semantic and lexical signals are both strong.
    assert fuse(0.99, 0.95) > 0.9
    assert pair_score(0.99, 0.95, BETA, True) == GATE_CAP
    assert pair_score(0.99, 0.95, BETA, False) == fuse(0.99, 0.95)


def test_gate_cap_lands_below_partial() -> None:
    assert pair_score(1.0, 1.0, BETA, True) < PARTIAL_MIN


def test_gate_does_not_raise_a_low_score() -> None:
    low = fuse(0.1, 0.1)
    assert low < GATE_CAP
    assert pair_score(0.1, 0.1, BETA, True) == low


_any_float = st.floats(allow_nan=True, allow_infinity=True)
_unit = st.floats(0.0, 1.0)


@given(_any_float, _any_float, _any_float)
def test_fuse_is_always_in_unit_interval(cos: float, lex: float, beta: float) -> None:
    value = fuse(cos, lex, beta)
    assert 0.0 <= value <= 1.0


@given(_any_float, _any_float, _unit, st.booleans())
def test_pair_score_is_always_in_unit_interval(
    cos: float, lex: float, beta: float, gated: bool
) -> None:
    assert 0.0 <= pair_score(cos, lex, beta, gated) <= 1.0


@given(_any_float, _any_float, _unit)
def test_gate_only_lowers(cos: float, lex: float, beta: float) -> None:
    gated = pair_score(cos, lex, beta, True)
    ungated = pair_score(cos, lex, beta, False)
    assert gated <= ungated
    assert gated <= GATE_CAP


@given(_unit, _unit, _unit, _unit)
def test_fuse_is_monotone_in_each_signal(a: float, b: float, lex: float, beta: float) -> None:
    lo, hi = sorted((a, b))
    assert fuse(lo, lex, beta) <= fuse(hi, lex, beta)
    assert fuse(lex, lo, beta) <= fuse(lex, hi, beta)
