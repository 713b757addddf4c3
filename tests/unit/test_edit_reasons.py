"""The gates column's words for what the edit check refused (`verify`, `trace show`)."""

from __future__ import annotations

from spanproof.core.outcome import edit_reasons


def test_refused_edits_are_named_once_each_and_allowed_ones_not_at_all() -> None:
    judgements = [
        "allowed: compression",
        "unsupported: population dropped",
        "contradicted: negation flip",
        "unsupported: population dropped",
    ]
    assert edit_reasons(judgements) == ["edit: population dropped", "edit: negation flip"]


def test_a_judgement_without_a_reason_is_named_by_its_status() -> None:
    assert edit_reasons(["unsupported"]) == ["edit: unsupported"]
    assert edit_reasons([]) == []
