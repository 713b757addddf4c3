"""API keys (SPEC §9): the stored key, the port that keeps them, and the pure helpers.

A key is ``spk_`` plus 43 characters of ``secrets.token_urlsafe(32)`` (256 random bits). Only its
SHA-256 (hex) is stored, never the key: a key that random cannot be found from its hash by
guessing, so a slow or salted hash would add nothing but latency. The store finds a key by the
hash of what the client sent and compares the hashes again with :func:`hmac.compare_digest`;
timing can at most tell an attacker about the hash of a guess, which leads nowhere.

Scopes: ``read`` may use GET and HEAD only; ``write`` may use every method. A revoked key is
refused like an unknown one; a key is revoked at most once and never deleted, so the table keeps
the record of who had access.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from spanproof.core.errors import InvalidInputError

SCOPES = ("read", "write")
#: The HTTP methods a ``read`` key may use.
READ_METHODS = frozenset({"GET", "HEAD"})
KEY_PREFIX = "spk_"
MAX_NAME_CHARS = 200


@dataclass(frozen=True)
class ApiKey:
    """A stored API key's public part (never the key, never its hash)."""

    id: str
    name: str
    scope: str
    created_at: str
    revoked_at: str = ""

    @property
    def revoked(self) -> bool:
        return bool(self.revoked_at)

    def allows(self, method: str) -> bool:
        """Whether this key's scope permits an HTTP request with ``method``."""
        return scope_allows(self.scope, method)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "scope": self.scope,
            "created_at": self.created_at,
            "revoked_at": self.revoked_at or None,
        }


@runtime_checkable
class KeyStore(Protocol):
    """Where API keys live: their hashes and public parts."""

    def add_api_key(self, key: ApiKey, key_hash: str) -> None:
        """Store a new key by its hash.

        Raises:
            InvalidInputError: the id or the hash is taken, or the key is already revoked.
        """
        ...

    def find_api_key(self, key_hash: str) -> ApiKey | None:
        """The key whose hash is ``key_hash`` (revoked or not), or None."""
        ...

    def list_api_keys(self) -> list[ApiKey]:
        """Every key, revoked ones included, oldest first."""
        ...

    def revoke_api_key(self, key_id: str, at: str) -> ApiKey:
        """Revoke the key (a no-op when it is revoked already) and return it.

        Raises:
            InvalidInputError: no key has this id.
        """
        ...

    def has_active_api_keys(self) -> bool:
        """Whether any key is not revoked."""
        ...


def check_scope(scope: str) -> str:
    """``scope`` when it is one of :data:`SCOPES`.

    Raises:
        InvalidInputError: any other scope.
    """
    if scope not in SCOPES:
        raise InvalidInputError(f"unknown key scope {scope!r}: use 'read' or 'write'")
    return scope


def scope_allows(scope: str, method: str) -> bool:
    """Whether a key of ``scope`` may make a request with HTTP ``method``."""
    return scope == "write" or (scope == "read" and method.upper() in READ_METHODS)


def generate_key() -> str:
    """A new random key (shown once to its owner, stored only as :func:`hash_key`)."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    """The stored form of ``key``: SHA-256 of its UTF-8 bytes, as 64 hex digits."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def same_hash(a: str, b: str) -> bool:
    """Constant-time equality of two key hashes."""
    return hmac.compare_digest(a.encode("ascii", "replace"), b.encode("ascii", "replace"))


def new_api_key(name: str, scope: str, at: str) -> tuple[ApiKey, str]:
    """A new key named ``name``: (its public part, the plain key to show once).

    Raises:
        InvalidInputError: an empty or overlong name, control characters in it, or a bad scope.
    """
    name = name.strip()
    if not name or len(name) > MAX_NAME_CHARS or not name.isprintable():
        raise InvalidInputError(
            f"a key name must be 1 to {MAX_NAME_CHARS} printable characters, e.g. 'ci-reader'"
        )
    key = ApiKey(id=secrets.token_hex(6), name=name, scope=check_scope(scope), created_at=at)
    return key, generate_key()


def authenticate(store: KeyStore, presented: str) -> ApiKey | None:
    """The active stored key matching ``presented``, or None (unknown or revoked)."""
    if not presented:
        return None
    key = store.find_api_key(hash_key(presented))
    return None if key is None or key.revoked else key
