"""Migration 0008 re-indexes the chunks a store held before it (written at 0006) with the shared
keyword terms, on both dialects: erased words stay unsearchable, the triggers stay as they were,
and the downgrade gives back 0006's own index. Migration 0009 counts their terms for bm25 on
PostgreSQL."""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pg_fixtures import fresh_database
from spanproof.core.store import EvidenceStore, SearchFilter
from spanproof.store import migration_env
from spanproof.store.keyword_terms import fts_document, tsvector
from spanproof.store.migration_ddl import SCHEMA_HEAD
from spanproof.store.postgres import PostgresEvidenceStore, migrate
from spanproof.store.sql import POSTGRES, SQLITE, Dialect
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.store.sqlite.schema import alembic_config
from spanproof.store.sqlite.schema import upgrade as sqlite_upgrade
from spanproof.text.keywords import terms

ANY = SearchFilter(eligible_only=False)
#: (source, text, erased range): "John Smith" is erased from the second.
CHUNKS = (
    ("cafe", "The café served 1.5 mg to naïve visitors.", None),
    ("smith", "Dr John Smith measured 5 samples.", (3, 13)),
)
STAMP = "2026-01-01T00:00:00.000000Z"


def _masked(text: str, erased: tuple[int, int] | None) -> str:
    if erased is None:
        return text
    start, end = erased
    return text[:start] + "█" * (end - start) + text[end:]


def _fill_at_0006(d: Dialect, conn: Any) -> None:
    """Rows as the 0006 stores wrote them, old keyword index included."""
    for source, text, erased in CHUNKS:
        d.run(conn, "INSERT INTO sources (id, connector, created_at) VALUES (?, 'text', ?)",
              (source, STAMP))  # fmt: skip
        d.run(
            conn,
            "INSERT INTO versions (source_id, number, sha256, media_type, state, created_at)"
            " VALUES (?, 1, ?, 'text/plain', 'parsed', ?)",
            (source, "0" * 63 + str(len(source)), STAMP),
        )
        d.run(
            conn,
            "INSERT INTO sections (source_id, version, key, title, text, ordinal)"
            " VALUES (?, 1, 'abstract', '', ?, 0)",
            (source, text),
        )
        chunk = "INSERT INTO chunks (id, source_id, version, section_key, span_start, span_end"
        row = (f"{source}/1", source, len(text))
        masked = _masked(text, erased)
        if d.postgres:  # the text stored masked, and indexed with the english configuration
            d.run(
                conn,
                f"{chunk}, text, erased, tsv) VALUES (?, ?, 1, 'abstract', 0, ?, ?, ?,"
                " to_tsvector('english'::regconfig, CAST(? AS TEXT)))",
                (*row, masked, erased is not None, masked),
            )
        else:  # the text stored whole; chunks_fts holds it masked
            seq = d.run(
                conn,
                f"{chunk}, text, erased) VALUES (?, ?, 1, 'abstract', 0, ?, ?, ?)",
                (*row, text, erased is not None),
            ).lastrowid
            d.run(conn, "INSERT INTO chunks_fts (rowid, text) VALUES (?, ?)", (seq, masked))
        if erased is not None:
            d.run(
                conn,
                "INSERT INTO erasures (source_id, version, section_key, span_start, span_end,"
                " reason, created_at) VALUES (?, 1, 'abstract', ?, ?, 'gdpr', ?)",
                (source, *erased, STAMP),
            )


_TRIGGERS = {
    "sqlite": "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name",
    "postgres": "SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger"
    " WHERE NOT tgisinternal ORDER BY tgname",
}


