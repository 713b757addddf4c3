"""The DDL of both dialects' migrations, written once where SQLite and PostgreSQL agree.

The revisions under ``migrations/versions`` (one Alembic tree for both dialects) build the tables
the two stores define alike from the functions here, rendered for the dialect being migrated
(:class:`~spanproof.store.sql.Dialect`), and add only what is each dialect's own (FTS5 and
``RAISE(ABORT)`` triggers for SQLite; tsvector, pgvector and PL/pgSQL triggers for PostgreSQL).
A downgrade drops what its upgrade created (:func:`drop_created`); :func:`steps` gives a revision
both, and :func:`run` runs them on either driver.

SQLite keeps each ``CREATE`` statement's text in ``sqlite_master`` as written, so the layout of
these strings is part of existing files' schemas: change a table only in a new revision.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from spanproof.store import sql
from spanproof.store.sql import Dialect

#: The two dialects, as the revisions render the tables for them.
SQLITE, POSTGRES = sql.SQLITE, sql.POSTGRES
#: The newest revision in ``migrations/versions`` (a test pins it to Alembic's own head).
SCHEMA_HEAD = "0009"


#: The foreign key of every row that sits on a span of a section (after :func:`section_span`).
SECTION_REF = """FOREIGN KEY (source_id, version, section_key)
            REFERENCES sections (source_id, version, key)"""

_CREATED = re.compile(r"\s*CREATE\s+(?:VIRTUAL\s+)?(TABLE|FUNCTION)\s+(\w+)", re.IGNORECASE)


def drop_created(statements: Iterable[str]) -> tuple[str, ...]:
    """The statements that drop the tables, then the functions, that ``statements`` create.

    Newest first, so a table goes before the tables it references; indexes and triggers go
    with their tables.
    """
    created = [m.groups() for m in map(_CREATED.match, statements) if m is not None]
    tables = [f"DROP TABLE IF EXISTS {name}" for kind, name in created if kind.upper() == "TABLE"]
    functions = [
        f"DROP FUNCTION IF EXISTS {name}()" for kind, name in created if kind.upper() != "TABLE"
    ]
    return (*reversed(tables), *reversed(functions))


def run(statements: Sequence[str]) -> None:
    """Run the statements in order, in the migration's transaction, each exactly as written.

    They reach the driver with no parameters, so nothing in them (``%`` in PL/pgSQL ``RAISE``
    formats, ``:`` casts) is taken for a placeholder. Offline (``alembic upgrade --sql``, for
    SQLite only) they are written out instead.
    """
    from alembic import op

    if op.get_context().as_sql:
        for statement in statements:
            op.execute(statement)
        return
    conn = op.get_bind()
    for statement in statements:
        conn.exec_driver_sql(statement, execution_options={"no_parameters": True})


def steps(
    build: Callable[[Dialect], Sequence[str]],
) -> tuple[Callable[[], None], Callable[[], None]]:
    """A revision's ``upgrade`` (:func:`run` the statements ``build`` gives for the dialect being
    migrated) and ``downgrade`` (run what drops what they create, :func:`drop_created`)."""

    def statements() -> Sequence[str]:
        from alembic import op

        return build(POSTGRES if op.get_context().dialect.name == "postgresql" else SQLITE)

    return (lambda: run(statements())), (lambda: run(drop_created(statements())))


# 0001 ------------------------------------------------------------------------------------------
def sources(d: Dialect) -> str:
    return f"""
    CREATE TABLE sources (
        id          {d.text} PRIMARY KEY,
        connector   {d.text} NOT NULL,
        title       {d.text} NOT NULL DEFAULT '',
        status      {d.text} NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'retracted', 'withdrawn', 'corrected')),
        created_at  {d.text} NOT NULL
    )
    """


def versions(d: Dialect) -> tuple[str, str, str]:
    """The tables of raw bytes, of the versions of sources, and of the versions' sections."""
    # Only the PostgreSQL schema gives a section's title a default.
    return (
        f"""
    CREATE TABLE blobs (
        sha256      {d.text} PRIMARY KEY{d.hex64("sha256")},
        size        {d.bigint} NOT NULL,
        raw         {d.blob} NOT NULL
    )
    """,
        f"""
    CREATE TABLE versions (
        source_id   {d.text} NOT NULL REFERENCES sources (id),
        number      {d.integer} NOT NULL CHECK (number >= 1),
        sha256      {d.text} NOT NULL,
        media_type  {d.text} NOT NULL,
        state       {d.text} NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'parsed', 'quarantined')),
        reason      {d.text} NOT NULL DEFAULT '',
        format      {d.text} NOT NULL DEFAULT '',
        created_at  {d.text} NOT NULL,
        PRIMARY KEY (source_id, number),
        UNIQUE (source_id, sha256)
    )
    """,
        f"""
    CREATE TABLE sections (
        source_id   {d.text} NOT NULL,
        version     {d.integer} NOT NULL,
        key         {d.text} NOT NULL,
        title       {d.text} NOT NULL{" DEFAULT ''" if d.postgres else ""},
        text        {d.text} NOT NULL,
        ordinal     {d.integer} NOT NULL,
        PRIMARY KEY (source_id, version, key),
        UNIQUE (source_id, version, ordinal),
        FOREIGN KEY (source_id, version) REFERENCES versions (source_id, number)
    )
    """,
    )


