"""The one behaviour suite every ``RecordStore`` backend passes (SPEC §5).

Subclass :class:`RecordStoreContract` and give it a ``record_store`` fixture that yields an
**empty** store. The suite pins: a record reads back exactly as put (text without any
normalisation); ``put_record`` replaces the current state by id; ``list_records`` filters by
status and source, orders by id and pages; attempts append in number order, are read back
exactly, refuse a taken number or an unknown record, and survive a record's replacement;
an erasure's masking of an attempt replaces it.

Tests use real stores only (no mocks). This module imports pytest, so it is for test code only.
"""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.core.errors import InvalidInputError
from spanproof.core.record_store import RecordStore
from spanproof.core.records import (
    Attempt,
    CheckResult,
    Quotation,
    Record,
    RecordFields,
    Verdict,
)

UNICODE_TEXT = "Naïve β-blocker use (95 % CI 0.71–0.88) 🧬 — 中文 e\u0301 tab\there"


def make_record(n: int = 0, **changes: object) -> Record:
    """A small record; ``n`` varies its id and text, ``changes`` any field."""
    text = f"Aspirin reduced the risk of stroke by {20 + n}% in patients."
    record = Record(
        id=f"rec-{n:03d}",
        source_id=f"src-{n % 2}",
        version=1,
        statement=text,
        quotations=(Quotation("abstract", 5, 5 + len(text), text),),
        fields=RecordFields("aspirin", "risk of stroke", "decrease", "patients", "81 mg", ""),
    )
    return dataclasses.replace(record, **changes)  # type: ignore[arg-type]


def make_attempt(number: int = 1, *, gate_failed: bool = False) -> Attempt:
    checks = tuple(
        CheckResult(name, True, f"{name} ok", "Aspirin reduced the risk of stroke")
        for name in ("negation", "scope", "species", "treatment", "endpoint")
    )
    verdict = None if gate_failed else Verdict("entailed", checks, "rules-checker-v1")
    return Attempt(
        number=number,
        stage="gate" if gate_failed else "check",
        outcome="quarantined" if gate_failed else "verified",
        verdict=verdict,
        defects=("quotations[0]: offsets outside 0..10",) if gate_failed else (),
        model_id="" if gate_failed else "rules-checker-v1",
        prompt_hash="0" * 64,
        started_at="2026-01-01T00:00:00+00:00",
        finished_at="2026-01-01T00:00:01+00:00",
    )


class RecordStoreContract:
    """Behaviour every record store shares; subclasses provide the ``record_store`` fixture."""

    @pytest.fixture
    def record_store(self) -> RecordStore:  # pragma: no cover - overridden by subclasses
        raise NotImplementedError

    def test_is_a_record_store(self, record_store: RecordStore) -> None:
        assert isinstance(record_store, RecordStore)

    def test_missing_record_reads_none(self, record_store: RecordStore) -> None:
        assert record_store.get_record("nope") is None
        assert record_store.attempts("nope") == []
        assert record_store.list_records() == []

    def test_round_trip_exact(self, record_store: RecordStore) -> None:
        record = make_record(
            statement=UNICODE_TEXT,
            fields=RecordFields("β-blocker", UNICODE_TEXT, "no_effect", "mice", "", "some"),
        )
        record_store.put_record(record)
        assert record_store.get_record(record.id) == record

    def test_put_replaces_current_state(self, record_store: RecordStore) -> None:
        record = make_record()
        record_store.put_record(record)
        verified = dataclasses.replace(record, status="verified")
        record_store.put_record(verified)
        assert record_store.get_record(record.id) == verified
        assert record_store.list_records() == [verified]

    def test_list_takes_pages_past_any_sql_integer(self, record_store: RecordStore) -> None:
        record_store.put_record(make_record(0))
        assert record_store.list_records(offset=2**64) == []
        assert [r.id for r in record_store.list_records(limit=2**64)] == ["rec-000"]

    def test_ids_with_a_nul_character_are_caller_mistakes(self, record_store: RecordStore) -> None:
        with pytest.raises(InvalidInputError, match="NUL"):
            record_store.put_record(dataclasses.replace(make_record(0), id="rec-\x00"))
        with pytest.raises(InvalidInputError, match="NUL"):
            record_store.get_record("rec-\x00")
        with pytest.raises(InvalidInputError, match="NUL"):
            record_store.list_records(source_id="src-\x00")
        record_store.put_record(dataclasses.replace(make_record(1), statement="A \x00 B"))
        stored = record_store.get_record("rec-001")  # a JSON body escapes it
        assert stored is not None and stored.statement == "A \x00 B"

    def test_list_filters_orders_and_pages(self, record_store: RecordStore) -> None:
        records = [make_record(n) for n in (3, 1, 2, 0)]
        records[0] = dataclasses.replace(records[0], status="rejected")
        for record in records:
            record_store.put_record(record)
        ids = [r.id for r in record_store.list_records()]
        assert ids == ["rec-000", "rec-001", "rec-002", "rec-003"]
        assert [r.id for r in record_store.list_records(status="rejected")] == ["rec-003"]
        assert [r.id for r in record_store.list_records(source_id="src-0")] == [
            "rec-000",
            "rec-002",
        ]
        assert [r.id for r in record_store.list_records(status="proposed", source_id="src-1")] == [
            "rec-001"
        ]
        assert [r.id for r in record_store.list_records(limit=2, offset=1)] == [
            "rec-001",
            "rec-002",
        ]
        with pytest.raises(InvalidInputError):
            record_store.list_records(limit=-1)

    def test_attempts_append_in_order_exactly(self, record_store: RecordStore) -> None:
        record = make_record()
        record_store.put_record(record)
        first, second = make_attempt(1, gate_failed=True), make_attempt(2)
        record_store.add_attempt(record.id, first)
        record_store.add_attempt(record.id, second)
        assert record_store.attempts(record.id) == [first, second]
        record_store.put_record(dataclasses.replace(record, status="verified"))
        assert record_store.attempts(record.id) == [first, second]

    def test_attempt_number_is_never_reused(self, record_store: RecordStore) -> None:
        record = make_record()
        record_store.put_record(record)
        record_store.add_attempt(record.id, make_attempt(1))
        with pytest.raises(InvalidInputError):
            record_store.add_attempt(record.id, make_attempt(1, gate_failed=True))
        assert record_store.attempts(record.id) == [make_attempt(1)]

    def test_attempt_needs_a_record(self, record_store: RecordStore) -> None:
        with pytest.raises(InvalidInputError):
            record_store.add_attempt("nope", make_attempt(1))
        assert record_store.attempts("nope") == []

    def test_an_erasures_masking_of_an_attempt_replaces_it(self, record_store: RecordStore) -> None:
        record = make_record()
        record_store.put_record(record)
        first, second = make_attempt(1), make_attempt(2)
        record_store.add_attempt(record.id, first)
        record_store.add_attempt(record.id, second)
        assert first.verdict is not None
        checks = tuple(dataclasses.replace(c, quote="[erased]") for c in first.verdict.checks)
        masked = dataclasses.replace(
            first, verdict=dataclasses.replace(first.verdict, checks=checks)
        )
        record_store.store_erased_attempt(record.id, masked)
        assert record_store.attempts(record.id) == [masked, second]
        with pytest.raises(InvalidInputError):
            record_store.store_erased_attempt(record.id, dataclasses.replace(masked, number=3))
        with pytest.raises(InvalidInputError):
            record_store.store_erased_attempt("nope", masked)
