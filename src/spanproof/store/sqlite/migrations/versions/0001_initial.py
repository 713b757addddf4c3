"""Initial schema: sources, versions, sections, chunks, FTS5 keywords, vectors, erasures.

Revision ID: 0001
Revises:
Create Date: 2025-01-01

Offsets are Unicode code-point offsets into canonical text (``span_start``/``span_end``).
``chunks.seq`` is the FTS5 rowid; ``chunks_fts`` keeps its own copy of the indexed text so an
erasure can replace it with masked text (SPEC §7). ``vector_tokens`` holds one random token per
model, renewed on every change to that model's vectors, so in-memory matrices and ``.npy``
sidecars know when they are stale, across processes.
"""

from __future__ import annotations

from collections.abc import Sequence

from spanproof.store.sqlite.migrations.run import run_statements

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_UPGRADE = (
    """
    CREATE TABLE sources (
        id          TEXT PRIMARY KEY,
        connector   TEXT NOT NULL,
        title       TEXT NOT NULL DEFAULT '',
        status      TEXT NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'retracted', 'withdrawn', 'corrected')),
        created_at  TEXT NOT NULL
    )
    """,
    "CREATE INDEX sources_status ON sources (status, id)",
    """
    CREATE TABLE source_ids (
        kind        TEXT NOT NULL,
        value       TEXT NOT NULL,
        source_id   TEXT NOT NULL REFERENCES sources (id),
        PRIMARY KEY (kind, value)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX source_ids_source ON source_ids (source_id, kind)",
    """
    CREATE TABLE blobs (
        sha256      TEXT PRIMARY KEY,
        size        INTEGER NOT NULL,
        raw         BLOB NOT NULL
    )
    """,
    """
    CREATE TABLE versions (
        source_id   TEXT NOT NULL REFERENCES sources (id),
        number      INTEGER NOT NULL CHECK (number >= 1),
        sha256      TEXT NOT NULL,
        media_type  TEXT NOT NULL,
        state       TEXT NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'parsed', 'quarantined')),
        reason      TEXT NOT NULL DEFAULT '',
        format      TEXT NOT NULL DEFAULT '',
        created_at  TEXT NOT NULL,
        PRIMARY KEY (source_id, number),
        UNIQUE (source_id, sha256)
    )
    """,
    """
    CREATE TABLE sections (
        source_id   TEXT NOT NULL,
        version     INTEGER NOT NULL,
        key         TEXT NOT NULL,
        title       TEXT NOT NULL,
        text        TEXT NOT NULL,
        ordinal     INTEGER NOT NULL,
        PRIMARY KEY (source_id, version, key),
        UNIQUE (source_id, version, ordinal),
        FOREIGN KEY (source_id, version) REFERENCES versions (source_id, number)
    )
    """,
    """
    CREATE TABLE chunks (
        seq         INTEGER PRIMARY KEY,
        id          TEXT NOT NULL UNIQUE,
        source_id   TEXT NOT NULL,
        version     INTEGER NOT NULL,
        section_key TEXT NOT NULL,
        span_start  INTEGER NOT NULL,
        span_end    INTEGER NOT NULL,
        text        TEXT NOT NULL,
        erased      INTEGER NOT NULL DEFAULT 0,
        CHECK (0 <= span_start AND span_start <= span_end),
        FOREIGN KEY (source_id, version, section_key)
            REFERENCES sections (source_id, version, key)
    )
    """,
    "CREATE INDEX chunks_section ON chunks (source_id, version, section_key, span_start)",
    """
    CREATE VIRTUAL TABLE chunks_fts USING fts5 (
        text,
        tokenize = 'porter unicode61 remove_diacritics 2'
    )
    """,
    """
    CREATE TABLE embeddings (
        model_id    TEXT NOT NULL,
        chunk_id    TEXT NOT NULL REFERENCES chunks (id),
        dim         INTEGER NOT NULL CHECK (dim > 0),
        vector      BLOB NOT NULL,
        PRIMARY KEY (model_id, chunk_id)
    )
    """,
    "CREATE INDEX embeddings_chunk ON embeddings (chunk_id)",
    """
    CREATE TABLE vector_tokens (
        model_id    TEXT PRIMARY KEY,
        token       TEXT NOT NULL
    )
    """,
    """
    CREATE TABLE measurements (
        seq         INTEGER PRIMARY KEY,
        source_id   TEXT NOT NULL,
        version     INTEGER NOT NULL,
        section_key TEXT NOT NULL,
        span_start  INTEGER NOT NULL,
        span_end    INTEGER NOT NULL,
        value       REAL NOT NULL,
        unit        TEXT NOT NULL,
        quotation   TEXT NOT NULL,
        UNIQUE (source_id, version, section_key, span_start, span_end, unit, value),
        FOREIGN KEY (source_id, version, section_key)
            REFERENCES sections (source_id, version, key)
    )
    """,
    """
    CREATE TABLE erasures (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        source_id   TEXT NOT NULL,
        version     INTEGER NOT NULL,
        section_key TEXT NOT NULL,
        span_start  INTEGER NOT NULL,
        span_end    INTEGER NOT NULL,
        reason      TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        CHECK (0 <= span_start AND span_start < span_end),
        FOREIGN KEY (source_id, version, section_key)
            REFERENCES sections (source_id, version, key)
    )
    """,
    "CREATE INDEX erasures_section ON erasures (source_id, version, section_key)",
)

_DOWNGRADE = (
    "DROP TABLE erasures",
    "DROP TABLE measurements",
    "DROP TABLE vector_tokens",
    "DROP TABLE embeddings",
    "DROP TABLE chunks_fts",
    "DROP TABLE chunks",
    "DROP TABLE sections",
    "DROP TABLE versions",
    "DROP TABLE blobs",
    "DROP TABLE source_ids",
    "DROP TABLE sources",
)


def upgrade() -> None:
    run_statements(_UPGRADE)


def downgrade() -> None:
    run_statements(_DOWNGRADE)