def section_span(d: Dialect) -> str:
    """The column lines (no trailing comma) that place a row on a span of a section's text."""
    start, end = d.q("span_start"), d.q("span_end")  # the schema's names of the offsets
    return f"""        source_id   {d.text} NOT NULL,
        version     {d.integer} NOT NULL,
        section_key {d.text} NOT NULL,
        {start:<11} {d.integer} NOT NULL,
        {end:<11} {d.integer} NOT NULL"""


# 0002 ------------------------------------------------------------------------------------------
def traces(d: Dialect) -> tuple[str, ...]:
    return (
        f"""
    CREATE TABLE traces (
        seq         {d.bigint} PRIMARY KEY CHECK (seq >= 1),
        id          {d.text} NOT NULL UNIQUE,
        hash        {d.text} NOT NULL UNIQUE{d.hex64("hash")},
        prev_hash   {d.text} NOT NULL UNIQUE{d.hex64("prev_hash")},
        kind        {d.text} NOT NULL,
        created_at  {d.text} NOT NULL,
        body        {d.text} NOT NULL
    )
    """,
    )


# 0003 ------------------------------------------------------------------------------------------
def records(d: Dialect) -> tuple[str, ...]:
    return (
        f"""
    CREATE TABLE records (
        id          {d.text} PRIMARY KEY,
        source_id   {d.text} NOT NULL,
        version     {d.integer} NOT NULL,
        status      {d.text} NOT NULL,
        body        {d.text} NOT NULL
    )
    """,
        "CREATE INDEX records_status ON records (status, id)",
        "CREATE INDEX records_source ON records (source_id, id)",
        f"""
    CREATE TABLE attempts (
        record_id   {d.text} NOT NULL REFERENCES records (id),
        number      {d.integer} NOT NULL CHECK (number >= 1),
        body        {d.text} NOT NULL,
        PRIMARY KEY (record_id, number)
    )
    """,
    )


