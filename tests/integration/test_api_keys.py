"""Stored API keys end to end: the key-store contract on both backends, the tables' triggers,
``spanproof keys``, scopes and revocation through the HTTP app, and the open-bind rule."""

from __future__ import annotations

import json
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

pytest.register_assert_rewrite("spanproof.testing.key_contract")

from pg_fixtures import fresh_database  # noqa: E402
from spanproof.api.app import create_app  # noqa: E402
from spanproof.api.state import AppState  # noqa: E402
from spanproof.cli.main import cli  # noqa: E402
from spanproof.core.keys import KeyStore, hash_key, new_api_key  # noqa: E402
from spanproof.store.postgres import PostgresEvidenceStore  # noqa: E402
from spanproof.store.sqlite.store import SqliteEvidenceStore  # noqa: E402
from spanproof.testing.apps import app_state  # noqa: E402
from spanproof.testing.key_contract import AT, KeyStoreContract  # noqa: E402

ENV_KEY = "env-key-0123456789"


class TestSqliteKeyStore(KeyStoreContract):
    @pytest.fixture
    def key_store(self, tmp_path: Path) -> Iterator[KeyStore]:
        with SqliteEvidenceStore(tmp_path / "keys.sqlite") as store:
            yield store


class TestPostgresKeyStore(KeyStoreContract):
    @pytest.fixture
    def key_store(self) -> Iterator[KeyStore]:
        with fresh_database() as dsn, PostgresEvidenceStore(dsn, pool_size=2) as store:
            yield store


CHANGES = (
    "UPDATE api_keys SET scope = 'write'",
    "UPDATE api_keys SET key_hash = '{h}'",
    "UPDATE api_keys SET name = 'eve'",
    "UPDATE api_keys SET revoked_at = ''",
    "DELETE FROM api_keys",
)


