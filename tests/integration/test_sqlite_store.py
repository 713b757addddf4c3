"""SQLite-specific behaviour of ``SqliteEvidenceStore``: the file, WAL, migrations, processes.

The shared behaviour is in the contract suite (tests/contract/test_store_sqlite.py); these tests
cover what only a file-backed SQLite store has. Real files and real subprocesses, no mocks.
"""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spanproof.core.documents import ParsedSection
from spanproof.core.errors import ConfigurationError, StoreError
from spanproof.core.store import Chunk, SearchFilter, Source
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.store.sqlite.schema import SCHEMA_HEAD, alembic_config, script_head, upgrade
from spanproof.testing.store_contract import add_document, chunk_id, vec

ANY = SearchFilter(eligible_only=False)
MODEL = "test-model"


def _run(code: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "evidence.sqlite"


def test_a_reopened_file_keeps_every_kind_of_data(db: Path) -> None:
    with SqliteEvidenceStore(db) as store:
        add_document(store, "a", [("abstract", "Aspirin reduced pain in 40 adults.")])
        store.put_embeddings(MODEL, [(chunk_id("a", 1, "abstract"), vec(1.0))])
        store.add_erasure("a", 1, "abstract", 24, 26, reason="test")
        before = store.stats()
    with SqliteEvidenceStore(db) as store:
        assert store.stats() == before
        section = store.section("a", 1, "abstract")
        assert section is not None and section.text == "Aspirin reduced pain in ██ adults."
        assert [h.chunk.source_id for h in store.keyword_search("aspirin", 5, ANY)] == ["a"]
        assert store.vector_search(vec(1.0), MODEL, 5, ANY) == []  # erased: vectors gone
        assert store.get_blob(store.versions("a")[0].sha256) is not None


def test_the_file_is_in_wal_mode_with_foreign_keys_enforced(db: Path) -> None:
    with SqliteEvidenceStore(db) as store:
        store.upsert_source(Source("a", "text"))
        conn = store._db  # the store's own connection: foreign_keys is per connection
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(
                "INSERT INTO versions (source_id, number, sha256, media_type, created_at)"
                " VALUES ('missing', 1, 'x', 'text/plain', 'now')"
            )
    with sqlite3.connect(db) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    other.close()


def test_the_schema_revision_is_recorded_at_alembic_head(db: Path) -> None:
    assert script_head() == SCHEMA_HEAD
    with SqliteEvidenceStore(db) as store:
        assert store.schema_version() == SCHEMA_HEAD
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("0009",)]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()
    assert {"sources", "source_ids", "blobs", "versions", "sections", "chunks", "chunks_fts",
            "embeddings", "measurements", "erasures", "traces"} <= tables  # fmt: skip


def test_the_migrations_downgrade_to_nothing_and_upgrade_again(db: Path) -> None:
    from alembic import command

    SqliteEvidenceStore(db).close()
    command.downgrade(alembic_config(db), "base")
    conn = sqlite3.connect(db)
    try:
        assert (
            conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'chunks'").fetchone()[0]
            == 0
        )
    finally:
        conn.close()
    with SqliteEvidenceStore(db) as store:
        assert store.schema_version() == SCHEMA_HEAD
        add_document(store, "a", [("abstract", "Works again.")])


def test_a_file_at_the_first_revision_upgrades_on_open_and_keeps_its_data(db: Path) -> None:
    from spanproof.testing.trace_contract import make_trace

    upgrade(db, busy_timeout_s=5, revision="0001")
    conn = sqlite3.connect(db)
    try:
        conn.execute(
            "INSERT INTO sources (id, connector, created_at) VALUES ('old', 'text', '2025-01-01')"
        )
        conn.commit()
    finally:
        conn.close()
    with SqliteEvidenceStore(db) as store:
        assert store.schema_version() == SCHEMA_HEAD
        assert store.get_source("old") is not None
        assert store.append(make_trace()).seq == 1


#: Versions a store at revision 0006 held: two of "old", one of "one".
VERSIONS_0006 = (
    ("old", 1, "a" * 64, "2025-01-01"),
    ("old", 2, "b" * 64, "2025-01-02"),
    ("one", 1, "c" * 64, "2025-01-03"),
)


