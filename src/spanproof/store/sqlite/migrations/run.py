"""What every SQLite revision uses: statements run one by one, and append-only triggers."""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op


def run_statements(statements: Sequence[str]) -> None:
    """Run each statement in order, in the migration's transaction."""
    for statement in statements:
        op.execute(statement)


def append_only_triggers(table: str, noun: str) -> tuple[str, str]:
    """The two triggers that refuse every UPDATE and DELETE on ``table`` with the message
    "spanproof <noun> are never changed or deleted"."""
    message = f"spanproof {noun} are never changed or deleted"

    def trigger(verb: str) -> str:
        return f"""
    CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table}
    BEGIN
        SELECT RAISE(ABORT, '{message}');
    END
    """

    return trigger("UPDATE"), trigger("DELETE")


def drop_append_only_triggers(table: str) -> tuple[str, str]:
    """The statements that drop :func:`append_only_triggers` of ``table``."""
    return (
        f"DROP TRIGGER IF EXISTS {table}_no_delete",
        f"DROP TRIGGER IF EXISTS {table}_no_update",
    )
