"""The graph store contract against the SQLite backend (a real file per test, no mocks)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.register_assert_rewrite("spanproof.testing.graph_contract")

from spanproof.core.graph_store import GraphStore  # noqa: E402
from spanproof.store.sqlite import SqliteEvidenceStore  # noqa: E402
from spanproof.testing.graph_contract import (  # noqa: E402
    AT,
    GraphStoreContract,
    make_artifact,
    make_version,
)


@pytest.fixture(scope="module")
def migrated_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "store.sqlite"
    SqliteEvidenceStore(path).close()
    return path


class TestSqliteGraphStore(GraphStoreContract):
    @pytest.fixture
    def graph_store(self, tmp_path: Path, migrated_file: Path) -> Iterator[GraphStore]:
        path = Path(shutil.copy(migrated_file, tmp_path / "store.sqlite"))
        with SqliteEvidenceStore(path) as store:
            yield store


def test_approved_versions_and_flags_are_final_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with SqliteEvidenceStore(path) as store:
        store.create_artifact(make_artifact(1))
        store.add_artifact_version(make_version("a-001", 1, "record:r"))
        store.add_artifact_version(make_version("a-001", 2, "record:r"))
        store.approve_artifact_version("a-001", 1, "ada", AT)
        store.start_walk("w", "record:r", "rejected", AT)
        store.walk_step("w", 10, AT)
    conn = sqlite3.connect(path)
    try:
        for sql in (
            "UPDATE artifact_versions SET body = '{}' WHERE number = 1",
            "UPDATE artifact_versions SET approved_by = 'eve' WHERE number = 1",
            "UPDATE artifact_versions SET body = '{}' WHERE number = 2",
            "DELETE FROM artifact_versions",
            "UPDATE impact_flags SET reason = 'x'",
            "DELETE FROM impact_flags",
        ):
            with pytest.raises(sqlite3.DatabaseError, match="never"):
                conn.execute(sql)
        # the one allowed change: approving a draft
        conn.execute(
            "UPDATE artifact_versions SET approved_by = 'b', approved_at = 't' WHERE number = 2"
        )
    finally:
        conn.close()
