"""``spanproof serve --db``: a path that names no store, or a folder, is an error (exit 2, the
path named) before anything binds, and no empty store is created; an existing store serves."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from spanproof.cli.main import cli


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """What ``serve`` was asked to serve; nothing binds."""
    monkeypatch.delenv("SPANPROOF_API_KEYS", raising=False)
    served: list[str | None] = []
    monkeypatch.setattr(
        "spanproof.api.server.serve", lambda host, port, **kw: served.append(kw["db"])
    )
    return served


def test_serve_refuses_a_db_that_does_not_exist(tmp_path: Path, calls: list[str | None]) -> None:
    db = tmp_path / "typo.sqlite"
    result = CliRunner().invoke(cli, ["serve", "--db", str(db)])
    assert result.exit_code == 2, result.stderr
    assert f"no store at {db}" in result.stderr and "--db" in result.stderr
    assert calls == [] and not db.exists()  # nothing served, no empty store made


def test_serve_refuses_a_folder_as_db(tmp_path: Path, calls: list[str | None]) -> None:
    result = CliRunner().invoke(cli, ["serve", "--db", str(tmp_path)])
    assert result.exit_code == 2, result.stderr
    assert f"{tmp_path} is a folder, not a SQLite store file" in result.stderr
    assert "provider failure" not in result.stderr and calls == []


def test_serve_refuses_a_folder_before_an_open_bind_check(
    tmp_path: Path, calls: list[str | None]
) -> None:
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--db", str(tmp_path)])
    assert result.exit_code == 2 and "is a folder" in result.stderr and calls == []


def test_serve_starts_on_an_existing_store(tmp_path: Path, calls: list[str | None]) -> None:
    db = tmp_path / "made.sqlite"
    runner = CliRunner()
    made = runner.invoke(cli, ["keys", "create", "ops", "--scope", "read", "--db", str(db)])
    assert made.exit_code == 0, made.stderr
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:  # a free port: serve
        probe.bind(("127.0.0.1", 0))  # checks that its port is free before it starts
        port = probe.getsockname()[1]
    started = runner.invoke(cli, ["serve", "--port", str(port), "--db", str(db)])
    assert started.exit_code == 0, started.stderr
    assert calls == [str(db)]


def test_serve_refuses_a_port_in_use_before_it_starts(
    tmp_path: Path, calls: list[str | None]
) -> None:
    db = tmp_path / "made.sqlite"
    runner = CliRunner()
    made = runner.invoke(cli, ["keys", "create", "ops", "--scope", "read", "--db", str(db)])
    assert made.exit_code == 0, made.stderr
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        result = runner.invoke(cli, ["serve", "--port", str(port), "--db", str(db)])
    assert result.exit_code == 3, result.stderr
    assert result.stderr.splitlines() == [
        f"error: cannot serve on 127.0.0.1:{port}: the address is already in use (another "
        "server running? pick another --port)"
    ]  # no "serving on" line first
    assert calls == []
    started = runner.invoke(cli, ["serve", "--port", str(port), "--db", str(db)])
    assert started.exit_code == 0, started.stderr  # free again once the socket is closed
    assert calls == [str(db)]
