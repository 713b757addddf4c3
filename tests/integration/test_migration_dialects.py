"""The SQLite and PostgreSQL migrations build the same tables and columns.

Both dialects render the tables they share from ``spanproof.store.migration_ddl``; what each
defines alone is compared here, so a column added to one dialect and not the other fails a test.
The differences the two schemas have always had are pinned in :data:`KNOWN_DIFFERENCES`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from pg_fixtures import fresh_database
from spanproof.store import migration_env
from spanproof.store.postgres import migrate
from spanproof.store.sqlite.schema import upgrade as sqlite_upgrade

#: A table's columns as "name", "name*" (in the primary key) or "name?" (nullable).
Shape = dict[str, set[str]]

_PG_COLUMNS = """
SELECT c.table_name, c.column_name, c.is_nullable = 'YES',
       EXISTS (SELECT 1 FROM information_schema.table_constraints t
               JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name)
               WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema
                 AND k.table_name = c.table_name AND k.column_name = c.column_name)
FROM information_schema.columns c
JOIN information_schema.tables t USING (table_schema, table_name)
WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
"""

#: Per table, the columns only SQLite has and those only PostgreSQL has (None: no such table),
#: as the migrations have always built them. A new difference fails the test.
KNOWN_DIFFERENCES: dict[str, tuple[str | None, str | None]] = {
    # Keyword search: an FTS5 table on SQLite, a tsvector column on PostgreSQL (both of the
    # terms of spanproof.text.keywords since 0008).
    "chunks_fts": ("terms?", None),
    # bm25's numbers: FTS5 keeps them itself; PostgreSQL in keyword_stats and
    # chunks.term_count (0009).
    "keyword_stats": (None, "chunks occurrences term*"),
    # SQLite numbers chunks and measurements with a rowid; PostgreSQL keys them by their values.
    "chunks": (
        "erased id seq* span_end span_start",
        "end_pos id* masked start_pos term_count tsv?",
    ),
    "measurements": (
        "section_key seq* source_id span_end span_start unit value version",
        "end_pos* section_key* source_id* start_pos* unit* value* version*",
    ),
    "erasures": ("span_end span_start", "end_pos start_pos"),
    "source_ids": ("source_id value*", "source_id* value"),
    # Vectors: a dimension per row and a staleness token per model on SQLite, a dimension per
    # model on PostgreSQL.
    "embeddings": ("dim", ""),
    "vector_tokens": ("model_id* token", None),
    "embedding_models": (None, "dim model_id*"),
}


def differences(lite: Shape, pg: Shape) -> dict[str, tuple[str | None, str | None]]:
    def only(a: set[str] | None, b: set[str] | None) -> str | None:
        return None if a is None else " ".join(sorted(a - (b or set())))

    return {
        table: (only(lite.get(table), pg.get(table)), only(pg.get(table), lite.get(table)))
        for table in sorted(lite.keys() | pg.keys())
        if lite.get(table) != pg.get(table)
    }


def _column(name: str, nullable: bool, pk: bool) -> str:
    return name + ("*" if pk else "?" if nullable else "")


def sqlite_shape(path: Path) -> Shape:
    conn = sqlite3.connect(path)
    try:
        # FTS5's shadow tables and sqlite_sequence belong to SQLite itself.
        tables = [
            row[0]
            for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not row[0].startswith(("chunks_fts_", "sqlite_"))
        ]
        # A primary key column counts as NOT NULL, as on PostgreSQL: SQLite's own exception
        # (NULL in a non-INTEGER key) is the dialect's, not the migrations'.
        return {
            table: {
                _column(name, not notnull, bool(pk))
                for _cid, name, _type, notnull, _default, pk in conn.execute(
                    f"PRAGMA table_info('{table}')"
                )
            }
            for table in tables
        }
    finally:
        conn.close()


def postgres_shape(dsn: str) -> Shape:
    shape: Shape = {}
    with psycopg.connect(dsn) as conn:
        for table, name, nullable, pk in conn.execute(_PG_COLUMNS):
            shape.setdefault(table, set()).add(_column(name, nullable, pk))
    return shape


@pytest.fixture
def pg_dsn() -> Iterator[str]:
    with fresh_database(migrated=False) as dsn:
        migrate.upgrade(dsn)
        yield dsn


def test_both_dialects_build_the_same_tables_and_columns(tmp_path: Path, pg_dsn: str) -> None:
    sqlite_upgrade(tmp_path / "store.sqlite", busy_timeout_s=5)
    lite, pg = sqlite_shape(tmp_path / "store.sqlite"), postgres_shape(pg_dsn)
    assert differences(lite, pg) == KNOWN_DIFFERENCES
    assert len(lite.keys() & pg.keys()) == 21  # alembic_version and the shared tables


def test_the_postgres_migrations_downgrade_to_nothing_and_upgrade_again(pg_dsn: str) -> None:
    from alembic import command
    from sqlalchemy import create_engine, pool

    before = postgres_shape(pg_dsn)
    config = migration_env.alembic_config()
    engine = create_engine(migrate.sqlalchemy_url(pg_dsn), poolclass=pool.NullPool)
    try:
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            command.downgrade(config, "base")
    finally:
        engine.dispose()
    assert postgres_shape(pg_dsn) == {"alembic_version": {"version_num*"}}
    with psycopg.connect(pg_dsn) as conn:
        functions = conn.execute("SELECT count(*) FROM pg_proc WHERE proname LIKE 'spanproof%'")
        assert functions.fetchone() == (0,)
    migrate.upgrade(pg_dsn)
    assert postgres_shape(pg_dsn) == before


def test_the_one_tree_writes_sqlite_offline_and_refuses_postgres_offline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from alembic import command

    command.upgrade(migration_env.alembic_config(), "head", sql=True)  # no URL: SQLite
    script = capsys.readouterr().out
    assert "CREATE VIRTUAL TABLE chunks_fts USING fts5" in script
    assert "RAISE(ABORT, 'spanproof API keys are never changed or deleted" in script
    assert "plpgsql" not in script
    postgres = migration_env.alembic_config("postgresql+psycopg://nobody@localhost/none")
    with pytest.raises(RuntimeError, match="offline"):
        command.upgrade(postgres, "head", sql=True)


def test_the_set_once_guards_render_the_same_condition_for_both_dialects() -> None:
    from spanproof.store.migrations.triggers import set_once
    from spanproof.store.sql import POSTGRES, SQLITE

    keep = ("id", "name")
    sqlite_update, sqlite_delete = set_once(
        SQLITE, "t", "done_at", keep, trigger="t_once", function="f", message="m"
    )
    function, trigger, truncate = set_once(
        POSTGRES, "t", "done_at", keep, trigger="t_once", function="f", message="m"
    )
    for column in keep:
        assert f"NEW.{column} IS NOT OLD.{column}" in sqlite_update
        assert f"NEW.{column} IS DISTINCT FROM OLD.{column}" in function
    assert "OLD.done_at <> '' OR NEW.done_at = ''" in sqlite_update
    assert "TG_OP = 'DELETE' OR OLD.done_at <> '' OR NEW.done_at = ''" in function
    assert "BEFORE DELETE ON t" in sqlite_delete and "t_no_delete" in sqlite_delete
    assert "EXECUTE FUNCTION f()" in trigger and "BEFORE TRUNCATE ON t" in truncate
