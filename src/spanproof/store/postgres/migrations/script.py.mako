"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
Create Date: ${create_date}

Tables that SQLite defines alike go in ``spanproof.store.migration_ddl`` (rendered here for
``POSTGRES``); PostgreSQL-only DDL (tsvector, pgvector, PL/pgSQL triggers) is written here as
plain SQL. Add the revision to both dialects; bump ``SCHEMA_HEAD`` in
``spanproof/store/migration_ddl.py``.
"""

from spanproof.store.migration_ddl import POSTGRES, steps
from spanproof.store.postgres.migrations.run import run_sql
${imports if imports else ""}
revision = "${up_revision}"
down_revision = ${'"%s"' % down_revision if down_revision else None}

_UPGRADE: tuple[str, ...] = ()

upgrade, downgrade = steps(run_sql, _UPGRADE)
