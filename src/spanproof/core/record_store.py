"""Storage of evidence records and their attempts (SPEC §5): the port and its JSON form.

A store keeps each record's **current** state (``put_record`` inserts or replaces it by id) and
every verification attempt, append-only (``add_attempt``; attempts are never changed or
deleted). Bodies are stored as canonical JSON (:func:`record_json`, :func:`attempt_json`) and
read back with :func:`record_from_json` and :func:`attempt_from_json`; the other columns
(``source_id``, ``version``, ``status``) are copies of body fields for lookups.
"""

from __future__ import annotations

import json
from typing import Any, Protocol, runtime_checkable

from spanproof.core.errors import InvalidInputError, StoreError
from spanproof.core.records import (
    Attempt,
    CheckResult,
    Quotation,
    Record,
    RecordFields,
    Verdict,
)
from spanproof.core.trace import canonical_json


def record_json(record: Record) -> str:
    """The canonical JSON a record is stored as."""
    return canonical_json(record.to_dict())


def attempt_json(attempt: Attempt) -> str:
    """The canonical JSON an attempt is stored as."""
    return canonical_json(attempt.to_dict())


def record_from_dict(data: dict[str, Any]) -> Record:
    """A record from :meth:`Record.to_dict` output.

    Raises:
        InvalidInputError: fields missing, unknown or of the wrong type.
    """
    try:
        quotations = tuple(Quotation(**q) for q in data["quotations"])
        return Record(
            id=data["id"],
            source_id=data["source_id"],
            version=int(data["version"]),
            statement=data["statement"],
            quotations=quotations,
            fields=RecordFields(**data["fields"]),
            status=data["status"],
        )
    except (KeyError, TypeError) as exc:
        raise InvalidInputError(f"not a record: {exc}") from exc


def verdict_from_dict(data: dict[str, Any]) -> Verdict:
    """A verdict from :meth:`Verdict.to_dict` output."""
    try:
        checks = tuple(CheckResult(**c) for c in data["checks"])
        return Verdict(data["label"], checks, data["model_id"])
    except (KeyError, TypeError) as exc:
        raise InvalidInputError(f"not a verdict: {exc}") from exc


def attempt_from_dict(data: dict[str, Any]) -> Attempt:
    """An attempt from :meth:`Attempt.to_dict` output."""
    try:
        verdict = data["verdict"]
        return Attempt(
            number=int(data["number"]),
            stage=data["stage"],
            outcome=data["outcome"],
            verdict=None if verdict is None else verdict_from_dict(verdict),
            defects=tuple(data["defects"]),
            model_id=data["model_id"],
            prompt_hash=data["prompt_hash"],
            started_at=data["started_at"],
            finished_at=data["finished_at"],
        )
    except (KeyError, TypeError) as exc:
        raise InvalidInputError(f"not an attempt: {exc}") from exc


def _load(what: str, key: str, body: str) -> dict[str, Any]:
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise StoreError(f"{what} {key} is corrupt (its body is not JSON): {exc}") from exc
    if not isinstance(data, dict):
        raise StoreError(f"{what} {key} is corrupt (its body is not an object)")
    return data


def record_from_json(record_id: str, body: str) -> Record:
    """The record stored in ``body``.

    Raises:
        StoreError: the stored text is not a record (damaged outside spanproof).
    """
    try:
        return record_from_dict(_load("record", record_id, body))
    except InvalidInputError as exc:
        raise StoreError(f"record {record_id} is corrupt: {exc}") from exc


def attempt_from_json(record_id: str, number: int, body: str) -> Attempt:
    """The attempt stored in ``body``.

    Raises:
        StoreError: the stored text is not an attempt (damaged outside spanproof).
    """
    key = f"{record_id}#{number}"
    try:
        return attempt_from_dict(_load("attempt", key, body))
    except InvalidInputError as exc:
        raise StoreError(f"attempt {key} is corrupt: {exc}") from exc


def check_record_page(limit: int, offset: int) -> None:
    if limit < 0 or offset < 0:
        raise InvalidInputError("limit and offset must not be negative")


@runtime_checkable
class RecordStore(Protocol):
    """Current records (by id) and their append-only attempts."""

    def put_record(self, record: Record) -> None:
        """Insert ``record``, or replace the current state of the record with its id."""
        ...

    def get_record(self, record_id: str) -> Record | None: ...

    def list_records(
        self,
        *,
        status: str | None = None,
        source_id: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Record]:
        """Records ordered by id, filtered by status and source."""
        ...

    def add_attempt(self, record_id: str, attempt: Attempt) -> None:
        """Append ``attempt`` to the record (which must exist); its number must be new.

        Raises:
            InvalidInputError: no such record, or an attempt with that number exists.
        """
        ...

    def attempts(self, record_id: str) -> list[Attempt]:
        """The record's attempts by number."""
        ...

    def store_erased_attempt(self, record_id: str, attempt: Attempt) -> None:
        """Replace a stored attempt by an erasure's masking of it (its checks without the
        passage text they quoted): the one change an attempt admits.

        Raises:
            InvalidInputError: the record has no attempt with that number.
        """
        ...


def record_store_of(store: object) -> RecordStore:
    """``store`` as a :class:`RecordStore`.

    Raises:
        InvalidInputError: the store keeps no evidence records.
    """
    if not isinstance(store, RecordStore):
        raise InvalidInputError(f"{type(store).__name__} keeps no evidence records")
    return store
