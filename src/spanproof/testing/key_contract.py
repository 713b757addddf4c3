"""The one behaviour suite every ``KeyStore`` backend passes (SPEC §9).

Subclass :class:`KeyStoreContract` and give it a ``key_store`` fixture that yields an **empty**
store. The suite pins: a key is found by its hash and by nothing else; the plain key and its hash
never come back from any read; listing is oldest first and includes revoked keys; revocation
happens once (a second one changes nothing) and makes the key inactive; ids and hashes are
unique; bad scopes and unknown ids are caller errors.

Tests use real stores only (no mocks). This module imports pytest, so it is for test code only.
"""

from __future__ import annotations

import pytest

from spanproof.core.errors import InvalidInputError
from spanproof.core.keys import ApiKey, KeyStore, authenticate, hash_key, new_api_key

AT = "2026-12-01T12:00:00.000000+00:00"
LATER = "2026-12-02T12:00:00.000000+00:00"


def _add(store: KeyStore, name: str, scope: str, at: str = AT) -> tuple[ApiKey, str]:
    key, plain = new_api_key(name, scope, at)
    store.add_api_key(key, hash_key(plain))
    return key, plain


class KeyStoreContract:
    """Behaviour every key store backend must show."""

    def test_a_key_is_found_by_its_hash_only(self, key_store: KeyStore) -> None:
        key, plain = _add(key_store, "ci reader — ünïcode", "read")
        assert key_store.find_api_key(hash_key(plain)) == key
        assert authenticate(key_store, plain) == key
        assert key_store.find_api_key(hash_key(plain + "x")) is None
        assert key_store.find_api_key(plain) is None
        assert authenticate(key_store, "") is None

    def test_reads_never_return_the_key_or_its_hash(self, key_store: KeyStore) -> None:
        _, plain = _add(key_store, "writer", "write")
        listed = key_store.list_api_keys()
        text = repr(listed) + repr([k.to_dict() for k in listed])
        assert plain not in text and hash_key(plain) not in text

    def test_list_is_oldest_first_and_keeps_revoked_keys(self, key_store: KeyStore) -> None:
        assert key_store.list_api_keys() == []
        assert not key_store.has_active_api_keys()
        second, _ = _add(key_store, "b", "write", LATER)
        first, _ = _add(key_store, "a", "read", AT)
        assert key_store.has_active_api_keys()
        key_store.revoke_api_key(first.id, LATER)
        assert [k.id for k in key_store.list_api_keys()] == [first.id, second.id]
        key_store.revoke_api_key(second.id, LATER)
        assert not key_store.has_active_api_keys()
        assert all(k.revoked for k in key_store.list_api_keys())

    def test_revocation_happens_once_and_refuses_the_key(self, key_store: KeyStore) -> None:
        key, plain = _add(key_store, "w", "write")
        revoked = key_store.revoke_api_key(key.id, LATER)
        assert revoked.revoked_at == LATER and revoked.revoked
        again = key_store.revoke_api_key(key.id, "2027-01-01T00:00:00.000000+00:00")
        assert again.revoked_at == LATER
        found = key_store.find_api_key(hash_key(plain))
        assert found is not None and found.revoked
        assert authenticate(key_store, plain) is None

    def test_unknown_ids_and_bad_keys_are_caller_errors(self, key_store: KeyStore) -> None:
        with pytest.raises(InvalidInputError, match="no API key"):
            key_store.revoke_api_key("nope", LATER)
        key, plain = _add(key_store, "w", "write")
        with pytest.raises(InvalidInputError, match="exists"):
            key_store.add_api_key(key, hash_key(plain + "other"))
        other, _ = new_api_key("x", "read", AT)
        with pytest.raises(InvalidInputError, match="exists"):
            key_store.add_api_key(other, hash_key(plain))
        with pytest.raises(InvalidInputError, match="scope"):
            key_store.add_api_key(ApiKey("id2", "x", "admin", AT), hash_key("k2"))
        with pytest.raises(InvalidInputError, match="revoked"):
            key_store.add_api_key(ApiKey("id3", "x", "read", AT, LATER), hash_key("k3"))
        assert [k.id for k in key_store.list_api_keys()] == [key.id]
