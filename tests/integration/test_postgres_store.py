"""PostgreSQL-specific behaviour of the store: migrations, pgvector, lost connections, threads.

The behaviour shared with every backend is in the contract suite
(``tests/contract/test_store_postgres.py``); these tests look at what only PostgreSQL has.
"""

from __future__ import annotations

import hashlib
import sys
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import psycopg
import pytest

from pg_fixtures import ENV_DSN, fresh_database, pg_url
from spanproof.core.documents import ParsedSection
from spanproof.core.errors import ConfigurationError, InvalidInputError, StoreError
from spanproof.core.store import Chunk, SearchFilter, Source
from spanproof.store import migration_env
from spanproof.store.postgres import HEAD_REVISION, PostgresEvidenceStore, sqlalchemy_url
from spanproof.store.postgres import migrate as migrate_module
from spanproof.store.postgres import store as store_module
from spanproof.store.postgres._pool import map_error
from spanproof.store.postgres.store import APPLICATION_NAME

ANY = SearchFilter(eligible_only=False)


@pytest.fixture
def empty_dsn() -> Iterator[str]:
    """A database that has never been migrated (made from ``template0``)."""
    with fresh_database(migrated=False) as dsn:
        yield dsn


@pytest.fixture
def dsn() -> Iterator[str]:
    with fresh_database() as dsn:
        yield dsn


@pytest.fixture
def store(dsn: str) -> Iterator[PostgresEvidenceStore]:
    with PostgresEvidenceStore(dsn, pool_size=2) as store:
        yield store


def one(dsn: str, query: Any, params: tuple[Any, ...] = ()) -> Any:
    """The first column of the first row of ``query``, on a separate connection."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute(query, params).fetchone()
    return None if row is None else row[0]


def add_document(store: PostgresEvidenceStore, source_id: str, text: str) -> str:
    raw = text.encode()
    digest = hashlib.sha256(raw).hexdigest()
    store.upsert_source(Source(source_id, "text"))
    store.put_blob(digest, raw)
    version, _ = store.add_version(source_id, digest, "text/plain")
    store.add_sections(source_id, version.number, [ParsedSection("abstract", "", text)])
    cid = f"{source_id}/v{version.number}"
    store.add_chunks([Chunk(cid, source_id, version.number, "abstract", 0, len(text), text)])
    store.set_version_state(source_id, version.number, "parsed", format="text")
    return cid


def terminate_store_backends(dsn: str) -> int:
    """End every session the store holds on this database, as a server restart would, and wait
    (up to 5 s each) until they have ended: without the timeout, ``pg_terminate_backend`` only
    signals the backend, and a session could still look alive when the caller next uses it."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity "
            "WHERE application_name = %s AND datname = current_database() "
            "AND pid <> pg_backend_pid()",
            (APPLICATION_NAME,),
        ).fetchone()
    return 0 if row is None else int(row[0])


# migrations ------------------------------------------------------------------------------------
def test_opening_an_empty_database_installs_pgvector_and_the_schema(empty_dsn: str) -> None:
    assert one(empty_dsn, "SELECT to_regclass('alembic_version') IS NULL")
    with PostgresEvidenceStore(empty_dsn) as store:
        assert store.stats()["sources"] == 0
    version = one(empty_dsn, "SELECT extversion FROM pg_extension WHERE extname = 'vector'")
    assert version is not None
    assert tuple(int(part) for part in version.split(".")[:2]) >= (0, 5)
    assert one(empty_dsn, "SELECT version_num FROM alembic_version") == HEAD_REVISION
    for table in ("sources", "source_ids", "blobs", "versions", "sections", "chunks", "traces"):
        assert one(empty_dsn, "SELECT to_regclass(%s) IS NOT NULL", (table,)), table
    column_type = one(
        empty_dsn,
        "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
        "WHERE attrelid = 'embeddings'::regclass AND attname = 'vector'",
    )
    assert column_type == "vector"
    assert one(
        empty_dsn,
        "SELECT indexdef FROM pg_indexes WHERE tablename = 'chunks' AND indexname = 'chunks_tsv'",
    ).endswith("USING gin (tsv)")


def test_a_database_at_the_first_revision_upgrades_on_open_and_keeps_its_data(
    empty_dsn: str,
) -> None:
    from spanproof.testing.trace_contract import make_trace

    migrate_module.upgrade(empty_dsn, "0001")
    with psycopg.connect(empty_dsn, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO sources (id, connector, created_at) VALUES ('old', 'text', '2025-01-01')"
        )
    with PostgresEvidenceStore(empty_dsn) as store:
        assert store.get_source("old") is not None
        assert store.append(make_trace()).seq == 1
    assert one(empty_dsn, "SELECT version_num FROM alembic_version") == HEAD_REVISION


