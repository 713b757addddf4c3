"""The bundled embedding model run with nothing of spanproof's: the yardstick of the embedder.

:class:`ReferenceMiniLM` tokenises, sorts the texts by length, runs the ONNX model in batches,
mean-pools and normalises, as a user calling onnxruntime directly would; no cache, no windows
over long texts (it truncates at 256 pieces), no checks. ``spanproof bench`` and ``make bench``
time :class:`~spanproof.providers.embeddings.onnx_minilm.OnnxMiniLMEmbedder` against it on the
same texts and compare their vectors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from spanproof.providers.embeddings.onnx_minilm import (
    MAX_SEQ_LENGTH,
    bundled_model_path,
    bundled_tokenizer_path,
)

#: all-MiniLM-L6-v2's vector size.
DIMENSION = 384


class ReferenceMiniLM:
    """all-MiniLM-L6-v2 (the bundled int8 ONNX) through onnxruntime and tokenizers alone."""

    def __init__(self, batch_size: int = 32, intra_op_num_threads: int | None = None) -> None:
        self._batch = batch_size
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(bundled_tokenizer_path()))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length=MAX_SEQ_LENGTH)
        options = ort.SessionOptions()
        if intra_op_num_threads is not None:
            options.intra_op_num_threads = intra_op_num_threads
        self._session = ort.InferenceSession(
            str(bundled_model_path()), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}

    def embed(self, texts: Sequence[str]) -> Any:
        """Unit vectors of ``texts`` (float32, one row per text, in order)."""
        encodings = self._tokenizer.encode_batch(list(texts))
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        for b in range(0, len(order), self._batch):
            idx = order[b : b + self._batch]
            width = max(len(encodings[i].ids) for i in idx)
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, i in enumerate(idx):
                n = len(encodings[i].ids)
                ids[row, :n] = encodings[i].ids
                mask[row, :n] = 1
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = self._session.run(None, feeds)[0]
            weights = mask[:, :, None].astype(np.float32)
            pooled = (hidden * weights).sum(1) / np.clip(weights.sum(1), 1e-9, None)
            out[idx] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        return out
