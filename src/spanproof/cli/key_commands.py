"""``spanproof keys create | list | revoke``: the API keys stored (by hash) in the store."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from spanproof.cli.errors import handle_errors
from spanproof.cli.paging import echo_json, page_document, page_footer
from spanproof.cli.render import add_id_column, add_text_column, print_table
from spanproof.cli.store_commands import DB_OPTION, open_store
from spanproof.core.clock import utc_now
from spanproof.core.errors import ConfigurationError
from spanproof.core.keys import SCOPES, KeyStore, hash_key, new_api_key
from spanproof.core.store import EvidenceStore


def _keys(store: EvidenceStore) -> KeyStore:
    if not isinstance(store, KeyStore):
        raise ConfigurationError("this store keeps no API keys (use SQLite or PostgreSQL)")
    return store


@click.group("keys")
def keys_group() -> None:
    """Create, list and revoke the API keys `spanproof serve` accepts."""


@keys_group.command("create")
@click.argument("name")
@click.option("--scope", type=click.Choice(SCOPES), required=True,
              help="read: GET and HEAD only; write: every route.")  # fmt: skip
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the key and its record as JSON.")
@handle_errors
def create_command(name: str, scope: str, db: str | None, as_json: bool) -> None:
    """Create a key named NAME and print it once (only its SHA-256 is stored)."""
    key, plain = new_api_key(name, scope, utc_now())
    # A deployment makes its key before anything is ingested: this may create the store.
    with open_store(db, create=True) as (_, store):
        _keys(store).add_api_key(key, hash_key(plain))
    if as_json:
        click.echo(json.dumps({**key.to_dict(), "key": plain}, ensure_ascii=False))
        return
    click.echo(plain)
    click.echo(
        f"created key {key.id} ({key.scope}) for {key.name!r}: the line above is the key, shown "
        "this once; send it as 'Authorization: Bearer <key>'",
        err=True,
    )


@keys_group.command("list")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the keys as one JSON object.")
@handle_errors
def list_command(db: str | None, as_json: bool) -> None:
    """List the keys (id, name, scope, created, revoked); never a key or its hash."""
    with open_store(db) as (_, store):
        keys = _keys(store).list_api_keys()
    if as_json:
        echo_json(page_document([k.to_dict() for k in keys], total=len(keys)))
        return
    active = sum(1 for k in keys if not k.revoked)
    table = Table(title=f"{len(keys)} API key(s), {active} active")
    add_id_column(table, "id", (k.id for k in keys))
    add_text_column(table, "name")
    table.add_column("scope", no_wrap=True)
    add_text_column(table, "created", ratio=None)
    add_text_column(table, "revoked", ratio=None)
    for k in keys:
        table.add_row(escape(k.id), escape(k.name), k.scope, k.created_at, k.revoked_at or "—")
    console = Console()
    print_table(console, table)
    console.print(
        page_footer("keys", shown=len(keys), total=len(keys)), highlight=False, soft_wrap=True
    )


@keys_group.command("revoke")
@click.argument("key_id")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the revoked key as JSON.")
@handle_errors
def revoke_command(key_id: str, db: str | None, as_json: bool) -> None:
    """Revoke the key KEY_ID: it answers 401 from then on (revoking twice changes nothing)."""
    with open_store(db) as (_, store):
        key = _keys(store).revoke_api_key(key_id, utc_now())
    if as_json:
        click.echo(json.dumps(key.to_dict(), ensure_ascii=False))
        return
    click.echo(f"revoked key {key.id} ({key.name}) at {key.revoked_at}")


COMMANDS = (keys_group,)
