"""The SQLite revisions' triggers: ``RAISE(ABORT)`` refusals, and append-only pairs of them."""

from __future__ import annotations


def refuse(name: str, event: str, table: str, message: str, when: str = "") -> str:
    """A trigger that aborts every ``event`` on ``table`` (that ``when`` holds for) with
    ``message``."""
    return f"""
    CREATE TRIGGER {name} BEFORE {event} ON {table}{when}
    BEGIN
        SELECT RAISE(ABORT, '{message}');
    END
    """


def append_only_triggers(table: str, noun: str) -> tuple[str, str]:
    """The two triggers that refuse every UPDATE and DELETE on ``table`` with the message
    "spanproof <noun> are never changed or deleted"."""
    message = f"spanproof {noun} are never changed or deleted"
    return (
        refuse(f"{table}_no_update", "UPDATE", table, message),
        refuse(f"{table}_no_delete", "DELETE", table, message),
    )
