"""API keys in SQL, written once for SQLite and PostgreSQL (see :mod:`spanproof.core.keys`).

Both backends run the same statements (spelled for each driver by its dialect); the table
differs only in its DDL (each backend's migration 0005), where a trigger lets a row change only
by being revoked once and never be deleted. Every statement is parameterised.
"""

from __future__ import annotations

from spanproof.core.errors import InvalidInputError
from spanproof.core.keys import ApiKey, check_scope, same_hash
from spanproof.store.sql import SqlHooks

_COLUMNS = "id, name, scope, created_at, revoked_at"


class KeyStoreMethods(SqlHooks):
    """The :class:`~spanproof.core.keys.KeyStore` methods (hooks: :class:`SqlHooks`)."""

    def add_api_key(self, key: ApiKey, key_hash: str) -> None:
        check_scope(key.scope)
        if key.revoked:
            raise InvalidInputError("a new key cannot be revoked already")
        if len(key_hash) != 64:
            raise InvalidInputError("a key hash is 64 hex digits (spanproof.core.keys.hash_key)")
        with self._write("add API key") as conn:
            taken = self._sql.one(
                conn, "SELECT 1 FROM api_keys WHERE id = ? OR key_hash = ?", (key.id, key_hash)
            )
            if taken is not None:
                raise InvalidInputError(f"an API key with id {key.id!r} or the same hash exists")
            self._sql.run(
                conn,
                "INSERT INTO api_keys (id, name, scope, key_hash, created_at, revoked_at)"
                " VALUES (?, ?, ?, ?, ?, '')",
                (key.id, key.name, key.scope, key_hash, key.created_at),
            )

    def find_api_key(self, key_hash: str) -> ApiKey | None:
        sql = f"SELECT {_COLUMNS}, key_hash FROM api_keys WHERE key_hash = ?"
        row = self._row("find API key", sql, (key_hash,))
        # The index found the row; compare again in constant time before trusting it.
        if row is None or not same_hash(str(row[5]), key_hash):
            return None
        return ApiKey(*row[:5])

    def list_api_keys(self) -> list[ApiKey]:
        sql = f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at, id"
        return [ApiKey(*r) for r in self._rows("list API keys", sql)]

    def revoke_api_key(self, key_id: str, at: str) -> ApiKey:
        if not at:
            raise InvalidInputError("a revocation needs a time")
        with self._write("revoke API key") as conn:
            self._sql.run(
                conn,
                "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at = ''",
                (at, key_id),
            )
            row = self._sql.one(conn, f"SELECT {_COLUMNS} FROM api_keys WHERE id = ?", (key_id,))
        if row is None:
            raise InvalidInputError(f"no API key has id {key_id!r} (see: spanproof keys list)")
        return ApiKey(*row)

    def has_active_api_keys(self) -> bool:
        sql = "SELECT 1 FROM api_keys WHERE revoked_at = '' LIMIT 1"
        return self._row("active API keys", sql) is not None
