"""Adapters to models: embeddings (local ONNX, OpenAI-compatible) and chat models (llm).

Owns: the concrete implementations of the model ports in ``spanproof.core.ports``.
May import: ``spanproof.core``, the pure packages, and model SDKs (numpy, onnxruntime, tokenizers,
httpx), optional ones lazily.
Must not: read settings, or import services, workflows, bootstrap or entry points (cli, api, web).
"""
