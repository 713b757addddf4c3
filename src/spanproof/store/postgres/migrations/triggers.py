"""The PostgreSQL revisions' immutability triggers and the PL/pgSQL guards they run."""

from __future__ import annotations


def row_trigger(name: str, events: str, table: str, function: str = "spanproof_immutable") -> str:
    """A trigger that runs ``function`` (by default: refuse the change) before ``events``."""
    return (
        f"CREATE TRIGGER {name} BEFORE {events} ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION {function}()"
    )


def no_truncate(table: str) -> str:
    """The trigger that refuses ``TRUNCATE`` of ``table``."""
    return (
        f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION spanproof_immutable()"
    )


def append_only_triggers(table: str) -> tuple[str, str]:
    """The triggers that refuse every UPDATE, DELETE and TRUNCATE on ``table``."""
    return row_trigger(f"{table}_immutable", "UPDATE OR DELETE", table), no_truncate(table)


def set_once_guard(
    table: str, trigger: str, function: str, condition: str, message: str
) -> tuple[str, str, str]:
    """A PL/pgSQL ``function`` that refuses every DELETE and the UPDATEs ``condition`` holds for
    with ``message``, the ``trigger`` that runs it on ``table``, and the one refusing TRUNCATE."""
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
    return body, row_trigger(trigger, "UPDATE OR DELETE", table, function), no_truncate(table)
