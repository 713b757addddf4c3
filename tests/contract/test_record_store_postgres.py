"""The record store contract against PostgreSQL (a fresh database per test, no mocks).

The server comes from ``pg_fixtures`` (the ``pgserver`` wheel or ``SPANPROOF_TEST_PG_DSN``);
without either the tests skip with a reason, except under ``CI``, where they fail.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.register_assert_rewrite("spanproof.testing.record_contract")

from pg_fixtures import fresh_database  # noqa: E402
from spanproof.core.record_store import RecordStore  # noqa: E402
from spanproof.store.postgres import PostgresEvidenceStore  # noqa: E402
from spanproof.testing.record_contract import RecordStoreContract  # noqa: E402


class TestPostgresRecordStore(RecordStoreContract):
    @pytest.fixture
    def record_store(self) -> Iterator[RecordStore]:
        with fresh_database() as dsn, PostgresEvidenceStore(dsn, pool_size=2) as store:
            yield store
