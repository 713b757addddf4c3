"""The embedded default store: one SQLite file in WAL mode (SPEC §8).

Owns: running the schema's migrations on SQLite (``schema``), FTS5 keyword search, exact
vector search.
May import: ``spanproof.core``, ``spanproof.text``, numpy, sqlite3, and alembic/sqlalchemy for
migrations only (imported lazily, so opening an up-to-date file stays fast).
Must not: import services, entry points, ``bootstrap`` or settings.
"""

from spanproof.store.sqlite.store import SqliteEvidenceStore

__all__ = ["SqliteEvidenceStore"]
