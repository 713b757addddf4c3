"""The PostgreSQL evidence store: pgvector for vectors, Postgres full-text search for keywords.

Owns: running the schema's migrations on PostgreSQL (``migrate``) and
:class:`PostgresEvidenceStore`, an :class:`~spanproof.core.store.EvidenceStore`.
May import: ``spanproof.core``, psycopg, pgvector, Alembic and SQLAlchemy (migrations only).
Must not: import services, entry points or other adapters.
"""

from spanproof.store.postgres.migrate import HEAD_REVISION, ensure_schema, sqlalchemy_url
from spanproof.store.postgres.store import PostgresEvidenceStore

__all__ = ["HEAD_REVISION", "PostgresEvidenceStore", "ensure_schema", "sqlalchemy_url"]
