"""``spanproof serve``: the HTTP API and the web UI from one process."""

from __future__ import annotations

import errno
import os
import socket

import click

from spanproof.cli.errors import handle_errors
from spanproof.cli.store_commands import DB_OPTION, check_store
from spanproof.core.errors import ConfigurationError


def _check_port(host: str, port: int) -> None:
    """Refuse ``host:port`` when it cannot be bound (another server holds it, most often).

    Binds a socket the way the server will (``SO_REUSEADDR``, so a port left in TIME_WAIT is
    free) and closes it at once; port 0 (any free port) is not checked.
    """
    if port == 0:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            where = f"cannot serve on {host}:{port}"
            if exc.errno == errno.EADDRINUSE:
                raise ConfigurationError(
                    f"{where}: the address is already in use (another server running? pick "
                    "another --port)"
                ) from None
            raise ConfigurationError(f"{where}: {exc.strerror or exc}") from None


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@DB_OPTION
@click.option(
    "--api-key",
    "api_keys",
    multiple=True,
    help="A key clients must send, with write scope (repeatable; also SPANPROOF_API_KEYS=k1,k2). "
    "Binding to anything but loopback needs one, or a key stored with 'spanproof keys create'.",
)
@click.option(
    "--max-body-bytes", default=2_000_000, show_default=True, type=click.IntRange(1, None)
)
@handle_errors
def serve_command(
    host: str, port: int, db: str | None, api_keys: tuple[str, ...], max_body_bytes: int
) -> None:
    """Serve the HTTP API (/v1/..., /openapi.json, /healthz, /metrics) and the web UI."""
    from spanproof.api.server import api_keys_from, check_bind, serve
    from spanproof.bootstrap import has_stored_api_keys
    from spanproof.config import load_settings

    settings = load_settings()
    check_store(settings, db, create=True)  # a folder is refused before it is opened for keys
    keys = api_keys_from(api_keys, os.environ.get("SPANPROOF_API_KEYS"))
    # Keys stored with 'spanproof keys create' count too (the app turns them on at start).
    stored = not keys and has_stored_api_keys(settings, db)
    check_bind(host, keys, stored_keys=stored)  # before anything is served or bound
    # A --db that names no store is an error, never a new empty store ('keys create' or
    # 'ingest' make one); the default store may be created, as a fresh server takes uploads.
    check_store(settings, db, create=db is None)
    _check_port(host, port)  # before "serving on" and the server's start-up lines
    click.echo(f"serving on http://{host}:{port} (API keys: {'on' if keys or stored else 'off'})",
               err=True)  # fmt: skip
    serve(host, port, db=db, api_keys=keys, max_body_bytes=max_body_bytes)


COMMANDS = (serve_command,)
