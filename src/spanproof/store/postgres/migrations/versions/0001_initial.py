"""Initial schema of the PostgreSQL evidence store.

Revision ID: 0001
Revises:
Create Date: 2025-01-01

Mirrors the SQLite store: sources and their external ids, content-addressed raw blobs,
versions (one per distinct SHA-256 of a source's bytes), sections (canonical text, never
changed), chunks with a maintained ``tsvector`` (GIN index) for keyword search, one
``embeddings`` table with an untyped pgvector ``vector`` column for every model (each model's
dimension is fixed in ``embedding_models``), measurements and erasures.

Design notes:

* ``chunks.tsv`` is a plain column, not a generated one: an erasure rewrites ``chunks.text``
  with the mask and re-indexes the masked text, so erased words stop matching while the rest of
  the chunk stays findable (sections keep their text and are masked on read).
* ``embeddings.vector`` is an untyped ``vector``: dimensions vary by model, exact search needs
  no typed column, and an HNSW index can still be added per model as a partial expression
  index ``((vector::vector(N)) vector_cosine_ops) WHERE model_id = '...'``.
* Triggers keep versions' identity, sections and blobs immutable, and let a version's state
  move only out of ``pending``.
* ``created_at`` columns are text (``YYYY-MM-DDTHH:MM:SS.ffffffZ``, UTC), written by the store,
  exactly as in the SQLite store, so both backends return the same strings.
"""

from spanproof.store import migration_ddl as ddl
from spanproof.store.migration_ddl import POSTGRES, SECTION_REF
from spanproof.store.postgres.migrations.triggers import row_trigger

revision = "0001"
down_revision = None

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

_UPGRADE = (
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

upgrade, downgrade = ddl.steps(_UPGRADE)
