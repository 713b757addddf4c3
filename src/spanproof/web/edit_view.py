"""The trace viewer's view of a claim's edits (score model v4): the claim beside its evidence
sentence, the changed words marked with ``<ins>``, ``<del>`` or ``<mark>`` and a numbered text
label, and one row per edit with its judgement (so nothing is told by colour alone)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spanproof.text.sentences import split_sentences

#: Which element marks an edit's words, on the claim side and on the evidence side.
_CLAIM_TAG = {"insertion": "ins", "substitution": "mark", "transposition": "mark"}
_EVIDENCE_TAG = {"deletion": "del", "substitution": "mark", "transposition": "mark"}


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of text; ``tag`` (``ins``, ``del``, ``mark``) and ``label`` set when it is edited."""

    text: str
    tag: str = ""
    label: str = ""


@dataclass(frozen=True, slots=True)
class EditRow:
    number: int
    op: str
    claim_text: str
    evidence_text: str
    judgement: str
    status: str  # allowed | unsupported | contradicted


@dataclass(frozen=True, slots=True)
class EditsView:
    evidence_id: str
    outcome: str  # "no unsupported edit" | "unsupported" | "contradicted"
    claim: list[Piece]
    evidence: list[Piece]
    rows: list[EditRow]
    #: what the claim side is: the claim, or the proposition a denial negates (a bare "No.")
    claim_caption: str = "Claim"


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(frozen=True, slots=True)
class _Edit:
    number: int
    op: str
    claim: tuple[int, int]
    evidence: tuple[int, int]
    evidence_id: str
    judgement: str


def _parse(raw: Any) -> list[_Edit]:
    """The well-formed edits of a stored claim (anything malformed is left out)."""
    out: list[_Edit] = []
    if not isinstance(raw, list):
        return out
    for item in raw:
        if not isinstance(item, dict):
            continue
        claim, evidence = item.get("claim"), item.get("evidence")
        if not isinstance(claim, dict) or not isinstance(evidence, dict):
            continue
        bounds = [_int(claim.get("start")), _int(claim.get("end"))]
        bounds += [_int(evidence.get("start")), _int(evidence.get("end"))]
        if any(b is None for b in bounds):
            continue
        c0, c1, e0, e1 = (int(b) for b in bounds if b is not None)
        out.append(
            _Edit(
                len(out) + 1,
                str(item.get("op", "")),
                (c0, c1),
                (e0, e1),
                str(evidence.get("id", "")),
                str(item.get("judgement", "")),
            )
        )
    return out


def _pieces(
    text: str, marks: list[tuple[int, int, str, str]], lo: int = 0, hi: int | None = None
) -> list[Piece]:
    """``text[lo:hi]`` cut into plain and marked pieces (an overlapping mark is left out)."""
    hi = len(text) if hi is None else hi
    out: list[Piece] = []
    cursor = lo
    for start, end, tag, label in sorted(marks):
        if start < cursor or end > hi or start >= end:
            continue
        if start > cursor:
            out.append(Piece(text[cursor:start]))
        out.append(Piece(text[start:end], tag, label))
        cursor = end
    if cursor < hi:
        out.append(Piece(text[cursor:hi]))
    return out


def _excerpt(text: str, ranges: list[tuple[int, int]]) -> tuple[int, int]:
    """The sentences of ``text`` that hold every range."""
    if not ranges:
        return 0, len(text)
    lo, hi = min(r[0] for r in ranges), max(r[1] for r in ranges)
    start, end = lo, hi
    for sentence in split_sentences(text):
        if sentence.start <= lo <= sentence.end:
            start = min(start, sentence.start)
        if sentence.start <= hi <= sentence.end:
            end = max(end, sentence.end)
    return start, end


def edits_view(claim: dict[str, Any], plan: list[dict[str, Any]]) -> EditsView | None:
    """The edits of one stored claim, ready for the template; None when it has none."""
    edits = _parse(claim.get("edits"))
    if not edits:
        return None
    evidence_id = edits[0].evidence_id
    entry = next((e for e in plan if str(e.get("id")) == evidence_id), None)
    evidence_text = str(entry.get("text", "")) if entry is not None else ""
    # a denial's edits are of the proposition it negates, the text that was scored
    claim_text = str(claim.get("negates") or claim.get("text", ""))
    ours = [e for e in edits if e.evidence_id == evidence_id]
    claim_marks = [
        (e.claim[0], e.claim[1], _CLAIM_TAG[e.op], f"{e.number} {e.op}")
        for e in ours
        if e.op in _CLAIM_TAG and e.claim[1] <= len(claim_text)
    ]
    evidence_marks = [
        (e.evidence[0], e.evidence[1], _EVIDENCE_TAG[e.op], f"{e.number} {e.op}")
        for e in ours
        if e.op in _EVIDENCE_TAG and e.evidence[1] <= len(evidence_text)
    ]
    inside = [e.evidence for e in ours if e.evidence[1] <= len(evidence_text)]
    lo, hi = _excerpt(evidence_text, inside)
    statuses = {e.judgement.partition(":")[0] for e in edits}
    outcome = next(
        (s for s in ("contradicted", "unsupported") if s in statuses), "no unsupported edit"
    )
    rows = [
        EditRow(
            e.number,
            e.op,
            claim_text[e.claim[0] : e.claim[1]],
            evidence_text[e.evidence[0] : e.evidence[1]] if e.evidence_id == evidence_id else "",
            e.judgement,
            e.judgement.partition(":")[0],
        )
        for e in edits
    ]
    return EditsView(
        evidence_id,
        outcome,
        _pieces(claim_text, claim_marks),
        _pieces(evidence_text, evidence_marks, lo, hi),
        rows,
        "Proposition the answer denies" if claim.get("negates") else "Claim",
    )
