"""How the trace page words an abstention (issue 15): the relevance floor's abstention and the
answerability gate's are told apart, and a trace without a gate record reads as before."""

from __future__ import annotations

from typing import Any

from spanproof.core.trace import Trace
from spanproof.testing.fakes import generation_trace
from spanproof.web.trace_view import RelevanceView


def trace_with(relevance: dict[str, Any]) -> Trace:
    return generation_trace(relevance=relevance)


FLOOR = {"model": "relevance-v1", "floor": 0.5, "score": 0.3, "answered": False, "closest": []}


def test_a_floor_abstention_is_not_put_on_the_gate() -> None:
    view = RelevanceView.of(trace_with(FLOOR))
    assert view is not None
    assert not view.answered and not view.gate_abstained and view.gate_model == ""


def test_a_gate_abstention_names_the_gate_its_score_and_floor() -> None:
    gate = {"model": "answerability-v1", "floor": 0.25, "score": 0.1234567, "answered": False}
    view = RelevanceView.of(trace_with({**FLOOR, "score": 0.8, "answerability": gate}))
    assert view is not None
    assert not view.answered and view.gate_abstained
    assert (view.gate_model, view.gate_score, view.gate_floor) == (
        "answerability-v1",
        "0.123",
        "0.250",
    )


def test_a_gate_that_answered_does_not_abstain() -> None:
    gate = {"model": "answerability-v1", "floor": 0.25, "score": 0.9, "answered": True}
    view = RelevanceView.of(trace_with({**FLOOR, "answered": True, "answerability": gate}))
    assert view is not None and view.answered and not view.gate_abstained
