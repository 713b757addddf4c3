"""API keys: generation, hashing, scopes and the bind rule (pure parts, no store)."""

from __future__ import annotations

import hashlib

import pytest

from spanproof.api.server import check_bind
from spanproof.core.errors import ConfigurationError, InvalidInputError
from spanproof.core.keys import (
    KEY_PREFIX,
    ApiKey,
    generate_key,
    hash_key,
    new_api_key,
    same_hash,
    scope_allows,
)

AT = "2026-12-01T12:00:00.000000+00:00"


def test_keys_are_random_prefixed_and_long() -> None:
    keys = {generate_key() for _ in range(100)}
    assert len(keys) == 100
    for key in keys:
        assert key.startswith(KEY_PREFIX) and len(key) == len(KEY_PREFIX) + 43
        assert key.isascii() and key.isprintable()


def test_the_stored_form_is_the_sha256_hex_and_never_the_key() -> None:
    key = generate_key()
    assert hash_key(key) == hashlib.sha256(key.encode()).hexdigest()
    assert len(hash_key(key)) == 64 and key not in hash_key(key)
    assert same_hash(hash_key(key), hash_key(key))
    assert not same_hash(hash_key(key), hash_key(key + "x"))
    assert not same_hash(hash_key(key), "é" * 64)


def test_read_keys_may_only_get_and_head_and_write_keys_may_do_anything() -> None:
    for method in ("GET", "HEAD", "get"):
        assert scope_allows("read", method) and scope_allows("write", method)
    for method in ("POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
        assert not scope_allows("read", method)
        assert scope_allows("write", method)
    assert not scope_allows("admin", "GET")
    assert ApiKey("i", "n", "read", AT).allows("HEAD")
    assert not ApiKey("i", "n", "read", AT).allows("POST")


def test_a_new_key_has_a_clean_name_a_scope_and_no_secret_in_its_record() -> None:
    key, plain = new_api_key("  ci reader  ", "read", AT)
    assert (key.name, key.scope, key.created_at, key.revoked) == ("ci reader", "read", AT, False)
    assert len(key.id) == 12
    record = key.to_dict()
    assert record == {
        "id": key.id,
        "name": "ci reader",
        "scope": "read",
        "created_at": AT,
        "revoked_at": None,
    }
    assert plain not in repr(key) + repr(record) and hash_key(plain) not in repr(record)


@pytest.mark.parametrize("name", ["", "   ", "x" * 201, "bell\x07", "new\nline"])
def test_bad_key_names_are_refused_with_how_to_fix(name: str) -> None:
    with pytest.raises(InvalidInputError, match="printable characters"):
        new_api_key(name, "read", AT)


def test_an_unknown_scope_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="'read' or 'write'"):
        new_api_key("x", "admin", AT)


def test_a_stored_key_satisfies_the_open_bind_rule() -> None:
    check_bind("0.0.0.0", [], stored_keys=True)
    check_bind("0.0.0.0", ["k"])
    with pytest.raises(ConfigurationError, match="spanproof keys create"):
        check_bind("0.0.0.0", [], stored_keys=False)
