"""The judge: a MiniLM cross-encoder that reads a claim against an evidence window, batched.

Trained by ``make train-checker`` and made into ``spanproof/models/judge.onnx`` by
``make quantize-judge`` (``training/quantize_judge.py``; see ``docs/model-card.md``). Its input
is ``[CLS] claim [SEP] window [SEP]``, at most ``max_tokens`` word pieces (``judge.json``; 256).
Truncation keeps the claim whole and cuts the window from its end (``only_second``); only a
claim that leaves the window no word piece is cut too (``longest_first``).

Unlike the dynamically quantised :class:`~spanproof.providers.checker.cross_encoder.
CrossEncoderChecker`, the judge model computes nothing from the batch: its ``quantization`` is
``fp32``, ``int8-weights`` (int8 weights in small blocks, restored to fp32 when onnxruntime loads
the model; fp32 arithmetic; what ships) or ``static-int8`` (fixed activation scales). So a pair's
probabilities do not depend on the other pairs of its batch, up to float rounding (padding
changes the shapes the kernels see, not the arithmetic of a pair's own tokens; measured
differences are about 1e-7). So all pairs of a call go to onnxruntime together, sorted
by length and cut into batches (:func:`~spanproof.providers.checker.cross_encoder.
length_batches`): at most ``batch_size`` pairs (8), and a batch ends before a pair that would pad
the batch's shortest pair by more than ``max_padding`` (a tenth) of its length. Both were chosen
by measurement on a 2-core x86 CPU (``bench/RESULTS.md``, ``make bench-judge``): the model's work
grows with the padded tokens, so padding every pair of a call to its longest cost more than half
the throughput on SciFact windows; batches larger than about 8 pairs were slower again (larger
intermediate tensors), while small batches of like lengths match one pair per call on one thread
and beat it by a third on two. The same pairs always form the same batches, so results repeat
bit for bit.

The judge remembers (``cache_batches``, ``cache_pairs``; bounded, least recently used out
first, in memory) each batch's output keyed by the SHA-256 of its exact input tensors, and each
pair's word pieces. Because a batch's output is a pure function of those tensors, a remembered
output is what running the batch again would give, bit for bit: verifying the same claims
against the same evidence again (the same windows, so the same batches) runs no model, and no
verdict, score or replayed trace can differ from an uncached run. A pair met in a batch of other
tensors is run again.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spanproof.core.errors import ConfigurationError
from spanproof.providers.checker.cross_encoder import Encoded, PairClassifier, pair_tokenizer

__all__ = ["BATCH_INDEPENDENT", "DEFAULT_JUDGE_PATH", "JudgeChecker", "PairEncoder"]

#: The judge shipped inside the package, and its metadata (``judge.json``) beside it.
DEFAULT_JUDGE_PATH = Path(__file__).resolve().parents[2] / "models" / "judge.onnx"
#: The ``quantization`` values of ``judge.json`` whose results do not depend on the batch.
BATCH_INDEPENDENT = ("fp32", "int8-weights", "static-int8")
TRUNCATIONS = ("only_second", "longest_first")
_DEFAULT_MAX_TOKENS = 256
_SPECIAL_TOKENS = 3  # [CLS], [SEP], [SEP]


class PairEncoder:
    """(claim, window) pairs as the judge reads them: ``[CLS] claim [SEP] window [SEP]``.

    Args:
        max_tokens: the most word pieces of a pair, special tokens included (at least 5).
        truncation: ``only_second`` cuts the window from its end and keeps the claim whole,
            unless the claim leaves the window no word piece (then ``longest_first``);
            ``longest_first`` cuts the longer of the two first, always.
    """

    def __init__(self, max_tokens: int, truncation: str = "only_second") -> None:
        if max_tokens <= _SPECIAL_TOKENS + 1 or truncation not in TRUNCATIONS:
            raise ConfigurationError(
                f"max_tokens must be at least 5 and truncation one of {TRUNCATIONS}"
            )
        self.max_tokens = max_tokens
        self._truncation = truncation
        self._tokenizers: tuple[Any, Any, Any] | None = None

    def _loaded(self) -> tuple[Any, Any, Any]:
        """The claim, pair and fallback tokenizers, loaded at the first :meth:`encode` (a
        process that judges nothing loads no tokenizer)."""
        if self._tokenizers is None:
            self._tokenizers = (
                pair_tokenizer(None),
                pair_tokenizer(self.max_tokens, self._truncation),
                pair_tokenizer(self.max_tokens, "longest_first"),
            )
        return self._tokenizers

    def encode(self, pairs: Sequence[tuple[str, str]]) -> list[Encoded]:
        """Word-piece ids and token type ids of each pair, in order."""
        claims_tokenizer, pair_tokens, fallback = self._loaded()
        rows = range(len(pairs))
        fits = list(rows)
        if self._truncation == "only_second":
            claims = sorted({claim for claim, _ in pairs})
            pieces = claims_tokenizer.encode_batch(claims, add_special_tokens=False)
            room = self.max_tokens - _SPECIAL_TOKENS
            short = {c for c, e in zip(claims, pieces, strict=True) if len(e.ids) < room}
            fits = [i for i in rows if pairs[i][0] in short]
        long = sorted(set(rows) - set(fits))
        out: list[Encoded] = [([], [])] * len(pairs)
        for tokenizer, chosen in ((pair_tokens, fits), (fallback, long)):
            if chosen:
                encoded = tokenizer.encode_batch([pairs[i] for i in chosen])
                for i, e in zip(chosen, encoded, strict=True):
                    out[i] = (e.ids, e.type_ids)
        return out


class JudgeChecker(PairClassifier):
    """The :class:`~spanproof.core.checker.EntailmentChecker` of the judge, all pairs batched.

    Args:
        model_path: another judge ``.onnx`` (default: the shipped ``judge.onnx``).
        metadata_path: its metadata (default: the ``.json`` beside the model): the labels,
            ``max_tokens``, ``quantization`` (one of :data:`BATCH_INDEPENDENT`) and optionally
            ``truncation`` (:class:`PairEncoder`).
        batch_size: the most pairs one onnxruntime call reads.
        max_padding: a batch ends before a pair that would pad its shortest pair by more than
            this share of its length.
        intra_op_num_threads: onnxruntime's intra-op threads; None (the default): one per
            physical core, onnxruntime's own choice. The results do not depend on it
            (onnxruntime splits a product among threads by its outputs, not within a sum: the
            same bits with one, two and three threads, tested).
        cache_batches: the onnxruntime batches whose outputs are remembered, keyed by their
            exact input tensors (:class:`~spanproof.providers.checker.cross_encoder.
            PairClassifier`): checking the same pairs again runs no model and gives the same
            probabilities bit for bit. 0 remembers nothing (every check runs the model).
        cache_pairs: the pairs whose tokenised input is remembered (0: none).
        lazy: open the onnxruntime session at the first batch that has to run rather than
            now (with batch outputs kept on disk, :attr:`outputs`, a process whose batches are
            all remembered never loads the model; a model onnxruntime cannot read then fails
            at that first batch).

    Raises:
        ConfigurationError: the model or its metadata is missing or unusable, or the model is
            quantised per call (its results would depend on the batch).
    """

    name = "spanproof-judge"
    rebuild = "build it with `make quantize-judge` after `make train-checker`"

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        metadata_path: Path | None = None,
        batch_size: int = 8,
        max_padding: float = 0.1,
        intra_op_num_threads: int | None = None,
        cache_batches: int = 4096,
        cache_pairs: int = 2048,
        lazy: bool = False,
    ) -> None:
        path = Path(model_path) if model_path is not None else DEFAULT_JUDGE_PATH
        meta = self._load(path, metadata_path, intra_op_num_threads, lazy=lazy)
        quantization = meta.get("quantization")
        if quantization not in BATCH_INDEPENDENT:
            raise ConfigurationError(
                f"{path}: quantization {quantization!r} is not one of {BATCH_INDEPENDENT}; a "
                "dynamically quantised model would make a pair's result depend on its batch "
                f"({self.rebuild})"
            )
        if batch_size < 1 or max_padding < 0 or cache_batches < 0 or cache_pairs < 0:
            raise ConfigurationError(
                "batch_size must be at least 1, and max_padding and the cache sizes at least 0"
            )
        self._remember(cache_batches, cache_pairs)
        self._batch_size = batch_size
        self._max_padding = max_padding
        truncation = str(meta.get("truncation", "only_second"))
        self._encoder = PairEncoder(int(meta.get("max_tokens", _DEFAULT_MAX_TOKENS)), truncation)

    @property
    def max_tokens(self) -> int:
        """The most word pieces of one pair, special tokens included."""
        return self._encoder.max_tokens

    def encode(self, pairs: Sequence[tuple[str, str]]) -> list[Encoded]:
        """``[CLS] claim [SEP] window [SEP]`` (:class:`PairEncoder`)."""
        return self._encoder.encode(pairs)
