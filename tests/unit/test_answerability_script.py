"""The answerability script (scripts/answerability.py): the form a suite claim is asked in, and
the verdicts the answers lead with, counted per kind."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from answerability import asked_text, summarise

from spanproof.evaluation.answerability import ANSWERABLE, OFF_TOPIC, UNANSWERABLE, Question

QUESTION = Question(
    id="answerable:scifact:1",
    kind=ANSWERABLE,
    text="What is known about whether aspirin lowers fever in children?",
    claim="Aspirin lowers fever in children.",
    origin="scifact:1",
    split="report",
    cited=(7,),
)


def test_a_claim_is_asked_as_the_suites_question_or_as_a_proposition() -> None:
    assert asked_text(QUESTION, "question") == QUESTION.text
    assert asked_text(QUESTION, "statement") == "Aspirin lowers fever in children."
    assert asked_text(QUESTION, "whether") == "Is it true that aspirin lowers fever in children?"


def _row(kind: str, answered: bool, lead: str | None) -> dict[str, object]:
    return {
        "id": kind,
        "kind": kind,
        "split": "report",
        "answered": answered,
        "lead": lead,
        "relevance": 0.5,
        "claims": [],
        "seconds": 0.01,
    }


def test_the_leads_are_counted_per_kind() -> None:
    rows = [
        _row(ANSWERABLE, True, "supported"),
        _row(ANSWERABLE, True, "supported"),
        _row(ANSWERABLE, True, "contradicted"),
        _row(UNANSWERABLE, False, "abstained"),
        _row(UNANSWERABLE, True, "unsupported"),
        _row(OFF_TOPIC, True, None),  # an open question leads with no verdict
    ]
    out = summarise(rows)
    assert out[ANSWERABLE]["leads"] == {"contradicted": 1, "supported": 2}
    assert out[UNANSWERABLE]["leads"] == {"abstained": 1, "unsupported": 1}
    assert out[OFF_TOPIC]["leads"] == {"None": 1}
    assert out["rates"]["abstained_unanswerable"] == 0.5
