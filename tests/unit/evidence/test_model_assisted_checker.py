"""The rules with the trained entailment model beside them (SPEC §5.3, the offline model check)."""

from __future__ import annotations

from spanproof.core.records import Quotation, Record, RecordFields
from spanproof.evidence.checker import check
from spanproof.evidence.decision import decide
from spanproof.services.record_checking import ModelAssistedChecker
from spanproof.testing.fakes import FakeChecker

PASSAGE = "Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice."
#: A paraphrase: the record's own words, not a quotation of the passage.
STATEMENT = "In mice, metformin (250 mg/kg) lowered liver triglyceride content."
RECORD = Record(
    "rec-1", "paper", 1, STATEMENT, (Quotation("p1", 0, len(PASSAGE), PASSAGE),),
    RecordFields("Metformin", "hepatic triglyceride content", "decrease", "mice", "250 mg/kg"),
)  # fmt: skip
CONTRADICTED = (0.1, 0.8, 0.1)
ENTAILED = (0.8, 0.1, 0.1)


def test_rules_verify_and_the_model_agrees_nothing_changes() -> None:
    assert check(RECORD, [PASSAGE]).label == "entailed"
    model = FakeChecker(ENTAILED)
    checker = ModelAssistedChecker(model)
    verdict = checker(RECORD, [PASSAGE])
    assert verdict.label == "entailed" and checker.disagreements == 0
    assert verdict.model_id == "rules-checker-v1+fake-checker"
    assert model.calls == [[(RECORD.statement, PASSAGE)]]  # statement beside the focus sentence
    assert decide(verdict, 1, 3).outcome == "verified"


def test_a_contradicting_model_sends_the_record_to_review_never_rejects() -> None:
    checker = ModelAssistedChecker(FakeChecker(CONTRADICTED))
    verdict = checker(RECORD, [PASSAGE])
    assert verdict.label == "ambiguous" and checker.disagreements == 1
    assert verdict.checks == check(RECORD, [PASSAGE]).checks  # the five checks as the rules gave
    assert decide(verdict, 1, 3).outcome == "review"


def test_the_model_is_not_asked_when_the_rules_do_not_verify() -> None:
    flipped = Record(
        RECORD.id, "paper", 1, STATEMENT, RECORD.quotations,
        RecordFields("Metformin", "hepatic triglyceride content", "increase", "mice", "250 mg/kg"),
    )  # fmt: skip
    model = FakeChecker(ENTAILED)
    verdict = ModelAssistedChecker(model)(flipped, [PASSAGE])
    assert verdict.label == "contradicted" and model.calls == []


def test_a_statement_quoted_word_for_word_is_not_asked_about() -> None:
    import dataclasses

    quoted = dataclasses.replace(RECORD, statement="  ".join(PASSAGE.split(" ")))
    model = FakeChecker(CONTRADICTED)
    verdict = ModelAssistedChecker(model)(quoted, [PASSAGE])
    assert verdict.label == "entailed" and model.calls == []
