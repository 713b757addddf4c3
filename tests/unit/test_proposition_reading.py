"""A proposition is also read against the whole text of the plan's most relevant sources: that
reading can find the sentence that reverses the claim when the plan's packed spans miss it, and
it never makes a claim `supported` the plan's spans did not support."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from spanproof.core.models import ClaimVerdict, EvidenceSpan, SpanRef, Verdict
from spanproof.core.ports import Embedder
from spanproof.core.store import MASK, Section
from spanproof.services.answering import citations
from spanproof.services.planning import Plan
from spanproof.services.propositions import (
    READ_MARGIN,
    READ_SOURCES,
    _as_planned,
    check_proposition,
    reading_evidence,
)
from spanproof.verify.scoring import SCORE_MODELS

BACKGROUND = (
    "Walking programmes are widely recommended for older adults with high systolic blood pressure."
)
FINDING = "Daily walking increased systolic blood pressure by 5 mmHg compared with usual care."
ABSTRACT = (
    f"Hypertension is common in older adults. {BACKGROUND} Two hundred adults walked for 30 "
    f"minutes a day for 12 weeks. {FINDING}"
)
START = ABSTRACT.index(BACKGROUND)


def ref(source_id: str, start: int, end: int, key: str = "abstract") -> dict[str, object]:
    return {
        "source_id": source_id,
        "version": 1,
        "section_key": key,
        "start": start,
        "end": end,
        "title": f"Title of {source_id}",
    }


def walking_plan() -> Plan:
    """A plan that packed the abstract's background sentence, not its finding."""
    span = EvidenceSpan("S1", BACKGROUND, source=ref("doc-1", START, START + len(BACKGROUND)))
    return Plan(question="q", spans=(span,), relevance=(0.9,), relevance_model="m", floor=0.5)


def walking_sections(source_id: str, version: int) -> list[Section]:
    assert (source_id, version) == ("doc-1", 1)
    return [Section("doc-1", 1, "abstract", "Abstract", ABSTRACT, 0)]


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    from spanproof.bootstrap import build_embedder
    from spanproof.config import load_settings

    return build_embedder(load_settings())


@pytest.mark.model
def test_reading_the_source_in_full_finds_the_reversal_the_plan_missed(embedder: Embedder) -> None:
    question = "Did daily walking reduce systolic blood pressure?"
    model = SCORE_MODELS["v36"]
    planned = check_proposition(question, walking_plan(), embedder=embedder, model=model)
    assert planned is not None and planned.verdict is Verdict.SUPPORTED  # topical closeness
    assert planned.read == ()
    read = check_proposition(
        question, walking_plan(), embedder=embedder, model=model, sections=walking_sections
    )
    assert read is not None and read.verdict is Verdict.CONTRADICTED
    none = check_proposition(
        question,
        walking_plan(),
        embedder=embedder,
        model=model,
        sections=walking_sections,
        read_sources=0,
    )
    assert none is not None and none.to_dict() == planned.to_dict()  # 0: the plan's spans alone
    assert read.marker == "R1" and read.evidence == FINDING
    assert read.lead == f"Contradicted by [R1]: “{FINDING}”"
    assert read.read == ({"marker": "R1", **ref("doc-1", 0, len(ABSTRACT))},)
    best = read.to_dict()["best_span"]
    where = best["source"]["start"] + best["start"], best["source"]["start"] + best["end"]
    assert ABSTRACT[where[0] : where[1]].strip() == FINDING  # down to the source's characters
    assert read.to_dict()["read"] == [dict(r) for r in read.read]
    # The answer's citations name the stretch the lead quotes, first.
    cited = citations(f"{read.lead}\n\n{BACKGROUND} [S1]", walking_plan(), read)
    assert list(cited) == ["R1", "S1"] and cited["R1"] == ref("doc-1", 0, len(ABSTRACT))


@pytest.mark.model
def test_reading_in_full_never_makes_a_claim_supported(embedder: Embedder) -> None:
    question = "Did daily walking increase systolic blood pressure by 5 mmHg?"
    span = EvidenceSpan("S1", "Hypertension is common in older adults.", source=ref("doc-1", 0, 39))
    plan = Plan(question="q", spans=(span,), relevance=(0.9,), relevance_model="m", floor=0.5)
    model = SCORE_MODELS["v36"]
    alone = check_proposition(question, plan, embedder=embedder, model=model)
    read = check_proposition(
        question, plan, embedder=embedder, model=model, sections=walking_sections
    )
    assert alone is not None and read is not None
    assert alone.verdict is Verdict.UNSUPPORTED
    assert read.verdict is Verdict.UNSUPPORTED and read.read == ()  # the plan's verdict stands
    assert read.to_dict() == alone.to_dict()


