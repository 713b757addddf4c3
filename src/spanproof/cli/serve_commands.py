"""``spanproof serve``: the HTTP API and the web UI from one process."""

from __future__ import annotations

import os

import click

from spanproof.cli.errors import handle_errors
from spanproof.cli.store_commands import DB_OPTION


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@DB_OPTION
@click.option(
    "--api-key",
    "api_keys",
    multiple=True,
    help="A key clients must send (repeatable; also SPANPROOF_API_KEYS=k1,k2). Required when "
    "binding to anything but loopback.",
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

    keys = api_keys_from(api_keys, os.environ.get("SPANPROOF_API_KEYS"))
    check_bind(host, keys)  # before anything is built or bound
    click.echo(f"serving on http://{host}:{port} (API keys: {'on' if keys else 'off'})", err=True)
    serve(host, port, db=db, api_keys=keys, max_body_bytes=max_body_bytes)


COMMANDS = (serve_command,)
