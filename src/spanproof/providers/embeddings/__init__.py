"""Embedding adapters: the bundled MiniLM ONNX model, OpenAI-compatible endpoints, a disk cache.

Owns: every implementation of the ``Embedder`` port and the on-disk embedding cache.
May import: ``spanproof.core``, ``spanproof.text``, numpy, onnxruntime, tokenizers and httpx
(model packages are imported lazily, inside constructors).
Must not: read settings or the environment, or import services, bootstrap or entry points.
"""

from spanproof.providers.embeddings.cache import CachedEmbedder
from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder
from spanproof.providers.embeddings.openai_compat import OpenAICompatibleEmbedder

__all__ = ["CachedEmbedder", "OnnxMiniLMEmbedder", "OpenAICompatibleEmbedder"]
