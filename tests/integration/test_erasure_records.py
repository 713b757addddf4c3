"""An erasure reaches the evidence records that quoted the erased text (SPEC §7), on both store
dialects: their copies are masked in the same transaction, they are quarantined with an attempt
saying why, what is built on a verified one is flagged, and views withhold the passage text the
checks of earlier attempts quoted."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from pg_fixtures import dialect_store
from spanproof.api.app import create_app
from spanproof.bootstrap import build_parser
from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import InvalidInputError
from spanproof.core.store import EvidenceStore
from spanproof.services import artifacts, impact
from spanproof.services.erasure import ERASED, erase, shown_attempts
from spanproof.services.ingestion import ingest
from spanproof.services.records import extract_records, verify_all
from spanproof.testing.apps import app_state

PAPER = b"""Metformin and liver fat in mice

Results

Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice compared \
with vehicle (p < 0.01).
Exercise increased insulin sensitivity in obese mice compared with sedentary controls (p < 0.05).
"""
SOURCE = "paper-1"
SECRET = "Metformin at 250 mg/kg"


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EvidenceStore]:
    with dialect_store(request.param, tmp_path) as s:
        yield s


def _curated(store: EvidenceStore) -> tuple[str, int, int, str, str]:
    """The paper ingested, its findings verified, one assessed: (section, start, end, the
    record quoting SECRET, the assessment's id)."""
    fetched = FetchedDocument("text", {}, "text/plain", PAPER, title="Metformin")
    ingest(store, fetched, SOURCE, build_parser())
    extract_records(store, SOURCE)
    verify_all(store)
    section = next(s for s in store.sections(SOURCE, 1) if SECRET in s.text)
    start = section.text.index(SECRET)
    record = next(
        r
        for r in store.list_records()
        if any(SECRET in q.text for q in r.quotations)  # type: ignore[attr-defined]
    )
    assert record.status == "verified"
    made, _ = artifacts.create_assessment(store, "Does metformin cut liver fat?", [record.id])
    return section.key, start, start + len(SECRET), record.id, made.id


def test_an_erasure_masks_quarantines_and_flags_in_one_go(store: EvidenceStore) -> None:
    key, start, end, record_id, assessment = _curated(store)
    outcome = erase(store, SOURCE, 1, key, start, end, "GDPR #18")
    impact.resume_walks(store)
    assert outcome.records == (record_id,)
    masked = store.get_record(record_id)  # type: ignore[attr-defined]
    assert masked.status == "quarantined" and masked.statement == ERASED
    assert SECRET not in json.dumps(masked.to_dict())
    attempts = store.attempts(record_id)  # type: ignore[attr-defined]
    assert attempts[-1].model_id == "erasure" and "GDPR #18" in attempts[-1].defects[0]
    # the attempt written before the erasure is stored without the passage text it quoted
    assert all(c.quote in ("", ERASED) for c in attempts[0].verdict.checks)
    assert any(c.quote == ERASED for c in attempts[0].verdict.checks)
    assert all(SECRET not in json.dumps(a.to_dict()) for a in attempts)
    shown = shown_attempts(attempts)
    assert all(SECRET not in c.quote for a in shown if a.verdict for c in a.verdict.checks)
    assert [a.outcome for a in shown] == [a.outcome for a in attempts]
    assert artifacts.artifact_view(store, assessment).flags  # built on a verified record
    others = [r for r in store.list_records() if r.id != record_id]  # type: ignore[attr-defined]
    assert others and all(r.status == "verified" for r in others)
    # the same range again: the same erasure, nothing more changes
    again = erase(store, SOURCE, 1, key, start, end, "GDPR #18")
    assert again.erasure == outcome.erasure and again.records == ()
    assert len(store.attempts(record_id)) == len(attempts)  # type: ignore[attr-defined]


def test_a_bad_erasure_changes_nothing(store: EvidenceStore) -> None:
    key, start, end, record_id, _ = _curated(store)
    for args, message in (
        ((key, start, start, "x"), "empty range"),
        ((key, start, end, " "), "reason is required"),
        (("s9", start, end, "x"), "no section"),
    ):
        with pytest.raises(InvalidInputError, match=message):
            erase(store, SOURCE, 1, *args)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="has no version 2"):
        erase(store, SOURCE, 2, key, start, end, "x")
    assert store.erasures(SOURCE) == []
    assert store.get_record(record_id).status == "verified"  # type: ignore[attr-defined]


def test_the_api_and_the_web_page_of_a_masked_record_hold_no_erased_text(
    store: EvidenceStore,
) -> None:
    key, start, end, record_id, _ = _curated(store)
    with TestClient(create_app(app_state(store))) as client:
        before = client.get(f"/records/{record_id}")
        assert before.status_code == 200 and SECRET in before.text
        erase(store, SOURCE, 1, key, start, end, "GDPR #18")
        for url in (f"/records/{record_id}", f"/v1/records/{record_id}", "/v1/records"):
            shown = client.get(url)
            assert shown.status_code == 200 and SECRET not in shown.text, url
        assert "[erased]" in client.get(f"/records/{record_id}").text
