"""An on-disk cache of LLM judgements, so verifying the same claims again costs no model call.

One SQLite table keyed by ``(model, prompt_sha256, sha256(claim), sha256(window))`` holds the
label the judge settled on (one of :data:`~spanproof.core.checker.CHECKER_LABELS`). Another
model, or another prompt (its hash changes), never reads these labels. It lives beside the
embedding cache (``judgements.sqlite`` in the same folder) and follows the same rules.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from spanproof.core.checker import CHECKER_LABELS
from spanproof.core.errors import ConfigurationError, StoreError

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
_BUSY_ERRORS = frozenset({"SQLITE_BUSY", "SQLITE_LOCKED"})


def judgement_key(claim: str, window: str) -> JudgementKey:
    """The cache key of a (claim, window) pair: the SHA-256 of each text."""
    return (_sha256(claim), _sha256(window))


class SqliteJudgementCache:
    """Labels by (model, prompt hash, claim, window), shared by processes through one file.

    Args:
        path: the SQLite file; created with its parent folders if absent.

    Raises:
        ConfigurationError: ``path`` cannot be created, is not a SQLite database, or holds a
            ``judgement`` table of another shape.
    """

    def __init__(self, path: Path) -> None:
        self._path = Path(path)
        self._lock = threading.Lock()
        self._db = _open(self._path)

    @property
    def path(self) -> Path:
        return self._path

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

    def __len__(self) -> int:
        """Number of cached labels, all models and prompts together."""
        with self._guard():
            row = self._db.execute(f"SELECT count(*) FROM {_TABLE}").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the SQLite connection; the cache cannot be used afterwards."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> SqliteJudgementCache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Hold the connection lock; translate sqlite3 errors at the boundary."""
        with self._lock:
            try:
                yield
            except sqlite3.Error as exc:
                raise _translate(exc, self._path) from exc


def _open(path: Path) -> sqlite3.Connection:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, check_same_thread=False, timeout=30.0)
    except (OSError, sqlite3.Error) as exc:
        raise ConfigurationError(
            f"cannot open the judgement cache {path}: {exc}; check the folder is writable"
        ) from exc
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        with db:
            db.execute(_SCHEMA)
        columns = tuple(row[1] for row in db.execute(f"PRAGMA table_info({_TABLE})"))
    except sqlite3.Error as exc:
        db.close()
        raise _translate(exc, path) from exc
    if columns != _COLUMNS:
        db.close()
        raise ConfigurationError(
            f"{path} holds a {_TABLE!r} table with columns {list(columns)}, not a judgement "
            "cache; pass another path"
        )
    return db


def _translate(exc: sqlite3.Error, path: Path) -> Exception:
    if isinstance(exc, sqlite3.OperationalError) or not isinstance(exc, sqlite3.DatabaseError):
        name = getattr(exc, "sqlite_errorname", "")
        return StoreError(f"judgement cache {path}: {exc}", retryable=name in _BUSY_ERRORS)
    return ConfigurationError(
        f"the judgement cache {path} is not a readable SQLite database ({exc}); delete the file "
        "to start an empty cache, or pass another path"
    )


def _sha256(text: str) -> str:
    # surrogatepass: a text with a lone surrogate still gets its own stable key.
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
