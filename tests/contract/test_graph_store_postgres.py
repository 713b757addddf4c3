"""The graph store contract against PostgreSQL (a fresh database per test, no mocks).

The server comes from ``pg_fixtures`` (the ``pgserver`` wheel or ``SPANPROOF_TEST_PG_DSN``);
without either the tests skip with a reason, except under ``CI``, where they fail.
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

pytest.register_assert_rewrite("spanproof.testing.graph_contract")

from pg_fixtures import fresh_database  # noqa: E402
from spanproof.core.graph_store import GraphStore  # noqa: E402
from spanproof.store.postgres import PostgresEvidenceStore  # noqa: E402
from spanproof.testing.graph_contract import (  # noqa: E402
    AT,
    GraphStoreContract,
    make_artifact,
    make_version,
)


class TestPostgresGraphStore(GraphStoreContract):
    @pytest.fixture
    def graph_store(self) -> Iterator[GraphStore]:
        with fresh_database() as dsn, PostgresEvidenceStore(dsn, pool_size=2) as store:
            yield store


def test_approved_versions_and_flags_are_final_in_the_database() -> None:
    with fresh_database() as dsn:
        with PostgresEvidenceStore(dsn, pool_size=1) as store:
            store.create_artifact(make_artifact(1))
            store.add_artifact_version(make_version("a-001", 1, "record:r"))
            store.add_artifact_version(make_version("a-001", 2, "record:r"))
            store.approve_artifact_version("a-001", 1, "ada", AT)
            store.start_walk("w", "record:r", "rejected", AT)
            store.walk_step("w", 10, AT)
        with psycopg.connect(dsn, autocommit=True) as conn:
            for sql in (
                "UPDATE artifact_versions SET body = '{}' WHERE number = 1",
                "UPDATE artifact_versions SET approved_by = 'eve' WHERE number = 1",
                "UPDATE artifact_versions SET body = '{}' WHERE number = 2",
                "DELETE FROM artifact_versions",
                "TRUNCATE artifact_versions CASCADE",
                "UPDATE impact_flags SET reason = 'x'",
                "DELETE FROM impact_flags",
            ):
                with pytest.raises(psycopg.errors.RestrictViolation):
                    conn.execute(sql)  # type: ignore[arg-type]
            conn.execute(
                "UPDATE artifact_versions SET approved_by = 'b', approved_at = 't' WHERE number = 2"
            )
