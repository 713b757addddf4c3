"""The HTTP API (FastAPI) and the composition of the web UI into the same process.

Owns: routes, request/response schemas, the one JSON error shape, size limits, API keys.
May import: core, services, verifier, bootstrap (to build the default state), config, web.
Must not: construct adapters directly (``bootstrap`` does) or read caller-supplied local paths.
"""
