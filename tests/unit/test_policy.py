"""Delivery policy (SPEC §4.6): flag keeps the draft and marks claims that are not supported
inline; redact replaces merged unsupported ranges."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from spanproof.core.models import ClaimVerdict, Policy, Verdict
from spanproof.text.ranges import merge_ranges
from spanproof.verify.policy import (
    FLAG_MARK_RE,
    REDACTION_NOTICE,
    deliver,
    flag,
    redact,
    strip_flags,
)

DRAFT = "Alpha rose. Beta fell. Gamma held. Delta grew."
#        0         1         2         3         4
#        0123456789012345678901234567890123456789012345
ALPHA = (0, 11)
BETA = (12, 22)
GAMMA = (23, 34)
DELTA = (35, 46)


def cv(span: tuple[int, int] | None, verdict: Verdict, ident: str = "c") -> ClaimVerdict:
    return ClaimVerdict(
        id=ident,
        text="",
        draft_span=span,
        verdict=verdict,
        score=0.0,
        best_span=None,
        candidates_considered=0,
        cited_markers=(),
        numeric_gated=False,
    )


def test_ranges_slice_the_claims() -> None:
    assert DRAFT[slice(*ALPHA)] == "Alpha rose."
    assert DRAFT[slice(*BETA)] == "Beta fell."
    assert DRAFT[slice(*GAMMA)] == "Gamma held."
    assert DRAFT[slice(*DELTA)] == "Delta grew."


def test_notice_text() -> None:
    assert REDACTION_NOTICE == "[unsupported claim removed]"


def test_flag_marks_each_claim_that_is_not_supported_after_its_range() -> None:
    claims = [
        cv(ALPHA, Verdict.UNSUPPORTED),
        cv(BETA, Verdict.CONTRADICTED),
        cv(GAMMA, Verdict.SUPPORTED),
        cv(DELTA, Verdict.PARTIAL),
    ]
    assert deliver(DRAFT, claims, Policy.FLAG) == (
        "Alpha rose. ⟦unsupported⟧ Beta fell. ⟦contradicted⟧ Gamma held. Delta grew. ⟦partial⟧"
    )


def test_flag_leaves_a_fully_supported_draft_unchanged() -> None:
    claims = [cv(span, Verdict.SUPPORTED) for span in (ALPHA, BETA, GAMMA, DELTA)]
    assert deliver(DRAFT, claims, Policy.FLAG) == DRAFT
    assert deliver(DRAFT, [], Policy.FLAG) == DRAFT


def test_flag_marks_redacted_evidence_and_skips_claims_without_a_range() -> None:
    claims = [cv(GAMMA, Verdict.EVIDENCE_REDACTED), cv(None, Verdict.CONTRADICTED)]
    assert (
        flag(DRAFT, claims) == "Alpha rose. Beta fell. Gamma held. ⟦evidence_redacted⟧ Delta grew."
    )


def test_claims_ending_together_get_one_marker_per_verdict_in_claim_order() -> None:
    claims = [
        cv((0, 11), Verdict.CONTRADICTED),
        cv((6, 11), Verdict.UNSUPPORTED),
        cv((0, 11), Verdict.CONTRADICTED),
    ]
    assert flag(DRAFT, claims) == (
        "Alpha rose. ⟦contradicted⟧ ⟦unsupported⟧ Beta fell. Gamma held. Delta grew."
    )


def test_strip_flags_gives_the_draft_back_and_the_pattern_names_the_verdicts() -> None:
    claims = [cv(ALPHA, Verdict.UNSUPPORTED), cv(DELTA, Verdict.CONTRADICTED)]
    marked = flag(DRAFT, claims)
    assert [m.group(1) for m in FLAG_MARK_RE.finditer(marked)] == ["unsupported", "contradicted"]
    assert strip_flags(marked) == DRAFT
    assert strip_flags("kept ⟦supported⟧ and ⟦other⟧") == "kept ⟦supported⟧ and ⟦other⟧"


def test_redact_replaces_an_unsupported_claim() -> None:
    out = deliver(DRAFT, [cv(BETA, Verdict.UNSUPPORTED)], Policy.REDACT)
    assert out == f"Alpha rose. {REDACTION_NOTICE} Gamma held. Delta grew."


def test_redact_keeps_supported_and_partial_claims() -> None:
    claims = [
        cv(ALPHA, Verdict.SUPPORTED),
        cv(BETA, Verdict.PARTIAL),
        cv(GAMMA, Verdict.SUPPORTED),
        cv(DELTA, Verdict.SUPPORTED),
    ]
    assert redact(DRAFT, claims) == DRAFT


def test_redact_removes_contradicted_claims_too() -> None:
    out = redact(DRAFT, [cv(DELTA, Verdict.CONTRADICTED)])
    assert out == f"Alpha rose. Beta fell. Gamma held. {REDACTION_NOTICE}"


def test_overlapping_ranges_merge_into_one_notice() -> None:
    claims = [cv((12, 28), Verdict.UNSUPPORTED), cv((17, 34), Verdict.UNSUPPORTED)]
    out = redact(DRAFT, claims)
    assert out == f"Alpha rose. {REDACTION_NOTICE} Delta grew."
    assert out.count(REDACTION_NOTICE) == 1


def test_touching_ranges_merge_into_one_notice() -> None:
    claims = [cv((0, 12), Verdict.UNSUPPORTED), cv((12, 22), Verdict.UNSUPPORTED)]
    out = redact(DRAFT, claims)
    assert out == f"{REDACTION_NOTICE} Gamma held. Delta grew."
    assert out.count(REDACTION_NOTICE) == 1


def test_contained_range_merges_into_its_container() -> None:
    claims = [cv((12, 34), Verdict.UNSUPPORTED), cv((17, 22), Verdict.CONTRADICTED)]
    assert redact(DRAFT, claims) == f"Alpha rose. {REDACTION_NOTICE} Delta grew."


def test_separated_ranges_get_one_notice_each() -> None:
    claims = [cv(ALPHA, Verdict.UNSUPPORTED), cv(GAMMA, Verdict.UNSUPPORTED)]
    out = redact(DRAFT, claims)
    assert out == f"{REDACTION_NOTICE} Beta fell. {REDACTION_NOTICE} Delta grew."


def test_unsorted_ranges_are_sorted_first() -> None:
    claims = [
        cv(DELTA, Verdict.UNSUPPORTED),
        cv(ALPHA, Verdict.UNSUPPORTED),
        cv(GAMMA, Verdict.SUPPORTED),
    ]
    out = redact(DRAFT, claims)
    assert out == f"{REDACTION_NOTICE} Beta fell. Gamma held. {REDACTION_NOTICE}"


def test_claims_without_draft_span_are_ignored() -> None:
    assert redact(DRAFT, [cv(None, Verdict.UNSUPPORTED)]) == DRAFT


def test_redact_leaves_the_input_draft_untouched() -> None:
    draft = str(DRAFT)
    redact(draft, [cv(ALPHA, Verdict.UNSUPPORTED)])
    assert draft == DRAFT


def test_merge_ranges_examples() -> None:
    assert merge_ranges([]) == []
    assert merge_ranges([(5, 9), (0, 2)]) == [(0, 2), (5, 9)]
    assert merge_ranges([(0, 5), (5, 7)]) == [(0, 7)]
    assert merge_ranges([(0, 10), (2, 3), (9, 12)]) == [(0, 12)]
    assert merge_ranges([(0, 3), (4, 6)]) == [(0, 3), (4, 6)]


_range = st.tuples(st.integers(0, 40), st.integers(0, 20)).map(lambda t: (t[0], t[0] + t[1] + 1))


@given(st.lists(_range, max_size=10))
def test_merged_ranges_are_sorted_disjoint_and_cover_the_same_points(
    ranges: list[tuple[int, int]],
) -> None:
    merged = merge_ranges(ranges)
    for (_, end), (start, _) in itertools.pairwise(merged):
        assert end < start  # disjoint and not touching
    points = {p for a, b in ranges for p in range(a, b)}
    assert points == {p for a, b in merged for p in range(a, b)}


_verdicts = st.sampled_from(list(Verdict))


@given(
    st.text(alphabet=st.characters(blacklist_characters="⟦⟧"), max_size=60),
    st.lists(st.tuples(_range, _verdicts), max_size=8),
)
def test_flag_only_inserts_markers(
    draft: str, spans: list[tuple[tuple[int, int], Verdict]]
) -> None:
    claims = [cv((min(a, len(draft)), min(b, len(draft))), verdict) for (a, b), verdict in spans]
    marked = flag(draft, claims)
    assert strip_flags(marked) == draft
    flagged = {(c.draft_span, c.verdict) for c in claims if c.verdict is not Verdict.SUPPORTED}
    ends = {(span[1], verdict) for span, verdict in flagged if span is not None}
    assert len(FLAG_MARK_RE.findall(marked)) == len(ends)
