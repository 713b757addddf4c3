"""What every PostgreSQL revision uses to send its SQL."""

from __future__ import annotations

from alembic import op


def run_sql(sql: str) -> None:
    """Send a script to psycopg verbatim, in the migration's transaction.

    No parameters, so psycopg runs the statements as one script and nothing in it (``%`` in
    PL/pgSQL ``RAISE`` formats, ``:`` casts) is taken for a placeholder.
    """
    driver = op.get_bind().connection.driver_connection
    if driver is None:  # pragma: no cover - an open SQLAlchemy connection has its driver's
        raise RuntimeError("the migration connection has no psycopg connection")
    with driver.cursor() as cur:
        cur.execute(sql)
