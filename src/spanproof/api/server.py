"""Running the app under uvicorn, and the rule that keeps an open server keyed.

A server bound to anything but loopback (127.0.0.0/8, ::1, ``localhost``) must have API keys:
``--api-key`` ones or an active key stored with ``spanproof keys create``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from spanproof.core.errors import ConfigurationError

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback(host: str) -> bool:
    """Whether ``host`` names only the local machine."""
    name = host.strip().strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def api_keys_from(given: Sequence[str], env_value: str | None) -> list[str]:
    """Keys from ``--api-key`` options and the comma-separated ``SPANPROOF_API_KEYS``."""
    keys = [k.strip() for k in given if k.strip()]
    keys += [k.strip() for k in (env_value or "").split(",") if k.strip()]
    return list(dict.fromkeys(keys))


def check_bind(host: str, api_keys: Sequence[str], *, stored_keys: bool = False) -> None:
    """Refuse an open bind without keys.

    Args:
        host: the address to bind.
        api_keys: the ``--api-key`` / ``SPANPROOF_API_KEYS`` keys.
        stored_keys: whether the store holds an active key (``spanproof keys create``).

    Raises:
        ConfigurationError: ``host`` is not loopback and no API key is configured or stored.
    """
    if not api_keys and not stored_keys and not is_loopback(host):
        raise ConfigurationError(
            f"refusing to serve on {host!r} without an API key: create one with "
            "'spanproof keys create NAME --scope read|write', pass --api-key KEY (or set "
            "SPANPROOF_API_KEYS=key1,key2), or bind to 127.0.0.1"
        )


def serve(
    host: str,
    port: int,
    *,
    db: str | None = None,
    api_keys: Sequence[str] = (),
    max_body_bytes: int = 2_000_000,
) -> None:
    """Build the state from settings and run the app until interrupted."""
    import uvicorn

    from spanproof.api.app import create_app
    from spanproof.api.state import build_app_state
    from spanproof.bootstrap import has_stored_api_keys
    from spanproof.config import load_settings

    settings = load_settings()
    # Keys stored with 'spanproof keys create' count, as the CLI's own check counts them.
    stored = not api_keys and has_stored_api_keys(settings, db)
    check_bind(host, api_keys, stored_keys=stored)
    state = build_app_state(settings, db)
    try:
        # Without keys the server binds only to loopback (check_bind), and answers only to
        # loopback names, so a re-pointed DNS name cannot reach it through a browser.
        app = create_app(
            state,
            api_keys=api_keys,
            max_body_bytes=max_body_bytes,
            loopback_only=not api_keys and not stored,
        )
        uvicorn.run(app, host=host, port=port, log_level="info", server_header=False)
    finally:
        state.store.close()
