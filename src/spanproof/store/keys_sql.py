"""API keys in SQL, written once for SQLite and PostgreSQL (see :mod:`spanproof.core.keys`).

Both backends run the same statements (``?`` placeholders are rewritten for psycopg); the table
differs only in its DDL (each backend's migration 0005), where a trigger lets a row change only
by being revoked once and never be deleted. Every statement is parameterised. Every method takes
an open connection inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from spanproof.core.errors import InvalidInputError
from spanproof.core.keys import ApiKey, check_scope, same_hash

_COLUMNS = "id, name, scope, created_at, revoked_at"


def _key(row: Sequence[Any]) -> ApiKey:
    return ApiKey(str(row[0]), str(row[1]), str(row[2]), str(row[3]), str(row[4]))


class KeySql:
    """The key statements for one SQL dialect.

    Args:
        placeholder: the driver's parameter marker (``?`` for sqlite3, ``%s`` for psycopg).
    """

    def __init__(self, placeholder: str) -> None:
        self._ph = placeholder

    def _run(self, conn: Any, sql: str, params: Sequence[Any] = ()) -> Any:
        return conn.execute(sql if self._ph == "?" else sql.replace("?", self._ph), tuple(params))

    def add(self, conn: Any, key: ApiKey, key_hash: str) -> None:
        check_scope(key.scope)
        if key.revoked:
            raise InvalidInputError("a new key cannot be revoked already")
        if len(key_hash) != 64:
            raise InvalidInputError("a key hash is 64 hex digits (spanproof.core.keys.hash_key)")
        taken = self._run(
            conn, "SELECT 1 FROM api_keys WHERE id = ? OR key_hash = ?", (key.id, key_hash)
        ).fetchone()
        if taken is not None:
            raise InvalidInputError(f"an API key with id {key.id!r} or the same hash exists")
        self._run(
            conn,
            "INSERT INTO api_keys (id, name, scope, key_hash, created_at, revoked_at)"
            " VALUES (?, ?, ?, ?, ?, '')",
            (key.id, key.name, key.scope, key_hash, key.created_at),
        )

    def find(self, conn: Any, key_hash: str) -> ApiKey | None:
        row = self._run(
            conn, f"SELECT {_COLUMNS}, key_hash FROM api_keys WHERE key_hash = ?", (key_hash,)
        ).fetchone()
        # The index found the row; compare again in constant time before trusting it.
        if row is None or not same_hash(str(row[5]), key_hash):
            return None
        return _key(row)

    def get(self, conn: Any, key_id: str) -> ApiKey | None:
        row = self._run(conn, f"SELECT {_COLUMNS} FROM api_keys WHERE id = ?", (key_id,)).fetchone()
        return None if row is None else _key(row)

    def list(self, conn: Any) -> list[ApiKey]:
        rows = self._run(conn, f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at, id")
        return [_key(r) for r in rows.fetchall()]

    def revoke(self, conn: Any, key_id: str, at: str) -> ApiKey:
        if not at:
            raise InvalidInputError("a revocation needs a time")
        self._run(
            conn,
            "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at = ''",
            (at, key_id),
        )
        key = self.get(conn, key_id)
        if key is None:
            raise InvalidInputError(f"no API key has id {key_id!r} (see: spanproof keys list)")
        return key

    def any_active(self, conn: Any) -> bool:
        row = self._run(conn, "SELECT 1 FROM api_keys WHERE revoked_at = '' LIMIT 1").fetchone()
        return row is not None


class KeyStoreMethods:
    """The :class:`~spanproof.core.keys.KeyStore` methods for a store class that provides
    ``_keys`` (its :class:`KeySql`), ``_graph_write(action)`` (a context manager yielding a
    connection inside a write transaction) and ``_graph_read(action)`` (one yielding a connection
    for reads) — the same hooks as :class:`~spanproof.store.graph_sql.GraphStoreMethods`."""

    _keys: KeySql

    def _graph_write(self, action: str) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _graph_read(self, action: str) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def add_api_key(self, key: ApiKey, key_hash: str) -> None:
        with self._graph_write("add API key") as conn:
            self._keys.add(conn, key, key_hash)

    def find_api_key(self, key_hash: str) -> ApiKey | None:
        with self._graph_read("find API key") as conn:
            return self._keys.find(conn, key_hash)

    def list_api_keys(self) -> list[ApiKey]:
        with self._graph_read("list API keys") as conn:
            return self._keys.list(conn)

    def revoke_api_key(self, key_id: str, at: str) -> ApiKey:
        with self._graph_write("revoke API key") as conn:
            return self._keys.revoke(conn, key_id, at)

    def has_active_api_keys(self) -> bool:
        with self._graph_read("active API keys") as conn:
            return self._keys.any_active(conn)
