"""The association-sign probe (scripts/probe_association_signs.py): how it rewrites a sentence."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_association_signs import KINDS, build_cases, rewritten

from spanproof.verify.gates import signed_associations


@pytest.mark.parametrize(
    ("sentence", "same", "turned"),
    [
        (
            "Obesity was associated with an increased risk of asthma.",
            "Obesity was positively associated with risk of asthma.",
            "Obesity was inversely associated with risk of asthma.",
        ),
        (
            "Fibre intake was associated with lower mortality.",
            "Fibre intake was inversely associated with mortality.",
            "Fibre intake was positively associated with mortality.",
        ),
        (
            "Income was negatively correlated with smoking.",
            "Income was correlated with lower smoking.",
            "Income was correlated with higher smoking.",
        ),
    ],
)
def test_rewrites_with_the_same_sign_and_the_other(sentence: str, same: str, turned: str) -> None:
    assert rewritten(sentence) == (same, turned)
    signs = [signed_associations(t)[0][0] for t in (sentence, same, turned)]
    assert signs[0] == signs[1] == -signs[2]


def test_a_sentence_with_no_signed_association_is_not_rewritten() -> None:
    assert rewritten("Obesity was associated with asthma in children.") is None


def test_cases_pair_each_sentence_and_skip_denials() -> None:
    abstracts = [
        [
            "Obesity was associated with an increased risk of asthma in a large cohort of adults.",
            "Smoking was not associated with an increased risk of asthma in the same cohort.",
        ],
        ["Fibre intake was associated with lower mortality among the older participants."],
    ]
    cases = build_cases(abstracts, 10, 1)
    assert [len(cases[k]) for k in KINDS] == [2, 2]
    assert all("not" not in c.claim for k in KINDS for c in cases[k])
    same = sorted(c.claim for c in cases[KINDS[0]])
    assert same[0].startswith("Fibre intake was inversely associated")
    assert build_cases(abstracts, 10, 1) == cases
