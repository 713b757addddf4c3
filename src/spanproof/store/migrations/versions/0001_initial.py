"""Initial schema: sources, versions, sections, chunks, keyword index, vectors, erasures.

Revision ID: 0001
Revises:
Create Date: 2025-01-01

Offsets are Unicode code-point offsets into canonical text (``span_start``/``span_end``; named
``start_pos``/``end_pos`` in PostgreSQL). Blobs are content-addressed raw bytes; a source has a
version per distinct SHA-256 of its bytes, and a version's sections (canonical text) never change.

SQLite: ``chunks.seq`` is the FTS5 rowid; ``chunks_fts`` keeps its own copy of the indexed text so
an erasure can replace it with masked text (SPEC §7). ``vector_tokens`` holds one random token
per model, renewed on every change to that model's vectors, so in-memory matrices and ``.npy``
sidecars know when they are stale, across processes.

PostgreSQL:

* ``chunks.tsv`` is a plain column, not a generated one: an erasure rewrites ``chunks.text``
  with the mask and re-indexes the masked text, so erased words stop matching while the rest of
  the chunk stays findable (sections keep their text and are masked on read).
* ``embeddings.vector`` is an untyped pgvector ``vector``: dimensions vary by model (each
  model's is fixed in ``embedding_models``), exact search needs no typed column, and an HNSW
  index can still be added per model as a partial expression index
  ``((vector::vector(N)) vector_cosine_ops) WHERE model_id = '...'``.
* Triggers keep versions' identity, sections and blobs immutable, and let a version's state
  move only out of ``pending``.
* ``created_at`` columns are text (``YYYY-MM-DDTHH:MM:SS.ffffffZ``, UTC), written by the store,
  exactly as in SQLite, so both backends return the same strings.
"""

from spanproof.store import migration_ddl as ddl
from spanproof.store.migration_ddl import POSTGRES, SECTION_REF, SQLITE
from spanproof.store.migrations.triggers import row_trigger

revision = "0001"
down_revision = None

_SQLITE = (
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

_IMMUTABLE = """
CREATE FUNCTION spanproof_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'spanproof: % rows are never changed or deleted', TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$"""

_VERSION_UPDATE = """
CREATE FUNCTION spanproof_version_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.source_id IS DISTINCT FROM OLD.source_id OR NEW.number IS DISTINCT FROM OLD.number
       OR NEW.sha256 IS DISTINCT FROM OLD.sha256 OR NEW.media_type IS DISTINCT FROM OLD.media_type
       OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
        RAISE EXCEPTION 'spanproof: a version''s identity never changes'
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF OLD.state <> 'pending' AND (NEW.state, NEW.reason, NEW.format)
            IS DISTINCT FROM (OLD.state, OLD.reason, OLD.format) THEN
        RAISE EXCEPTION 'spanproof: version % of % is already %', OLD.number, OLD.source_id,
            OLD.state USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END
$$"""

_POSTGRES = (
    "CREATE EXTENSION IF NOT EXISTS vector",
    ddl.sources(POSTGRES),
    "CREATE INDEX sources_status_id ON sources (status, id)",
    """
    CREATE TABLE source_ids (
        source_id   text NOT NULL REFERENCES sources (id),
        kind        text NOT NULL,
        value       text NOT NULL,
        PRIMARY KEY (source_id, kind),
        UNIQUE (kind, value)
    )
    """,
    *ddl.versions(POSTGRES),
    f"""
    CREATE TABLE chunks (
        id          text PRIMARY KEY,
{ddl.section_span(POSTGRES)},
        text        text NOT NULL,
        masked      boolean NOT NULL DEFAULT false,
        tsv         tsvector,
        CHECK (0 <= start_pos AND start_pos <= end_pos),
        {SECTION_REF}
    )
    """,
    "CREATE INDEX chunks_section ON chunks (source_id, version, section_key, start_pos)",
    "CREATE INDEX chunks_tsv ON chunks USING gin (tsv)",
    """
    CREATE TABLE embedding_models (
        model_id    text PRIMARY KEY,
        dim         integer NOT NULL CHECK (dim BETWEEN 1 AND 16000)
    )
    """,
    """
    CREATE TABLE embeddings (
        model_id    text NOT NULL REFERENCES embedding_models (model_id),
        chunk_id    text NOT NULL REFERENCES chunks (id),
        vector      vector NOT NULL,
        PRIMARY KEY (model_id, chunk_id)
    )
    """,
    "CREATE INDEX embeddings_chunk ON embeddings (chunk_id)",
    f"""
    CREATE TABLE measurements (
{ddl.section_span(POSTGRES)},
        value       double precision NOT NULL,
        unit        text NOT NULL,
        quotation   text NOT NULL,
        PRIMARY KEY (source_id, version, section_key, start_pos, end_pos, unit, value),
        CHECK (0 <= start_pos AND start_pos <= end_pos),
        {SECTION_REF}
    )
    """,
    f"""
    CREATE TABLE erasures (
        id          {POSTGRES.serial_key},
{ddl.section_span(POSTGRES)},
        reason      text NOT NULL,
        created_at  text NOT NULL,
        CHECK (0 <= start_pos AND start_pos < end_pos),
        {SECTION_REF}
    )
    """,
    "CREATE UNIQUE INDEX erasures_range ON erasures "
    "(source_id, version, section_key, start_pos, end_pos)",
    _IMMUTABLE,
    _VERSION_UPDATE,
    row_trigger("versions_update", "UPDATE", "versions", "spanproof_version_update"),
    row_trigger("versions_no_delete", "DELETE", "versions"),
    row_trigger("sections_immutable", "UPDATE OR DELETE", "sections"),
    row_trigger("blobs_immutable", "UPDATE OR DELETE", "blobs"),
)

upgrade, downgrade = ddl.steps(lambda d: _POSTGRES if d.postgres else _SQLITE)
