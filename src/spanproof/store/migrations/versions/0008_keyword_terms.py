"""Keyword indexes of folded terms, the same on both dialects (docs/store.md, keyword search).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05

Until now each database tokenised chunk text itself, and the two disagreed on which chunks a
query matched: FTS5 (``porter unicode61 remove_diacritics 2``) folded accents, kept stop words
and split ``1.5`` into ``1`` and ``5``; PostgreSQL's ``english`` configuration kept accents,
dropped stop words and kept ``1.5`` whole. Both now index the terms of
:mod:`spanproof.text.keywords` (:mod:`spanproof.store.keyword_terms`), computed in Python.

* SQLite: ``chunks_fts`` is rebuilt with one column, ``terms`` (a chunk's terms separated by
  spaces), under a tokenizer that splits only there (``ascii tokenchars '.'``).
* PostgreSQL: ``chunks.tsv`` is recomputed for every chunk (no DDL: the column, its GIN index
  and the triggers stay as they were).

Every existing chunk is re-indexed from its text with its erasures masked (erased words stay
unsearchable), in batches, in the upgrade's one transaction. This rewrites the whole keyword
index: the terms alone cost about 1.3 s of Python per million words, plus the writes. Offline
(``alembic upgrade --sql``) only the DDL is written: a file upgraded that way has an empty
keyword index until re-ingested.

The downgrade restores the earlier indexes (``to_tsvector('english', text)`` on PostgreSQL; FTS5's
own tokenizer over the masked text on SQLite).
"""

from collections.abc import Callable
from typing import Any

from spanproof.store.keyword_terms import fts_document, indexed_texts, tsvector
from spanproof.store.migration_ddl import POSTGRES, SQLITE, run

revision = "0008"
down_revision = "0007"

_FTS_0001 = """
    CREATE VIRTUAL TABLE chunks_fts USING fts5 (
        text,
        tokenize = 'porter unicode61 remove_diacritics 2'
    )
    """
_FTS_0008 = """
    CREATE VIRTUAL TABLE chunks_fts USING fts5 (
        terms,
        tokenize = "ascii tokenchars '.'"
    )
    """


def _context() -> tuple[bool, Any]:
    """Whether the migration runs on PostgreSQL, and the driver's connection (None offline).

    The rows are read and written through the driver's connection, inside the migration's
    transaction, with the statements the stores use.
    """
    from alembic import op

    context = op.get_context()
    postgres = context.dialect.name == "postgresql"
    return postgres, None if context.as_sql else op.get_bind().connection.driver_connection


def _rebuild_sqlite(conn: Any, create: str, column: str, index: Callable[[str], str]) -> None:
    run(["DROP TABLE chunks_fts", create])
    if conn is None:
        return
    for batch in indexed_texts(SQLITE, conn):
        SQLITE.many(
            conn,
            f"INSERT INTO chunks_fts (rowid, {column}) VALUES (?, ?)",
            [(seq, index(text)) for seq, text in batch],
        )


def upgrade() -> None:
    postgres, conn = _context()
    if not postgres:
        _rebuild_sqlite(conn, _FTS_0008, "terms", fts_document)
        return
    for batch in indexed_texts(POSTGRES, conn):
        POSTGRES.many(
            conn,
            "UPDATE chunks SET tsv = CAST(? AS tsvector) WHERE id = ?",
            [(tsvector(text), cid) for cid, text in batch],
        )


def downgrade() -> None:
    postgres, conn = _context()
    if not postgres:
        _rebuild_sqlite(conn, _FTS_0001, "text", lambda text: text)
        return
    run(["UPDATE chunks SET tsv = to_tsvector('english'::regconfig, text)"])
