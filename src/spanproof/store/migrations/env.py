"""Alembic environment of both stores (see :func:`spanproof.store.migration_env.run_env`)."""

from __future__ import annotations

from spanproof.store.migration_env import run_env

run_env()
