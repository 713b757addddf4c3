"""Score model v59: an answer may name what its source sentence calls "it" or "they" when the
evidence item before states the name (decomposer rules-v6 names the pronoun in the claim)."""

from __future__ import annotations

from spanproof.core.models import Verdict
from spanproof.verifier import Verifier

DRAFT = "Aspirin lowered the risk of stroke [S1]. It also raised the rate of major bleeding [S2]."
STROKE = {"id": "S1", "text": "Aspirin lowered the risk of stroke in older adults."}
BLEEDING = {"id": "S2", "text": "It also raised the rate of major bleeding."}


def second(model: str, evidence: list[dict[str, object]], draft: str = DRAFT) -> tuple[str, str]:
    report = Verifier(score_model=model).verify(draft, evidence)
    claim = report.claims[1]
    return claim.verdict.value, "; ".join(e.judgement or "" for e in claim.edits)


def test_the_name_of_a_pronoun_stated_in_the_item_before_is_allowed() -> None:
    verdict, edits = second("v59", [STROKE, BLEEDING])
    assert verdict == Verdict.SUPPORTED and edits == "allowed: named in the evidence before"
    # v58 read the named claim against the pronoun's sentence alone
    assert second("v58", [STROKE, BLEEDING]) == ("unsupported", "unsupported: not in the evidence")


def test_a_name_the_item_before_does_not_state_is_refused() -> None:
    other = {"id": "S0", "text": "Clopidogrel was given to the control group."}
    verdict, _ = second("v59", [STROKE, other, BLEEDING])
    assert verdict != Verdict.SUPPORTED  # the item right before names another drug
    verdict, _ = second("v59", [BLEEDING, STROKE])  # the name comes after, not before
    assert verdict != Verdict.SUPPORTED


def test_only_a_pronoun_that_opens_the_item_is_read_so() -> None:
    inside = {"id": "S2", "text": "Bleeding was common; it raised the rate of major bleeding."}
    draft = (
        "Aspirin lowered the risk of stroke [S1]. Aspirin raised the rate of major bleeding [S2]."
    )
    verdict, edits = second("v59", [STROKE, inside], draft)
    assert verdict != Verdict.SUPPORTED and "named in the evidence before" not in edits


def test_items_of_other_sources_or_later_in_the_source_are_no_antecedent() -> None:
    stroke = {**STROKE, "source_id": "doc-1", "version": 1, "section_key": "abstract", "start": 0}
    bleeding = {**BLEEDING, "source_id": "doc-2", "version": 1, "section_key": "abstract"}
    bleeding["start"] = 60
    verdict, _ = second("v59", [stroke, bleeding])
    assert verdict != Verdict.SUPPORTED  # another source's sentence names nothing of this one
    same = {**bleeding, "source_id": "doc-1"}
    assert second("v59", [stroke, same])[0] == Verdict.SUPPORTED
    earlier = {**same, "start": 0}
    later = {**stroke, "start": 60}
    assert second("v59", [later, earlier])[0] != Verdict.SUPPORTED  # listed first, written after
