"""Storage adapters for the ``EvidenceStore`` port: ``sqlite/`` (default) and ``postgres/``.

What both do the same way is written once (``sql_store``, ``chunk_rows``, ``trace_rows``,
``graph_sql``, ``keys_sql``, ``keyword_terms`` over ``sql.Dialect``); each dialect keeps what
differs (docs/store.md).

Owns: schemas, their migrations, keyword and vector indexes, and sqlite3/psycopg error mapping.
May import: ``spanproof.core``, ``spanproof.text``, numpy, sqlite3, psycopg, sqlalchemy and alembic.
Must not: import services, workflows, entry points (cli, api, web), ``bootstrap`` or settings.
"""
