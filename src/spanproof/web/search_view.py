"""The search page's view of its hits: the query's words marked in each chunk (matched by keyword
term, as the store matches them: ``lowered`` marks ``lowers``, ``cafe`` marks ``Café``, stop
words mark nothing), each hit's score beside the best score, and the relevance cut-off that
hides the weak tail of a ranking."""

from __future__ import annotations

from dataclasses import dataclass

from spanproof.core.store import SearchHit
from spanproof.text.keywords import query_terms, terms
from spanproof.text.tokens import nfc, tokenize

MODES = ("hybrid", "keyword", "vector")
LIMITS = (10, 20, 50, 100)
#: Cut-offs offered, as a share of the best hit's score.
CUTOFFS = (0, 25, 50, 75)
DEFAULT_CUTOFF = 50


@dataclass(frozen=True, slots=True)
class Piece:
    text: str
    marked: bool = False


@dataclass(frozen=True, slots=True)
class HitView:
    hit: SearchHit
    title: str
    relative: float  # the score as a share of the best hit's, 0..1
    pieces: list[Piece]
    matched: tuple[str, ...]  # the chunk's words that matched, as written, in order
    section_title: str = ""


def query_stems(query: str) -> set[str]:
    """The keyword terms of ``query`` (:mod:`spanproof.text.keywords`)."""
    return set(query_terms(query))


def highlight(text: str, stems: set[str]) -> tuple[list[Piece], tuple[str, ...]]:
    """``text`` cut into pieces, the words with a keyword term among ``stems`` marked."""
    normal = nfc(text)
    pieces: list[Piece] = []
    matched: list[str] = []
    cursor = 0
    for token in tokenize(normal):
        if stems.isdisjoint(terms(token.text)):
            continue
        if token.start > cursor:
            pieces.append(Piece(normal[cursor : token.start]))
        word = normal[token.start : token.end]
        pieces.append(Piece(word, True))
        if word.lower() not in (m.lower() for m in matched):
            matched.append(word)
        cursor = token.end
    if cursor < len(normal):
        pieces.append(Piece(normal[cursor:]))
    return pieces, tuple(matched)


def hit_views(
    hits: list[SearchHit],
    query: str,
    titles: dict[str, str],
    cutoff: int,
    section_titles: dict[tuple[str, int, str], str] | None = None,
) -> tuple[list[HitView], int]:
    """The hits at or above ``cutoff`` percent of the best score, and how many were hidden.

    Scores of one mode compare with each other only (BM25, cosine, or fused reciprocal ranks),
    so the cut-off is relative to the best hit; a negative best (cosine) keeps every hit.
    """
    stems = query_stems(query)
    best = max((h.score for h in hits), default=0.0)
    shown: list[HitView] = []
    for hit in hits:
        relative = hit.score / best if best > 0 else 1.0
        if relative * 100 + 1e-9 < cutoff:
            continue
        pieces, matched = highlight(hit.chunk.text, stems)
        title = titles.get(hit.chunk.source_id, hit.chunk.source_id)
        c = hit.chunk
        section = (section_titles or {}).get((c.source_id, c.version, c.section_key), "")
        shown.append(HitView(hit, title, max(0.0, relative), pieces, matched, section))
    return shown, len(hits) - len(shown)
