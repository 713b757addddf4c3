"""The trace viewer's view of a trace: the answer cut at its claims, each claim with its verdict
and the source text of its best span, and the plan spans the claims cite or were judged on."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from spanproof.core.models import Verdict
from spanproof.core.outcome import edit_reasons, headline, judge_doubt, trace_outcome
from spanproof.core.store import EvidenceStore, Section
from spanproof.core.trace import Trace
from spanproof.text.markdown import markdown_syntax
from spanproof.web.edit_view import EditsView, edits_view
from spanproof.web.templating import LABELS, source_url

GATES = ("numeric", "entity", "polarity", "finding")

#: How a best span relates to its claim, said in words above the text (never colour alone).
RELATIONS: dict[str, tuple[str, str]] = {
    Verdict.SUPPORTED.value: ("supports", "Evidence — the span that supports the claim"),
    Verdict.PARTIAL.value: ("partial", "Evidence — supports part of the claim"),
    Verdict.CONTRADICTED.value: ("contradicts", "Contradicting text — this span says otherwise"),
}
#: A claim the judge's veto (score model v57) turned ``partial``.
VETOED = (
    "partial",
    "Evidence — close to the claim, but the judge doubts that it supports it; a person should look",
)
#: A claim the polarity gate called ``contradicted`` and the judge's veto (v58) turned
#: ``partial``: the judge reads the span as stating the claim.
VETOED_CONTRADICTION = (
    "partial",
    "Evidence — this span seems to say otherwise, but the judge reads it as stating the claim; "
    "a person should look",
)
CLOSEST = ("closest", "Closest text — does not support the claim")
#: A denial's (a bare "No.", ``negates`` set): its span is the proposition's reading.
DENIAL_RELATIONS: dict[str, tuple[str, str]] = {
    Verdict.PARTIAL.value: (
        "partial",
        "Evidence — this span says otherwise than the proposition the answer denies; "
        "a person should look",
    ),
    Verdict.CONTRADICTED.value: (
        "contradicts",
        "Contradicting text — this span states what the answer denies",
    ),
}


@dataclass(frozen=True, slots=True)
class Highlight:
    """A text with one highlighted range: ``text[:start]``, ``text[start:end]``, the rest."""

    before: str
    marked: str
    after: str

    @classmethod
    def of(cls, text: str, start: int, end: int) -> Highlight:
        start = max(0, min(start, len(text)))
        end = max(start, min(end, len(text)))
        return cls(text[:start], text[start:end], text[end:])


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where a claim's best span lies: its plan entry and the highlighted section text.

    ``relation`` (``supports``, ``partial``, ``contradicts``, ``closest``) and ``caption`` say
    what the span is to the claim: the best span of a claim that is not supported is only the
    closest text, and is not marked like evidence.
    """

    entry: dict[str, Any]
    highlight: Highlight
    section_title: str
    from_store: bool
    url: str | None
    relation: str = "supports"
    caption: str = ""


@dataclass(frozen=True, slots=True)
class ClaimView:
    claim: dict[str, Any]
    number: int
    panel_id: str
    verdict: str
    label: str
    gates: list[str]
    evidence: Evidence | None
    edits: EditsView | None = None  # score model v4's edit check
    #: what the edit check refused, once each ("edit: population dropped"), as the CLI says it
    refused_edits: tuple[str, ...] = ()
    #: what the judge's veto (score model v57) said of a claim it turned partial, as the CLI
    #: says it ("judge: entailed 0.04 < 0.1"); "" otherwise
    judge_doubt: str = ""


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of answer text; ``claim`` set when the piece is a claim's draft span.

    ``pieces`` cut ``text`` for display: each with its CSS class, ``md`` for Markdown syntax
    (shown dimmed, never hidden: the page shows every character of the draft), ``md-heading``
    for a heading's words, ``""`` for the rest.
    """

    text: str
    claim: ClaimView | None = None
    pieces: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not self.pieces:
            object.__setattr__(self, "pieces", ((self.text, ""),))


@dataclass(frozen=True, slots=True)
class PlanRow:
    """A plan span and the claims (by number) that cite it or were judged on it."""

    entry: dict[str, Any]
    cited_by: tuple[int, ...]
    judged_for: tuple[int, ...]

    @property
    def used(self) -> bool:
        return bool(self.cited_by or self.judged_for)


@dataclass(frozen=True, slots=True)
class OutcomeView:
    """A trace's outcome as shown: its value (for the CSS class) and its icon and words."""

    value: str
    headline: str

    @classmethod
    def of(cls, trace: Trace) -> OutcomeView:
        outcome, counts = trace_outcome(trace)
        if outcome is None:
            return cls(
                "unknown", "? outcome unknown (a stored verdict is not one spanproof writes)"
            )
        return cls(outcome.value, headline(outcome, counts, trace.verification))


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _relation(verdict: str, denial: bool = False) -> tuple[str, str]:
    if denial and verdict in DENIAL_RELATIONS:
        return DENIAL_RELATIONS[verdict]
    return RELATIONS.get(verdict, CLOSEST)


