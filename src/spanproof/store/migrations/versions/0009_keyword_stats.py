"""bm25 on PostgreSQL: each chunk's length and each term's document count (docs/store.md).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06

PostgreSQL ranked keyword matches by ``ts_rank``, which knows nothing of how rare a term is, and
found less than SQLite's bm25 (SciFact keyword recall@10 0.865 against 0.927). bm25 needs what
FTS5 keeps for SQLite: the number of chunks, their average length and each term's document
count, and each chunk's length.

* ``chunks.term_count``: the positions in the chunk's ``tsv`` (its number of terms).
* ``keyword_stats``: per term, the chunks whose ``tsv`` holds it and its positions in them; the
  empty term's row counts every chunk and every position. The store keeps it in step as it
  inserts chunks and as an erasure re-indexes them, deleting a term's row when no chunk holds
  the term any more.

Both are filled from the existing ``tsv`` columns (erasures already masked there), in SQL.
SQLite is unchanged: FTS5 keeps these numbers itself. The downgrade drops the table and the
column.
"""

from alembic import op

from spanproof.store.migration_ddl import run

revision = "0009"
down_revision = "0008"

_UPGRADE = (
    "ALTER TABLE chunks ADD COLUMN term_count integer NOT NULL DEFAULT 0",
    "UPDATE chunks SET term_count = coalesce("
    "(SELECT sum(cardinality(positions)) FROM unnest(tsv)), 0)",
    "ALTER TABLE chunks ALTER COLUMN term_count DROP DEFAULT",
    # The UPDATE wrote every row anew, and its GIN entries wait in the index's pending list,
    # which every keyword search would scan until a vacuum: merge them into the index now.
    "SELECT gin_clean_pending_list('chunks_tsv')",
    """
    CREATE TABLE keyword_stats (
        term        text PRIMARY KEY,
        chunks      bigint NOT NULL,
        occurrences bigint NOT NULL
    )
    """,
    """
    INSERT INTO keyword_stats (term, chunks, occurrences)
    SELECT u.lexeme, count(*), sum(cardinality(u.positions)) FROM chunks c, unnest(c.tsv) u
    GROUP BY u.lexeme
    UNION ALL SELECT '', count(*), coalesce(sum(term_count), 0) FROM chunks
    """,
)
_DOWNGRADE = ("DROP TABLE keyword_stats", "ALTER TABLE chunks DROP COLUMN term_count")


def _postgres() -> bool:
    return bool(op.get_context().dialect.name == "postgresql")


def upgrade() -> None:
    if _postgres():
        run(_UPGRADE)


def downgrade() -> None:
    if _postgres():
        run(_DOWNGRADE)
