"""Embedding adapters: the bundled MiniLM ONNX model, OpenAI-compatible endpoints, a disk cache.

Owns: every implementation of the ``Embedder`` port and the on-disk embedding cache.
May import: ``spanproof.core``, ``spanproof.text``, numpy, onnxruntime, tokenizers and httpx
(model packages are imported lazily, inside constructors).
Must not: read settings or the environment, or import services, bootstrap or entry points.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spanproof.providers.embeddings.cache import CachedEmbedder
    from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder
    from spanproof.providers.embeddings.openai_compat import OpenAICompatibleEmbedder

__all__ = ["CachedEmbedder", "OnnxMiniLMEmbedder", "OpenAICompatibleEmbedder"]

#: Each adapter's module loads on first use: the local model's start-up does not import httpx.
_MODULES = {
    "CachedEmbedder": "spanproof.providers.embeddings.cache",
    "OnnxMiniLMEmbedder": "spanproof.providers.embeddings.onnx_minilm",
    "OpenAICompatibleEmbedder": "spanproof.providers.embeddings.openai_compat",
}


def __getattr__(name: str) -> Any:
    """Load an adapter on first use (PEP 562)."""
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_MODULES[name]), name)
    globals()[name] = value
    return value
