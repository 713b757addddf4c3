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

from __future__ import annotations

from collections.abc import Sequence

from spanproof.store.postgres.migrations.run import run_sql

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_UPGRADE = r"""
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE sources (
    id          text PRIMARY KEY,
    connector   text NOT NULL,
    title       text NOT NULL DEFAULT '',
    status      text NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'retracted', 'withdrawn', 'corrected')),
    created_at  text NOT NULL
);
CREATE INDEX sources_status_id ON sources (status, id);

CREATE TABLE source_ids (
    source_id   text NOT NULL REFERENCES sources (id),
    kind        text NOT NULL,
    value       text NOT NULL,
    PRIMARY KEY (source_id, kind),
    UNIQUE (kind, value)
);

CREATE TABLE blobs (
    sha256      text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    size        bigint NOT NULL,
    raw         bytea NOT NULL
);

CREATE TABLE versions (
    source_id   text NOT NULL REFERENCES sources (id),
    number      integer NOT NULL CHECK (number >= 1),
    sha256      text NOT NULL,
    media_type  text NOT NULL,
    state       text NOT NULL DEFAULT 'pending'
                CHECK (state IN ('pending', 'parsed', 'quarantined')),
    reason      text NOT NULL DEFAULT '',
    format      text NOT NULL DEFAULT '',
    created_at  text NOT NULL,
    PRIMARY KEY (source_id, number),
    UNIQUE (source_id, sha256)
);

CREATE TABLE sections (
    source_id   text NOT NULL,
    version     integer NOT NULL,
    key         text NOT NULL,
    title       text NOT NULL DEFAULT '',
    text        text NOT NULL,
    ordinal     integer NOT NULL,
    PRIMARY KEY (source_id, version, key),
    UNIQUE (source_id, version, ordinal),
    FOREIGN KEY (source_id, version) REFERENCES versions (source_id, number)
);

CREATE TABLE chunks (
    id          text PRIMARY KEY,
    source_id   text NOT NULL,
    version     integer NOT NULL,
    section_key text NOT NULL,
    start_pos   integer NOT NULL,
    end_pos     integer NOT NULL,
    text        text NOT NULL,
    masked      boolean NOT NULL DEFAULT false,
    tsv         tsvector,
    CHECK (0 <= start_pos AND start_pos <= end_pos),
    FOREIGN KEY (source_id, version, section_key) REFERENCES sections (source_id, version, key)
);
CREATE INDEX chunks_section ON chunks (source_id, version, section_key, start_pos);
CREATE INDEX chunks_tsv ON chunks USING gin (tsv);

CREATE TABLE embedding_models (
    model_id    text PRIMARY KEY,
    dim         integer NOT NULL CHECK (dim BETWEEN 1 AND 16000)
);

CREATE TABLE embeddings (
    model_id    text NOT NULL REFERENCES embedding_models (model_id),
    chunk_id    text NOT NULL REFERENCES chunks (id),
    vector      vector NOT NULL,
    PRIMARY KEY (model_id, chunk_id)
);
CREATE INDEX embeddings_chunk ON embeddings (chunk_id);

CREATE TABLE measurements (
    source_id   text NOT NULL,
    version     integer NOT NULL,
    section_key text NOT NULL,
    start_pos   integer NOT NULL,
    end_pos     integer NOT NULL,
    value       double precision NOT NULL,
    unit        text NOT NULL,
    quotation   text NOT NULL,
    PRIMARY KEY (source_id, version, section_key, start_pos, end_pos, unit, value),
    CHECK (0 <= start_pos AND start_pos <= end_pos),
    FOREIGN KEY (source_id, version, section_key) REFERENCES sections (source_id, version, key)
);

CREATE TABLE erasures (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    source_id   text NOT NULL,
    version     integer NOT NULL,
    section_key text NOT NULL,
    start_pos   integer NOT NULL,
    end_pos     integer NOT NULL,
    reason      text NOT NULL,
    created_at  text NOT NULL,
    CHECK (0 <= start_pos AND start_pos < end_pos),
    FOREIGN KEY (source_id, version, section_key) REFERENCES sections (source_id, version, key)
);
CREATE UNIQUE INDEX erasures_range ON erasures (source_id, version, section_key, start_pos,
    end_pos);

CREATE FUNCTION spanproof_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'spanproof: % rows are never changed or deleted', TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;

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
$$;

CREATE TRIGGER versions_update BEFORE UPDATE ON versions
    FOR EACH ROW EXECUTE FUNCTION spanproof_version_update();
CREATE TRIGGER versions_no_delete BEFORE DELETE ON versions
    FOR EACH ROW EXECUTE FUNCTION spanproof_immutable();
CREATE TRIGGER sections_immutable BEFORE UPDATE OR DELETE ON sections
    FOR EACH ROW EXECUTE FUNCTION spanproof_immutable();
CREATE TRIGGER blobs_immutable BEFORE UPDATE OR DELETE ON blobs
    FOR EACH ROW EXECUTE FUNCTION spanproof_immutable();
"""

_DOWNGRADE = r"""
DROP TABLE IF EXISTS erasures, measurements, embeddings, embedding_models, chunks, sections,
    versions, blobs, source_ids, sources;
DROP FUNCTION IF EXISTS spanproof_version_update();
DROP FUNCTION IF EXISTS spanproof_immutable();
"""


def upgrade() -> None:
    run_sql(_UPGRADE)


def downgrade() -> None:
    run_sql(_DOWNGRADE)
