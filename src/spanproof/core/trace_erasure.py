"""An erasure reaching a stored trace (SPEC §7): what the trace copied from the erased range,
masked, with each masked string's digest kept so the trace's seal still checks.

A trace read the range when one of its quoted passages (a dict carrying ``source_id``,
``version``, ``section_key``, ``start``, ``end`` and ``text`` — the plan's spans, the closest
sources of an abstention) lies over it. In such a trace :func:`erase_in_trace` masks

* the characters of each such passage inside the range (by offset, as the store masks the
  section);
* every copy of the erased text elsewhere in the trace — the draft, the delivered answer, the
  claims, the quoted text of edits, the request — whole, or a run of at least
  :data:`COPY_MIN` characters of it (an answer that copied part of an erased paragraph);
* the stored vectors of the masked passages and claims (an embedding is derived from the text),
  which become empty strings.

Each masked string's SHA-256 as sealed goes into ``erased["leaves"]`` under its JSON pointer, and
the erasure's id into ``erased["erasures"]``. Identifiers (ids, source ids, section keys,
markers, hashes, model names) are never masked. Lengths never change: a masked character is
:data:`~spanproof.core.store.MASK`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from typing import Any

from spanproof.core.store import MASK, Erasure
from spanproof.core.trace import Trace, canonical_json, pointer_part, sha256_hex

#: A run of the erased text at least this long is masked wherever the trace copied it.
COPY_MIN = 20
#: Erased text shorter than this (not counting spaces) is masked only where it was quoted by
#: offset, not searched for elsewhere ("a", "of" would mask every occurrence).
SEARCH_MIN = 4
#: Top-level fields that hold no copied text.
_SKIP_TOP = frozenset(
    {
        "embeddings",
        "models",
        "id",
        "hash",
        "prev_hash",
        "plan_hash",
        "prompt_hash",
        "created_at",
        "kind",
        "verification",
        "outcome",
        "seal",
        "counts",
        "usage",
    }
)
#: Keys whose strings are identifiers, never text.
_ID_KEYS = frozenset(
    {"id", "source_id", "section_key", "marker", "verdict", "model", "title_id", "doi"}
)


@dataclass(frozen=True, slots=True)
class TraceErasure:
    """An erasure and the text of its range before the masking (``text`` = the section's
    characters ``[start, end)`` as served just before; earlier erasures' masks included)."""

    erasure: Erasure
    text: str


def erase_in_trace(trace: Trace, erased: TraceErasure) -> Trace | None:
    """``trace`` with what it copied from ``erased`` masked, or None when it read nothing of
    the range (or all it read is masked already)."""
    body: dict[str, Any] = json.loads(canonical_json(trace.body()))
    previous: dict[str, str] = dict(trace.erased.get("leaves", {})) if trace.erased else {}
    leaves = dict(previous)
    changed: list[str] = []

    def put(parent: dict[str, Any] | list[Any], key: str | int, pointer: str, new: str) -> None:
        old = parent[key]  # type: ignore[index]
        if new != old:
            leaves.setdefault(pointer, sha256_hex(old))  # the digest as sealed, kept once
            parent[key] = new  # type: ignore[index]
            changed.append(pointer)

    pieces: list[str] = []
    masked_plan: set[int] = set()
    for pointer, quoted in _quoted_passages(body):
        if not _reads(quoted, erased):
            continue
        e = erased.erasure
        lo, hi = max(quoted["start"], e.start), min(quoted["end"], e.end)
        piece = erased.text[lo - e.start : hi - e.start]
        pieces.append(piece)
        text = quoted["text"]
        if len(text) == quoted["end"] - quoted["start"]:
            new = _mask(text, [(lo - quoted["start"], hi - quoted["start"])])
        else:  # not a plain slice of the section: mask the erased text where it occurs
            new = _mask_copies(text, _searchable([piece]))
        put(quoted, "text", pointer + "/text", new)
        if pointer.startswith("/plan/"):
            masked_plan.add(int(pointer.split("/")[2]))
    if not pieces:
        return None
    searchable = _searchable(pieces)
    if searchable:
        for parent, key, pointer, text in list(_strings(body)):
            put(parent, key, pointer, _mask_copies(text, searchable))
    _blank_vectors(body, masked_plan, searchable, changed, put)
    if not changed:
        return None
    ids = sorted({*(trace.erased.get("erasures", []) if trace.erased else []), erased.erasure.id})
    record = {"erasures": ids, "leaves": dict(sorted(leaves.items()))}
    return replace(Trace(**body), hash=trace.hash, erased=record)


def _quoted_passages(body: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(pointer, dict) for each passage of the trace quoted with its source position."""
    for pointer, value in _dicts(body, ""):
        if (
            isinstance(value.get("text"), str)
            and isinstance(value.get("source_id"), str)
            and isinstance(value.get("section_key"), str)
            and isinstance(value.get("start"), int)
            and isinstance(value.get("end"), int)
            and not isinstance(value.get("start"), bool)
        ):
            yield pointer, value


def _reads(quoted: dict[str, Any], erased: TraceErasure) -> bool:
    """Whether a quoted passage lies (partly) over the erased range."""
    e = erased.erasure
    return (
        quoted["source_id"] == e.source_id
        and quoted.get("version") == e.version
        and quoted["section_key"] == e.section_key
        and quoted["start"] < e.end
        and e.start < quoted["end"]
    )


def _dicts(value: Any, pointer: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(value, dict):
        yield pointer, value
        for key, child in value.items():
            if pointer or key not in _SKIP_TOP:
                yield from _dicts(child, pointer + pointer_part(key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _dicts(child, pointer + pointer_part(i))


def _strings(
    value: Any, pointer: str = ""
) -> Iterator[tuple[dict[str, Any] | list[Any], str | int, str, str]]:
    """(parent, key, pointer, text) for each string that may hold copied text."""
    items: list[tuple[str | int, Any]]
    if isinstance(value, dict):
        items = [
            (k, v)
            for k, v in value.items()
            if k not in _ID_KEYS and (pointer or k not in _SKIP_TOP)
        ]
    elif isinstance(value, list):
        items = list(enumerate(value))
    else:
        return
    for key, child in items:
        here = pointer + pointer_part(key)
        if isinstance(child, str):
            yield value, key, here, child
        else:
            yield from _strings(child, here)


def _blank_vectors(
    body: dict[str, Any],
    masked_plan: set[int],
    searchable: list[str],
    changed: list[str],
    put: Callable[[dict[str, Any] | list[Any], str | int, str, str], None],
) -> None:
    """Empty the vectors of masked plan spans, masked claims and masked phrases."""
    embeddings = body.get("embeddings")
    if not isinstance(embeddings, dict):
        return
    masked_claims = {int(p.split("/")[2]) for p in changed if re.fullmatch(r"/claims/\d+/text", p)}
    for key, value in embeddings.items():
        base = "/embeddings" + pointer_part(key)
        if not isinstance(value, list):
            continue
        for i, entry in enumerate(value):
            here = base + pointer_part(i)
            if key == "claims" and isinstance(entry, str) and i in masked_claims:
                put(value, i, here, "")
            elif isinstance(entry, dict) and isinstance(entry.get("vector"), str):
                span = entry.get("span")
                hit = isinstance(span, int) and span in masked_plan
                text = entry.get("text")
                if isinstance(text, str):
                    new = _mask_copies(text, searchable)
                    hit = hit or new != text
                    put(entry, "text", here + "/text", new)
                if hit:
                    put(entry, "vector", here + "/vector", "")


def _searchable(pieces: list[str]) -> list[str]:
    """The runs of ``pieces`` between masks that are long enough to search for."""
    out: list[str] = []
    for piece in pieces:
        for run in re.split(f"{MASK}+", piece):
            if len(run.strip()) >= SEARCH_MIN and run not in out:
                out.append(run)
    return out


def _mask(text: str, ranges: list[tuple[int, int]]) -> str:
    chars = list(text)
    for first, last in ranges:
        lo, hi = max(first, 0), min(last, len(chars))
        chars[lo:hi] = MASK * max(hi - lo, 0)
    return "".join(chars)


def _mask_copies(text: str, pieces: list[str]) -> str:
    """``text`` with each piece masked where it occurs whole, and each run of at least
    :data:`COPY_MIN` characters it shares with a piece masked."""
    ranges: list[tuple[int, int]] = []
    for piece in pieces:
        at = text.find(piece)
        while at >= 0:
            ranges.append((at, at + len(piece)))
            at = text.find(piece, at + 1)
        if len(piece) >= COPY_MIN and len(text) >= COPY_MIN:
            matcher = SequenceMatcher(None, text, piece, autojunk=False)
            ranges.extend(
                (b.a, b.a + b.size) for b in matcher.get_matching_blocks() if b.size >= COPY_MIN
            )
    return _mask(text, ranges) if ranges else text
