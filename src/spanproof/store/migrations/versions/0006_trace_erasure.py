"""Traces and attempts an erasure may mask (SPEC §7): the one change either admits.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05

Until now triggers refused every UPDATE of ``traces`` and ``attempts``. An erasure must mask the
text they copied from the erased range: a trace keeps the digests that let its hash still be
checked (``spanproof.core.trace_erasure``), an attempt's checks lose the passage text they
quoted (``spanproof.services.erasure``). The UPDATE triggers now let ``body`` change, and
nothing else, when the new body records an erasure (a trace: ``"erased":{"erasures":[``; an
attempt: a check quoting ``[erased]``); every other UPDATE, every DELETE (and on PostgreSQL
TRUNCATE) is refused as before. What a trace's new body holds is checked by the hash chain
(``spanproof trace verify``), not by the trigger.
"""

from spanproof.store.migration_ddl import run
from spanproof.store.migrations.triggers import refuse, row_trigger

revision = "0006"
down_revision = "0005"

#: table → (the columns that never change, what a new body must hold, the PL/pgSQL function)
_TABLES = {
    "traces": (
        ("seq", "id", "hash", "prev_hash", "kind", "created_at"),
        '"erased":{"erasures":[',
        "spanproof_trace_erasure",
    ),
    "attempts": (("record_id", "number"), '"quote":"[erased]"', "spanproof_attempt_erasure"),
}


def _message(table: str) -> str:
    return f"spanproof {table} are never changed or deleted (an erasure only masks their text)"


def _condition(table: str, differs: str) -> str:
    keep, mark, _ = _TABLES[table]
    kept = "".join(f"\n        OR NEW.{c} {differs} OLD.{c}" for c in keep)
    return f"NEW.body NOT LIKE '%{mark}%'{kept}"


def _sqlite_up(table: str) -> tuple[str, ...]:
    when = f"\n    WHEN {_condition(table, 'IS NOT')}"
    return (
        f"DROP TRIGGER {table}_no_update",
        refuse(f"{table}_no_update", "UPDATE", table, _message(table), when=when),
    )


def _sqlite_down(table: str) -> tuple[str, ...]:
    message = f"spanproof {table} are never changed or deleted"
    return f"DROP TRIGGER {table}_no_update", refuse(f"{table}_no_update", "UPDATE", table, message)


def _pg_up(table: str) -> tuple[str, ...]:
    function = _TABLES[table][2]
    body = f"""
CREATE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' OR {_condition(table, "IS DISTINCT FROM")} THEN
        RAISE EXCEPTION '{_message(table)}'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END
$$"""
    return (
        f"DROP TRIGGER {table}_immutable ON {table}",
        body,
        row_trigger(f"{table}_immutable", "UPDATE OR DELETE", table, function),
    )


def _pg_down(table: str) -> tuple[str, ...]:
    return (
        f"DROP TRIGGER {table}_immutable ON {table}",
        f"DROP FUNCTION {_TABLES[table][2]}()",
        row_trigger(f"{table}_immutable", "UPDATE OR DELETE", table),
    )


def _postgres() -> bool:
    from alembic import op

    return bool(op.get_context().dialect.name == "postgresql")


def upgrade() -> None:
    step = _pg_up if _postgres() else _sqlite_up
    run([s for table in _TABLES for s in step(table)])


def downgrade() -> None:
    step = _pg_down if _postgres() else _sqlite_down
    run([s for table in _TABLES for s in step(table)])
