"""What each dialect's keyword index holds, written once for both (docs/store.md).

Neither database tokenises text: both index and search the terms of
:mod:`spanproof.text.keywords` (accents and case folded, decimals kept whole, stop words dropped,
Porter2 stems), so the same query matches the same chunks on either. SQLite's FTS5 table holds a
chunk's terms separated by spaces under a tokenizer that splits on nothing else
(:data:`FTS_TOKENIZER`); PostgreSQL's ``chunks.tsv`` is a ``tsvector`` literal of the terms
with their positions, and a query is a ``tsquery`` literal (the OR of its terms). Both rank by
bm25: FTS5's own on SQLite, the same formula in SQL on PostgreSQL
(:mod:`spanproof.store.postgres.search`).

An index built by an older normal form is rebuilt by a migration (0008): it reads every chunk's
indexed text with :func:`indexed_texts`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from spanproof.store.chunk_rows import CHUNK_COLS, load_chunks
from spanproof.store.sql import Dialect
from spanproof.text.keywords import terms

#: ``chunks_fts``'s tokenizer (migration 0008; a test pins the two together). Terms hold only
#: letters, marks, digits and a decimal's dots; ``ascii`` takes every non-ASCII character as part
#: of a token, and ``tokenchars`` adds the dot, so only the spaces between terms split.
FTS_TOKENIZER = "ascii tokenchars '.'"
#: PostgreSQL's limits on a ``tsvector``: the largest position, and positions kept per lexeme.
_MAX_POSITION = 16383
_MAX_POSITIONS = 256
#: Chunks read per batch when an index is rebuilt.
_BATCH = 1000


def fts_document(text: str) -> str:
    """What SQLite's ``chunks_fts`` indexes for ``text``: its terms, separated by spaces."""
    return " ".join(terms(text))


def _quoted(term: str) -> str:
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


def tsvector(text: str) -> str:
    """What PostgreSQL's ``chunks.tsv`` holds for ``text``: a ``tsvector`` literal of its terms
    with their positions (counted from 1 over the terms)."""
    return tsvector_and_length(text)[0]


def tsvector_and_length(text: str) -> tuple[str, int]:
    """:func:`tsvector` and the number of positions it holds (``chunks.term_count``: the
    chunk's length for bm25, which is its number of terms but for a term repeated more than
    PostgreSQL keeps positions of)."""
    positions: dict[str, list[int]] = {}
    for position, term in enumerate(terms(text), start=1):
        found = positions.setdefault(term, [])
        if len(found) < _MAX_POSITIONS:
            found.append(min(position, _MAX_POSITION))
    literal = " ".join(
        f"{_quoted(term)}:{','.join(map(str, found))}" for term, found in positions.items()
    )
    return literal, sum(map(len, positions.values()))


def tsquery(words: Iterable[str]) -> str:
    """A ``tsquery`` literal matching any of ``words`` (terms, each quoted): "" for none."""
    return " | ".join(map(_quoted, words))


def indexed_texts(d: Dialect, conn: Any) -> Iterator[list[tuple[Any, str]]]:
    """Every chunk's text as its keyword index must hold it (erased ranges masked), in batches
    of ``(key, text)``: the key is ``chunks.seq`` (the FTS5 rowid) on SQLite, the id on
    PostgreSQL."""
    key = "c.id" if d.postgres else "c.seq"
    last: Any = "" if d.postgres else -1
    while True:
        rows = d.all(
            conn,
            f"SELECT {key}, {CHUNK_COLS} FROM chunks c WHERE {key} > ? ORDER BY {key} LIMIT ?",
            (last, _BATCH),
        )
        if not rows:
            return
        chunks = load_chunks(d, conn, [row[1:] for row in rows])
        yield [(row[0], chunk.text) for row, chunk in zip(rows, chunks, strict=True)]
        last = rows[-1][0]
