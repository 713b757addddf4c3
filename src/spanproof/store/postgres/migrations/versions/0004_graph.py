"""Artifacts, edges, impact flags and walks (SPEC §2, §5.7).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30

The same tables as the SQLite revision 0004: an artifact version is written once and may be
approved once (then it is final; no version is deleted); flags are append-only; walks are the
walks' journal and ``impact_frontier`` the refs each walk has reached, in arrival order.
"""

from __future__ import annotations

from collections.abc import Sequence

from spanproof.store.postgres.migrations.run import run_sql

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_UPGRADE = r"""
CREATE TABLE artifacts (
    id          text PRIMARY KEY,
    kind        text NOT NULL CHECK (kind IN ('assessment', 'package', 'approach', 'design')),
    title       text NOT NULL,
    created_at  text NOT NULL
);
CREATE INDEX artifacts_kind ON artifacts (kind, id);

CREATE TABLE artifact_versions (
    artifact_id text NOT NULL REFERENCES artifacts (id),
    number      integer NOT NULL CHECK (number >= 1),
    body        text NOT NULL,
    depends_on  text NOT NULL,
    created_at  text NOT NULL,
    approved_by text NOT NULL DEFAULT '',
    approved_at text NOT NULL DEFAULT '',
    PRIMARY KEY (artifact_id, number)
);

CREATE FUNCTION spanproof_version_approval() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' OR OLD.approved_at <> '' OR NEW.approved_at = ''
        OR NEW.approved_by = '' OR NEW.body IS DISTINCT FROM OLD.body
        OR NEW.depends_on IS DISTINCT FROM OLD.depends_on
        OR NEW.created_at IS DISTINCT FROM OLD.created_at
        OR NEW.number IS DISTINCT FROM OLD.number
        OR NEW.artifact_id IS DISTINCT FROM OLD.artifact_id THEN
        RAISE EXCEPTION 'spanproof artifact versions are never rewritten (only approved once)'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER artifact_versions_final BEFORE UPDATE OR DELETE ON artifact_versions
    FOR EACH ROW EXECUTE FUNCTION spanproof_version_approval();
CREATE TRIGGER artifact_versions_no_truncate BEFORE TRUNCATE ON artifact_versions
    FOR EACH STATEMENT EXECUTE FUNCTION spanproof_immutable();

CREATE TABLE edges (
    from_ref    text NOT NULL,
    to_ref      text NOT NULL,
    PRIMARY KEY (from_ref, to_ref)
);
CREATE INDEX edges_to ON edges (to_ref, from_ref);

CREATE TABLE impact_flags (
    ref         text NOT NULL,
    changed_ref text NOT NULL,
    reason      text NOT NULL,
    walk_id     text NOT NULL,
    created_at  text NOT NULL,
    PRIMARY KEY (ref, changed_ref)
);
CREATE INDEX impact_flags_changed ON impact_flags (changed_ref, ref);
CREATE TRIGGER impact_flags_immutable BEFORE UPDATE OR DELETE ON impact_flags
    FOR EACH ROW EXECUTE FUNCTION spanproof_immutable();
CREATE TRIGGER impact_flags_no_truncate BEFORE TRUNCATE ON impact_flags
    FOR EACH STATEMENT EXECUTE FUNCTION spanproof_immutable();

CREATE TABLE impact_walks (
    id          text PRIMARY KEY,
    changed_ref text NOT NULL,
    reason      text NOT NULL,
    status      text NOT NULL CHECK (status IN ('running', 'done')),
    steps       integer NOT NULL,
    edges       bigint NOT NULL,
    flags       bigint NOT NULL,
    started_at  text NOT NULL,
    finished_at text NOT NULL,
    node_seq    bigint NOT NULL,
    edge_cursor text NOT NULL
);
CREATE INDEX impact_walks_status ON impact_walks (status, started_at, id);
CREATE INDEX impact_walks_changed ON impact_walks (changed_ref, started_at, id);

CREATE TABLE impact_frontier (
    seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    walk_id     text NOT NULL,
    ref         text NOT NULL,
    UNIQUE (walk_id, ref)
);
CREATE INDEX impact_frontier_walk ON impact_frontier (walk_id, seq);
"""

_DOWNGRADE = r"""
DROP TABLE IF EXISTS impact_frontier, impact_walks, impact_flags, edges, artifact_versions,
    artifacts;
DROP FUNCTION IF EXISTS spanproof_version_approval();
"""


def upgrade() -> None:
    run_sql(_UPGRADE)


def downgrade() -> None:
    run_sql(_DOWNGRADE)
