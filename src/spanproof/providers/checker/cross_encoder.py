"""The cross-encoder checker: all-MiniLM-L6-v2 fine-tuned on (claim, evidence) pairs, int8 ONNX.

Trained by ``make train-cross-encoder`` (``training/train_cross_encoder.py``; see
``docs/model-card.md``). It reads the claim and the span *together* — ``[CLS] claim [SEP] span
[SEP]``, at most 128 word pieces — so unlike a comparison of two sentence embeddings it can see
that "did not reduce" and "reduced" disagree. Run time needs onnxruntime and the bundled
tokenizer only: no torch. The embeddings in a :data:`~spanproof.core.checker.CheckerPair` are
not used.

:class:`PairClassifier` is what every such model shares (the file and its ``.json`` metadata,
the session, the model id, length-sorted padded batches); the judge
(:mod:`spanproof.providers.checker.judge`) is the other one.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from spanproof.core.checker import CHECKER_LABELS, CheckerPair
from spanproof.core.errors import ConfigurationError
from spanproof.providers.checker.onnx_checker import load_session, run_session

__all__ = [
    "DEFAULT_CROSS_ENCODER_PATH",
    "BatchOutputs",
    "CrossEncoderChecker",
    "Encoded",
    "PairClassifier",
    "ResultMemo",
    "length_batches",
    "pad_feeds",
    "pair_tokenizer",
]

#: The cross-encoder shipped inside the package, and its metadata beside it.
DEFAULT_CROSS_ENCODER_PATH = Path(__file__).resolve().parents[2] / "models" / "cross_encoder.onnx"
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_OUTPUT = "probabilities"


class BatchOutputs(Protocol):
    """Where batch outputs outlive the process, keyed by the model's hash and a batch's
    :func:`_feeds_key` (:class:`~spanproof.providers.checker.judge_cache.
    SqliteJudgeOutputCache`)."""

    def get_many(
        self, model: str, keys: Sequence[bytes]
    ) -> dict[bytes, npt.NDArray[np.float32]]: ...

    def put_many(self, model: str, outputs: Mapping[bytes, npt.NDArray[np.float32]]) -> None: ...


#: One tokenised pair: word-piece ids and token type ids, ``[CLS] claim [SEP] evidence [SEP]``.
Encoded = tuple[list[int], list[int]]


class ResultMemo:
    """A bounded, thread-safe memo (least recently used out first) of a pure function's results.

    Args:
        size: the most entries kept; 0 keeps none (every lookup misses).
    """

    def __init__(self, size: int) -> None:
        if size < 0:
            raise ConfigurationError("a cache size must be at least 0")
        self.size = size
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        """The entry of ``key``, or None."""
        if not self.size:
            return None
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` for ``key``, dropping the least recently used entry past ``size``."""
        if not self.size:
            return
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class PairClassifier:
    """A (claim, evidence) classifier in ONNX with its metadata: what the checkers share.

    Subclasses set :attr:`name` and :attr:`rebuild` (the command that makes the file), call
    :meth:`_load`, set ``_batch_size`` and implement :meth:`encode`.

    :meth:`check` and :meth:`check_texts` may remember results (:meth:`_remember`): the
    tokenised input of each (claim, evidence) pair, and the output of each onnxruntime batch
    keyed by the SHA-256 of that batch's exact input tensors. onnxruntime's output is a pure
    function of the model and those tensors, so a remembered batch gives, bit for bit, what
    running it again would give: a second check of the same pairs (the same batches) runs no
    model, and its results cannot differ from an uncached run. A pair met inside *other*
    batches is run again (its batch's tensors differ). :meth:`check_encoded` always runs.
    """

    name = "spanproof-pair-classifier"
    rebuild = "rebuild it with `make train-checker`"
    _batch_size: int
    _max_padding = float("inf")
    _encoded_memo = ResultMemo(0)
    _batch_memo = ResultMemo(0)
    #: Batch outputs on disk, shared by processes (``None``: memory only). Set by the
    #: composition root for the judge (``judge-outputs.sqlite`` beside the embedding cache).
    outputs: BatchOutputs | None = None

    def _remember(self, batches: int, pairs: int) -> None:
        """Remember the outputs of up to ``batches`` onnxruntime batches and the tokenised
        input of up to ``pairs`` pairs (0 and 0: remember nothing)."""
        self._batch_memo = ResultMemo(batches)
        self._encoded_memo = ResultMemo(pairs)

    def clear_cache(self) -> None:
        """Forget every remembered batch output and tokenised pair."""
        self._batch_memo.clear()
        self._encoded_memo.clear()

    def _load(
        self, path: Path, metadata_path: Path | None, threads: int | None, *, lazy: bool = False
    ) -> dict[str, Any]:
        """Read the model and its metadata (``metadata_path``, else the ``.json`` beside it),
        open the session with ``threads`` intra-op threads (None: onnxruntime's choice) —
        ``lazy``: at the first batch that has to run, so a process whose batches are all
        remembered on disk never loads it; the metadata."""
        if threads is not None and threads < 1:
            raise ConfigurationError("intra_op_num_threads must be at least 1")
        if not path.is_file():
            raise ConfigurationError(f"{self.name} model not found: {path} ({self.rebuild})")
        meta_path = metadata_path or path.with_suffix(".json")
        try:
            meta: dict[str, Any] = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            message = f"cannot read the {self.name} metadata {meta_path}: {exc}"
            raise ConfigurationError(message) from exc
        if tuple(meta.get("labels", ())) != CHECKER_LABELS:
            raise ConfigurationError(f"{meta_path}: labels must be {CHECKER_LABELS}")
        data = path.read_bytes()
        self._path = path
        self._sha256 = hashlib.sha256(data).hexdigest()
        self._threads = threads
        self._session_lock = threading.Lock()
        self._pending: bytes | None = data if lazy else None
        self._opened = None if lazy else load_session(data, path, threads)
        return meta

    @property
    def _session(self) -> Any:
        """The onnxruntime session, opened now if :meth:`_load` left it for later."""
        session = self._opened
        if session is None:
            with self._session_lock:
                if self._opened is None:
                    assert self._pending is not None
                    self._opened = load_session(self._pending, self._path, self._threads)
                    self._pending = None
                session = self._opened
        return session

    @property
    def model_id(self) -> str:
        """``<name>@sha256:<first 12 hex digits of the file>``."""
        return f"{self.name}@sha256:{self._sha256[:12]}"

    @property
    def model_hash(self) -> str:
        """SHA-256 (hex) of the ``.onnx`` file."""
        return self._sha256

    @property
    def batch_size(self) -> int:
        """The most pairs one onnxruntime call reads."""
        return self._batch_size

    @property
    def max_padding(self) -> float:
        """A batch ends before a pair that would pad its shortest pair by more than this share
        of its length (:func:`length_batches`)."""
        return self._max_padding

    def encode(self, pairs: Sequence[tuple[str, str]]) -> list[Encoded]:
        """The model's input for each (claim, evidence) pair."""
        raise NotImplementedError

    def check(self, pairs: Sequence[CheckerPair]) -> npt.NDArray[np.float32]:
        """Probabilities ``(len(pairs), 3)`` over ``("entailed", "contradicted", "neutral")``.

        Raises:
            ProviderError: onnxruntime failed (not retryable).
        """
        return self.check_texts([(p[0], p[1]) for p in pairs])

    def check_texts(self, pairs: Sequence[tuple[str, str]]) -> npt.NDArray[np.float32]:
        """:meth:`check` on (claim, evidence) texts; remembered batches are not run again."""
        if not pairs:
            return np.zeros((0, len(CHECKER_LABELS)), dtype=np.float32)
        return self._check_remembered(self._encode_remembered(pairs))

    def _encode_remembered(self, pairs: Sequence[tuple[str, str]]) -> list[Encoded]:
        """:meth:`encode`, tokenising only the pairs not remembered (encoding is per pair)."""
        memo = self._encoded_memo
        if not memo.size:
            return self.encode(pairs)
        keys = [(claim, evidence) for claim, evidence in pairs]
        kept = [memo.get(key) for key in keys]
        missing = sorted({key for key, k in zip(keys, kept, strict=True) if k is None})
        fresh = dict(zip(missing, self.encode(missing), strict=True)) if missing else {}
        for key, (ids, types) in fresh.items():  # kept compact: int32 arrays
            memo.put(key, (np.array(ids, dtype=np.int32), np.array(types, dtype=np.int32)))
        return [
            fresh[key] if k is None else (k[0].tolist(), k[1].tolist())
            for key, k in zip(keys, kept, strict=True)
        ]

    def _check_remembered(self, encoded: Sequence[Encoded]) -> npt.NDArray[np.float32]:
        """:meth:`check_encoded`, with the output of a batch whose input tensors are
        remembered (in memory, or in the :attr:`outputs` cache on disk) taken from there
        instead of running it again."""
        memo, disk = self._batch_memo, self.outputs
        if not memo.size and disk is None:
            return self.check_encoded(encoded)
        out = np.zeros((len(encoded), len(CHECKER_LABELS)), dtype=np.float32)
        lengths = [len(ids) for ids, _ in encoded]
        batches = []
        for rows in length_batches(lengths, self._batch_size, self._max_padding):
            feeds = pad_feeds([encoded[i] for i in rows])
            batches.append((rows, feeds, _feeds_key(feeds)))
        found: dict[bytes, npt.NDArray[np.float32] | None]
        found = {key: memo.get(key) for _, _, key in batches}
        missing = [key for key, output in found.items() if output is None]
        if disk is not None and missing:
            for key, stored in disk.get_many(self.model_hash, missing).items():
                found[key] = stored
                memo.put(key, stored)
        fresh: dict[bytes, npt.NDArray[np.float32]] = {}
        for rows, feeds, key in batches:
            result = found.get(key)
            if result is None or result.shape != (len(rows), len(CHECKER_LABELS)):
                result = np.array(run_session(self._session, _OUTPUT, feeds, self._path))
                result.setflags(write=False)
                memo.put(key, result)
                found[key] = fresh[key] = result
            out[rows] = result
        if disk is not None and fresh:
            disk.put_many(self.model_hash, fresh)
        return out

    def check_encoded(self, encoded: Sequence[Encoded]) -> npt.NDArray[np.float32]:
        """:meth:`check` on tokenised pairs (from :meth:`encode`), in the batches of
        :func:`length_batches`, each padded to its longest pair."""
        out = np.zeros((len(encoded), len(CHECKER_LABELS)), dtype=np.float32)
        lengths = [len(ids) for ids, _ in encoded]
        for rows in length_batches(lengths, self._batch_size, self._max_padding):
            feeds = pad_feeds([encoded[i] for i in rows])
            out[rows] = run_session(self._session, _OUTPUT, feeds, self._path)
        return out


