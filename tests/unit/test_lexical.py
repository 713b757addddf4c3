"""IDF-weighted multiset lexical coverage (SPEC §4.4)."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spanproof.verify.lexical import PlanIdf, coverage, lexical_coverage, weigh_claim

PLAN = [
    ["alpha", "beta", "gamma"],
    ["beta", "delta"],
    ["beta", "beta", "epsilon"],
    ["zeta"],
]


def test_idf_is_ln_one_plus_n_over_df() -> None:
    idf = PlanIdf(PLAN)
    assert idf.n == 4
    assert idf.idf("beta") == pytest.approx(math.log(1 + 4 / 3), rel=1e-15)
    assert idf.idf("alpha") == pytest.approx(math.log(1 + 4 / 1), rel=1e-15)


def test_df_counts_spans_not_occurrences() -> None:
    # "beta" occurs four times in three spans: df = 3.
    assert PlanIdf(PLAN).idf("beta") == pytest.approx(math.log(1 + 4 / 3), rel=1e-15)


def test_term_absent_from_plan_gets_maximal_weight_ln_one_plus_n() -> None:
    idf = PlanIdf(PLAN)
    assert idf.idf("omega") == pytest.approx(math.log(5.0), rel=1e-15)
    assert idf.idf("omega") == idf.idf("alpha")  # df floored at 1
    assert all(idf.idf("omega") >= idf.idf(t) for span in PLAN for t in span)


def test_rarer_terms_weigh_more() -> None:
    idf = PlanIdf(PLAN)
    assert idf.idf("alpha") > idf.idf("beta")


def test_multiset_gives_partial_credit_for_a_repeated_token() -> None:
    plan = [["beta", "gamma", "delta"], ["alpha", "beta"]]
    idf = PlanIdf(plan)
    w_beta = math.log(1 + 2 / 2)  # df(beta) = 2
    w_gamma = math.log(1 + 2 / 1)  # df(gamma) = 1
    expected = (w_beta * 1 + w_gamma * 1) / (w_beta * 2 + w_gamma * 1)  # = ln 6 / ln 12
    got = lexical_coverage(["beta", "beta", "gamma"], plan[0], idf)
    assert got == pytest.approx(expected, rel=1e-12)
    assert got == pytest.approx(math.log(6) / math.log(12), rel=1e-12)
    assert got < 1.0


def test_span_repeating_the_token_gives_full_credit() -> None:
    idf = PlanIdf([["beta", "beta", "gamma"]])
    assert lexical_coverage(["beta", "beta", "gamma"], ["gamma", "beta", "beta"], idf) == 1.0


def test_coverage_is_not_f1_long_span_scores_one() -> None:
    plan = [["aspirin", "lowered", "fever"], ["x"]]
    idf = PlanIdf(plan)
    long_span = ["aspirin", "lowered", "fever"] + [f"filler{i}" for i in range(500)]
    assert lexical_coverage(["aspirin", "lowered", "fever"], long_span, idf) == 1.0


def test_missing_rare_term_costs_more_than_missing_common_term() -> None:
    idf = PlanIdf(PLAN)
    claim = ["alpha", "beta"]
    without_alpha = lexical_coverage(claim, ["beta"], idf)
    without_beta = lexical_coverage(claim, ["alpha"], idf)
    assert without_alpha < without_beta
    w_a, w_b = idf.idf("alpha"), idf.idf("beta")
    assert without_alpha == pytest.approx(w_b / (w_a + w_b), rel=1e-12)


def test_disjoint_span_scores_zero() -> None:
    idf = PlanIdf(PLAN)
    assert lexical_coverage(["alpha"], ["zeta"], idf) == 0.0


def test_empty_claim_scores_zero() -> None:
    idf = PlanIdf(PLAN)
    assert lexical_coverage([], ["alpha", "beta"], idf) == 0.0
    assert coverage(weigh_claim([], idf), Counter()) == 0.0


def test_weighted_claim_keeps_counts_and_denominator() -> None:
    idf = PlanIdf(PLAN)
    claim = weigh_claim(["beta", "alpha", "beta"], idf)
    assert {t: c for t, c, _ in claim.terms} == {"beta": 2, "alpha": 1}
    assert claim.denominator == pytest.approx(2 * idf.idf("beta") + idf.idf("alpha"))


_vocab = st.sampled_from(["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"])


@given(
    st.lists(st.lists(_vocab, max_size=6), min_size=1, max_size=5),
    st.lists(_vocab, max_size=6),
    st.lists(_vocab, max_size=8),
)
def test_coverage_is_in_unit_interval_and_one_when_span_contains_claim(
    plan: list[list[str]], claim: list[str], span: list[str]
) -> None:
    idf = PlanIdf(plan)
    value = lexical_coverage(claim, span, idf)
    assert 0.0 <= value <= 1.0
    if claim:
        assert lexical_coverage(claim, span + claim, idf) == pytest.approx(1.0, rel=1e-12)