class Database:
    """One dialect's database at a revision, opened by the driver or as a store."""

    def __init__(self, dialect: str, where: str) -> None:
        self.dialect, self.where = dialect, where
        self.d = POSTGRES if dialect == "postgres" else SQLITE

    @contextmanager
    def driver(self) -> Iterator[Any]:
        if self.dialect == "postgres":
            with psycopg.connect(self.where) as conn:
                yield conn
        else:
            with closing(sqlite3.connect(self.where)) as conn, conn:
                yield conn

    def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self.driver() as conn:
            return self.d.all(conn, sql, params)

    def store(self) -> EvidenceStore:
        if self.dialect == "postgres":
            return PostgresEvidenceStore(self.where, pool_size=1)
        return SqliteEvidenceStore(self.where)

    def upgrade(self, revision: str) -> None:
        if self.dialect == "postgres":
            migrate.upgrade(self.where, revision)
        else:
            sqlite_upgrade(Path(self.where), busy_timeout_s=5, revision=revision)

    def downgrade(self, revision: str) -> None:
        from alembic import command
        from sqlalchemy import create_engine, pool

        if self.dialect == "sqlite":
            command.downgrade(alembic_config(Path(self.where)), revision)
            return
        config = migration_env.alembic_config()
        engine = create_engine(migrate.sqlalchemy_url(self.where), poolclass=pool.NullPool)
        try:
            with engine.begin() as conn:
                config.attributes["connection"] = conn
                command.downgrade(config, revision)
        finally:
            engine.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def at_0006(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A database at revision 0007, the one before the keyword terms, holding :data:`CHUNKS` as
    the 0006 stores indexed them (written at 0006; 0007 only adds which version is current)."""

    def made(where: str) -> Database:
        db = Database(request.param, where)
        db.upgrade("0006")
        with db.driver() as conn:
            _fill_at_0006(db.d, conn)
        db.upgrade("0007")
        return db

    if request.param == "sqlite":
        yield made(str(tmp_path / "store.sqlite"))
        return
    with fresh_database(migrated=False) as dsn:
        yield made(dsn)


def _found(store: EvidenceStore, query: str) -> set[str]:
    return {hit.chunk.source_id for hit in store.keyword_search(query, 10, ANY)}


def _index(db: Database) -> dict[Any, str]:
    """The keyword index as stored, by chunk id."""
    if db.d.postgres:
        return dict(db.rows("SELECT id, tsv::text FROM chunks"))
    ((column,),) = db.rows("SELECT name FROM pragma_table_info('chunks_fts')")  # text, terms
    return dict(
        db.rows(f"SELECT c.id, f.{column} FROM chunks c JOIN chunks_fts f ON f.rowid = c.seq")
    )


def test_opening_a_0006_store_reindexes_its_chunks_with_the_shared_terms(
    at_0006: Database,
) -> None:
    before = at_0006.rows(_TRIGGERS[at_0006.dialect])
    with at_0006.store() as store:
        assert _found(store, "cafe") == {"cafe"}  # PostgreSQL's 0006 index kept the accent
        assert _found(store, "1.5") == {"cafe"}  # SQLite's 0006 index split it into 1 and 5
        assert _found(store, "5 samples") == {"smith"}
        assert _found(store, "john smith") == set()  # erased, and still not searchable
    assert at_0006.rows("SELECT version_num FROM alembic_version") == [(SCHEMA_HEAD,)]
    assert at_0006.rows(_TRIGGERS[at_0006.dialect]) == before
    index: Callable[[str], str] = tsvector if at_0006.d.postgres else fts_document
    expected = {f"{source}/1": index(_masked(text, erased)) for source, text, erased in CHUNKS}
    if at_0006.d.postgres:  # the tsvector as PostgreSQL prints it back
        expected = {
            cid: at_0006.rows("SELECT CAST(? AS tsvector)::text", (literal,))[0][0]
            for cid, literal in expected.items()
        }
    assert _index(at_0006) == expected


def test_the_downgrade_gives_back_the_0006_index_and_the_upgrade_redoes_it(
    at_0006: Database,
) -> None:
    old = _index(at_0006)
    at_0006.upgrade(SCHEMA_HEAD)
    new = _index(at_0006)
    at_0006.downgrade("0007")
    assert _index(at_0006) == old
    at_0006.upgrade(SCHEMA_HEAD)
    assert _index(at_0006) == new


def test_the_upgrade_counts_the_terms_bm25_needs_on_postgres_only(at_0006: Database) -> None:
    """0009 fills ``keyword_stats`` and ``chunks.term_count`` from the stored (masked) index on
    PostgreSQL; SQLite, whose FTS5 keeps these numbers, gets nothing new."""
    at_0006.upgrade(SCHEMA_HEAD)
    if not at_0006.d.postgres:
        assert at_0006.rows("SELECT name FROM sqlite_master WHERE name = 'keyword_stats'") == []
        return
    indexed = {f"{source}/1": terms(_masked(text, erased)) for source, text, erased in CHUNKS}
    expected: dict[str, tuple[int, int]] = {"": (len(indexed), sum(map(len, indexed.values())))}
    for found in indexed.values():
        for term, n in Counter(found).items():
            docs, occurrences = expected.get(term, (0, 0))
            expected[term] = (docs + 1, occurrences + n)
    stats = {str(term): (docs, n) for term, docs, n in at_0006.rows("SELECT * FROM keyword_stats")}
    assert stats == expected
    assert "smith" not in stats  # erased before the upgrade
    counts = dict(at_0006.rows("SELECT id, term_count FROM chunks"))
    assert counts == {cid: len(found) for cid, found in indexed.items()}
    with at_0006.store() as store:
        assert _found(store, "cafe samples") == {"cafe", "smith"}
