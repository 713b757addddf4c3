"""Evidence records end to end on a real SQLite store: extract → verify → faults, and the CLI."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from spanproof.bootstrap import build_parser
from spanproof.cli.main import cli
from spanproof.core.documents import FetchedDocument, ParsedSection
from spanproof.core.records import CheckResult, Record, Verdict
from spanproof.evidence.checker import check
from spanproof.evidence.extraction import Finding, QuotedText, extract_findings
from spanproof.services import records as records_service
from spanproof.services.ingestion import ingest
from spanproof.services.records import (
    extract,
    extract_records,
    faults_run,
    verify_all,
    verify_record,
)
from spanproof.store.sqlite import SqliteEvidenceStore

RESULTS_TEXT = b"""Metformin and liver fat in mice

Methods

Male mice were fed a high-fat diet for twelve weeks.

Results

Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice compared \
with vehicle (p < 0.01).
Treatment with metformin did not change body weight in mice (p = 0.4).
Exercise increased insulin sensitivity in obese mice compared with sedentary controls (p < 0.05).
"""
SOURCE = "paper-1"


def _ingest(store: SqliteEvidenceStore) -> None:
    fetched = FetchedDocument("text", {}, "text/plain", RESULTS_TEXT, title="Metformin")
    outcome = ingest(store, fetched, SOURCE, build_parser())
    assert outcome.status == "new"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "store.sqlite"
    with SqliteEvidenceStore(path) as store:
        _ingest(store)
    return path


@pytest.fixture
def store(db: Path) -> Iterator[SqliteEvidenceStore]:
    with SqliteEvidenceStore(db) as s:
        yield s


class CountingChecker:
    """The deterministic checker, counting its calls (or answering a fixed verdict)."""

    def __init__(self, verdict: Verdict | None = None) -> None:
        self.calls = 0
        self.verdict = verdict

    def __call__(self, record: Record, passages: Sequence[str]) -> Verdict:
        self.calls += 1
        return check(record, passages) if self.verdict is None else self.verdict


def _verdict(label: str, failed: Sequence[str] = ()) -> Verdict:
    names = ("negation", "scope", "species", "treatment", "endpoint")
    checks = tuple(CheckResult(n, n not in failed, "", "q") for n in names)
    return Verdict(label, checks, "fake-checker")


def test_extract_stores_located_records_idempotently(store: SqliteEvidenceStore) -> None:
    records = extract_records(store, SOURCE)
    assert len(records) == 3
    texts = {s.key: s.text for s in store.sections(SOURCE, 1)}
    for r in records:
        assert r.status == "proposed" and r.fields.species == "mice"
        for q in r.quotations:
            assert texts[q.section_key][q.start : q.end] == q.text
        assert store.get_record(r.id) == r
    assert extract_records(store, SOURCE) == records
    assert len(store.list_records()) == 3


def test_quotation_not_found_is_a_defect_and_no_record(store: SqliteEvidenceStore) -> None:
    def propose(sections: Sequence[ParsedSection]) -> list[Finding]:
        real = extract_findings(sections)
        fake = dataclasses.replace(
            real[0], quotations=(QuotedText(real[0].quotations[0].section_key, "never said"),)
        )
        return [fake, real[1]]

    result = extract(store, SOURCE, propose=propose)
    assert len(result.records) == 1
    assert len(result.defects) == 1 and "never said" in result.defects[0]
    assert len(store.list_records()) == 1


def test_a_finding_that_quotes_erased_text_is_a_defect_and_no_record(
    store: SqliteEvidenceStore,
) -> None:
    section = next(s for s in store.sections(SOURCE, 1) if "Metformin at 250" in s.text)
    at = section.text.index("Metformin at 250")
    store.add_erasure(SOURCE, 1, section.key, at, at + len("Metformin at 250 mg/kg"), "test")

    def propose(sections: Sequence[ParsedSection]) -> list[Finding]:
        # a proposer that quotes the section as served, erased stretch and all
        served = next(s for s in sections if s.key == section.key).text
        sentence = served[at : served.index("(p < 0.01).") + len("(p < 0.01).")]
        real = extract_findings(sections)
        quoting = dataclasses.replace(
            real[0], statement=sentence, quotations=(QuotedText(section.key, sentence),)
        )
        return [quoting, *real[1:]]

    result = extract(store, SOURCE, propose=propose)
    assert result.defects == ["a finding that quotes erased text was left out"]
    assert all("█" not in q.text for r in result.records for q in r.quotations)
    assert len(store.list_records()) == len(result.records) >= 1


def test_verify_all_verifies_and_keeps_attempts(store: SqliteEvidenceStore) -> None:
    extract_records(store, SOURCE)
    results = verify_all(store)
    assert [d.outcome for _, d in results] == ["verified"] * 3
    for record, _ in results:
        stored = store.get_record(record.id)
        assert stored is not None and stored.status == "verified"
        (attempt,) = store.attempts(record.id)
        assert attempt.stage == "check" and attempt.outcome == "verified"
        assert attempt.model_id == "rules-checker-v1" and len(attempt.prompt_hash) == 64
        assert attempt.started_at <= attempt.finished_at
    assert verify_all(store) == []  # nothing proposed is left


def test_gate_failure_quarantines_without_a_checker_call(store: SqliteEvidenceStore) -> None:
    record = extract_records(store, SOURCE)[0]
    first = record.quotations[0]
    broken = dataclasses.replace(
        record, quotations=(dataclasses.replace(first, start=first.start + 1, end=first.end + 1),)
    )
    counting = CountingChecker()
    decision = verify_record(store, broken, checker=counting)
    assert counting.calls == 0
    assert decision.outcome == "quarantined"
    stored = store.get_record(record.id)
    assert stored is not None and stored.status == "quarantined"
    (attempt,) = store.attempts(record.id)
    assert attempt.stage == "gate" and attempt.verdict is None and attempt.defects


def test_gate_failure_calls_no_module_checker(
    store: SqliteEvidenceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = dataclasses.replace(
        extract_records(store, SOURCE)[0],
        fields=dataclasses.replace(extract_records(store, SOURCE)[0].fields, species=""),
    )
    calls: list[str] = []

    def spy(r: Record, passages: Sequence[str]) -> Verdict:
        calls.append(r.id)
        return check(r, passages)

    monkeypatch.setattr(records_service, "check", spy)
    # the default argument was bound at import; pass the module attribute as a real caller would
    decision = verify_record(store, record, checker=records_service.check)
    assert decision.outcome == "quarantined" and calls == []


def test_critical_failure_rejects_after_one_attempt(store: SqliteEvidenceStore) -> None:
    record = extract_records(store, SOURCE)[0]
    counting = CountingChecker(_verdict("contradicted", ["negation"]))
    decision = verify_record(store, record, checker=counting)
    assert decision.outcome == "rejected" and counting.calls == 1
    stored = store.get_record(record.id)
    assert stored is not None and stored.status == "rejected"
    assert [a.outcome for a in store.attempts(record.id)] == ["rejected"]


def test_retry_reextracts_until_budget_then_review(store: SqliteEvidenceStore) -> None:
    record = extract_records(store, SOURCE)[0]
    counting = CountingChecker(_verdict("entailed", ["scope"]))
    decision = verify_record(store, record, budget=3, checker=counting)
    assert decision.outcome == "review" and counting.calls == 3
    attempts = store.attempts(record.id)
    assert [a.number for a in attempts] == [1, 2, 3]
    assert [a.outcome for a in attempts] == ["retry", "retry", "review"]
    stored = store.get_record(record.id)
    assert stored is not None and stored.status == "in_review"
    assert stored.quotations == record.quotations  # re-extracted from the same sections


def test_ambiguous_goes_to_review(store: SqliteEvidenceStore) -> None:
    record = extract_records(store, SOURCE)[0]
    decision = verify_record(store, record, checker=CountingChecker(_verdict("ambiguous")))
    assert decision.outcome == "review"
    stored = store.get_record(record.id)
    assert stored is not None and stored.status == "in_review"


def test_faults_run_catches_all_six_and_stores_nothing(store: SqliteEvidenceStore) -> None:
    extract_records(store, SOURCE)
    verify_all(store)
    before = {r.id: (r, store.attempts(r.id)) for r in store.list_records()}
    table = faults_run(store)
    assert table.records == 3
    assert [row.mutation for row in table.rows] == [
        "swap_endpoint", "flip_negation", "drop_species", "failure_as_success", "break_span",
        "unsupported_passage",
    ]  # fmt: skip
    for row in table.rows:
        assert row.applied == 3 and row.ok == 3, row
        assert row.caught_by[row.expected] == 3
    assert table.all_ok
    after = {r.id: (r, store.attempts(r.id)) for r in store.list_records()}
    assert after == before


def test_cli_happy_paths(db: Path) -> None:
    runner = CliRunner()
    base = ["--db", str(db)]
    out = runner.invoke(cli, ["records", "extract", SOURCE, *base, "--json"])
    assert out.exit_code == 0, out.output
    extracted = json.loads(out.output)
    assert len(extracted["records"]) == 3 and extracted["defects"] == []
    out = runner.invoke(cli, ["records", "verify", "--all", *base, "--json"])
    assert out.exit_code == 0, out.output
    decided = json.loads(out.output)
    assert [r["outcome"] for r in decided["items"]] == ["verified"] * 3
    assert [r["status"] for r in decided["items"]] == ["verified"] * 3
    assert decided["outcomes"] == {"verified": 3}
    out = runner.invoke(cli, ["records", "list", "--status", "verified", *base, "--json"])
    assert out.exit_code == 0, out.output
    listed = json.loads(out.output)["items"]
    assert len(listed) == 3
    rid = listed[0]["id"]
    out = runner.invoke(cli, ["records", "show", rid, *base, "--json"])
    assert out.exit_code == 0, out.output
    shown = json.loads(out.output)
    assert shown["id"] == rid and shown["attempts"][0]["outcome"] == "verified"
    out = runner.invoke(cli, ["records", "verify", rid, *base, "--json"])
    assert out.exit_code == 0, out.output
    # checked again as it was: reported unchanged, and no attempt is added
    again = json.loads(out.output)["items"][0]
    assert (again["outcome"], again["status"]) == ("unchanged", "verified")
    assert len(json.loads(runner.invoke(cli, ["records", "show", rid, *base, "--json"]).output)[
        "attempts"]) == 1  # fmt: skip
    out = runner.invoke(cli, ["faults", "run", *base, "--json"])
    assert out.exit_code == 0, out.output
    table = json.loads(out.output)
    assert table["ok"] and table["records"] == 3
    for args in (["records", "list"], ["records", "show", rid], ["faults", "run"]):
        out = runner.invoke(cli, [*args, *base])
        assert out.exit_code == 0, out.output
    assert "swap_endpoint" in out.output and "break_span" in out.output


def test_records_show_says_what_its_sources_status_means(db: Path) -> None:
    runner = CliRunner()
    base = ["--db", str(db)]
    assert runner.invoke(cli, ["records", "extract", SOURCE, *base]).exit_code == 0
    rid = json.loads(runner.invoke(cli, ["records", "list", *base, "--json"]).output)["items"][0][
        "id"
    ]

    def show(*extra: str) -> str:
        out = runner.invoke(cli, ["records", "show", rid, *base, *extra])
        assert out.exit_code == 0, out.output
        return out.output

    assert json.loads(show("--json"))["source_status"] == "active"
    assert "Its source" not in show()
    assert runner.invoke(cli, ["retract", SOURCE, *base]).exit_code == 0
    assert json.loads(show("--json"))["source_status"] == "retracted"
    assert f"Its source {SOURCE} is retracted" in " ".join(show().split())


def test_verifying_an_unchanged_verified_record_again_adds_no_attempt(
    store: SqliteEvidenceStore,
) -> None:
    record = extract_records(store, SOURCE)[0]
    assert verify_record(store, record).outcome == "verified"
    stored = store.get_record(record.id)
    assert stored is not None
    for _ in range(3):
        again = verify_record(store, stored)
        assert again.outcome == "unchanged" and "attempt 1" in again.reason
    assert [a.number for a in store.attempts(record.id)] == [1]
    assert store.get_record(record.id) == stored
    assert store.list_walks() == []  # no re-proposal walk either
    # a checker that answers otherwise is a change: its attempt is recorded
    other = CountingChecker(_verdict("entailed"))
    assert verify_record(store, stored, checker=other).outcome == "verified"
    assert [a.number for a in store.attempts(record.id)] == [1, 2]
    assert store.attempts(record.id)[-1].model_id == "fake-checker"
    assert verify_record(store, stored, checker=other).outcome == "unchanged"
    assert len(store.attempts(record.id)) == 2


def test_cli_errors(db: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["records", "verify", "--db", str(db)])
    assert out.exit_code != 0 and "RECORD_ID or --all" in out.output
    out = runner.invoke(cli, ["records", "show", "rec-nope", "--db", str(db)])
    assert out.exit_code != 0 and "unknown record" in out.output
    out = runner.invoke(cli, ["records", "extract", "no-such-source", "--db", str(db)])
    assert out.exit_code != 0 and "no source" in out.output