def test_a_database_at_the_previous_head_upgrades_and_each_source_is_on_its_newest_version(
    empty_dsn: str,
) -> None:
    migrate_module.upgrade(empty_dsn, "0006")
    with psycopg.connect(empty_dsn, autocommit=True) as conn:
        for source_id in ("old", "one", "none"):
            conn.execute(
                "INSERT INTO sources (id, connector, created_at) VALUES (%s, 'file', '2025-01-01')",
                (source_id,),
            )
        for row in (
            ("old", 1, "a" * 64, "2025-01-01"),
            ("old", 2, "b" * 64, "2025-01-02"),
            ("one", 1, "c" * 64, "2025-01-03"),
        ):
            conn.execute(
                "INSERT INTO versions (source_id, number, sha256, media_type, state, created_at)"
                " VALUES (%s, %s, %s, 'text/plain', 'parsed', %s)",
                row,
            )
    with PostgresEvidenceStore(empty_dsn) as store:
        assert [store.current_version(s) for s in ("old", "one", "none")] == [
            store.versions("old")[1],
            store.versions("one")[0],
            None,
        ]
        assert store.make_current("old", 1) is True
        assert store.current_version("old") == store.versions("old")[0]
        store.add_version("old", "d" * 64, "text/plain")
        assert store.current_version("old") == store.versions("old")[2]
    assert one(empty_dsn, "SELECT version_num FROM alembic_version") == HEAD_REVISION


def test_head_revision_matches_the_alembic_script_directory() -> None:
    from alembic.script import ScriptDirectory

    config = migration_env.alembic_config()
    assert ScriptDirectory.from_config(config).get_current_head() == HEAD_REVISION


