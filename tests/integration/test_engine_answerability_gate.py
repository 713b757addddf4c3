"""The answerability gate in the verified-answer loop (issue 15), on a real SQLite store holding the
demo corpus: a question about a claim no single source states abstains even though its spans
pass the relevance floor; the gate reads whole sources through the store, records its signals in
the trace's relevance field, and never applies to a question that asks about no claim."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from spanproof.bootstrap import build_parser
from spanproof.core.models import Outcome
from spanproof.core.trace import Trace
from spanproof.ingest.files import iter_path
from spanproof.services.answering import ABSTENTION, Engine
from spanproof.services.generation import ExtractiveGenerator, Generation
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.services.planning import Plan
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.relevance import RELEVANCE_V1_LEXICAL, AnswerabilityModel
from spanproof.verify.scoring import V2

CORPUS = Path(__file__).parents[2] / "examples" / "demo" / "corpus"
#: Walking.md states it in one sentence.
STATED = "What is known about whether daily walking lowered systolic blood pressure?"
#: On walking.md's topic, with sleep.md's outcome: every word is in the corpus, no source
#: states it.
UNSTATED = "What is known about whether daily walking lowered evening cortisol in office workers?"
#: A test gate on whole-source coverage alone: answered when one source holds ≥ 80 % of the
#: claim's (IDF-weighted) content words.
COVERAGE_GATE = AnswerabilityModel(
    "test-gate", RELEVANCE_V1_LEXICAL.name, "v2", 0.0, 10.0, 0.0, bias=-8.0
)


class RefusingGenerator:
    """A generator an abstaining engine must never call."""

    model_id = "refusing"

    def generate(self, question: str, plan: Plan) -> Generation:
        raise AssertionError(f"the generator was asked to answer {question!r}")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    store = SqliteEvidenceStore(tmp_path / "demo.sqlite")
    parse = build_parser()
    for source_id, fetched in iter_path(CORPUS):
        ingest(store, fetched, source_id, parse)
    embed_pending(store, FakeEmbedder())
    yield store
    store.close()


def engine(
    store: SqliteEvidenceStore, gate: AnswerabilityModel | None, generator: object = None
) -> Engine:
    embedder = FakeEmbedder()
    return Engine(
        store=store,
        traces=store,
        embedder=embedder,
        decomposer=RuleBasedDecomposer(),
        generator=generator or ExtractiveGenerator(embedder),  # type: ignore[arg-type]
        score_model=V2,
        relevance=RELEVANCE_V1_LEXICAL,
        answerability=gate,
    )


def trace_of(store: SqliteEvidenceStore, trace_id: str | None) -> Trace:
    assert trace_id is not None
    trace = store.get_trace(trace_id)
    assert trace is not None
    return trace


def test_a_claim_no_source_states_abstains_though_its_spans_are_on_topic(
    store: SqliteEvidenceStore,
) -> None:
    # Without the gate the relevance floor lets the walking and sleep sentences through.
    ungated = engine(store, None).ask(UNSTATED)
    assert ungated.answered and ungated.plan.spans
    answer = engine(store, COVERAGE_GATE, RefusingGenerator()).ask(UNSTATED)
    assert not answer.answered and answer.abstained
    assert answer.answer == ABSTENTION and answer.draft == "" and answer.claims == ()
    assert answer.outcome is Outcome.ABSTAINED
    plan = answer.plan
    assert plan.spans == () and plan.abstains
    # The closest sources are the spans that passed the floor, one per source, best first.
    assert 1 <= len(plan.closest) <= 3
    assert [s.id for s in plan.closest] == [f"C{i}" for i in range(1, len(plan.closest) + 1)]
    assert len({s.source["source_id"] for s in plan.closest}) == len(plan.closest)
    scores = [s.source["relevance"] for s in plan.closest]
    assert scores == sorted(scores, reverse=True) and scores[0] == max(ungated.plan.relevance)
    assert all(not s.truth_class for s in plan.closest)
    record = trace_of(store, answer.trace_id).relevance
    assert record["answered"] is False
    gate = record["answerability"]
    assert gate["model"] == "test-gate" and gate["answered"] is False
    assert gate["score"] < gate["floor"] == 0.5
    signals = gate["signals"]
    assert signals["claim"] == "Daily walking lowered evening cortisol in office workers."
    assert 0.0 < signals["source_coverage"] < 0.8


def test_a_claim_one_source_states_is_answered_with_the_gate_recorded(
    store: SqliteEvidenceStore,
) -> None:
    answer = engine(store, COVERAGE_GATE).ask(STATED)
    assert answer.answered and not answer.abstained
    assert "lowered systolic blood pressure by 5 mmHg" in answer.draft
    gate = trace_of(store, answer.trace_id).relevance["answerability"]
    assert gate["answered"] is True and gate["score"] >= 0.5
    # walking.md holds every content word of the claim in its whole text.
    assert gate["signals"]["source_coverage"] == pytest.approx(1.0)
    assert 0.0 <= gate["signals"]["claim_score"] <= 1.0


def test_the_gate_leaves_questions_about_no_claim_and_other_relevance_models_alone(
    store: SqliteEvidenceStore,
) -> None:
    question = "What did daily walking do to blood pressure?"
    answer = engine(store, COVERAGE_GATE).ask(question)
    assert answer.answered
    assert "answerability" not in trace_of(store, answer.trace_id).relevance
    # A gate fitted for another relevance model does not read this plan.
    other = AnswerabilityModel("other", "relevance-other", "v2", 0.0, 10.0, 0.0, bias=-100.0)
    answer = engine(store, other).ask(UNSTATED)
    assert answer.answered
    assert "answerability" not in trace_of(store, answer.trace_id).relevance


@pytest.mark.parametrize(
    "question",
    [
        "Daily walking lowered evening cortisol in office workers.",
        "Is it true that daily walking lowered evening cortisol in office workers?",
    ],
)
def test_a_proposition_is_not_gated_its_verdict_leads(
    store: SqliteEvidenceStore, question: str
) -> None:
    # The open question about the same claim abstains at the gate (above); the proposition
    # is answered with its own verdict, which says the sources do not establish it.
    answer = engine(store, COVERAGE_GATE).ask(question)
    assert answer.answered and answer.plan.spans
    assert answer.proposition is not None and answer.proposition.verdict == "unsupported"
    assert answer.answer is not None and answer.answer.startswith("Not established by the sources")
    assert "answerability" not in trace_of(store, answer.trace_id).relevance
