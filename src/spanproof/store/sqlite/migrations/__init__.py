"""Alembic script directory of the SQLite schema (run by ``spanproof.store.sqlite.schema``)."""
