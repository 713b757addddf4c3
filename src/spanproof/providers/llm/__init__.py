"""Chat-model adapters: Anthropic Messages and any OpenAI-compatible Chat Completions endpoint.

Owns: the concrete :class:`~spanproof.core.ports.ChatModel` implementations and their HTTP retry
and error translation (``httpx`` errors become ``ProviderError`` with ``retryable`` set).
May import: ``spanproof.core``, the pure packages, ``httpx``.
Must not: read settings, log or raise api keys, or import services, bootstrap or entry points.
"""
