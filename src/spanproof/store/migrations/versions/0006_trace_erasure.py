"""Traces an erasure may mask (SPEC §7): the one change a stored trace admits.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05

Until now triggers refused every UPDATE of ``traces``. An erasure must mask the text a trace
copied from the erased range (``spanproof.core.trace_erasure``), keeping the digests that let its
hash still be checked. The UPDATE trigger now lets ``body`` change, and nothing else, when the
new body records an erasure (``"erased":{"erasures":[``); every other UPDATE, every DELETE (and
on PostgreSQL TRUNCATE) is refused as before. What the new body holds is checked by the hash
chain (``spanproof trace verify``), not by the trigger.
"""

from spanproof.store.migration_ddl import run
from spanproof.store.migrations.triggers import refuse, row_trigger

revision = "0006"
down_revision = "0005"

_KEEP = ("seq", "id", "hash", "prev_hash", "kind", "created_at")
_MESSAGE = "spanproof traces are never changed or deleted (an erasure only masks their text)"
_ERASURE = '\'%"erased":{"erasures":[%\''


def _condition(differs: str) -> str:
    kept = "".join(f"\n        OR NEW.{c} {differs} OLD.{c}" for c in _KEEP)
    return f"NEW.body NOT LIKE {_ERASURE}{kept}"


_SQLITE_UP = (
    "DROP TRIGGER traces_no_update",
    refuse(
        "traces_no_update", "UPDATE", "traces", _MESSAGE, when=f"\n    WHEN {_condition('IS NOT')}"
    ),
)
_SQLITE_DOWN = (
    "DROP TRIGGER traces_no_update",
    refuse("traces_no_update", "UPDATE", "traces", "spanproof traces are never changed or deleted"),
)
_PG_FUNCTION = f"""
CREATE FUNCTION spanproof_trace_erasure() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' OR {_condition("IS DISTINCT FROM")} THEN
        RAISE EXCEPTION '{_MESSAGE}'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END
$$"""
_PG_UP = (
    "DROP TRIGGER traces_immutable ON traces",
    _PG_FUNCTION,
    row_trigger("traces_immutable", "UPDATE OR DELETE", "traces", "spanproof_trace_erasure"),
)
_PG_DOWN = (
    "DROP TRIGGER traces_immutable ON traces",
    "DROP FUNCTION spanproof_trace_erasure()",
    row_trigger("traces_immutable", "UPDATE OR DELETE", "traces"),
)


def _postgres() -> bool:
    from alembic import op

    return bool(op.get_context().dialect.name == "postgresql")


def upgrade() -> None:
    run(_PG_UP if _postgres() else _SQLITE_UP)


def downgrade() -> None:
    run(_PG_DOWN if _postgres() else _SQLITE_DOWN)
