"""``assert_grounded`` as a RAG app's own tests would use it: the bundled model, real contexts."""

from __future__ import annotations

import pytest

from spanproof.core.errors import InvalidInputError
from spanproof.testing import assert_grounded, grounding

pytestmark = pytest.mark.model

CONTEXTS = [
    "In a randomised trial, daily walking for 30 minutes lowered systolic blood "
    "pressure by 5 mmHg after 12 weeks.",
    "Sodium restriction to 1,500 mg per day did not change diastolic blood pressure.",
]
GROUNDED = "Daily walking lowered systolic blood pressure by 5 mmHg [S1]."
MIXED = (
    "Daily walking lowered systolic blood pressure by 5 mmHg. "
    "Sodium restriction changed diastolic blood pressure. "
    "Walking also cured diabetes in 40% of participants."
)


def test_a_grounded_answer_passes_and_returns_its_report() -> None:
    report = assert_grounded(GROUNDED, CONTEXTS)
    assert [c.verdict.value for c in report.claims] == ["supported"]
    assert report.claims[0].best_span is not None
    assert report.claims[0].best_span.id == "S1"


def test_the_failure_message_lists_each_claim_not_supported_with_its_closest_text() -> None:
    with pytest.raises(AssertionError) as caught:
        assert_grounded(MIXED, CONTEXTS)
    lines = str(caught.value).splitlines()
    assert lines[0] == ("answer not grounded: ✖ 1 claim contradicted, 1 unsupported, 1 supported")
    assert "33% of claims supported, under the minimum 100%" in lines[1]
    assert "outcome contradicted reaches fail-on contradicted" in lines[1]
    # Worst first: the contradicted claim, then the unsupported one; the supported one is not
    # listed.
    assert lines[2] == '  contradicted: "Sodium restriction changed diastolic blood pressure"'
    assert lines[3] == f'    closest (S2): "{CONTEXTS[1]}"'
    assert lines[4] == '  unsupported: "Walking also cured diabetes in 40% of participants"'
    assert lines[5].startswith("    closest")
    assert "Daily walking lowered" not in str(caught.value)


def test_a_lower_minimum_still_fails_on_a_contradiction_unless_told_never() -> None:
    unsupported_only = (
        "Daily walking lowered systolic blood pressure by 5 mmHg. "
        "Walking also cured diabetes in 40% of participants."
    )
    assert_grounded(unsupported_only, CONTEXTS, min_supported=0.5)  # 1 of 2 supported: passes
    with pytest.raises(AssertionError, match="under the minimum 60%"):
        assert_grounded(unsupported_only, CONTEXTS, min_supported=0.6)
    with pytest.raises(AssertionError, match="reaches fail-on contradicted"):
        assert_grounded(MIXED, CONTEXTS, min_supported=0.0)
    assert_grounded(MIXED, CONTEXTS, min_supported=0.0, fail_on="never")


def test_contexts_may_be_objects_with_their_own_ids() -> None:
    contexts = [{"id": "kb-7", "text": CONTEXTS[1]}]
    with pytest.raises(AssertionError, match=r'closest \(kb-7\): "Sodium restriction to 1,500'):
        assert_grounded("Sodium restriction changed diastolic blood pressure.", contexts)


def test_bad_arguments_are_caller_errors_not_assertion_failures() -> None:
    with pytest.raises(InvalidInputError, match="min_supported"):
        assert_grounded(GROUNDED, CONTEXTS, min_supported=1.5)
    with pytest.raises(InvalidInputError, match="context 1 must be a string"):
        assert_grounded(GROUNDED, [42])  # type: ignore[list-item]
    # One string where the list belongs was read one character a context.
    with pytest.raises(InvalidInputError, match="not one string"):
        assert_grounded(GROUNDED, CONTEXTS[0])  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="unknown fail_on 'bogus'; choose 'never'"):
        assert_grounded(GROUNDED, CONTEXTS, fail_on="bogus")


def test_assert_grounded_is_exported_from_spanproof_testing() -> None:
    assert assert_grounded is grounding.assert_grounded
