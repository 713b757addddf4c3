"""Propositions asked of the store: verify the question itself and lead with the verdict.

When a question is a proposition (a statement, "Is it true that …", "Does/Is/Can … ?";
:func:`spanproof.verify.proposition.proposition_of`), the answering service verifies the declarative
claim it asks about with the same scoring as ``spanproof verify``
(:func:`~spanproof.services.verification.score_all`), and the answer opens with the verdict:

* ``supported`` — "Supported by [S1]: “<the span's words>”";
* ``contradicted`` — "Contradicted by [S1]: “<the span's words>”";
* ``unsupported`` (also for ``partial`` and ``evidence_redacted``) — "Not established by the
  sources."

A supported or contradicted lead whose span states an aim, a design or a method rather than a
finding (:func:`~spanproof.verify.gates.states_no_finding`: "OBJECTIVE To determine whether …",
"We investigated whether …") says so after the quote (:data:`NO_FINDING_NOTE`): on SciFact's
open task (200 sampled claims) such leads were right 16 times in 28, the others 98 times in 132
(docs/quality.md, "Open SciFact").

**Reading the plan's sources in full** (:func:`reading_evidence`): the claim is scored against
the plan's spans, and also against the plan's :data:`READ_SOURCES` most relevant sources read
in full around their planned spans (an abstract whole, a long section within
:data:`READ_MARGIN` characters of what was planned; each unerased stretch one evidence item,
markers ``R1``…, then the plan's spans from its other sources). The plan packs a few sentences per
source for the answer under a token budget; the sentence that reverses a claim is often another
sentence of the same abstract. The full reading can only make the verdict ``contradicted``: when
it contradicts a claim the plan's spans did not, that verdict stands; otherwise the plan's verdict
does, so reading more text never makes a claim ``supported`` (more text is more chances of a
close sentence, which is not support). On SciFact's open task (the 505 labelled claims against
the whole corpus, score model v36) label accuracy rose from 0.549 to 0.590, `contradicted` right
58 times in 87 against 30 in 47 (docs/quality.md, "Open SciFact"). A best span that lies inside a
planned span is cited by that span's marker (``S2``); otherwise by its ``R`` marker, which
:attr:`PropositionCheck.read` maps to its source.

The evidence (the generated, verified answer) follows. When the check cannot run (no embedder,
a failed model) there is no verdict and no lead; the reason is in ``verification``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from spanproof.core.checker import EntailmentChecker
from spanproof.core.models import Claim, ClaimVerdict, EvidenceSpan, SpanRef, Verdict
from spanproof.core.ports import Embedder
from spanproof.core.store import MASK, Section
from spanproof.services.planning import Plan
from spanproof.services.verification import VERIFIED, score_all
from spanproof.text.sentences import split_sentences
from spanproof.verify.gates import states_no_finding
from spanproof.verify.proposition import proposition_of
from spanproof.verify.scoring import ScoreModel

#: The lead of an answer whose proposition the sources neither support nor contradict.
NOT_ESTABLISHED = "Not established by the sources."
#: The whole answer to a proposition when no source bears on it (the answer abstains): one
#: sentence, not the lead followed by the abstention's own.
NOT_ESTABLISHED_NOTHING_RELEVANT = (
    "Not established by the sources: none of them bears on the question."
)
_LEADS = {Verdict.SUPPORTED: "Supported by", Verdict.CONTRADICTED: "Contradicted by"}
#: After a lead whose quoted span states no finding (an aim, a design, a method).
NO_FINDING_NOTE = (
    "(this sentence says what the study set out to do or how, not what it found: "
    "read the source before relying on it)"
)
#: How many of the plan's sources (by their best span's relevance) a proposition is read
#: against in full, for a reversal the plan's spans miss. On SciFact's open task (505 labelled
#: claims, score model v36) label accuracy was 0.549 reading none, 0.584 / 0.578 / 0.590 / 0.592
#: reading 1 / 2 / 3 / 5 (``scripts/open_scifact.py --read-sources K``).
READ_SOURCES = 3
#: How far around a planned span a section is read (characters, then whole sentences): an
#: abstract is read whole (SciFact's: median 1,331 characters, 99th percentile 2,985), a long
#: full-text section only near what was planned.
READ_MARGIN = 1_500
_UNMASKED = re.compile(rf"[^{re.escape(MASK)}]+")


@dataclass(frozen=True, slots=True)
class PropositionCheck:
    """The verdict on the proposition a question asks about.

    Attributes:
        claim: the declarative claim verified (``Daily walking raised blood pressure.``).
        form: how it was asked: ``statement``, ``whether`` or ``yes_no``.
        verification: ``verified``, or ``unavailable: <reason>`` (then ``verdict`` is None).
        verdict: ``supported``, ``contradicted`` or ``unsupported``.
        result: the claim's full verdict (score, best span, gates, judge), as for ``verify``.
        evidence: the best span's words (the window scored), "" without one.
        source: the best span's source reference (``source_id``, ``version``, ``section_key``,
            ``start``, ``end``, ``title``), empty without one.
        read: when the verdict comes from reading the plan's sources in full, each ``R``
            marker of :func:`reading_evidence` with its source reference (the stretch of a
            section it holds); empty when the verdict is the plan's.

    :attr:`states_finding` is False when ``evidence`` states an aim, a design or a method
    rather than a finding; the lead then says so, and the JSON carries
    ``"evidence_states_finding": false``.
    """

    claim: str
    form: str
    verification: str
    verdict: Verdict | None
    result: ClaimVerdict | None = None
    evidence: str = ""
    source: dict[str, Any] | None = None
    read: tuple[dict[str, Any], ...] = ()

    @property
    def marker(self) -> str | None:
        """The plan marker of the best span (``S1``), or None."""
        return self.result.best_span.id if self.result and self.result.best_span else None

    @property
    def states_finding(self) -> bool:
        """False when the best span states an aim, a design or a method, not a finding: v7's
        cues, or a sentence that states only a procedure ("We placed temperature loggers in 48
        city blocks"), whatever the score model."""
        return not (self.evidence and states_no_finding(self.evidence, procedures=True))

    @property
    def lead(self) -> str:
        """The answer's opening sentence: the verdict and its span (with
        :data:`NO_FINDING_NOTE` when the span states no finding), or "" without a verdict."""
        if self.verdict is None:
            return ""
        if self.verdict in _LEADS and self.marker is not None:
            quoted = f"{_LEADS[self.verdict]} [{self.marker}]: “{self.evidence}”"
            return quoted if self.states_finding else f"{quoted} {NO_FINDING_NOTE}"
        return NOT_ESTABLISHED

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape (``ask --json``, ``/v1/generate`` and traces)."""
        best = None
        if self.result is not None and self.result.best_span is not None:
            span = self.result.best_span
            best = {
                "marker": span.id,
                "start": span.start,
                "end": span.end,
                "text": self.evidence,
                "source": dict(self.source or {}),
            }
        return {
            "claim": self.claim,
            "form": self.form,
            "verification": self.verification,
            "verdict": self.verdict.value if self.verdict is not None else None,
            "lead": self.lead,
            "best_span": best,
            "result": self.result.to_dict() if self.result is not None else None,
            # only when it is so, so earlier records keep their shape
            **({"evidence_states_finding": False} if not self.states_finding else {}),
            **({"read": [dict(r) for r in self.read]} if self.read else {}),
        }


def proposition_verdict(verdict: Verdict) -> Verdict:
    """A claim verdict as a proposition's: supported, contradicted, else unsupported."""
    if verdict in (Verdict.SUPPORTED, Verdict.CONTRADICTED):
        return verdict
    return Verdict.UNSUPPORTED


def _source_key(span: EvidenceSpan) -> tuple[str, int]:
    return (str(span.source["source_id"]), int(span.source["version"]))


def _read_ranges(section: Section, planned: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The stretches of ``section`` read around its planned spans: up to :data:`READ_MARGIN`
    characters either side of each, widened to whole sentences and merged, then split where
    erased text lies (never read)."""
    sentences = split_sentences(section.text)
    ranges: list[tuple[int, int]] = []
    for lo, hi in sorted(planned):
        want = (max(0, lo - READ_MARGIN), min(len(section.text), hi + READ_MARGIN))
        inside = [x for x in sentences if x.end > want[0] and x.start < want[1]]
        a = min([want[0], *(x.start for x in inside)]) if inside else want[0]
        b = max([want[1], *(x.end for x in inside)]) if inside else want[1]
        if ranges and a <= ranges[-1][1]:
            ranges[-1] = (ranges[-1][0], max(ranges[-1][1], b))
        else:
            ranges.append((a, b))
    return [
        (a + m.start(), a + m.end())
        for a, b in ranges
        for m in _UNMASKED.finditer(section.text[a:b])
        if m.group().strip()
    ]


def reading_evidence(
    plan: Plan,
    sections: Callable[[str, int], Sequence[Section]],
    sources: int = READ_SOURCES,
) -> tuple[EvidenceSpan, ...]:
    """What a proposition is read against: the text around the planned spans of the plan's
    ``sources`` most relevant sources (:data:`READ_SOURCES`), then the plan's spans from its
    other sources, then its hints.

    Sources are ranked by their best planned span's relevance (plan order without a relevance
    model; ties by marker). Of each, every section that holds a planned span is read up to
    :data:`READ_MARGIN` characters either side of its planned spans, in whole sentences (an
    abstract is read whole; a long full-text section only around what was planned, so the
    reading stays bounded). Each unerased stretch is one evidence item, markers ``R1``…, its
    source reference the stretch's place in the section; erased text is never read, as it
    never enters a plan. A source with nothing to read keeps its planned spans.
    """
    chosen = plan.ranked_sources()[:sources]
    titles = {_source_key(s): s.source.get("title") for s in plan.spans}
    read: list[EvidenceSpan] = []
    whole: set[tuple[str, int]] = set()
    for source_id, version in chosen:
        planned: dict[str, list[tuple[int, int]]] = {}
        for span in plan.spans:
            if _source_key(span) == (source_id, version):
                planned.setdefault(str(span.source["section_key"]), []).append(
                    (int(span.source["start"]), int(span.source["end"]))
                )
        stretches = [
            (section, start, end)
            for section in sections(source_id, version)
            if section.key in planned
            for start, end in _read_ranges(section, planned[section.key])
        ]
        if not stretches:
            continue
        whole.add((source_id, version))
        for section, start, end in stretches:
            read.append(
                EvidenceSpan(
                    id=f"R{len(read) + 1}",
                    text=section.text[start:end],
                    source={
                        "source_id": source_id,
                        "version": version,
                        "section_key": section.key,
                        "start": start,
                        "end": end,
                        "title": titles.get((source_id, version)),
                    },
                )
            )
    rest = tuple(s for s in plan.spans if _source_key(s) not in whole)
    return (*read, *rest, *plan.hints)


def _as_planned(result: ClaimVerdict, read: EvidenceSpan, plan: Plan) -> ClaimVerdict:
    """``result`` with its best span (inside the read stretch ``read``) named by the planned
    span that holds it, when one does; unchanged otherwise."""
    best = result.best_span
    if best is None:
        return result
    lo, hi = read.source["start"] + best.start, read.source["start"] + best.end
    for span in plan.spans:
        if (
            _source_key(span) == _source_key(read)
            and span.source["section_key"] == read.source["section_key"]
            and span.source["start"] <= lo
            and hi <= span.source["end"]
        ):
            start = span.source["start"]
            return replace(result, best_span=SpanRef(span.id, lo - start, hi - start))
    return result


def check_proposition(
    question: str,
    plan: Plan,
    *,
    embedder: Embedder | None,
    model: ScoreModel,
    checker: EntailmentChecker | None = None,
    sections: Callable[[str, int], Sequence[Section]] | None = None,
    read_sources: int = READ_SOURCES,
) -> PropositionCheck | None:
    """Verify the proposition ``question`` asks about; None when it asks none.

    The claim is scored like a stand-alone claim of ``spanproof verify`` (no cited markers, so
    every evidence item is a candidate), under ``model`` and, for the score models that read
    one, ``checker``, against the plan's spans; when ``sections`` reads the store,
    ``read_sources`` is above 0 and that verdict is not ``contradicted``, also against
    :func:`reading_evidence` (the plan's ``read_sources`` most relevant sources in full), whose
    verdict replaces it only when it is ``contradicted``.
    """
    proposition = proposition_of(question)
    if proposition is None:
        return None
    claim = Claim(id="p1", text=proposition.claim.rstrip("."))
    verdicts, status = score_all([claim], plan.evidence, embedder, model, checker)
    if status != VERIFIED or not verdicts:
        return PropositionCheck(proposition.claim, proposition.form, status, None)
    result, evidence = verdicts[0], plan.evidence
    if sections is not None and read_sources > 0 and result.verdict is not Verdict.CONTRADICTED:
        reading = reading_evidence(plan, sections, read_sources)
        if any(span.id.startswith("R") for span in reading):
            read, read_status = score_all([claim], reading, embedder, model, checker)
            if read_status == VERIFIED and read and read[0].verdict is Verdict.CONTRADICTED:
                result, evidence = read[0], reading
    by_id = {span.id: span for span in evidence}
    if result.best_span is not None and result.best_span.id.startswith("R"):
        result = _as_planned(result, by_id[result.best_span.id], plan)
    quoted, source = "", None
    if result.best_span is not None:
        span = plan.span(result.best_span.id) or by_id.get(result.best_span.id)
        if span is not None:
            quoted = span.text[result.best_span.start : result.best_span.end].strip()
            source = dict(span.source)
    read_refs = tuple(
        {"marker": span.id, **span.source} for span in evidence if span.id.startswith("R")
    )
    return PropositionCheck(
        claim=proposition.claim,
        form=proposition.form,
        verification=status,
        verdict=proposition_verdict(result.verdict),
        result=result,
        evidence=quoted,
        source=source,
        read=read_refs,
    )


def with_lead(
    check: PropositionCheck | None, delivered: str | None, abstained: bool = False
) -> str | None:
    """The delivered answer opened by the proposition's verdict (unchanged without one); when
    the answer ``abstained``, a proposition not established is said in one sentence
    (:data:`NOT_ESTABLISHED_NOTHING_RELEVANT`)."""
    if check is None or not check.lead or delivered is None:
        return delivered
    if abstained and check.lead == NOT_ESTABLISHED:
        return NOT_ESTABLISHED_NOTHING_RELEVANT
    return f"{check.lead}\n\n{delivered}" if delivered else check.lead