# 0004 ------------------------------------------------------------------------------------------
def graph(d: Dialect) -> tuple[str, ...]:
    return (
        f"""
    CREATE TABLE artifacts (
        id          {d.text} PRIMARY KEY,
        kind        {d.text} NOT NULL CHECK (kind IN ('assessment', 'package', 'approach', 'design')),
        title       {d.text} NOT NULL,
        created_at  {d.text} NOT NULL
    )
    """,  # noqa: E501 (the SQLite schema holds this text as it is)
        "CREATE INDEX artifacts_kind ON artifacts (kind, id)",
        f"""
    CREATE TABLE artifact_versions (
        artifact_id {d.text} NOT NULL REFERENCES artifacts (id),
        number      {d.integer} NOT NULL CHECK (number >= 1),
        body        {d.text} NOT NULL,
        depends_on  {d.text} NOT NULL,
        created_at  {d.text} NOT NULL,
        approved_by {d.text} NOT NULL DEFAULT '',
        approved_at {d.text} NOT NULL DEFAULT '',
        PRIMARY KEY (artifact_id, number)
    )
    """,
        f"""
    CREATE TABLE edges (
        from_ref    {d.text} NOT NULL,
        to_ref      {d.text} NOT NULL,
        PRIMARY KEY (from_ref, to_ref)
    ){d.without_rowid}
    """,
        "CREATE INDEX edges_to ON edges (to_ref, from_ref)",
        f"""
    CREATE TABLE impact_flags (
        ref         {d.text} NOT NULL,
        changed_ref {d.text} NOT NULL,
        reason      {d.text} NOT NULL,
        walk_id     {d.text} NOT NULL,
        created_at  {d.text} NOT NULL,
        PRIMARY KEY (ref, changed_ref)
    ){d.without_rowid}
    """,
        "CREATE INDEX impact_flags_changed ON impact_flags (changed_ref, ref)",
        f"""
    CREATE TABLE impact_walks (
        id          {d.text} PRIMARY KEY,
        changed_ref {d.text} NOT NULL,
        reason      {d.text} NOT NULL,
        status      {d.text} NOT NULL CHECK (status IN ('running', 'done')),
        steps       {d.integer} NOT NULL,
        edges       {d.bigint} NOT NULL,
        flags       {d.bigint} NOT NULL,
        started_at  {d.text} NOT NULL,
        finished_at {d.text} NOT NULL,
        node_seq    {d.bigint} NOT NULL,
        edge_cursor {d.text} NOT NULL
    )
    """,
        "CREATE INDEX impact_walks_status ON impact_walks (status, started_at, id)",
        "CREATE INDEX impact_walks_changed ON impact_walks (changed_ref, started_at, id)",
        f"""
    CREATE TABLE impact_frontier (
        seq         {d.serial_key},
        walk_id     {d.text} NOT NULL,
        ref         {d.text} NOT NULL,
        UNIQUE (walk_id, ref)
    )
    """,
        "CREATE INDEX impact_frontier_walk ON impact_frontier (walk_id, seq)",
    )


# 0005 ------------------------------------------------------------------------------------------
def api_keys(d: Dialect) -> tuple[str, ...]:
    return (
        f"""
    CREATE TABLE api_keys (
        id          {d.text} PRIMARY KEY,
        name        {d.text} NOT NULL,
        scope       {d.text} NOT NULL CHECK (scope IN ('read', 'write')),
        key_hash    {d.text} NOT NULL UNIQUE CHECK (length(key_hash) = 64),
        created_at  {d.text} NOT NULL,
        revoked_at  {d.text} NOT NULL DEFAULT ''
    )
    """,
    )


# 0007 ------------------------------------------------------------------------------------------
def current_versions(d: Dialect) -> tuple[str, ...]:
    """Which version is a source's content, as it changed: the row of highest ``seq`` names it.

    Every version added is current from then on; a version whose bytes come back (a file
    reverted) is current again. Rows are only ever added, so the table is also the history.
    """
    return (
        f"""
    CREATE TABLE current_versions (
        source_id   {d.text} NOT NULL,
        seq         {d.integer} NOT NULL CHECK (seq >= 1),
        version     {d.integer} NOT NULL,
        created_at  {d.text} NOT NULL,
        PRIMARY KEY (source_id, seq),
        FOREIGN KEY (source_id, version) REFERENCES versions (source_id, number)
    )
    """,
        # Until now a source's content was its newest version: each version was current from
        # its arrival on, in number order.
        "INSERT INTO current_versions (source_id, seq, version, created_at)"
        " SELECT source_id, number, number, created_at FROM versions",
    )