class CrossEncoderChecker(PairClassifier):
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

    name = "spanproof-cross-encoder"
    rebuild = "rebuild it with `make train-cross-encoder`"

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        batch_size: int = 1,
        intra_op_num_threads: int = 1,
    ) -> None:
        if batch_size < 1:
            raise ConfigurationError("batch_size and intra_op_num_threads must be at least 1")
        path = Path(model_path) if model_path is not None else DEFAULT_CROSS_ENCODER_PATH
        meta = self._load(path, None, intra_op_num_threads)
        self._batch_size = batch_size
        self._max_tokens = int(meta.get("max_tokens", 128))
        self._tokenizer = pair_tokenizer(self._max_tokens, "longest_first")

    def encode(self, pairs: Sequence[tuple[str, str]]) -> list[Encoded]:
        """``[CLS] claim [SEP] span [SEP]``, the longer of the two cut first past the limit."""
        return [(e.ids, e.type_ids) for e in self._tokenizer.encode_batch(list(pairs))]


def length_batches(lengths: Sequence[int], size: int, max_padding: float) -> list[list[int]]:
    """Row indices in batches: sorted by length (ties in input order), at most ``size`` rows,
    and no row padded by more than ``max_padding`` times its own length (a batch ends before a
    row longer than ``1 + max_padding`` times its first, shortest, row)."""
    out: list[list[int]] = []
    for i in sorted(range(len(lengths)), key=lengths.__getitem__):
        last = out[-1] if out else []
        if not last or len(last) >= size or lengths[i] > (1 + max_padding) * lengths[last[0]]:
            out.append([i])
        else:
            last.append(i)
    return out