def _evidence(
    store: EvidenceStore, claim: dict[str, Any], plan: list[dict[str, Any]]
) -> Evidence | None:
    best = claim.get("best_span")
    if not isinstance(best, dict):
        return None
    entry = next((e for e in plan if str(e.get("id")) == str(best.get("id"))), None)
    b_start, b_end = _int(best.get("start")), _int(best.get("end"))
    if entry is None or b_start is None or b_end is None:
        return None
    relation, caption = _relation(str(claim.get("verdict", "")), bool(claim.get("negates")))
    if claim.get("verdict") == Verdict.PARTIAL.value and judge_doubt(claim.get("judge")):
        judge = claim.get("judge")
        doubted = judge.get("doubts") if isinstance(judge, dict) else None
        relation, caption = VETOED_CONTRADICTION if doubted == "contradicted" else VETOED
    source_id, version, key = (
        entry.get("source_id"),
        _int(entry.get("version")),
        entry.get("section_key"),
    )
    e_start = _int(entry.get("start"))
    section: Section | None = None
    if (
        isinstance(source_id, str)
        and version is not None
        and isinstance(key, str)
        and e_start is not None
    ):
        section = store.section(source_id, version, key)
    if section is not None and e_start is not None:
        return Evidence(
            entry,
            Highlight.of(section.text, e_start + b_start, e_start + b_end),
            section.title,
            True,
            source_url(section.source_id, section.version, section.key),
            relation,
            caption,
        )
    url = source_url(source_id) if isinstance(source_id, str) else None
    text = str(entry.get("text", ""))
    return Evidence(entry, Highlight.of(text, b_start, b_end), "", False, url, relation, caption)


def claim_views(store: EvidenceStore, trace: Trace) -> list[ClaimView]:
    views = []
    for index, claim in enumerate(trace.claims, start=1):
        verdict = str(claim.get("verdict", ""))
        views.append(
            ClaimView(
                claim=claim,
                number=index,
                panel_id=f"claim-panel-{index}",
                verdict=verdict if verdict in LABELS else "unknown",
                label=LABELS.get(verdict, verdict),
                gates=[g for g in GATES if claim.get(f"{g}_gated")],
                evidence=_evidence(store, claim, trace.plan),
                edits=edits_view(claim, trace.plan),
                refused_edits=tuple(
                    edit_reasons(str(e.get("judgement", "")) for e in claim.get("edits") or ())
                ),
                judge_doubt=judge_doubt(claim.get("judge")),
            )
        )
    return views


def segments(text: str, views: list[ClaimView]) -> list[Segment]:
    """``text`` cut at the claims' draft spans (overlapping spans: the first one wins).

    With no text (claims sent to ``/v1/verify`` without a draft) the claims themselves, one
    per line, make the answer.
    """
    if not text.strip():
        out: list[Segment] = []
        for view in views:
            if out:
                out.append(Segment("\n"))
            out.append(Segment(str(view.claim.get("text", "")), view))
        return out
    placed = []
    for view in views:
        span = view.claim.get("draft_span")
        if isinstance(span, list | tuple) and len(span) == 2:
            start, end = _int(span[0]), _int(span[1])
            if start is not None and end is not None and 0 <= start < end <= len(text):
                placed.append((start, end, view))
    placed.sort(key=lambda p: (p[0], p[1]))
    classes = _display_classes(text)
    cut: list[Segment] = []
    cursor = 0
    for start, end, view in placed:
        if start < cursor:
            continue
        if start > cursor:
            cut.append(_segment(text, cursor, start, classes))
        cut.append(_segment(text, start, end, classes, view))
        cursor = end
    if cursor < len(text):
        cut.append(_segment(text, cursor, len(text), classes))
    return cut


def _display_classes(text: str) -> list[str]:
    """Each character's display class (see :class:`Segment`), from its Markdown syntax."""
    syntax = markdown_syntax(text)
    classes = [""] * len(text)
    for start, end in syntax.headings:
        classes[start:end] = ["md-heading"] * (end - start)
    for start, end in syntax.marks:
        classes[start:end] = ["md"] * (end - start)
    return classes


def _segment(
    text: str, start: int, end: int, classes: list[str], view: ClaimView | None = None
) -> Segment:
    pieces: list[tuple[str, str]] = []
    for kind, group in itertools.groupby(range(start, end), key=lambda i: classes[i]):
        at = list(group)
        pieces.append((text[at[0] : at[-1] + 1], kind))
    return Segment(text[start:end], view, tuple(pieces))


def plan_rows(trace: Trace, views: list[ClaimView]) -> list[PlanRow]:
    """Every plan span, with the claims that cite it (by marker or id) or were judged on it."""
    rows = []
    for entry in trace.plan:
        names = {str(entry.get("marker", "")), str(entry.get("id", ""))} - {""}
        cited = tuple(
            v.number for v in views if names & {str(m) for m in v.claim.get("cited_markers") or ()}
        )
        judged = tuple(
            v.number
            for v in views
            if v.evidence is not None and str(v.evidence.entry.get("id")) == str(entry.get("id"))
        )
        rows.append(PlanRow(entry, cited, judged))
    return rows


