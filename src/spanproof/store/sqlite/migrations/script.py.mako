"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
Create Date: ${create_date}

Tables that PostgreSQL defines alike go in ``spanproof.store.migration_ddl`` (rendered here for
``SQLITE``); SQLite-only DDL (FTS5, triggers) is written here. The whole upgrade runs in one
transaction. Add the revision to both dialects; bump ``SCHEMA_HEAD`` in
``spanproof/store/migration_ddl.py``.
"""

from spanproof.store.migration_ddl import SQLITE, steps
from spanproof.store.sqlite.migrations.run import run_statements
${imports if imports else ""}
revision = "${up_revision}"
down_revision = ${'"%s"' % down_revision if down_revision else None}

_UPGRADE: tuple[str, ...] = ()

upgrade, downgrade = steps(run_statements, _UPGRADE)