def test_reading_evidence_reads_the_most_relevant_sources_whole_and_no_erased_text() -> None:
    masked = f"First finding here. {MASK * 6} Second finding here."
    spans = (
        EvidenceSpan("S1", "a", source=ref("doc-low", 0, 1)),
        EvidenceSpan("S2", "b", source=ref("doc-top", 0, 1)),
        EvidenceSpan("S3", "c", source=ref("doc-mid", 0, 1)),
        EvidenceSpan("S4", "d", source=ref("doc-last", 0, 1)),
        EvidenceSpan("S5", "e", source=ref("doc-empty", 0, 1)),
    )
    hint = EvidenceSpan("H1", "cached summary", truth_class=False, source={"kind": "cache"})
    plan = Plan(
        question="q",
        spans=spans,
        hints=(hint,),
        relevance=(0.7, 0.9, 0.8, 0.1, 0.85),
        relevance_model="m",
        floor=0.05,
    )
    assert READ_SOURCES == 3
    texts = {
        "doc-top": [("abstract", masked), ("methods", "We measured it.")],
        "doc-mid": [("abstract", "Middle source text.")],
        "doc-empty": [("abstract", MASK * 4)],  # all erased: keeps its planned span
    }

    def sections(source_id: str, version: int) -> Sequence[Section]:
        return [
            Section(source_id, version, key, key.title(), text, n)
            for n, (key, text) in enumerate(texts.get(source_id, []))
        ]

    read = reading_evidence(plan, sections)
    # doc-top's "methods" section holds no planned span: it is not read.
    assert [s.id for s in read] == ["R1", "R2", "R3", "S1", "S4", "S5", "H1"]
    assert [s.text for s in read[:3]] == [
        "First finding here. ",
        " Second finding here.",
        "Middle source text.",
    ]
    assert all(MASK not in s.text for s in read)
    second = read[1].source
    assert masked[second["start"] : second["end"]] == " Second finding here."
    assert read[0].source["title"] == "Title of doc-top"


def test_a_best_span_inside_a_planned_span_is_cited_by_the_plan_marker() -> None:
    found = ABSTRACT.index(FINDING)
    planned = EvidenceSpan("S2", FINDING, source=ref("doc-1", found, len(ABSTRACT)))
    plan = Plan(question="q", spans=(planned,))
    whole = EvidenceSpan("R1", ABSTRACT, source=ref("doc-1", 0, len(ABSTRACT)))
    at = ABSTRACT.index("increased")
    verdict = ClaimVerdict(
        id="p1",
        text="Daily walking reduced systolic blood pressure",
        draft_span=None,
        verdict=Verdict.CONTRADICTED,
        score=0.2,
        best_span=SpanRef("R1", at, at + 9),
        candidates_considered=1,
        cited_markers=(),
        numeric_gated=False,
    )
    named = _as_planned(verdict, whole, plan)
    assert named.best_span is not None and named.best_span.id == "S2"
    assert FINDING[named.best_span.start : named.best_span.end] == "increased"
    elsewhere = EvidenceSpan("R1", ABSTRACT, source=ref("doc-2", 0, len(ABSTRACT)))
    assert _as_planned(verdict, elsewhere, plan) is verdict  # another source: kept as read


def test_a_long_section_is_read_only_around_its_planned_spans_in_whole_sentences() -> None:
    sentences = [
        f"Sentence {k:03d} says walking changed marker {k} in the cohort." for k in range(200)
    ]
    text = " ".join(sentences)
    at = text.index(sentences[100])
    span = EvidenceSpan("S1", sentences[100], source=ref("doc-long", at, at + len(sentences[100])))
    plan = Plan(question="q", spans=(span,), relevance=(0.9,), relevance_model="m", floor=0.5)
    long = [Section("doc-long", 1, "abstract", "Abstract", text, 0)]
    (read, *_rest) = reading_evidence(plan, lambda sid, v: long)
    lo, hi = read.source["start"], read.source["end"]
    assert read.text == text[lo:hi] and sentences[100] in read.text
    assert lo <= at - READ_MARGIN and hi >= at + len(sentences[100]) + READ_MARGIN
    assert read.text.startswith("Sentence ") and read.text.endswith("cohort.")  # whole sentences
    assert len(read.text) < 2 * READ_MARGIN + 3 * len(sentences[0])  # not the whole section
    assert sentences[0] not in read.text and sentences[-1] not in read.text


def test_the_trace_page_names_the_stretches_read_in_full(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from spanproof.api.app import create_app
    from spanproof.store.sqlite.store import SqliteEvidenceStore
    from spanproof.testing.apps import app_state
    from spanproof.testing.fakes import generation_trace
    from spanproof.web.trace_view import PropositionView

    stretch = {"marker": "R1", **ref("doc-1", 0, len(ABSTRACT))}
    record = {
        "claim": "Daily walking reduced systolic blood pressure.",
        "form": "yes_no",
        "verification": "verified",
        "verdict": "contradicted",
        "lead": f"Contradicted by [R1]: “{FINDING}”",
        "best_span": {
            "marker": "R1",
            "start": 0,
            "end": len(FINDING),
            "text": FINDING,
            "source": stretch,
        },
        "result": None,
        "read": [stretch],
    }
    view = PropositionView.of(generation_trace(proposition=record))
    assert view is not None and [(r.marker, r.source_name, r.start, r.end) for r in view.read] == [
        ("R1", "Title of doc-1", 0, len(ABSTRACT))
    ]
    older = PropositionView.of(generation_trace(proposition={**record, "read": None}))
    assert older is not None and older.read == ()
    with SqliteEvidenceStore(tmp_path / "traces.sqlite") as store:
        stored = store.append(generation_trace(proposition=record))
        with TestClient(create_app(app_state(store))) as http:
            page = http.get(f"/traces/{stored.id}")
            assert page.status_code == 200
            assert 'id="proposition-read"' in page.text
            assert "reading this stretch of the planned sources in full" in page.text
            assert f"characters 0–{len(ABSTRACT)}" in page.text
            plain = store.append(generation_trace(proposition={**record, "read": []}))
            assert 'id="proposition-read"' not in http.get(f"/traces/{plain.id}").text
