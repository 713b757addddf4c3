"""The revisions' triggers: SQLite's ``RAISE(ABORT)`` refusals, PostgreSQL's PL/pgSQL guards."""

from __future__ import annotations

from collections.abc import Sequence

from spanproof.store.sql import Dialect


def refuse(name: str, event: str, table: str, message: str, when: str = "") -> str:
    """A SQLite trigger that aborts every ``event`` on ``table`` (that ``when`` holds for) with
    ``message``."""
    return f"""
    CREATE TRIGGER {name} BEFORE {event} ON {table}{when}
    BEGIN
        SELECT RAISE(ABORT, '{message}');
    END
    """


def row_trigger(name: str, events: str, table: str, function: str = "spanproof_immutable") -> str:
    """A PostgreSQL trigger that runs ``function`` (by default: refuse the change) before
    ``events``."""
    return (
        f"CREATE TRIGGER {name} BEFORE {events} ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION {function}()"
    )


def _no_truncate(table: str) -> str:
    return (
        f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION spanproof_immutable()"
    )


def append_only(d: Dialect, table: str, noun: str) -> tuple[str, str]:
    """The triggers that refuse every UPDATE and DELETE on ``table`` (SQLite: with the message
    "spanproof <noun> are never changed or deleted") and, on PostgreSQL, TRUNCATE."""
    if d.postgres:
        return row_trigger(f"{table}_immutable", "UPDATE OR DELETE", table), _no_truncate(table)
    message = f"spanproof {noun} are never changed or deleted"
    return (
        refuse(f"{table}_no_update", "UPDATE", table, message),
        refuse(f"{table}_no_delete", "DELETE", table, message),
    )


def set_once(
    d: Dialect,
    table: str,
    stamp: str,
    keep: Sequence[str],
    *,
    also: str = "",
    trigger: str,
    function: str,
    message: str,
) -> tuple[str, ...]:
    """The triggers that refuse, with ``message``, every DELETE (and on PostgreSQL TRUNCATE) of
    ``table`` and every UPDATE but the one that sets ``stamp`` (and ``also``) from empty,
    leaving the ``keep`` columns as they were: a row is written once and stamped once.

    SQLite: ``trigger`` (UPDATE) and ``<table>_no_delete``; PostgreSQL: the PL/pgSQL
    ``function``, the ``trigger`` that runs it, and ``<table>_no_truncate``.
    """
    differs = "IS DISTINCT FROM" if d.postgres else "IS NOT"
    condition = f"OLD.{stamp} <> '' OR NEW.{stamp} = ''" + (f" OR NEW.{also} = ''" if also else "")
    condition += "".join(f"\n        OR NEW.{c} {differs} OLD.{c}" for c in keep)
    if not d.postgres:
        return (
            refuse(trigger, "UPDATE", table, message, when=f"\n    WHEN {condition}"),
            refuse(f"{table}_no_delete", "DELETE", table, message),
        )
    body = f"""
CREATE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' OR {condition} THEN
        RAISE EXCEPTION '{message}'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END
$$"""
    return body, row_trigger(trigger, "UPDATE OR DELETE", table, function), _no_truncate(table)
