"""A PostgreSQL connection dropped mid-transaction (``pg_terminate_backend`` from another session):
the store raises a retryable :class:`StoreError`, nothing of the transaction is visible, earlier
commits are intact, and the pool hands the next unit of work a fresh connection."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import psycopg
import pytest

from pg_fixtures import fresh_database
from spanproof.bootstrap import build_parser
from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import StoreError
from spanproof.core.store import Source
from spanproof.services.ingestion import ingest
from spanproof.store.postgres import PostgresEvidenceStore
from spanproof.store.postgres.store import APPLICATION_NAME

EARLIER = b"Walking study\n\nDaily walking lowered systolic blood pressure by 5 mmHg.\n"
LOST = b"Lost study\n\nThis document was being written when the connection dropped.\n"
SHA = hashlib.sha256(LOST).hexdigest()


@pytest.fixture
def dsn() -> Iterator[str]:
    with fresh_database() as dsn:
        yield dsn


def _doc(raw: bytes) -> FetchedDocument:
    return FetchedDocument(connector="upload", external_ids={}, media_type="text/plain", raw=raw)


def _terminate_store_backends(dsn: str) -> int:
    """End every session of the store in this database that sits inside a transaction."""
    with psycopg.connect(dsn, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s"
            " AND datname = current_database() AND pid <> pg_backend_pid()"
            " AND state LIKE 'idle in transaction%%'",
            (APPLICATION_NAME,),
        ).fetchall()
    return sum(1 for (ok,) in rows if ok)


@pytest.mark.parametrize("then", ["next-write", "commit"])
def test_a_connection_dropped_mid_transaction_loses_only_that_transaction(
    dsn: str, then: str
) -> None:
    parse = build_parser()
    with PostgresEvidenceStore(dsn, pool_size=2) as store:
        ingest(store, _doc(EARLIER), "upload:earlier", parse)
        with pytest.raises(StoreError) as caught, store.transaction():
            store.upsert_source(Source(id="upload:lost", connector="upload", title="lost"))
            store.put_blob(SHA, LOST)
            assert _terminate_store_backends(dsn) == 1
            if then == "next-write":
                store.add_version("upload:lost", SHA, "text/plain")
        assert caught.value.retryable is True
        assert "PostgreSQL store" in str(caught.value)

        # The next units of work run on a fresh connection; the dropped transaction left nothing.
        assert store.get_source("upload:lost") is None
        assert store.versions("upload:lost") == []
        (earlier,) = store.versions("upload:earlier")
        assert earlier.state == "parsed"
        assert any("5 mmHg" in s.text for s in store.sections("upload:earlier", 1))

        # Retrying the lost work succeeds.
        outcome = ingest(store, _doc(LOST), "upload:lost", parse)
        assert (outcome.status, outcome.version) == ("new", 1)
        assert [v.state for v in store.versions("upload:lost")] == ["parsed"]
