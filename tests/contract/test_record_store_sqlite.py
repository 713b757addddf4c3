"""The record store contract against the SQLite backend (a real file per test, no mocks)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.register_assert_rewrite("spanproof.testing.record_contract")

from spanproof.core.record_store import RecordStore  # noqa: E402
from spanproof.store.sqlite import SqliteEvidenceStore  # noqa: E402
from spanproof.testing.record_contract import RecordStoreContract  # noqa: E402


@pytest.fixture(scope="module")
def migrated_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty store file at the current schema, migrated once and copied for each test."""
    path = tmp_path_factory.mktemp("template") / "store.sqlite"
    SqliteEvidenceStore(path).close()
    return path


class TestSqliteRecordStore(RecordStoreContract):
    @pytest.fixture
    def record_store(self, tmp_path: Path, migrated_file: Path) -> Iterator[RecordStore]:
        path = Path(shutil.copy(migrated_file, tmp_path / "store.sqlite"))
        with SqliteEvidenceStore(path) as store:
            yield store

    def test_attempts_are_append_only_in_the_file(self, tmp_path: Path) -> None:
        import sqlite3

        from spanproof.testing.record_contract import make_attempt, make_record

        path = tmp_path / "s.sqlite"
        with SqliteEvidenceStore(path) as store:
            store.put_record(make_record())
            store.add_attempt("rec-000", make_attempt(1))
        conn = sqlite3.connect(path)
        try:
            with pytest.raises(sqlite3.DatabaseError, match="never changed"):
                conn.execute("UPDATE attempts SET body = '{}'")
            # the body changes only to drop quoted text, and then nothing else may change
            erased = (
                "UPDATE attempts SET body = replace(body, 'Aspirin reduced the risk of stroke',"
            )
            with pytest.raises(sqlite3.DatabaseError, match="never changed"):
                conn.execute(erased + " '[erased]'), number = 2")
            conn.execute(erased + " '[erased]')")
            with pytest.raises(sqlite3.DatabaseError, match="never changed"):
                conn.execute("DELETE FROM attempts")
        finally:
            conn.close()
