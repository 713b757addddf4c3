"""The schema's Alembic revisions, oldest first, for both dialects (Alembic skips this file)."""