def pad_feeds(batch: Sequence[Encoded]) -> dict[str, npt.NDArray[np.int64]]:
    """The three int64 inputs of a batch, padded with zeros to its longest pair."""
    width = max(len(ids) for ids, _ in batch)
    feeds = {name: np.zeros((len(batch), width), dtype=np.int64) for name in _INPUTS}
    for row, (ids, types) in enumerate(batch):
        feeds["input_ids"][row, : len(ids)] = ids
        feeds["attention_mask"][row, : len(ids)] = 1
        feeds["token_type_ids"][row, : len(types)] = types
    return feeds


def _feeds_key(feeds: dict[str, npt.NDArray[np.int64]]) -> bytes:
    """SHA-256 of a batch's input tensors: names, shapes and bytes."""
    digest = hashlib.sha256()
    for name in sorted(feeds):
        tensor = np.ascontiguousarray(feeds[name])
        digest.update(f"{name}:{tensor.dtype.str}:{tensor.shape};".encode())
        digest.update(tensor.tobytes())
    return digest.digest()


def pair_tokenizer(max_tokens: int | None, strategy: str = "longest_first") -> Any:
    """The bundled MiniLM tokenizer, unpadded, truncating at ``max_tokens`` with ``strategy``
    (no truncation when ``max_tokens`` is None)."""
    from tokenizers import Tokenizer

    from spanproof.providers.embeddings.onnx_minilm import bundled_tokenizer_path

    tokenizer = Tokenizer.from_file(str(bundled_tokenizer_path()))
    tokenizer.no_padding()
    if max_tokens is None:
        tokenizer.no_truncation()
    else:
        tokenizer.enable_truncation(max_tokens, strategy=strategy)
    return tokenizer
