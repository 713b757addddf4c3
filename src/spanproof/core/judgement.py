"""Judges beside the entailment checker port: stored judgements for replay, and a fallback.

A *judge* is an :class:`~spanproof.core.checker.EntailmentChecker` that reads a claim against an
evidence window (score model v5). Two judges here need no model at all:

* :class:`RecordedJudge` answers the probabilities a trace stored for each (claim, window), so
  ``trace verify`` replays a judgement that an LLM made without calling the LLM.
  :func:`judgement_records` writes those records: ``{"claim", "window", "probabilities",
  "model"}`` dicts, JSON-ready, whose floats (float32 widened to float64) read back bit for bit.
* :class:`FallbackJudge` asks its primary judge (the LLM judge) and, when that fails with a
  :class:`~spanproof.core.errors.ProviderError`, gives the same pairs to its fallback (the local
  judge), keeping the reason, without secrets, for the report.

Pure: no I/O, no model call.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from spanproof.core.checker import CHECKER_LABELS, CheckerPair, EntailmentChecker
from spanproof.core.errors import InvalidInputError, ProviderError

__all__ = ["FallbackJudge", "RecordedJudge", "judgement_records"]

#: The longest fallback reason kept, in characters.
_REASON_CHARS = 300
_WIDTH = len(CHECKER_LABELS)


def judgement_records(
    judge: EntailmentChecker,
    pairs: Sequence[CheckerPair],
    probabilities: npt.NDArray[np.float32],
) -> list[dict[str, Any]]:
    """What a trace stores of one ``judge.check(pairs)`` call (for ``RecordedJudge``).

    Call it right after ``check``: ``model`` is ``judge.model_id`` as it stands then (for a
    :class:`FallbackJudge`, the judge that actually answered). A pair asked twice is stored once.

    Returns:
        ``[{"claim", "window", "probabilities": [p_entailed, p_contradicted, p_neutral],
        "model"}, ...]`` in the order pairs were first asked.

    Raises:
        InvalidInputError: ``probabilities`` is not one row of three per pair.
    """
    rows = np.asarray(probabilities, dtype=np.float32)
    if rows.shape != (len(pairs), _WIDTH):
        raise InvalidInputError(
            f"probabilities must have shape ({len(pairs)}, {_WIDTH}), got {rows.shape}"
        )
    model = judge.model_id
    records: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for pair, row in zip(pairs, rows, strict=True):
        key = (pair[0], pair[1])
        if key in seen:
            continue
        seen.add(key)
        records.append(
            {
                "claim": key[0],
                "window": key[1],
                "probabilities": [float(p) for p in row],
                "model": model,
            }
        )
    return records


class RecordedJudge:
    """A judge that answers stored probabilities, for replay.

    Args:
        records: ``(claim, window) -> (p_entailed, p_contradicted, p_neutral)``.
        model_id: the id replay compares with the one the trace names.

    Raises:
        InvalidInputError: a row is not three finite non-negative numbers.
    """

    def __init__(self, records: Mapping[tuple[str, str], Sequence[float]], model_id: str) -> None:
        self._rows = {
            (str(claim), str(window)): _row(values, f"judgement for claim {claim!r}")
            for (claim, window), values in records.items()
        }
        self._model_id = model_id

    @classmethod
    def from_records(
        cls, records: Iterable[Mapping[str, Any]], model_id: str | None = None
    ) -> RecordedJudge:
        """The judge over :func:`judgement_records` output (as read back from a trace).

        Args:
            records: dicts with ``claim``, ``window``, ``probabilities`` and ``model``.
            model_id: the id to answer; default: the records' one ``model``, or their distinct
                models sorted and joined with ``+`` when a fallback mixed them ("" for none).

        Raises:
            InvalidInputError: a record lacks a field, has a bad row, or repeats a pair with
                other probabilities.
        """
        table: dict[tuple[str, str], Sequence[float]] = {}
        models: set[str] = set()
        for index, record in enumerate(records):
            try:
                claim, window = record["claim"], record["window"]
                values, model = record["probabilities"], record.get("model", "")
            except (KeyError, TypeError) as exc:
                raise InvalidInputError(
                    f"judgement record {index} must be an object with claim, window and "
                    f"probabilities ({type(exc).__name__}: {exc})"
                ) from exc
            if not isinstance(claim, str) or not isinstance(window, str):
                raise InvalidInputError(f"judgement record {index}: claim and window must be text")
            row = _row(values, f"judgement record {index}")
            old = table.get((claim, window))
            if old is not None and not np.array_equal(_row(old, "stored"), row):
                raise InvalidInputError(
                    f"judgement record {index} repeats a (claim, window) pair with other "
                    "probabilities"
                )
            table[(claim, window)] = [float(p) for p in row]
            models.add(str(model))
        chosen = model_id if model_id is not None else "+".join(sorted(models - {""}))
        return cls(table, chosen)

    @property
    def model_id(self) -> str:
        return self._model_id

    def __len__(self) -> int:
        return len(self._rows)

    def check(self, pairs: Sequence[CheckerPair]) -> npt.NDArray[np.float32]:
        """The stored rows of ``pairs`` (the embeddings are not read).

        Raises:
            ProviderError: a pair has no stored judgement (not retryable: replay reports it).
        """
        rows = np.zeros((len(pairs), _WIDTH), dtype=np.float32)
        for index, pair in enumerate(pairs):
            row = self._rows.get((pair[0], pair[1]))
            if row is None:
                raise ProviderError(
                    f"no stored judgement for pair {index}: claim {_short(pair[0])} against "
                    f"window {_short(pair[1])}; the trace holds {len(self._rows)} judgements",
                    retryable=False,
                )
            rows[index] = row
        return rows


class FallbackJudge:
    """Asks ``primary``; on a :class:`ProviderError`, gives the same pairs to ``fallback``.

    One ``check`` call is judged by one judge: if the primary fails on any pair, every pair of
    the call goes to the fallback (pairs the primary answered before failing stay in its cache,
    if it keeps one). Other errors (a store failure, a programming error) propagate.

    Args:
        primary: the preferred judge (the LLM judge).
        fallback: the judge used when the primary fails (the local judge).
        secrets: strings never to show in :attr:`fallback_reason` (api keys); the adapters already
            redact their own key, this is a second guard.

    :attr:`fallback_reason`, :attr:`fallback_note` and :attr:`model_id` describe the latest
    ``check`` call *of the calling thread*, so one judge can serve a threaded server.
    """

    def __init__(
        self,
        primary: EntailmentChecker,
        fallback: EntailmentChecker,
        *,
        secrets: Sequence[str] = (),
    ) -> None:
        self.primary = primary
        self.fallback = fallback
        self._secrets = tuple(s for s in secrets if s)
        self._latest = threading.local()

    @property
    def model_id(self) -> str:
        """The id of the judge that answered the latest call (the primary's before any call)."""
        answered_by: str | None = getattr(self._latest, "model_id", None)
        return self.primary.model_id if answered_by is None else answered_by

    @property
    def fallback_reason(self) -> str | None:
        """Why the primary failed in the latest call (error class and message, secrets removed,
        at most 300 characters), or None when the primary answered (or no call was made)."""
        reason: str | None = getattr(self._latest, "reason", None)
        return reason

    @property
    def fallback_note(self) -> str | None:
        """``judge: llm failed (<reason>), local judge used`` after a fallback, else None."""
        if self.fallback_reason is None:
            return None
        return f"judge: llm failed ({self.fallback_reason}), local judge used"

    def check(self, pairs: Sequence[CheckerPair]) -> npt.NDArray[np.float32]:
        """The primary's probabilities, or the fallback's when the primary failed."""
        try:
            rows = self.primary.check(pairs)
        except ProviderError as exc:
            self._latest.reason = self._reason(exc)
            self._latest.model_id = self.fallback.model_id
            return self.fallback.check(pairs)
        self._latest.reason = None
        self._latest.model_id = self.primary.model_id
        return rows

    def close(self) -> None:
        """Close both judges where they can be closed (the LLM judge's cache and HTTP client)."""
        for judge in (self.primary, self.fallback):
            close = getattr(judge, "close", None)
            if callable(close):
                close()

    def _reason(self, exc: ProviderError) -> str:
        text = " ".join(f"{type(exc).__name__}: {exc}".split())
        for secret in self._secrets:
            text = text.replace(secret, "[redacted]")
        return text if len(text) <= _REASON_CHARS else text[: _REASON_CHARS - 3] + "..."


def _row(values: Any, where: str) -> npt.NDArray[np.float32]:
    if isinstance(values, str | bytes):
        raise InvalidInputError(f"{where}: probabilities must be {_WIDTH} numbers, not text")
    try:
        row = np.asarray([float(v) for v in values], dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{where}: probabilities must be {_WIDTH} numbers") from exc
    if row.shape != (_WIDTH,) or not all(math.isfinite(p) and p >= 0 for p in row):
        raise InvalidInputError(
            f"{where}: probabilities must be {_WIDTH} finite numbers >= 0 in "
            f"{'/'.join(CHECKER_LABELS)} order"
        )
    return row


def _short(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")