def test_a_file_at_the_previous_head_upgrades_and_each_source_is_on_its_newest_version(
    db: Path,
) -> None:
    upgrade(db, busy_timeout_s=5, revision="0006")
    conn = sqlite3.connect(db)
    try:
        conn.executemany(
            "INSERT INTO sources (id, connector, created_at) VALUES (?, 'file', '2025-01-01')",
            [("old",), ("one",), ("none",)],
        )
        conn.executemany(
            "INSERT INTO versions (source_id, number, sha256, media_type, state, created_at)"
            " VALUES (?, ?, ?, 'text/plain', 'parsed', ?)",
            VERSIONS_0006,
        )
        conn.commit()
    finally:
        conn.close()
    with SqliteEvidenceStore(db) as store:
        assert store.schema_version() == SCHEMA_HEAD
        assert [store.current_version(s) for s in ("old", "one", "none")] == [
            store.versions("old")[1],
            store.versions("one")[0],
            None,
        ]
        assert store.make_current("old", 1) is True
        assert store.current_version("old") == store.versions("old")[0]
        # the old "latest" rule still holds for a version added after the upgrade
        store.add_version("old", "d" * 64, "text/plain")
        assert store.current_version("old") == store.versions("old")[2]


def test_the_history_of_current_versions_cannot_be_changed_even_by_direct_sql(db: Path) -> None:
    with SqliteEvidenceStore(db) as store:
        add_document(store, "a", [("abstract", "One.")])
        add_document(store, "a", [("abstract", "Two.")])
        store.make_current("a", 1)
    conn = sqlite3.connect(db)
    try:
        for statement in (
            "UPDATE current_versions SET version = 2",
            "DELETE FROM current_versions WHERE seq = 3",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="never changed or deleted"):
                conn.execute(statement)
        rows = conn.execute("SELECT seq, version FROM current_versions ORDER BY seq").fetchall()
        assert rows == [(1, 1), (2, 2), (3, 1)]
    finally:
        conn.close()