def test_a_database_at_head_opens_without_running_alembic(
    dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("alembic ran on a database already at head")

    monkeypatch.setattr(migrate_module, "upgrade", refuse)
    with PostgresEvidenceStore(dsn) as store:
        assert store.list_sources() == []


def test_concurrent_first_opens_migrate_once(empty_dsn: str) -> None:
    errors: list[BaseException] = []

    def open_store() -> None:
        try:
            PostgresEvidenceStore(empty_dsn, pool_size=1).close()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert one(empty_dsn, "SELECT count(*) FROM alembic_version") == 1


def test_a_database_from_a_newer_spanproof_is_refused(dsn: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    with pytest.raises(ConfigurationError, match="9999"):
        PostgresEvidenceStore(dsn)


def test_sqlalchemy_url_is_built_from_the_dsn(dsn: str) -> None:
    assert sqlalchemy_url("host=db.example port=6543 dbname=ev user=u password=p") == (
        "postgresql+psycopg://u:p@db.example:6543/ev"
    )
    assert sqlalchemy_url("postgresql://u@/ev?host=/tmp/sock") == (
        "postgresql+psycopg://u@/ev?host=%2Ftmp%2Fsock"
    )
    with pytest.raises(ConfigurationError):
        sqlalchemy_url("host=a =broken")

    from sqlalchemy import create_engine, pool, text

    engine = create_engine(sqlalchemy_url(dsn), poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == (
                HEAD_REVISION
            )
    finally:
        engine.dispose()


# the schema guards its invariants ---------------------------------------------------------------
def test_sections_and_blobs_cannot_be_changed_even_by_direct_sql(
    store: PostgresEvidenceStore, dsn: str
) -> None:
    add_document(store, "a", "Aspirin reduced pain.")
    with psycopg.connect(dsn, autocommit=True) as conn:
        for statement in (
            "UPDATE sections SET text = 'forged'",
            "DELETE FROM sections",
            "UPDATE blobs SET raw = 'x'",
            "DELETE FROM versions",
            "UPDATE versions SET state = 'pending'",
            "UPDATE current_versions SET version = 1",
            "DELETE FROM current_versions",
            "TRUNCATE current_versions",
        ):
            with pytest.raises(psycopg.errors.RestrictViolation):
                conn.execute(statement)
    section = store.section("a", 1, "abstract")
    assert section is not None and section.text == "Aspirin reduced pain."


def test_text_postgres_cannot_hold_is_a_caller_mistake(store: PostgresEvidenceStore) -> None:
    store.upsert_source(Source("a", "text"))
    store.add_version("a", "0" * 64, "text/plain")
    with pytest.raises(InvalidInputError):
        store.add_sections("a", 1, [ParsedSection("abstract", "", "NUL \x00 inside")])
    with pytest.raises(InvalidInputError):
        store.add_sections("a", 1, [ParsedSection("abstract", "", "lone \ud800 surrogate")])
    assert store.sections("a", 1) == []


def test_vector_dimension_is_fixed_per_model(store: PostgresEvidenceStore) -> None:
    cid = add_document(store, "a", "Aspirin reduced pain.")
    store.put_embeddings("m", [(cid, np.ones(384, dtype=np.float32))])
    with pytest.raises(InvalidInputError):
        store.put_embeddings("m", [(cid, np.ones(8, dtype=np.float32))])
    with pytest.raises(InvalidInputError):
        store.vector_search(np.ones(8, dtype=np.float32), "m", 5, ANY)
    (hit,) = store.vector_search(np.ones(384, dtype=np.float32), "m", 5, ANY)
    assert hit.score == pytest.approx(1.0, abs=1e-6)


# search beyond the first window ---------------------------------------------------------------
def _many_sections(store: PostgresEvidenceStore, source_id: str, texts: list[str]) -> list[str]:
    raw = "|".join(texts).encode()
    digest = hashlib.sha256(raw).hexdigest()
    store.upsert_source(Source(source_id, "text"))
    store.put_blob(digest, raw)
    store.add_version(source_id, digest, "text/plain")
    store.add_sections(
        source_id, 1, [ParsedSection(f"s{i}", "", text) for i, text in enumerate(texts)]
    )
    ids = [f"{source_id}/{i}" for i in range(len(texts))]
    store.add_chunks(
        [
            Chunk(cid, source_id, 1, f"s{i}", 0, len(text), text)
            for i, (cid, text) in enumerate(zip(ids, texts, strict=True))
        ]
    )
    store.set_version_state(source_id, 1, "parsed", format="text")
    return ids


def test_searches_stay_exact_when_the_best_candidates_are_all_filtered_out(
    store: PostgresEvidenceStore,
) -> None:
    window = store_module.SEARCH_WINDOW
    bad = _many_sections(store, "bad", [f"Aspirin aspirin note {i}." for i in range(window + 50)])
    store.set_status("bad", "retracted")
    good = _many_sections(store, "good", ["Aspirin once in a much longer sentence here.", "Pain."])
    rng = np.random.default_rng(3)
    vectors = {cid: rng.normal(size=8).astype(np.float32) for cid in bad + good}
    query = np.ones(8, dtype=np.float32)
    for cid in bad:  # every retracted chunk is nearer to the query than any eligible one
        vectors[cid] = query + 0.01 * vectors[cid]
    store.put_embeddings("m", list(vectors.items()))

    hits = store.vector_search(query, "m", 2, SearchFilter())
    unit = {cid: v / np.linalg.norm(v) for cid, v in vectors.items()}
    cosine = {cid: float(unit[cid] @ (query / np.linalg.norm(query))) for cid in good}
    assert [h.chunk.id for h in hits] == sorted(good, key=lambda cid: (-cosine[cid], cid))
    assert [h.score for h in hits] == pytest.approx(sorted(cosine.values(), reverse=True))
    # With nothing filtered out, the window alone answers, and agrees with brute force.
    everything = store.vector_search(query, "m", 5, ANY)
    everyone = {cid: float(unit[cid] @ (query / np.linalg.norm(query))) for cid in unit}
    expected = sorted(everyone, key=lambda cid: (-everyone[cid], cid))[:5]
    assert [h.chunk.id for h in everything] == expected

    keyword = store.keyword_search("aspirin", 3, SearchFilter())
    assert [h.chunk.id for h in keyword] == [good[0]]
    assert len(store.keyword_search("aspirin", 3, ANY)) == 3
    assert {h.chunk.source_id for h in store.keyword_search("aspirin", 3, ANY)} == {"bad"}


# lost connections --------------------------------------------------------------------------------
def test_a_connection_lost_mid_transaction_loses_nothing_committed_and_keeps_nothing_half_written(
    store: PostgresEvidenceStore, dsn: str
) -> None:
    committed = add_document(store, "committed", "Aspirin reduced pain in adults.")
    with pytest.raises(StoreError) as caught, store.transaction():
        store.upsert_source(Source("half", "text", title="half-written"))
        store.put_blob(hashlib.sha256(b"half").hexdigest(), b"half")
        assert terminate_store_backends(dsn) >= 1
        add_document(store, "half", "Ibuprofen had no effect.")
    assert caught.value.retryable
    # The store reconnects on its own; what committed is there, the half transaction is not.
    assert store.get_source("half") is None
    assert store.get_blob(hashlib.sha256(b"half").hexdigest()) is None
    assert [c.id for c in store.chunks("committed")] == [committed]
    assert [h.chunk.id for h in store.keyword_search("aspirin ibuprofen", 10, ANY)] == [committed]
    assert one(dsn, "SELECT count(*) FROM sources") == 1
    # ...and the retried unit of work goes through.
    with store.transaction():
        add_document(store, "half", "Ibuprofen had no effect.")
    assert store.get_source("half") is not None


def test_a_connection_that_died_while_idle_in_the_pool_is_replaced(
    store: PostgresEvidenceStore, dsn: str
) -> None:
    add_document(store, "a", "Aspirin reduced pain.")
    assert terminate_store_backends(dsn) >= 1
    source = store.get_source("a")  # no error: the dead pooled connection is dropped first
    assert source is not None and source.id == "a"


def test_a_closed_store_refuses_work(dsn: str) -> None:
    store = PostgresEvidenceStore(dsn)
    store.close()
    store.close()  # idempotent
    with pytest.raises(StoreError) as caught:
        store.list_sources()
    assert not caught.value.retryable


def test_an_unreachable_server_is_a_retryable_store_error(tmp_path: Any) -> None:
    with pytest.raises(StoreError) as caught:
        PostgresEvidenceStore(f"host={tmp_path} dbname=nothing connect_timeout=2")
    assert caught.value.retryable


def test_a_bad_pool_size_or_dsn_is_a_configuration_error(dsn: str) -> None:
    with pytest.raises(ConfigurationError):
        PostgresEvidenceStore(dsn, pool_size=0)
    with pytest.raises(ConfigurationError, match="DSN"):
        PostgresEvidenceStore("host=a =broken")


@pytest.mark.parametrize(
    ("error", "kind", "retryable"),
    [
        (psycopg.errors.SerializationFailure, StoreError, True),
        (psycopg.errors.DeadlockDetected, StoreError, True),
        (psycopg.errors.AdminShutdown, StoreError, True),
        (psycopg.errors.LockNotAvailable, StoreError, True),
        (psycopg.errors.TooManyConnections, StoreError, True),
        (psycopg.errors.QueryCanceled, StoreError, True),
        (psycopg.OperationalError, StoreError, True),
        (psycopg.errors.UndefinedTable, StoreError, False),
        (psycopg.errors.RestrictViolation, StoreError, False),
        (psycopg.errors.UniqueViolation, StoreError, True),
        (psycopg.errors.ForeignKeyViolation, InvalidInputError, False),
        (psycopg.DataError, InvalidInputError, False),
    ],
)
def test_psycopg_errors_map_to_spanproof_errors(
    error: type[psycopg.Error], kind: type[Exception], retryable: bool
) -> None:
    mapped = map_error(error("boom"), "testing")
    assert type(mapped) is kind
    assert getattr(mapped, "retryable", False) is retryable
    assert "testing" in str(mapped)


# threads ---------------------------------------------------------------------------------------
def test_threads_adding_versions_of_one_source_get_distinct_numbers(
    store: PostgresEvidenceStore,
) -> None:
    store.upsert_source(Source("a", "file"))
    digests = [hashlib.sha256(str(i).encode()).hexdigest() for i in range(24)]
    errors: list[BaseException] = []

    def add(part: list[str]) -> None:
        try:
            for digest in part:
                store.add_version("a", digest, "text/plain")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=add, args=(digests[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    versions = store.versions("a")
    assert [v.number for v in versions] == list(range(1, 25))
    assert sorted(v.sha256 for v in versions) == sorted(digests)


def test_a_transaction_is_private_to_its_thread_until_it_commits(
    store: PostgresEvidenceStore,
) -> None:
    inside = threading.Event()
    release = threading.Event()
    seen_during: list[bool] = []

    def writer() -> None:
        with store.transaction():
            store.upsert_source(Source("w", "text"))
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=writer)
    thread.start()
    assert inside.wait(10)
    seen_during.append(store.get_source("w") is not None)
    release.set()
    thread.join()
    assert seen_during == [False]
    assert store.get_source("w") is not None


# the fixtures themselves -------------------------------------------------------------------------
def test_without_postgres_tests_skip_locally_and_fail_in_ci(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pg_fixtures

    monkeypatch.delenv(ENV_DSN, raising=False)
    monkeypatch.setitem(sys.modules, "pgserver", None)  # makes `import pgserver` fail
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="pgserver"):
        pg_fixtures._start()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI never skips"):
        pg_fixtures._start()


def test_the_store_url_may_spell_its_postgresql_scheme_any_documented_way(
    dsn: str, tmp_path: Any
) -> None:
    from click.testing import CliRunner

    from spanproof.cli.main import cli

    rest = pg_url(dsn).split("://", 1)[1]
    runner = CliRunner()
    for scheme in ("postgresql", "POSTGRESQL", "postgres", "postgresql+psycopg"):
        listed = runner.invoke(cli, ["sources", "--json", "--db", f"{scheme}://{rest}"])
        assert listed.exit_code == 0, (scheme, listed.output)
        assert not (tmp_path / scheme).exists()
    other = runner.invoke(cli, ["sources", "--db", "mysql://user@localhost/db"])
    assert other.exit_code != 0 and "unsupported store URL scheme 'mysql'" in other.output