def _float(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def _score(value: Any) -> str:
    number = _float(value)
    return "—" if number is None else f"{number:.3f}"


def _source_link(ref: dict[str, Any]) -> str | None:
    """The source page a span reference names (its section when known), or None."""
    source_id = ref.get("source_id")
    if not isinstance(source_id, str) or not source_id:
        return None
    key = ref.get("section_key")
    return source_url(source_id, _int(ref.get("version")), key if isinstance(key, str) else None)


@dataclass(frozen=True, slots=True)
class ClosestSource:
    """A span the relevance floor dropped, shown beside an abstention."""

    marker: str
    text: str
    name: str
    url: str | None
    score: str


@dataclass(frozen=True, slots=True)
class RelevanceView:
    """How relevant the plan was to the question (``Trace.relevance``), as shown.

    ``answered`` is False for an abstention: no span reached ``floor``, or the answerability gate
    (``gate_*``, set when the trace records its decision) found that no source states what the
    question asks about; ``closest`` are then the spans that came nearest.
    """

    score: str
    floor: str
    model: str
    answered: bool
    closest: tuple[ClosestSource, ...]
    gate_model: str = ""
    gate_score: str = ""
    gate_floor: str = ""
    gate_answered: bool = True

    @property
    def gate_abstained(self) -> bool:
        """The answerability gate, not the relevance floor, made this answer an abstention."""
        return bool(self.gate_model) and not self.gate_answered

    @classmethod
    def of(cls, trace: Trace) -> RelevanceView | None:
        """None for a trace that records no relevance (older traces, no relevance model)."""
        record = trace.relevance
        if not record:
            return None
        closest = []
        for entry in record.get("closest") or ():
            if not isinstance(entry, dict):
                continue
            title, source_id = entry.get("title"), entry.get("source_id")
            closest.append(
                ClosestSource(
                    marker=str(entry.get("id", "")),
                    text=str(entry.get("text", "")),
                    name=str(title or source_id or ""),
                    url=_source_link(entry),
                    score=_score(entry.get("relevance")),
                )
            )
        gate = record.get("answerability")
        gate = gate if isinstance(gate, dict) else {}
        return cls(
            score=_score(record.get("score")),
            floor=_score(record.get("floor")),
            model=str(record.get("model", "")),
            answered=record.get("answered") is not False,
            closest=tuple(closest),
            gate_model=str(gate.get("model", "")),
            gate_score=_score(gate.get("score")) if gate else "",
            gate_floor=_score(gate.get("floor")) if gate else "",
            gate_answered=gate.get("answered") is not False,
        )


@dataclass(frozen=True, slots=True)
class ReadStretch:
    """A stretch of a planned source a proposition was read against in full (``R1``…): where it
    is, so a reader can open it."""

    marker: str
    source_name: str
    url: str | None
    section: str
    start: int | None
    end: int | None


@dataclass(frozen=True, slots=True)
class PropositionView:
    """The proposition a question asked about (``Trace.proposition``) and its verdict.

    ``verdict`` is "" when the check could not run (``verification`` says why). ``relation``
    and ``caption`` say what the best span is to the claim, as for a claim's evidence.
    """

    claim: str
    verdict: str
    verification: str
    span_text: str
    marker: str
    source_name: str
    url: str | None
    relation: str
    caption: str
    #: False when the best span states an aim, a design or a method rather than a finding
    #: (``evidence_states_finding`` in the record; absent, and so True, otherwise).
    states_finding: bool = True
    #: When the verdict came from reading the plan's sources in full (``read`` in the record):
    #: the stretches read; empty otherwise and for older records.
    read: tuple[ReadStretch, ...] = ()

    @classmethod
    def of(cls, trace: Trace) -> PropositionView | None:
        """None for a trace whose question was not a proposition (or an older trace)."""
        record = trace.proposition
        if not record:
            return None
        verdict = record.get("verdict")
        verdict = str(verdict) if verdict else ""
        best = record.get("best_span")
        best = best if isinstance(best, dict) else {}
        source = best.get("source")
        source = source if isinstance(source, dict) else {}
        relation, caption = _relation(verdict)
        return cls(
            claim=str(record.get("claim", "")),
            verdict=verdict,
            verification=str(record.get("verification", "")),
            span_text=str(best.get("text", "")),
            marker=str(best.get("marker", "")),
            source_name=str(source.get("title") or source.get("source_id") or ""),
            url=_source_link(source),
            relation=relation,
            caption=caption,
            states_finding=record.get("evidence_states_finding") is not False,
            read=tuple(
                ReadStretch(
                    marker=str(r.get("marker", "")),
                    source_name=str(r.get("title") or r.get("source_id") or ""),
                    url=_source_link(r),
                    section=str(r.get("section_key", "")),
                    start=_int(r.get("start")),
                    end=_int(r.get("end")),
                )
                for r in record.get("read") or ()
                if isinstance(r, dict)
            ),
        )
