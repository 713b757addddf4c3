"""The cross-encoder checker: all-MiniLM-L6-v2 fine-tuned on (claim, evidence) pairs, int8 ONNX.

Trained by ``make train-cross-encoder`` (``training/train_cross_encoder.py``; see
``docs/model-card.md``). It reads the claim and the span *together* — ``[CLS] claim [SEP] span
[SEP]``, at most 128 word pieces — so unlike a comparison of two sentence embeddings it can see
that "did not reduce" and "reduced" disagree. Run time needs onnxruntime and the bundled
tokenizer only: no torch. The embeddings in a :data:`~spanproof.core.checker.CheckerPair` are
not used.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from spanproof.core.checker import CHECKER_LABELS, CheckerPair
from spanproof.core.errors import ConfigurationError
from spanproof.providers.checker.onnx_checker import load_session, run_session

__all__ = ["DEFAULT_CROSS_ENCODER_PATH", "CrossEncoderChecker"]

#: The cross-encoder shipped inside the package, and its metadata beside it.
DEFAULT_CROSS_ENCODER_PATH = Path(__file__).resolve().parents[2] / "models" / "cross_encoder.onnx"
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


class CrossEncoderChecker:
    """The :class:`~spanproof.core.checker.EntailmentChecker` of the fine-tuned cross-encoder.

    Args:
        model_path: another ``.onnx`` cross-encoder (with its ``.json`` beside it).
        batch_size: pairs per onnxruntime call. Keep 1 (the default) for verdicts: the int8
            model quantises activations per call, so a pair's probabilities would depend on the
            other pairs of its batch; larger batches are for bulk evaluation only.
        intra_op_num_threads: onnxruntime's intra-op threads.

    Raises:
        ConfigurationError: the model, its metadata or the tokenizer is missing or unusable.
    """

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        batch_size: int = 1,
        intra_op_num_threads: int = 1,
    ) -> None:
        if batch_size < 1 or intra_op_num_threads < 1:
            raise ConfigurationError("batch_size and intra_op_num_threads must be at least 1")
        path = Path(model_path) if model_path is not None else DEFAULT_CROSS_ENCODER_PATH
        if not path.is_file():
            raise ConfigurationError(
                f"cross-encoder not found: {path} (rebuild it with `make train-cross-encoder`)"
            )
        meta_path = path.with_suffix(".json")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            message = f"cannot read the cross-encoder metadata {meta_path}: {exc}"
            raise ConfigurationError(message) from exc
        if tuple(meta.get("labels", ())) != CHECKER_LABELS:
            raise ConfigurationError(f"{meta_path}: labels must be {CHECKER_LABELS}")
        data = path.read_bytes()
        self._path = path
        self._batch_size = batch_size
        self._sha256 = hashlib.sha256(data).hexdigest()
        self._max_tokens = int(meta.get("max_tokens", 128))
        self._session = load_session(data, path, intra_op_num_threads)
        self._tokenizer = _tokenizer(self._max_tokens)

    @property
    def model_id(self) -> str:
        """``spanproof-cross-encoder@sha256:<first 12 hex digits of the file>``."""
        return f"spanproof-cross-encoder@sha256:{self._sha256[:12]}"

    @property
    def model_hash(self) -> str:
        return self._sha256

    def check(self, pairs: Sequence[CheckerPair]) -> npt.NDArray[np.float32]:
        """Probabilities ``(len(pairs), 3)`` over ``("entailed", "contradicted", "neutral")``.

        Raises:
            ProviderError: onnxruntime failed (not retryable).
        """
        out = np.zeros((len(pairs), len(CHECKER_LABELS)), dtype=np.float32)
        if not pairs:
            return out
        encoded = self._tokenizer.encode_batch([(p[0], p[1]) for p in pairs])
        order = sorted(range(len(pairs)), key=lambda i: len(encoded[i].ids))
        for start in range(0, len(order), self._batch_size):
            rows = order[start : start + self._batch_size]
            width = max(len(encoded[i].ids) for i in rows)
            feeds = {name: np.zeros((len(rows), width), dtype=np.int64) for name in _INPUTS}
            for r, i in enumerate(rows):
                e = encoded[i]
                feeds["input_ids"][r, : len(e.ids)] = e.ids
                feeds["attention_mask"][r, : len(e.ids)] = 1
                feeds["token_type_ids"][r, : len(e.ids)] = e.type_ids
            out[rows] = run_session(self._session, "probabilities", feeds, self._path)
        return out


def _tokenizer(max_tokens: int) -> Any:
    from tokenizers import Tokenizer

    from spanproof.providers.embeddings.onnx_minilm import bundled_tokenizer_path

    tokenizer = Tokenizer.from_file(str(bundled_tokenizer_path()))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_tokens, strategy="longest_first")
    return tokenizer
