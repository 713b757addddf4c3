"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
Create Date: ${create_date}

One revision for both dialects: tables they define alike go in ``spanproof.store.migration_ddl``
(rendered for the dialect ``d``); what only one has (SQLite's FTS5 and ``RAISE(ABORT)`` triggers,
PostgreSQL's tsvector, pgvector and PL/pgSQL) is chosen by ``d.postgres``. Each dialect runs the
whole upgrade in one transaction. Bump ``SCHEMA_HEAD`` in ``spanproof/store/migration_ddl.py``.
"""

from spanproof.store.migration_ddl import steps
from spanproof.store.sql import Dialect
${imports if imports else ""}
revision = "${up_revision}"
down_revision = ${'"%s"' % down_revision if down_revision else None}


def _upgrade(d: Dialect) -> tuple[str, ...]:
    return ()


upgrade, downgrade = steps(_upgrade)
