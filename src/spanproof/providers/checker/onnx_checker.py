"""The shipped entailment checker: a small classifier over pair features, run on onnxruntime.

The model (``spanproof/models/checker.onnx``, trained by ``make train-feature-checker``; see
``docs/model-card.md``) reads the feature vectors of :func:`spanproof.verify.features.pair_features`
and returns probabilities over ``("entailed", "contradicted", "neutral")``. It needs only numpy
and onnxruntime at run time: no torch. Its inputs must be embeddings from the bundled
all-MiniLM-L6-v2 (:class:`~spanproof.providers.embeddings.OnnxMiniLMEmbedder`), the embedder it
was trained on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from spanproof.core.checker import CHECKER_LABELS, CheckerPair
from spanproof.core.errors import ConfigurationError, InvalidInputError, ProviderError
from spanproof.verify.features import (
    EMBEDDING_DIM,
    FEATURE_VERSION,
    feature_count,
    pair_features_from_views,
    text_view,
)

__all__ = ["DEFAULT_MODEL_PATH", "OnnxEntailmentChecker"]

#: The checker model shipped inside the package.
DEFAULT_MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "checker.onnx"
_INPUT = "features"
_OUTPUT = "probabilities"


class OnnxEntailmentChecker:
    """The :class:`~spanproof.core.checker.EntailmentChecker` for the shipped ONNX model.

    Args:
        model_path: an ``.onnx`` checker to use instead of the shipped one; it must declare the
            feature version and label order this code computes (ONNX metadata
            ``feature_version`` and ``labels``).
        batch_size: pairs per onnxruntime call.
        intra_op_num_threads: onnxruntime's intra-op threads (1 by default: the model is small,
            and one thread keeps results identical from run to run).

    Raises:
        ConfigurationError: the file is missing, cannot be loaded, or was trained on another
            feature version, label order or input width.
    """

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        batch_size: int = 512,
        intra_op_num_threads: int = 1,
    ) -> None:
        if batch_size < 1:
            raise ConfigurationError(f"batch_size must be at least 1, got {batch_size}")
        if intra_op_num_threads < 1:
            raise ConfigurationError(
                f"intra_op_num_threads must be at least 1, got {intra_op_num_threads}"
            )
        path = Path(model_path) if model_path is not None else DEFAULT_MODEL_PATH
        if not path.is_file():
            raise ConfigurationError(
                f"checker model not found: {path} (rebuild it with `make train-feature-checker`)"
            )
        data = path.read_bytes()
        self._path = path
        self._batch_size = batch_size
        self._sha256 = hashlib.sha256(data).hexdigest()
        self._session = load_session(data, path, intra_op_num_threads)
        self._dim = _validate(self._session, path)

    @property
    def model_id(self) -> str:
        """``spanproof-checker-<feature version>@sha256:<first 12 hex digits of the file>``."""
        return f"spanproof-checker-{FEATURE_VERSION}@sha256:{self._sha256[:12]}"

    @property
    def model_hash(self) -> str:
        """SHA-256 (hex) of the ``.onnx`` file."""
        return self._sha256

    @property
    def model_path(self) -> Path:
        return self._path

    @property
    def labels(self) -> tuple[str, str, str]:
        """Column order of :meth:`check`'s output."""
        return CHECKER_LABELS

    def features(self, pairs: Sequence[CheckerPair]) -> npt.NDArray[np.float32]:
        """The ``(len(pairs), features)`` float32 matrix the model reads."""
        out = np.empty((len(pairs), self._dim), dtype=np.float32)
        for i, (claim, span, claim_vec, span_vec) in enumerate(pairs):
            if np.shape(claim_vec) != (EMBEDDING_DIM,) or np.shape(span_vec) != (EMBEDDING_DIM,):
                raise InvalidInputError(
                    f"pair {i}: the checker needs {EMBEDDING_DIM}-dimensional embeddings "
                    f"(all-MiniLM-L6-v2), got {np.shape(claim_vec)} and {np.shape(span_vec)}"
                )
            out[i] = pair_features_from_views(
                text_view(claim), text_view(span), claim_vec, span_vec
            )
        return out

    def check(self, pairs: Sequence[CheckerPair]) -> npt.NDArray[np.float32]:
        """Probabilities ``(len(pairs), 3)`` over ``("entailed", "contradicted", "neutral")``.

        Raises:
            InvalidInputError: an embedding is not 384-dimensional.
            ProviderError: onnxruntime failed (not retryable).
        """
        x = self.features(pairs)
        return self.check_features(x)

    def check_features(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """:meth:`check` on a ready feature matrix (from :meth:`features`)."""
        out = np.zeros((len(x), len(CHECKER_LABELS)), dtype=np.float32)
        for start in range(0, len(x), self._batch_size):
            batch = np.ascontiguousarray(x[start : start + self._batch_size], dtype=np.float32)
            out[start : start + len(batch)] = run_session(
                self._session, _OUTPUT, {_INPUT: batch}, self._path
            )
        return out


def run_session(session: Any, output: str, feeds: dict[str, Any], path: Path) -> Any:
    """``session.run`` for one output; onnxruntime's failures as a ``ProviderError``."""
    try:
        (result,) = session.run([output], feeds)
    except Exception as exc:  # onnxruntime raises its own untyped exceptions
        raise ProviderError(
            f"onnxruntime failed to run {path.name}: {exc}", retryable=False
        ) from exc
    return result


def load_session(data: bytes, path: Path, threads: int | None) -> Any:
    """An onnxruntime CPU session over the model bytes (``threads`` intra-op threads; None:
    onnxruntime's own choice, one per physical core)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    if threads is not None:
        options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    try:
        return ort.InferenceSession(data, sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime's load errors share no public base class
        raise ConfigurationError(f"cannot load the checker model {path}: {exc}") from exc


def _validate(session: Any, path: Path) -> int:
    meta = session.get_modelmeta().custom_metadata_map
    version = meta.get("feature_version")
    if version != FEATURE_VERSION:
        raise ConfigurationError(
            f"{path} was trained on features {version!r}; this code computes {FEATURE_VERSION!r} "
            "(rebuild it with `make train-feature-checker`)"
        )
    labels = tuple(meta.get("labels", "").split(","))
    if labels != CHECKER_LABELS:
        raise ConfigurationError(f"{path} has labels {labels}; expected {CHECKER_LABELS}")
    inputs = {i.name: i for i in session.get_inputs()}
    outputs = {o.name for o in session.get_outputs()}
    if _INPUT not in inputs or _OUTPUT not in outputs:
        raise ConfigurationError(f"{path} lacks the input {_INPUT!r} or output {_OUTPUT!r}")
    dim = inputs[_INPUT].shape[-1]
    expected = feature_count(EMBEDDING_DIM)
    if dim != expected:
        raise ConfigurationError(f"{path} reads {dim} features; the code computes {expected}")
    return expected
