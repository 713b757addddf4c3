"""The store contract suite against PostgreSQL + pgvector (a fresh database per test, no mocks).

The server comes from ``pg_fixtures``: the ``pgserver`` wheel of the dev extra, or the server at
``SPANPROOF_TEST_PG_DSN``. Without either the tests skip with a reason, except under ``CI``,
where they fail.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pg_fixtures import fresh_database
from spanproof.core.store import EvidenceStore
from spanproof.store.postgres import PostgresEvidenceStore
from spanproof.testing.store_contract import EvidenceStoreContract


class TestPostgresEvidenceStore(EvidenceStoreContract):
    @pytest.fixture
    def store(self) -> Iterator[EvidenceStore]:
        with fresh_database() as dsn, PostgresEvidenceStore(dsn, pool_size=2) as store:
            yield store
