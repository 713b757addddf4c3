"""Entailment checker adapters: the shipped ONNX checker (issue 7).

Owns: implementations of the ``EntailmentChecker`` port in ``spanproof.core.checker``.
May import: ``spanproof.core``, the pure packages, numpy and onnxruntime (lazily, inside
constructors).
Must not: read settings or the environment, or import services, bootstrap or entry points.
"""

from spanproof.providers.checker.onnx_checker import OnnxEntailmentChecker

__all__ = ["OnnxEntailmentChecker"]
