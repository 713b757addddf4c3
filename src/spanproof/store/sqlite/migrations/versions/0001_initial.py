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

from spanproof.store import migration_ddl as ddl
from spanproof.store.migration_ddl import SECTION_REF, SQLITE

revision = "0001"
down_revision = None

_UPGRADE = (
    ddl.sources(SQLITE),
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
    *ddl.versions(SQLITE),
    f"""
    CREATE TABLE chunks (
        seq         INTEGER PRIMARY KEY,
        id          TEXT NOT NULL UNIQUE,
{ddl.section_span(SQLITE)},
        text        TEXT NOT NULL,
        erased      INTEGER NOT NULL DEFAULT 0,
        CHECK (0 <= span_start AND span_start <= span_end),
        {SECTION_REF}
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
    f"""
    CREATE TABLE measurements (
        seq         INTEGER PRIMARY KEY,
{ddl.section_span(SQLITE)},
        value       REAL NOT NULL,
        unit        TEXT NOT NULL,
        quotation   TEXT NOT NULL,
        UNIQUE (source_id, version, section_key, span_start, span_end, unit, value),
        {SECTION_REF}
    )
    """,
    f"""
    CREATE TABLE erasures (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
{ddl.section_span(SQLITE)},
        reason      TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        CHECK (0 <= span_start AND span_start < span_end),
        {SECTION_REF}
    )
    """,
    "CREATE INDEX erasures_section ON erasures (source_id, version, section_key)",
)

upgrade, downgrade = ddl.steps(_UPGRADE)
