"""The outcome of a report: one value nobody can misread, its words, and ``--fail-on``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from spanproof import Outcome, Report, Verdict
from spanproof.cli.outcome import exit_status
from spanproof.core.models import ClaimVerdict, outcome_of, verdict_counts
from spanproof.core.outcome import ICONS, FailOn, fails, headline, trace_outcome, words
from spanproof.core.trace import GENESIS, Trace

S, P, U, C, R = (v.value for v in Verdict)
UNAVAILABLE = "unavailable: embedding failed: connection refused"


@pytest.mark.parametrize(
    ("verification", "verdicts", "abstained", "expected"),
    [
        ("verified", [S, S], False, Outcome.ALL_SUPPORTED),
        ("verified", [S], False, Outcome.ALL_SUPPORTED),
        ("verified", [S, P], False, Outcome.NOT_ALL_SUPPORTED),
        ("verified", [S, U], False, Outcome.NOT_ALL_SUPPORTED),
        ("verified", [R], False, Outcome.NOT_ALL_SUPPORTED),
        ("verified", [S, U, C], False, Outcome.CONTRADICTED),
        ("verified", [C], False, Outcome.CONTRADICTED),
        ("verified", [], False, Outcome.NO_CLAIMS),
        (UNAVAILABLE, [], False, Outcome.UNAVAILABLE),
        ("verified", [], True, Outcome.ABSTAINED),
        (UNAVAILABLE, [], True, Outcome.ABSTAINED),
    ],
)
def test_outcome_of_gives_every_value_by_its_rule(
    verification: str, verdicts: list[str], abstained: bool, expected: Outcome
) -> None:
    assert outcome_of(verification, verdicts, abstained=abstained) is expected


def test_every_outcome_value_is_covered_by_the_rules_above() -> None:
    assert {o.value for o in Outcome} == {
        "all_supported",
        "not_all_supported",
        "contradicted",
        "no_claims",
        "abstained",
        "unavailable",
    }


def test_counts_name_every_verdict_in_order_even_when_zero() -> None:
    assert verdict_counts([C, S, S, R]) == {
        "supported": 2,
        "partial": 0,
        "unsupported": 0,
        "contradicted": 1,
        "evidence_redacted": 1,
    }
    assert list(verdict_counts([])) == [v.value for v in Verdict]
    with pytest.raises(ValueError, match="maybe"):
        verdict_counts(["maybe"])


def claim(ident: str, verdict: Verdict) -> ClaimVerdict:
    return ClaimVerdict(ident, "x", None, verdict, 0.5, None, 1, (), False)


def test_a_report_carries_its_outcome_and_counts_in_its_json() -> None:
    report = Report(
        score_model="v2",
        embed_model="fake-bow",
        verification="verified",
        claims=(claim("c1", Verdict.SUPPORTED), claim("c2", Verdict.CONTRADICTED)),
        delivered=None,
    )
    assert report.outcome is Outcome.CONTRADICTED
    data = report.to_dict()
    assert data["verification"] == "verified"  # keeps its meaning: the check ran
    assert data["outcome"] == "contradicted"
    assert data["counts"] == {
        "supported": 1,
        "partial": 0,
        "unsupported": 0,
        "contradicted": 1,
        "evidence_redacted": 0,
    }
    abstaining = replace(report, claims=(), abstained=True)
    assert abstaining.outcome is Outcome.ABSTAINED
    assert abstaining.to_dict()["outcome"] == "abstained"


@pytest.mark.parametrize(
    ("outcome", "never", "contradicted", "unsupported"),
    [
        (Outcome.ALL_SUPPORTED, False, False, False),
        (Outcome.NO_CLAIMS, False, False, False),
        (Outcome.ABSTAINED, False, False, False),
        (Outcome.NOT_ALL_SUPPORTED, False, False, True),
        (Outcome.UNAVAILABLE, False, False, True),
        (Outcome.CONTRADICTED, False, True, True),
    ],
)
def test_fail_on_levels(
    outcome: Outcome, never: bool, contradicted: bool, unsupported: bool
) -> None:
    assert fails(outcome, FailOn.NEVER) is never
    assert fails(outcome, "contradicted") is contradicted
    assert fails(outcome, FailOn.UNSUPPORTED) is unsupported


def test_an_unknown_fail_on_level_is_refused() -> None:
    with pytest.raises(ValueError, match="sometimes"):
        fails(Outcome.CONTRADICTED, "sometimes")


@pytest.mark.parametrize(
    ("outcome", "verdicts", "verification", "expected"),
    [
        (Outcome.ALL_SUPPORTED, [S, S, S], "verified", "✔ all 3 claims supported"),
        (Outcome.ALL_SUPPORTED, [S], "verified", "✔ the claim is supported"),
        (
            Outcome.NOT_ALL_SUPPORTED,
            [S, S, P, U],
            "verified",
            "◐ 2 of 4 claims not supported: 1 unsupported, 1 partial",
        ),
        (
            Outcome.CONTRADICTED,
            [S, C, S, U],
            "verified",
            "✖ 1 claim contradicted, 1 unsupported, 2 supported",
        ),
        (Outcome.CONTRADICTED, [C, C], "verified", "✖ 2 claims contradicted"),
        (Outcome.NO_CLAIMS, [], "verified", "○ no claims to check"),
        (
            Outcome.ABSTAINED,
            [],
            "verified",
            "∅ abstained: the sources do not answer the question",
        ),
        (Outcome.UNAVAILABLE, [], UNAVAILABLE, f"⚠ not checked: {UNAVAILABLE}"),
    ],
)
def test_headline_says_the_outcome_with_an_icon_and_words(
    outcome: Outcome, verdicts: list[str], verification: str, expected: str
) -> None:
    assert outcome_of(verification, verdicts, abstained=outcome is Outcome.ABSTAINED) is outcome
    assert headline(outcome, verdict_counts(verdicts), verification) == expected
    assert words(outcome, verdict_counts(verdicts), verification) == expected[2:]


def test_every_outcome_has_its_own_icon() -> None:
    assert set(ICONS) == set(Outcome)
    assert len(set(ICONS.values())) == len(Outcome)


def make_trace(**changes: Any) -> Trace:
    base = Trace(
        kind="verification",
        request={},
        plan=[],
        plan_hash="",
        prompt_hash="",
        models={},
        draft="",
        claims=[{"id": "c1", "verdict": "supported"}, {"id": "c2", "verdict": "unsupported"}],
        verification="verified",
        delivered=None,
    )
    return replace(base, **changes)


def test_a_trace_without_an_outcome_keeps_its_old_body_and_hash() -> None:
    old = make_trace()
    assert "outcome" not in old.body() and "counts" not in old.body()
    sealed = old.sealed(seq=1, prev_hash=GENESIS, created_at="2025-01-01T00:00:00Z")
    assert '"outcome"' not in sealed.to_json()
    assert Trace.from_json(sealed.to_json()) == sealed
    assert trace_outcome(sealed) == (Outcome.NOT_ALL_SUPPORTED, verdict_counts([S, U]))


def test_a_trace_with_an_outcome_stores_it_under_its_hash() -> None:
    counts = verdict_counts([S, U])
    new = make_trace(outcome="not_all_supported", counts=counts)
    sealed = new.sealed(seq=1, prev_hash=GENESIS, created_at="2025-01-01T00:00:00Z")
    assert sealed.body()["outcome"] == "not_all_supported" and sealed.body()["counts"] == counts
    assert Trace.from_json(sealed.to_json()) == sealed
    assert replace(sealed, outcome="all_supported").compute_hash() != sealed.hash
    assert trace_outcome(sealed) == (Outcome.NOT_ALL_SUPPORTED, counts)


def test_a_trace_with_a_verdict_spanproof_never_writes_has_no_outcome() -> None:
    assert trace_outcome(make_trace(claims=[{"verdict": "maybe"}])) == (None, {})
    assert trace_outcome(make_trace(outcome="great")) == (None, {})


def test_the_cli_exit_status_is_5_when_unavailable_whatever_fail_on_says() -> None:
    for level in FailOn:
        assert exit_status(UNAVAILABLE, Outcome.UNAVAILABLE, level) == 5
    assert exit_status("verified", Outcome.CONTRADICTED, FailOn.CONTRADICTED) == 1
    assert exit_status("verified", Outcome.NOT_ALL_SUPPORTED, FailOn.CONTRADICTED) == 0
    assert exit_status("verified", Outcome.CONTRADICTED, FailOn.NEVER) == 0
