"""The store contract suite against the SQLite backend (a real file per test, no mocks)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from spanproof.core.store import EvidenceStore
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.testing.store_contract import EvidenceStoreContract


@pytest.fixture(scope="module")
def migrated_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty store file at the current schema, migrated once and copied for each test."""
    path = tmp_path_factory.mktemp("template") / "store.sqlite"
    SqliteEvidenceStore(path).close()
    return path


class TestSqliteEvidenceStore(EvidenceStoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path, migrated_file: Path) -> Iterator[EvidenceStore]:
        path = Path(shutil.copy(migrated_file, tmp_path / "store.sqlite"))
        with SqliteEvidenceStore(path) as store:
            yield store


class TestSqliteEvidenceStoreWithSidecars(EvidenceStoreContract):
    """The same contract with every vector matrix memory-mapped from ``.npy`` sidecars."""

    @pytest.fixture
    def store(self, tmp_path: Path, migrated_file: Path) -> Iterator[EvidenceStore]:
        path = Path(shutil.copy(migrated_file, tmp_path / "store.sqlite"))
        with SqliteEvidenceStore(path, vector_sidecar_min=1) as store:
            yield store


def test_a_fresh_file_passes_through_alembic_before_the_contract_runs(tmp_path: Path) -> None:
    with SqliteEvidenceStore(tmp_path / "fresh.sqlite") as store:
        assert store.stats()["sources"] == 0
