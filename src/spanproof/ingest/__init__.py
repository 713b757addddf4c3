"""Ingestion adapters: format parsers (``parsers/``) and connector clients (``clients/``).

Owns: turning fetched or local bytes into ``ParsedDocument`` values; literature API clients.
May import: ``spanproof.core``, ``spanproof.text``, the stdlib, ``defusedxml``, ``httpx``, and from
``spanproof.providers`` only the shared HTTP plumbing (``retry``, ``http_client``).
Must not: touch the store, call services or read settings; callers pass plain arguments.
"""
