"""Storage adapters for the ``EvidenceStore`` port: ``sqlite/`` (default) and ``postgres/``.

Owns: schemas, their migrations, keyword and vector indexes, and sqlite3/psycopg error mapping.
May import: ``spanproof.core``, ``spanproof.text``, numpy, sqlite3, psycopg, sqlalchemy and alembic.
Must not: import services, workflows, entry points (cli, api, web), ``bootstrap`` or settings.
"""
