"""The trace store contract against the SQLite backend (a real file per test, no mocks)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.register_assert_rewrite("spanproof.testing.trace_contract")

from spanproof.core.trace import TraceStore  # noqa: E402
from spanproof.store.sqlite import SqliteEvidenceStore  # noqa: E402
from spanproof.testing.trace_contract import TraceStoreContract  # noqa: E402


@pytest.fixture(scope="module")
def migrated_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty store file at the current schema, migrated once and copied for each test."""
    path = tmp_path_factory.mktemp("template") / "store.sqlite"
    SqliteEvidenceStore(path).close()
    return path


class TestSqliteTraceStore(TraceStoreContract):
    @pytest.fixture
    def path(self, tmp_path: Path, migrated_file: Path) -> Path:
        return Path(shutil.copy(migrated_file, tmp_path / "store.sqlite"))

    @pytest.fixture
    def trace_store(self, path: Path) -> Iterator[TraceStore]:
        with SqliteEvidenceStore(path) as store:
            yield store

    @pytest.fixture
    def other_trace_store(self, path: Path, trace_store: TraceStore) -> Iterator[TraceStore]:
        """Another connection to the same file, as another process would have."""
        with SqliteEvidenceStore(path, busy_timeout_ms=30_000) as store:
            yield store
