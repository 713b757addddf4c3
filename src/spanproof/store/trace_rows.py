"""What both stores share about trace rows: sealing the next trace and reading a stored one.

A backend takes its write lock, reads the last row's ``seq`` and ``hash``, calls :func:`seal_next`
and inserts the returned row; reading parses ``body`` (the canonical JSON that was hashed) back.
The other columns are copies of fields of ``body``, for lookups and ordering only.
"""

from __future__ import annotations

from dataclasses import dataclass

from spanproof.core.errors import InvalidInputError, StoreError
from spanproof.core.trace import GENESIS, Trace

#: The columns of the ``traces`` table, in the order :class:`TraceRow` gives them.
TRACE_COLUMNS = "seq, id, hash, prev_hash, kind, created_at, body"


@dataclass(frozen=True, slots=True)
class TraceRow:
    """One row to insert, and the trace it holds (as read back from its JSON)."""

    seq: int
    id: str
    hash: str
    prev_hash: str
    kind: str
    created_at: str
    body: str
    trace: Trace

    def values(self) -> tuple[int, str, str, str, str, str, str]:
        return (self.seq, self.id, self.hash, self.prev_hash, self.kind, self.created_at, self.body)


def seal_next(trace: Trace, last: tuple[int, str] | None, now: str) -> TraceRow:
    """``trace`` sealed after the chain's last ``(seq, hash)`` (or first, when ``last`` is None).

    ``created_at`` is kept when the caller set it (the time of the judgement), else ``now``.

    Raises:
        InvalidInputError: the trace holds something canonical JSON cannot carry (NaN, infinity,
            a non-JSON type, a lone surrogate).
    """
    seq, prev_hash = (1, GENESIS) if last is None else (last[0] + 1, last[1])
    try:
        sealed = trace.sealed(seq=seq, prev_hash=prev_hash, created_at=trace.created_at or now)
        body = sealed.to_json()
        body.encode("utf-8")
    except (TypeError, ValueError) as exc:  # UnicodeEncodeError is a ValueError
        raise InvalidInputError(f"the trace cannot be serialised as canonical JSON: {exc}") from exc
    # Read back from the stored text, so the caller gets exactly what get_trace() will return.
    stored = Trace.from_json(body)
    return TraceRow(
        seq, sealed.id, sealed.hash, prev_hash, sealed.kind, sealed.created_at, body, stored
    )


def read_trace(seq: int, body: str) -> Trace:
    """The trace stored in ``body`` (row ``seq``).

    Raises:
        StoreError: the stored text is not a trace (not JSON, or fields missing or unknown):
            the row was damaged outside spanproof.
    """
    try:
        return Trace.from_json(body)
    except (TypeError, ValueError) as exc:  # JSONDecodeError is a ValueError
        raise StoreError(f"trace at seq {seq} is corrupt (its body is not a trace): {exc}") from exc


def check_page(limit: int, offset: int) -> None:
    if limit < 0 or offset < 0:
        raise InvalidInputError("limit and offset must not be negative")