def test_sqlite_key_rows_only_change_by_one_revocation(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with SqliteEvidenceStore(path) as store:
        key, plain = new_api_key("r", "read", AT)
        store.add_api_key(key, hash_key(plain))
    conn = sqlite3.connect(path)
    try:
        conn.execute("UPDATE api_keys SET revoked_at = 't1'")
        conn.commit()
        for sql in (*CHANGES, "UPDATE api_keys SET revoked_at = 't2'"):
            with pytest.raises(sqlite3.DatabaseError, match="never"):
                conn.execute(sql.format(h="0" * 64))
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("INSERT INTO api_keys VALUES ('x', 'n', 'admin', ?, 't', '')", ("1" * 64,))
    finally:
        conn.close()


def test_postgres_key_rows_only_change_by_one_revocation() -> None:
    with fresh_database() as dsn:
        with PostgresEvidenceStore(dsn, pool_size=1) as store:
            key, plain = new_api_key("r", "read", AT)
            store.add_api_key(key, hash_key(plain))
        with psycopg.connect(dsn, autocommit=True) as conn:
            for sql in (*CHANGES[:-2], "DELETE FROM api_keys", "TRUNCATE api_keys"):
                with pytest.raises(psycopg.errors.RestrictViolation):
                    conn.execute(sql.format(h="0" * 64))  # type: ignore[call-overload]
            conn.execute("UPDATE api_keys SET revoked_at = 't1'")
            with pytest.raises(psycopg.errors.RestrictViolation):
                conn.execute("UPDATE api_keys SET revoked_at = 't2'")


# -- the HTTP app ---------------------------------------------------------------------------------


def _state(store: SqliteEvidenceStore) -> AppState:
    return app_state(store)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    with SqliteEvidenceStore(tmp_path / "api.sqlite") as s:
        yield s


def _add(store: KeyStore, scope: str) -> tuple[str, str]:
    key, plain = new_api_key(f"{scope} key", scope, AT)
    store.add_api_key(key, hash_key(plain))
    return key.id, plain


UPLOAD = {"text": "Daily walking lowered blood pressure.", "title": "walking"}


def test_read_keys_read_write_keys_write_and_revoked_keys_are_refused(
    store: SqliteEvidenceStore,
) -> None:
    read_id, read_key = _add(store, "read")
    write_id, write_key = _add(store, "write")
    with TestClient(create_app(_state(store))) as client:
        assert client.get("/v1/sources").status_code == 401
        assert client.get("/healthz").status_code == 200  # open, as before
        read = {"Authorization": f"Bearer {read_key}"}
        assert client.get("/v1/sources", headers=read).status_code == 200
        assert client.head("/v1/sources", headers={"X-API-Key": read_key}).status_code != 401
        denied = client.post("/v1/sources", json=UPLOAD, headers=read)
        assert denied.status_code == 403
        error = denied.json()["error"]
        assert error["type"] == "forbidden" and error["status"] == 403 and error["request_id"]
        assert "scope 'read'" in error["message"] and read_key not in denied.text
        assert client.post("/v1/faults:inject", json={}, headers=read).status_code == 403

        write = {"X-API-Key": write_key}
        created = client.post("/v1/sources", json=UPLOAD, headers=write)
        assert created.status_code == 201, created.text
        assert client.get("/v1/sources", headers=write).status_code == 200

        store.revoke_api_key(read_id, AT)  # takes effect on the next request, no restart
        messages = []
        for headers in (read, {"Authorization": "Bearer spk_unknown"}, {"X-API-Key": ""}):
            refused = client.get("/v1/sources", headers=headers)
            assert refused.status_code == 401
            assert refused.json()["error"]["type"] == "unauthorized"
            assert refused.headers["www-authenticate"] == "Bearer"
            messages.append(refused.json()["error"]["message"])
        # each refusal says what is wrong: a revoked key, a key nobody issued, no key at all
        revoked, unknown, missing = messages
        assert f"this API key ({read_id}) was revoked at {AT}" in revoked
        assert "this API key is not valid" in unknown and "spk_unknown" not in unknown
        assert missing.startswith("an API key is required")
        assert len(set(messages)) == 3 and read_key not in revoked
        assert client.get("/v1/sources", headers=write).status_code == 200
        assert write_id not in client.get("/v1/sources", headers=write).text


def test_configured_keys_stay_write_keys_beside_stored_ones(store: SqliteEvidenceStore) -> None:
    _, read_key = _add(store, "read")
    with TestClient(create_app(_state(store), api_keys=[ENV_KEY])) as client:
        env = {"Authorization": f"Bearer {ENV_KEY}"}
        assert client.post("/v1/sources", json=UPLOAD, headers=env).status_code == 201
        read = {"X-API-Key": read_key}
        assert client.get("/v1/sources", headers=read).status_code == 200
        assert client.post("/v1/sources", json=UPLOAD, headers=read).status_code == 403


def test_a_store_with_only_revoked_keys_leaves_the_api_open_as_before(
    store: SqliteEvidenceStore,
) -> None:
    key_id, _ = _add(store, "write")
    store.revoke_api_key(key_id, AT)
    with TestClient(create_app(_state(store))) as client:
        assert client.get("/v1/sources").status_code == 200


def test_the_key_check_reads_the_store_only_when_a_stored_key_is_sent(
    store: SqliteEvidenceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _add(store, "write")
    app = create_app(_state(store), api_keys=[ENV_KEY])
    lookups: list[str] = []
    real = store.find_api_key
    monkeypatch.setattr(store, "find_api_key", lambda h: lookups.append(h) or real(h))
    with TestClient(app) as client:
        client.get("/v1/sources")
        client.get("/v1/sources", headers={"X-API-Key": ENV_KEY})
        assert lookups == []
        client.get("/v1/sources", headers={"X-API-Key": "spk_x"})
        assert lookups == [hash_key("spk_x")]


# -- the command line -----------------------------------------------------------------------------


def test_keys_create_list_revoke_round_trip(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.sqlite")
    runner = CliRunner()
    made = runner.invoke(cli, ["keys", "create", "ci", "--scope", "read", "--json", "--db", db])
    assert made.exit_code == 0, made.stderr
    record = json.loads(made.stdout)
    plain, key_id = record["key"], record["id"]
    assert plain.startswith("spk_") and record["scope"] == "read" and record["revoked_at"] is None

    plain_text = runner.invoke(cli, ["keys", "create", "deploy", "--scope", "write", "--db", db])
    assert plain_text.exit_code == 0, plain_text.stderr
    second = plain_text.stdout.strip()
    assert second.startswith("spk_") and "shown this once" in plain_text.stderr

    listed = runner.invoke(cli, ["keys", "list", "--json", "--db", db])
    assert listed.exit_code == 0, listed.stderr
    document = json.loads(listed.stdout)  # one JSON document, like every list
    rows = document["items"]
    assert (document["count"], document["total"], document["next_offset"]) == (2, 2, None)
    assert [r["name"] for r in rows] == ["ci", "deploy"]
    table = runner.invoke(cli, ["keys", "list", "--db", db])
    for output in (listed.output, table.output):
        for secret in (plain, second, hash_key(plain), hash_key(second)):
            assert secret not in output
    assert key_id in table.output

    revoked = runner.invoke(cli, ["keys", "revoke", key_id, "--json", "--db", db])
    assert revoked.exit_code == 0, revoked.stderr
    assert json.loads(revoked.stdout)["revoked_at"]
    again = runner.invoke(cli, ["keys", "revoke", key_id, "--db", db])
    assert again.exit_code == 0 and f"revoked key {key_id}" in again.stdout

    with SqliteEvidenceStore(db) as s:
        assert [k.revoked for k in s.list_api_keys()] == [True, False]
        raw = sqlite3.connect(db).execute("SELECT * FROM api_keys").fetchall()
    assert plain not in repr(raw) and second not in repr(raw)


def test_keys_commands_refuse_bad_input_with_exit_codes(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.sqlite")
    runner = CliRunner()
    missing = runner.invoke(cli, ["keys", "revoke", "nope", "--db", db])
    assert missing.exit_code == 2 and f"no store at {db}" in missing.stderr
    assert runner.invoke(cli, ["keys", "create", "x", "--scope", "read", "--db", db]).exit_code == 0
    unknown = runner.invoke(cli, ["keys", "revoke", "nope", "--db", db])
    assert unknown.exit_code == 2 and "no API key has id 'nope'" in unknown.stderr
    bad_scope = runner.invoke(cli, ["keys", "create", "x", "--scope", "admin", "--db", db])
    assert bad_scope.exit_code == 2
    empty = runner.invoke(cli, ["keys", "create", " ", "--scope", "read", "--db", db])
    assert empty.exit_code == 2 and "printable characters" in empty.stderr


def test_serve_accepts_a_stored_key_for_an_open_bind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SPANPROOF_API_KEYS", raising=False)
    db = str(tmp_path / "serve.sqlite")
    calls: list[tuple[str, list[str]]] = []
    monkeypatch.setattr(
        "spanproof.api.server.serve",
        lambda host, port, **kw: calls.append((host, list(kw["api_keys"]))),
    )
    runner = CliRunner()
    with socket.socket() as probe:  # a port nothing listens on: the bind check must pass
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    serve = ["serve", "--host", "0.0.0.0", "--port", port, "--db", db]
    refused = runner.invoke(cli, serve)
    assert refused.exit_code == 3 and "spanproof keys create" in refused.stderr
    assert not Path(db).exists()  # asking for keys created no store
    made = runner.invoke(cli, ["keys", "create", "ops", "--scope", "write", "--json", "--db", db])
    key_id = json.loads(made.stdout)["id"]
    started = runner.invoke(cli, serve)
    assert started.exit_code == 0, started.stderr
    assert calls == [("0.0.0.0", [])] and "API keys: on" in started.stderr
    runner.invoke(cli, ["keys", "revoke", key_id, "--db", db])
    again = runner.invoke(cli, serve)
    assert again.exit_code == 3


# -- no route reads a caller-supplied path or URL -------------------------------------------------

LOCATION_FIELDS = {"path", "url", "uri", "file", "filename", "location", "href", "base_url"}


def test_no_request_schema_has_a_path_or_url_field(store: SqliteEvidenceStore) -> None:
    with TestClient(create_app(_state(store))) as client:
        spec = client.get("/openapi.json").json()
    found = []
    for name, schema in spec["components"]["schemas"].items():
        for field in schema.get("properties", {}):
            if field.lower() in LOCATION_FIELDS:
                found.append(f"{name}.{field}")
    for route, operations in spec["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                if parameter["name"].lower() in LOCATION_FIELDS:
                    found.append(f"{method.upper()} {route} ?{parameter['name']}")
    assert found == []


@pytest.mark.parametrize(
    "body",
    [
        {"path": "/etc/passwd"},
        {"url": "http://169.254.169.254/latest/meta-data/"},
        {"text": "x", "path": "/etc/passwd"},
        {"content_base64": "eA==", "url": "file:///etc/passwd"},
    ],
)
def test_uploads_naming_a_path_or_url_are_refused(
    store: SqliteEvidenceStore, body: dict[str, str]
) -> None:
    with TestClient(create_app(_state(store))) as client:
        response = client.post("/v1/sources", json=body)
        assert response.status_code == 422, response.text
        assert response.json()["error"]["type"] == "validation_error"
        assert client.get("/v1/sources").json() == []


def test_the_web_ui_is_behind_the_keys_too(store: SqliteEvidenceStore) -> None:
    import base64

    def basic(key: str) -> dict[str, str]:
        return {"Authorization": "Basic " + base64.b64encode(f"me:{key}".encode()).decode()}

    _, read_key = _add(store, "read")
    with TestClient(create_app(_state(store), api_keys=[ENV_KEY])) as client:
        page = client.get("/traces")
        assert page.status_code == 401
        assert page.headers["www-authenticate"] == 'Basic realm="spanproof"'
        assert client.get("/traces", headers=basic(ENV_KEY)).status_code == 200
        assert client.get("/traces", headers=basic("wrong")).status_code == 401
        assert client.get("/traces", headers={"Authorization": "Basic %%%"}).status_code == 401
        assert client.get("/artifacts", headers=basic(read_key)).status_code == 200
        form = {"reviewer": "eve", "reason": "r", "decision": "approve"}
        assert client.post("/review/rec-x", data=form).status_code == 401
        assert client.post("/review/rec-x", data=form, headers=basic(read_key)).status_code == 403
        for open_path in ("/healthz", "/metrics", "/openapi.json", "/static/spanproof.css"):
            assert client.get(open_path).status_code == 200, open_path
