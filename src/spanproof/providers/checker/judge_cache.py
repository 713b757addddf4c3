"""On-disk caches of the judges, so verifying the same claims again costs no model call.

:class:`SqliteJudgementCache` holds an LLM judge's labels; :class:`SqliteJudgeOutputCache` the
local judge's batch outputs (below).

The label cache is one SQLite table keyed by ``(model, prompt_sha256, sha256(claim),
sha256(window))`` holding the label the judge settled on (one of
:data:`~spanproof.core.checker.CHECKER_LABELS`). Another model, or another prompt (its hash
changes), never reads these labels. It lives beside the embedding cache (``judgements.sqlite``
in the same folder) and follows the same rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from spanproof.core.checker import CHECKER_LABELS
from spanproof.providers.sqlite_cache import SqliteCacheFile, text_sha256

__all__ = ["JudgementKey", "SqliteJudgeOutputCache", "SqliteJudgementCache", "judgement_key"]

#: ``(sha256 of the claim, sha256 of the window)``.
JudgementKey = tuple[str, str]

_TABLE = "judgement"
_COLUMNS = ("model", "prompt_sha256", "claim_sha256", "window_sha256", "label")
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {_TABLE} (
    model         TEXT NOT NULL,
    prompt_sha256 TEXT NOT NULL,
    claim_sha256  TEXT NOT NULL,
    window_sha256 TEXT NOT NULL,
    label         TEXT NOT NULL,
    PRIMARY KEY (model, prompt_sha256, claim_sha256, window_sha256)
) WITHOUT ROWID
"""


def judgement_key(claim: str, window: str) -> JudgementKey:
    """The cache key of a (claim, window) pair: the SHA-256 of each text."""
    return (text_sha256(claim), text_sha256(window))


class SqliteJudgementCache(SqliteCacheFile):
    """Labels by (model, prompt hash, claim, window), shared by processes through one file.

    Args:
        path: the SQLite file; created with its parent folders if absent.

    Raises:
        ConfigurationError: ``path`` cannot be created, is not a SQLite database, or holds a
            ``judgement`` table of another shape.
    """

    def __init__(self, path: Path) -> None:
        super().__init__(
            path, what="judgement cache", table=_TABLE, schema=_SCHEMA, columns=_COLUMNS
        )

    def get_many(
        self, model: str, prompt_sha256: str, keys: Sequence[JudgementKey]
    ) -> dict[JudgementKey, str]:
        """The cached labels of ``keys`` (those not cached are absent).

        Raises:
            StoreError: SQLite failed (retryable when the database was busy or locked).
        """
        found: dict[JudgementKey, str] = {}
        with self._guard():
            for claim, window in dict.fromkeys(keys):
                row = self._db.execute(
                    f"SELECT label FROM {_TABLE} WHERE model = ? AND prompt_sha256 = ? "
                    "AND claim_sha256 = ? AND window_sha256 = ?",
                    (model, prompt_sha256, claim, window),
                ).fetchone()
                if row is not None and row[0] in CHECKER_LABELS:
                    found[(claim, window)] = str(row[0])
        return found

    def put(self, model: str, prompt_sha256: str, key: JudgementKey, label: str) -> None:
        """Store ``label`` for ``key`` (a label stored already is kept: same inputs, same label).

        Raises:
            ValueError: ``label`` is not one of the checker labels.
            StoreError: SQLite failed.
        """
        self.put_many(model, prompt_sha256, {key: label})

    def put_many(self, model: str, prompt_sha256: str, labels: Mapping[JudgementKey, str]) -> None:
        """Store several labels in one transaction; see :meth:`put`."""
        bad = sorted({label for label in labels.values() if label not in CHECKER_LABELS})
        if bad:
            raise ValueError(f"labels must be among {CHECKER_LABELS}, got {bad}")
        rows = [(model, prompt_sha256, c, w, label) for (c, w), label in labels.items()]
        with self._guard(), self._db:
            self._db.executemany(
                f"INSERT OR IGNORE INTO {_TABLE} ({', '.join(_COLUMNS)}) VALUES (?, ?, ?, ?, ?)",
                rows,
            )


_OUTPUT_TABLE = "judge_output"
_OUTPUT_COLUMNS = ("model", "feeds_sha256", "rows", "labels", "output")
_OUTPUT_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {_OUTPUT_TABLE} (
    model        TEXT NOT NULL,
    feeds_sha256 TEXT NOT NULL,
    rows         INTEGER NOT NULL,
    labels       INTEGER NOT NULL,
    output       BLOB NOT NULL,
    PRIMARY KEY (model, feeds_sha256)
) WITHOUT ROWID
"""


class SqliteJudgeOutputCache(SqliteCacheFile):
    """The local judge's batch outputs by (model hash, SHA-256 of the batch's input tensors).

    onnxruntime's output is a pure function of the model and a batch's exact input tensors, so a
    stored output is, bit for bit, what running the batch again would give (float32, stored as
    its bytes): verifying the same claims against the same evidence in another process runs no
    model. Another model (another hash) never reads these rows. Lives beside the embedding
    cache (``judge-outputs.sqlite``) and follows the same rules.

    Args:
        path: the SQLite file; created with its parent folders if absent.

    Raises:
        ConfigurationError: ``path`` cannot be created, is not a SQLite database, or holds a
            ``judge_output`` table of another shape.
    """

    def __init__(self, path: Path) -> None:
        super().__init__(
            path,
            what="judge output cache",
            table=_OUTPUT_TABLE,
            schema=_OUTPUT_SCHEMA,
            columns=_OUTPUT_COLUMNS,
        )

    def get_many(self, model: str, keys: Sequence[bytes]) -> dict[bytes, npt.NDArray[np.float32]]:
        """The stored outputs of ``keys`` (batch digests), read-only ``(rows, labels)`` arrays;
        keys not stored are absent.

        Raises:
            StoreError: SQLite failed (retryable when the database was busy or locked).
        """
        found: dict[bytes, npt.NDArray[np.float32]] = {}
        with self._guard():
            for key in dict.fromkeys(keys):
                row = self._db.execute(
                    f"SELECT rows, labels, output FROM {_OUTPUT_TABLE} "
                    "WHERE model = ? AND feeds_sha256 = ?",
                    (model, key.hex()),
                ).fetchone()
                if row is None:
                    continue
                rows, labels, blob = int(row[0]), int(row[1]), bytes(row[2])
                if len(blob) != rows * labels * 4:
                    continue  # a damaged row is a miss: the batch runs again
                array = np.frombuffer(blob, dtype="<f4").reshape(rows, labels).astype(np.float32)
                array.setflags(write=False)
                found[key] = array
        return found

    def put_many(self, model: str, outputs: Mapping[bytes, npt.NDArray[np.float32]]) -> None:
        """Store several batch outputs in one transaction (a stored one is kept: same inputs,
        same output).

        Raises:
            ValueError: an output is not a two-dimensional array.
            StoreError: SQLite failed.
        """
        rows = []
        for key, output in outputs.items():
            if output.ndim != 2:
                raise ValueError(f"a batch output must be 2-D, got shape {output.shape}")
            data = np.ascontiguousarray(output, dtype="<f4").tobytes()
            rows.append((model, key.hex(), output.shape[0], output.shape[1], data))
        with self._guard(), self._db:
            self._db.executemany(
                f"INSERT OR IGNORE INTO {_OUTPUT_TABLE} ({', '.join(_OUTPUT_COLUMNS)}) "
                "VALUES (?, ?, ?, ?, ?)",
                rows,
            )
