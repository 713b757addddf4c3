"""Use cases: verify, decompose, and (later) ingest, plan, generate, extract, review, impact.

Owns: the orchestration of pure code around ports.
May import: ``spanproof.core``, the pure packages (``text``, ``verify``), numpy.
Must not: import adapters, settings or entry points: adapters arrive as arguments.
"""
