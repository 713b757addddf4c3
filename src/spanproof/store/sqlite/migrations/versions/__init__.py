"""Alembic revisions of the SQLite schema, oldest first (Alembic skips this file)."""
