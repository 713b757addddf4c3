"""The trace store contract against PostgreSQL (a fresh database per test, no mocks).

The server comes from ``pg_fixtures`` (the ``pgserver`` wheel or ``SPANPROOF_TEST_PG_DSN``);
without either the tests skip with a reason, except under ``CI``, where they fail.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.register_assert_rewrite("spanproof.testing.trace_contract")

from pg_fixtures import fresh_database  # noqa: E402
from spanproof.core.trace import TraceStore  # noqa: E402
from spanproof.store.postgres import PostgresEvidenceStore  # noqa: E402
from spanproof.testing.trace_contract import TraceStoreContract  # noqa: E402


class TestPostgresTraceStore(TraceStoreContract):
    @pytest.fixture
    def dsn(self) -> Iterator[str]:
        with fresh_database() as dsn:
            yield dsn

    @pytest.fixture
    def trace_store(self, dsn: str) -> Iterator[TraceStore]:
        with PostgresEvidenceStore(dsn, pool_size=2) as store:
            yield store

    @pytest.fixture
    def other_trace_store(self, dsn: str, trace_store: TraceStore) -> Iterator[TraceStore]:
        """A second store (its own pool) on the same database, as another process would have."""
        with PostgresEvidenceStore(dsn, pool_size=1, migrate=False) as store:
            yield store