def test_an_up_to_date_file_opens_without_importing_alembic(db: Path) -> None:
    SqliteEvidenceStore(db).close()
    result = _run(
        """
        import sys
        from spanproof.store.sqlite import SqliteEvidenceStore
        SqliteEvidenceStore(sys.argv[1]).close()
        print("alembic" in sys.modules, "sqlalchemy" in sys.modules)
        """,
        str(db),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False"]


def test_two_processes_creating_one_file_at_once_migrate_it_once(db: Path) -> None:
    code = """
        import sys
        from spanproof.store.sqlite import SqliteEvidenceStore
        with SqliteEvidenceStore(sys.argv[1], busy_timeout_ms=30000) as store:
            print(store.schema_version())
        """
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(code), str(db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    outputs = [proc.communicate(timeout=60) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0, 0], [err for _, err in outputs]
    assert [out.strip() for out, _ in outputs] == [SCHEMA_HEAD] * 3


def _writing_in_rollback_mode(db: Path) -> sqlite3.Connection:
    """Another connection to a new file, holding a write transaction in rollback-journal mode
    (as the first process to create a store does, for a moment, before it switches to WAL)."""
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE other (v INTEGER)")
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO other VALUES (1)")
    return other


def test_a_file_another_connection_is_writing_opens_once_it_commits(db: Path) -> None:
    # SQLite answers this open with "database is locked" at once, without its busy wait (a
    # possible deadlock); the store tries again until the other writer is done.
    other = _writing_in_rollback_mode(db)
    done = threading.Timer(0.3, other.execute, ("COMMIT",))
    done.start()
    try:
        with SqliteEvidenceStore(db, busy_timeout_ms=10000) as store:
            assert store.schema_version() == SCHEMA_HEAD
            store.upsert_source(Source("a", "text"))
            assert [s.id for s in store.list_sources()] == ["a"]
    finally:
        done.join()
        other.close()
    assert sqlite3.connect(db).execute("SELECT v FROM other").fetchall() == [(1,)]


def test_a_file_locked_past_the_busy_timeout_fails_retryable(db: Path) -> None:
    other = _writing_in_rollback_mode(db)
    try:
        with pytest.raises(StoreError) as caught:
            SqliteEvidenceStore(db, busy_timeout_ms=200)
        assert caught.value.retryable
        assert "locked" in str(caught.value)
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_second_process_reads_while_one_writes(db: Path) -> None:
    reader = """
        import sys
        from spanproof.core.store import SearchFilter
        from spanproof.store.sqlite import SqliteEvidenceStore
        with SqliteEvidenceStore(sys.argv[1], readonly=True) as store:
            hits = store.keyword_search("aspirin", 10, SearchFilter(eligible_only=False))
            print(len(store.list_sources()), len(hits))
        """
    with SqliteEvidenceStore(db) as store:
        add_document(store, "a", [("abstract", "Aspirin, committed.")])
        with store.transaction():  # holds the write lock while the other process reads
            add_document(store, "b", [("abstract", "Aspirin, not yet committed.")])
            during = _run(reader, str(db))
        after = _run(reader, str(db))
    assert during.returncode == 0, during.stderr
    assert during.stdout.split() == ["1", "1"]
    assert after.stdout.split() == ["2", "2"]


def test_a_writer_that_cannot_get_the_lock_gets_a_retryable_error(db: Path) -> None:
    with SqliteEvidenceStore(db) as first, SqliteEvidenceStore(db, busy_timeout_ms=50) as second:
        with first.transaction():
            first.upsert_source(Source("a", "text"))
            with pytest.raises(StoreError) as caught:
                second.upsert_source(Source("b", "text"))
            assert caught.value.retryable
        second.upsert_source(Source("b", "text"))
        assert [s.id for s in second.list_sources()] == ["a", "b"]


def test_a_read_only_store_reads_but_refuses_writes(db: Path) -> None:
    with SqliteEvidenceStore(db) as store:
        store.upsert_source(Source("a", "text"))
    with SqliteEvidenceStore(db, readonly=True) as store:
        assert store.get_source("a") is not None
        assert store.keyword_search("the aspirin of the trial", 5, ANY) == []  # temp tables work
        with pytest.raises(StoreError) as caught:
            store.upsert_source(Source("b", "text"))
        assert not caught.value.retryable
    with pytest.raises(ConfigurationError):
        SqliteEvidenceStore(db.with_name("missing.sqlite"), readonly=True)
    with pytest.raises(ConfigurationError):
        SqliteEvidenceStore(":memory:")


def test_a_closed_store_says_so(db: Path) -> None:
    store = SqliteEvidenceStore(db)
    store.close()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.list_sources()


def test_an_inner_transaction_that_fails_undoes_only_itself_when_caught(db: Path) -> None:
    with SqliteEvidenceStore(db) as store:
        with store.transaction():
            store.upsert_source(Source("outer", "text"))
            with pytest.raises(RuntimeError), store.transaction():
                store.upsert_source(Source("inner", "text"))
                raise RuntimeError("inner step fails")
            store.upsert_source(Source("after", "text"))
        assert [s.id for s in store.list_sources()] == ["after", "outer"]


def test_sqlite_errors_become_store_errors_that_say_whether_to_retry(db: Path) -> None:
    with SqliteEvidenceStore(db) as store:
        with pytest.raises(StoreError) as caught, store.transaction():
            store._db.execute("INSERT INTO no_such_table VALUES (1)")
        assert not caught.value.retryable
        assert isinstance(caught.value.__cause__, sqlite3.Error)


def test_vector_sidecars_are_written_reused_and_replaced_on_change(db: Path) -> None:
    sidecars = Path(f"{db}.vectors")
    with SqliteEvidenceStore(db, vector_sidecar_min=2) as store:
        add_document(store, "a", [("s1", "One."), ("s2", "Two."), ("s3", "Three.")])
        store.put_embeddings(MODEL, [(chunk_id("a", 1, "s1"), vec(1.0))])
        store.vector_search(vec(1.0), MODEL, 5, ANY)
        assert not sidecars.exists()  # one vector: below the threshold
        store.put_embeddings(MODEL, [(chunk_id("a", 1, "s2"), vec(0.0, 1.0))])
        store.vector_search(vec(1.0), MODEL, 5, ANY)
        first = sorted(p.name for p in sidecars.iterdir())
        assert len(first) == 2
    result = _run(
        """
        import sys
        import numpy as np
        from spanproof.core.store import SearchFilter
        from spanproof.store.sqlite import SqliteEvidenceStore
        with SqliteEvidenceStore(sys.argv[1], readonly=True) as store:
            q = np.array([0, 1, 0, 0], dtype=np.float32)
            hits = store.vector_search(q, "test-model", 5, SearchFilter(eligible_only=False))
            matrix = store._vectors._cache["test-model"].vectors
            print(type(matrix).__name__, [h.chunk.section_key for h in hits])
        """,
        str(db),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "memmap ['s2', 's1']"
    with SqliteEvidenceStore(db, vector_sidecar_min=2) as store:
        store.put_embeddings(MODEL, [(chunk_id("a", 1, "s3"), vec(0.0, 0.0, 1.0))])
        hits = store.vector_search(vec(0.0, 0.0, 1.0), MODEL, 5, ANY)
        assert hits[0].chunk.section_key == "s3"
        second = sorted(p.name for p in sidecars.iterdir())
    assert len(second) == 2 and set(second).isdisjoint(first)


def test_a_corrupt_sidecar_is_ignored_and_rebuilt(db: Path) -> None:
    with SqliteEvidenceStore(db, vector_sidecar_min=1) as store:
        add_document(store, "a", [("s1", "One.")])
        store.put_embeddings(MODEL, [(chunk_id("a", 1, "s1"), vec(1.0))])
        store.vector_search(vec(1.0), MODEL, 5, ANY)
    for path in Path(f"{db}.vectors").iterdir():
        path.write_bytes(b"not numpy")
    with SqliteEvidenceStore(db, vector_sidecar_min=1) as store:
        assert [h.chunk.section_key for h in store.vector_search(vec(1.0), MODEL, 5, ANY)] == ["s1"]


def test_a_vector_cached_in_one_store_sees_changes_made_through_another(db: Path) -> None:
    with SqliteEvidenceStore(db) as one, SqliteEvidenceStore(db) as two:
        add_document(one, "a", [("s1", "One."), ("s2", "Two.")])
        one.put_embeddings(MODEL, [(chunk_id("a", 1, "s1"), vec(1.0))])
        assert len(one.vector_search(vec(1.0), MODEL, 5, ANY)) == 1
        two.put_embeddings(MODEL, [(chunk_id("a", 1, "s2"), vec(1.0))])
        assert len(one.vector_search(vec(1.0), MODEL, 5, ANY)) == 2


def test_threads_can_share_one_store(db: Path) -> None:
    errors: list[BaseException] = []
    with SqliteEvidenceStore(db) as store:

        def work(n: int) -> None:
            try:
                for i in range(10):
                    add_document(store, f"t{n}-{i}", [("abstract", f"Thread {n} note {i}.")])
                    store.keyword_search("thread note", 5, ANY)
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert store.stats()["sources"] == 40


def test_an_interrupted_batch_of_chunks_leaves_no_orphan_index_rows(db: Path) -> None:
    with SqliteEvidenceStore(db) as store:
        add_document(store, "a", [("abstract", "Aspirin reduced pain.")])
        good = Chunk("good", "a", 1, "abstract", 0, 7, "Aspirin")
        bad = Chunk("bad", "a", 1, "abstract", 0, 7, "Ibuprof")
        with pytest.raises(Exception, match="not section"):
            store.add_chunks([good, bad])
        assert store.get_chunks(["good"]) == []
        assert store._db.execute("SELECT count(*) FROM chunks_fts").fetchone()[0] == 1


def test_blobs_with_a_wrong_hash_are_refused(db: Path) -> None:
    with SqliteEvidenceStore(db) as store, pytest.raises(Exception, match="does not match"):
        store.put_blob(hashlib.sha256(b"a").hexdigest(), b"b")


def test_sections_with_nul_characters_are_a_caller_mistake_as_on_postgres(db: Path) -> None:
    # SQLite could hold them, PostgreSQL cannot: both refuse them (store/sql.py check_no_nul).
    from spanproof.core.errors import InvalidInputError

    with SqliteEvidenceStore(db) as store, pytest.raises(InvalidInputError, match="NUL"):
        add_document(store, "a", [("abstract", "before\x00after")])


def test_a_lone_surrogate_in_text_is_a_caller_mistake(db: Path) -> None:
    from spanproof.core.errors import InvalidInputError

    with SqliteEvidenceStore(db) as store:
        store.upsert_source(Source("a", "text"))
        store.add_version("a", hashlib.sha256(b"x").hexdigest(), "text/plain")
        with pytest.raises(InvalidInputError):
            store.add_sections("a", 1, [ParsedSection("abstract", "", "bad \ud800 text")])
        assert store.sections("a", 1) == []


def test_the_query_tokenizer_is_the_index_tokenizer(db: Path) -> None:
    from spanproof.store.keyword_terms import FTS_TOKENIZER

    with SqliteEvidenceStore(db) as store:
        (sql,) = store._db.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'chunks_fts'"
        ).fetchone()
    assert f'tokenize = "{FTS_TOKENIZER}"' in sql


def test_words_in_most_chunks_do_not_change_what_a_rarer_word_finds(db: Path) -> None:
    with SqliteEvidenceStore(db) as store:
        for n in range(30):
            add_document(store, f"s{n:02d}", [("abstract", f"The cohort of the study {n}.")])
        add_document(store, "hit", [("abstract", "The aspirin arm of the study.")])
        hits = store.keyword_search("the effect of aspirin in the study", 3, ANY)
        assert hits[0].chunk.source_id == "hit"
        assert len(hits) == 3  # common words fill the rest when rarer words run out
        assert len(store.keyword_search("cohort study", 100, ANY)) == 31
        only_common = store.keyword_search("the study of zyzzyva", 5, ANY)
        assert len(only_common) == 5
        assert store.keyword_search("the of", 100, ANY) == []  # stop words are never terms


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=st.text(max_size=200))
def test_keyword_search_never_raises_on_any_text(
    query: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.getbasetemp() / "hypothesis-keywords.sqlite"
    with SqliteEvidenceStore(path) as store:
        if store.get_source("a") is None:
            add_document(store, "a", [("abstract", "Aspirin reduced pain; NEAR, AND, OR, NOT.")])
        hits = store.keyword_search(query, 5, ANY)
        vector_hits = store.vector_search(np.ones(4, dtype=np.float32), MODEL, 5, ANY)
    assert all(hit.chunk.source_id == "a" for hit in hits)
    assert vector_hits == []
