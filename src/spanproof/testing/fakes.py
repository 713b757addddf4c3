"""In-process fakes implementing spanproof's ports."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from spanproof.core.ports import FloatMatrix
from spanproof.text.tokens import token_texts


class FakeEmbedder:
    """A deterministic bag-of-words embedder: each token hashes to a signed unit direction.

    Texts sharing vocabulary get high cosine, so it exercises the scorer without a model.
    ``calls`` counts embed calls; ``texts_embedded`` counts texts.
    """

    def __init__(self, dim: int = 256, model_id: str = "fake-bow") -> None:
        self._dim = dim
        self._model_id = model_id
        self.calls = 0
        self.texts_embedded = 0

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def model_hash(self) -> str:
        return hashlib.sha256(f"{self._model_id}:{self._dim}".encode()).hexdigest()

    def _vector(self, text: str) -> np.ndarray:
        vec = np.zeros(self._dim, dtype=np.float64)
        for token in token_texts(text):
            digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
            index = int.from_bytes(digest[:4], "little") % self._dim
            sign = 1.0 if digest[4] & 1 else -1.0
            vec[index] += sign
        norm = float(np.linalg.norm(vec))
        return vec / norm if norm > 0 else vec

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        self.calls += 1
        self.texts_embedded += len(texts)
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        return np.stack([self._vector(t) for t in texts]).astype(np.float32)

    def window_ranges(self, text: str) -> list[tuple[int, int]]:
        return [(0, len(text))]
