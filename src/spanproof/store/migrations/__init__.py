"""Alembic script directory of both dialects (run by ``spanproof.store.migration_env``)."""
