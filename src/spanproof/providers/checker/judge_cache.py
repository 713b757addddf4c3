"""An on-disk cache of LLM judgements, so verifying the same claims again costs no model call.

One SQLite table keyed by ``(model, prompt_sha256, sha256(claim), sha256(window))`` holds the
label the judge settled on (one of :data:`~spanproof.core.checker.CHECKER_LABELS`). Another
model, or another prompt (its hash changes), never reads these labels. It lives beside the
embedding cache (``judgements.sqlite`` in the same folder) and follows the same rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from spanproof.core.checker import CHECKER_LABELS
from spanproof.providers.sqlite_cache import SqliteCacheFile, text_sha256

__all__ = ["JudgementKey", "SqliteJudgementCache", "judgement_key"]

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
