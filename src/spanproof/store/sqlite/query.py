"""Pure helpers of the SQLite store: FTS5 query text, search filters as SQL, masking, top-k.

Nothing here touches a connection; ``store.py`` runs what these build.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from spanproof.core.store import MASK, SearchFilter

#: A word as FTS5's ``unicode61`` tokenizer sees it: a run of letters and digits.
_WORD = re.compile(r"[^\W_]+")
#: At most this many distinct words of a query reach FTS5 (bounds the cost of huge queries).
MAX_QUERY_TERMS = 64


def clean_text(text: str) -> str:
    """``text`` without NUL and lone surrogates, which no backend can bind or index."""
    return text.replace("\x00", " ").encode("utf-8", "ignore").decode("utf-8")


def query_words(text: str) -> list[str]:
    """The distinct lowercase words of ``text`` (at most :data:`MAX_QUERY_TERMS`), in order.

    Words are split where FTS5's ``unicode61`` splits them, so ``title:aspirin`` gives
    ``title`` and ``aspirin``.
    """
    seen: dict[str, None] = {}
    for word in _WORD.findall(unicodedata.normalize("NFC", clean_text(text)).lower()):
        seen.setdefault(word, None)
        if len(seen) == MAX_QUERY_TERMS:
            break
    return list(seen)


def fts_match(words: Iterable[str]) -> str:
    """An FTS5 MATCH expression: each word quoted, joined with OR ("" for no words).

    Quoting every word means user input can never be FTS5 syntax (``AND``, ``NEAR(``, ``*``,
    column filters).
    """
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)


def fts_query(text: str) -> str:
    """The MATCH expression for free text: ``fts_match(query_words(text))``."""
    return fts_match(query_words(text))


def filter_sql(flt: SearchFilter) -> tuple[str, list[object]] | None:
    """SQL conditions on ``c`` (chunks) and ``s`` (sources) for ``flt``; None if nothing matches.

    Eligibility (SPEC §3.6): the source is active, and the chunk belongs to the source's latest
    version, which is parsed.
    """
    clauses: list[str] = []
    params: list[object] = []
    if flt.source_ids is not None:
        if not flt.source_ids:
            return None
        clauses.append("c.source_id IN (SELECT value FROM json_each(?))")
        params.append(json.dumps(list(flt.source_ids)))
    if flt.statuses is not None:
        if not flt.statuses:
            return None
        clauses.append("s.status IN (SELECT value FROM json_each(?))")
        params.append(json.dumps(list(flt.statuses)))
    if flt.eligible_only:
        clauses.append(
            "s.status = 'active'"
            " AND EXISTS (SELECT 1 FROM versions v WHERE v.source_id = c.source_id"
            " AND v.number = c.version AND v.state = 'parsed')"
            " AND NOT EXISTS (SELECT 1 FROM versions w WHERE w.source_id = c.source_id"
            " AND w.number > c.version)"
        )
    return " AND ".join(f"({clause})" for clause in clauses) or "1", params


def mask_text(text: str, ranges: Iterable[tuple[int, int]], offset: int = 0) -> str:
    """``text`` with every character inside ``ranges`` replaced by :data:`MASK`.

    ``ranges`` are offsets into the section; ``text`` starts at ``offset`` in that section, so a
    chunk is masked with its section's erasures. Lengths never change.
    """
    size = len(text)
    spans = sorted(
        (max(start - offset, 0), min(end - offset, size))
        for start, end in ranges
        if end - offset > 0 and start - offset < size
    )
    if not spans:
        return text
    pieces: list[str] = []
    pos = 0
    for span_start, end in spans:
        start = max(span_start, pos)
        if end <= start:
            continue
        pieces.append(text[pos:start])
        pieces.append(MASK * (end - start))
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


def overlaps(ranges: Iterable[tuple[int, int]], start: int, end: int) -> bool:
    """Whether any range shares a character with ``[start, end)``."""
    return any(r_start < end and start < r_end for r_start, r_end in ranges)


def ranked(scores: npt.NDArray[np.float32], k: int) -> npt.NDArray[np.intp]:
    """Indices of the ``k`` best scores, best first, equal scores in index order.

    The order is total, so the top ``k`` is always a prefix of the top ``k' > k``.
    """
    n = int(scores.shape[0])
    if k <= 0 or n == 0:
        return np.empty(0, dtype=np.intp)
    if k >= n:
        candidates = np.arange(n, dtype=np.intp)
    else:
        threshold = np.partition(scores, n - k)[n - k]
        candidates = np.flatnonzero(scores >= threshold)
    order = np.lexsort((candidates, -scores[candidates]))
    return candidates[order][:k]
