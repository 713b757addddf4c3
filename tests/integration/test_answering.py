"""The verified-answer loop end to end on a real SQLite store holding the demo corpus:
plan → generate → decompose → verify → policy → trace, and every degradation of the seed flow."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from spanproof.bootstrap import build_parser
from spanproof.core.errors import InvalidInputError, ProviderError
from spanproof.core.models import Policy, Verdict
from spanproof.core.ports import Decomposer, Embedder, FloatMatrix
from spanproof.core.trace import Trace, TraceStore, check_chain
from spanproof.ingest.files import iter_path
from spanproof.services.answering import Engine
from spanproof.services.decomposition import LlmDecomposer
from spanproof.services.generation import (
    EXTRACTIVE_MODEL,
    ExtractiveGenerator,
    Generation,
    Generator,
    LlmGenerator,
)
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.services.planning import Plan
from spanproof.services.replay import replay
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.fakes import FakeChatModel, FakeEmbedder
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.policy import REDACTION_NOTICE
from spanproof.verify.prompt import build_generation_messages, prompt_hash
from spanproof.verify.scoring import V2

CORPUS = Path(__file__).parents[2] / "examples" / "demo" / "corpus"
WALKING = "What did daily walking do to blood pressure?"
WALKING_RESULT = "lowered systolic blood pressure by 5 mmHg"
MODELS = {"gen", "decompose", "embed", "embed_hash", "score_model", "plan_model", "prompt_model"}


def load_corpus(store: SqliteEvidenceStore, embedder: Embedder) -> None:
    parse = build_parser()
    for source_id, fetched in iter_path(CORPUS):
        ingest(store, fetched, source_id, parse)
    embed_pending(store, embedder)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    s = SqliteEvidenceStore(tmp_path / "store.sqlite")
    load_corpus(s, FakeEmbedder())
    yield s
    s.close()


def engine(
    store: SqliteEvidenceStore,
    *,
    embedder: Embedder | None = None,
    generator: Generator | None = None,
    decomposer: Decomposer | None = None,
    policy: Policy = Policy.FLAG,
) -> Engine:
    return Engine(
        store=store,
        traces=store,
        embedder=embedder,
        decomposer=decomposer or RuleBasedDecomposer(),
        generator=generator or ExtractiveGenerator(embedder),
        score_model=V2,
        policy=policy,
    )


def stored_trace(store: SqliteEvidenceStore, trace_id: str | None) -> Trace:
    assert trace_id is not None and trace_id.startswith("tr_")
    trace = store.get_trace(trace_id)
    assert trace is not None
    return trace


class ScriptedGenerator:
    """Writes a draft from the plan with a function: lets a test cite the plan's own markers."""

    def __init__(self, write: Callable[[Plan], str]) -> None:
        self._write = write

    @property
    def model_id(self) -> str:
        return "scripted"

    def generate(self, question: str, plan: Plan) -> Generation:
        messages = build_generation_messages(question, plan.evidence)
        return Generation(self._write(plan), "scripted", prompt_hash(messages))


def marker_of(plan: Plan, fragment: str) -> str:
    return next(s.id for s in plan.spans if fragment in s.text)


class FailingEmbedder(FakeEmbedder):
    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        raise ProviderError("embedding endpoint returned 503", retryable=True)


class ShortEmbedder(FakeEmbedder):
    """Answers one vector fewer than asked: an inconsistent embedding model."""

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        return super().embed(texts)[:-1]


class NanEmbedder(FakeEmbedder):
    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        vectors = super().embed(texts)
        vectors[:, 0] = np.nan
        return vectors


# ------------------------------------------------------------------------------ the happy path


@pytest.fixture(scope="module")
def minilm() -> Embedder:
    from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder

    return OnnxMiniLMEmbedder()


@pytest.mark.model
def test_a_demo_question_gets_supported_claims_with_markers_and_a_replayable_trace(
    tmp_path: Path, minilm: Embedder
) -> None:
    with SqliteEvidenceStore(tmp_path / "minilm.sqlite") as store:
        load_corpus(store, minilm)
        answer = engine(store, embedder=minilm).ask(WALKING)
        trace = stored_trace(store, answer.trace_id)
        assert check_chain(store.chain()) == []
    assert answer.verification == "verified"
    assert answer.claims and all(c.verdict is Verdict.SUPPORTED for c in answer.claims)
    assert all(c.cited_markers for c in answer.claims)
    assert WALKING_RESULT in answer.draft and answer.answer == answer.draft
    cited = {m for c in answer.claims for m in c.cited_markers}
    assert set(answer.citations) == cited
    for marker, ref in answer.citations.items():
        span = answer.plan.span(marker)
        assert span is not None and ref == span.source
        assert ref["title"] == "Daily walking and blood pressure in adults with mild hypertension"
    # The trace holds everything replay and the viewer need.
    assert trace.kind == "generation"
    assert trace.request["question"] == WALKING
    assert trace.plan == answer.plan.to_trace() and trace.plan_hash == answer.plan.plan_hash
    messages = build_generation_messages(WALKING, answer.plan.evidence)
    assert trace.prompt_hash == prompt_hash(messages)
    assert set(trace.models) == MODELS
    assert trace.models["gen"] == EXTRACTIVE_MODEL and trace.models["embed"] == minilm.model_id
    assert trace.models["embed_hash"] == minilm.model_hash
    assert trace.draft == answer.draft and trace.delivered == answer.answer
    assert trace.claims == [c.to_dict() for c in answer.claims]
    assert len(trace.embeddings["claims"]) == len(answer.claims)
    assert trace.embeddings["windows"]
    assert replay(trace).ok


def test_the_answer_serialises_to_the_json_the_cli_prints(store: SqliteEvidenceStore) -> None:
    answer = engine(store, embedder=FakeEmbedder()).ask(WALKING)
    data = json.loads(json.dumps(answer.to_dict()))
    assert set(data) == {
        "question",
        "answer",
        "draft",
        "verification",
        "outcome",
        "counts",
        "policy",
        "claims",
        "citations",
        "plan",
        "models",
        "usage",
        "trace_id",
        "verdict",
        "proposition",
        "answered",
        "relevance",
        "closest",
    }
    assert data["verdict"] is None and data["proposition"] is None  # not a proposition
    assert data["trace_id"] == answer.trace_id
    assert data["plan"]["plan_hash"] == answer.plan.plan_hash
    assert data["outcome"] == answer.outcome.value and data["counts"] == answer.counts
    stored = store.get_trace(data["trace_id"])
    assert stored is not None
    assert (stored.outcome, stored.counts) == (data["outcome"], data["counts"])
    assert data["plan"]["plan_model"] == "planner-v1"
    assert [s["marker"] for s in data["plan"]["spans"]][:2] == ["S1", "S2"]


def test_the_same_question_gives_the_same_plan_draft_and_verdicts(
    store: SqliteEvidenceStore,
) -> None:
    first = engine(store, embedder=FakeEmbedder()).ask(WALKING)
    second = engine(store, embedder=FakeEmbedder()).ask(WALKING)
    assert first.plan == second.plan
    assert first.draft == second.draft
    assert first.claims == second.claims
    assert first.trace_id != second.trace_id  # two traces in the chain
    assert check_chain(store.chain()) == []


# --------------------------------------------------------------------------------- degradations


def test_an_empty_draft_is_verified_with_no_claims(store: SqliteEvidenceStore) -> None:
    llm = engine(store, embedder=FakeEmbedder(), generator=LlmGenerator(FakeChatModel([""])))
    extractive = engine(store, embedder=FakeEmbedder())  # no planned span shares a word
    for answer in (llm.ask(WALKING), extractive.ask("Xylophones? Quasars?")):
        assert answer.draft == "" and answer.claims == ()
        assert answer.verification == "verified"
        trace = stored_trace(store, answer.trace_id)
        assert trace.verification == "verified" and trace.claims == [] and trace.draft == ""


def test_with_zero_evidence_every_claim_is_unsupported(tmp_path: Path) -> None:
    draft = "Walking lowered blood pressure by 5 mmHg [S1]. Short sleep raised cortisol [S2]."
    with SqliteEvidenceStore(tmp_path / "empty.sqlite") as empty:
        answer = engine(
            empty, embedder=FakeEmbedder(), generator=LlmGenerator(FakeChatModel([draft]))
        ).ask(WALKING)
        trace = stored_trace(empty, answer.trace_id)
    assert answer.plan.spans == ()
    assert answer.verification == "verified"
    assert len(answer.claims) == 2
    assert all(c.verdict is Verdict.UNSUPPORTED and c.score == 0.0 for c in answer.claims)
    assert answer.citations == {}  # the markers name nothing in the plan
    assert trace.embeddings == {"claims": [], "windows": []}  # no embedding round-trip


@pytest.mark.parametrize(
    ("embedder", "decomposer", "reason"),
    [
        (FakeEmbedder(), LlmDecomposer(FakeChatModel(["no json here"] * 3)), "decomposition"),
        (None, None, "no embedder configured"),
        (FailingEmbedder(), None, "embedding failed: embedding endpoint returned 503"),
        (ShortEmbedder(), None, "inconsistent embedding model: expected"),
        (NanEmbedder(), None, "inconsistent embedding model: non-finite"),
    ],
    ids=["decomposition-failed", "no-embedder", "embedder-fails", "wrong-shape", "non-finite"],
)
def test_each_degradation_is_delivered_unverified_and_recorded_in_the_trace(
    store: SqliteEvidenceStore,
    embedder: Embedder | None,
    decomposer: Decomposer | None,
    reason: str,
) -> None:
    answer = engine(store, embedder=embedder, decomposer=decomposer).ask(WALKING)
    assert answer.verification.startswith("unavailable: ")
    assert reason in answer.verification
    assert answer.claims == ()
    assert answer.draft and answer.answer == answer.draft  # flag: delivered, marked unverified
    trace = stored_trace(store, answer.trace_id)
    assert trace.verification == answer.verification
    assert trace.claims == [] and trace.embeddings == {}
    assert trace.draft == answer.draft
    assert set(trace.models) == MODELS
    assert replay(trace).ok  # an unavailable verification scored nothing, and replays so


def test_a_failing_embedder_still_plans_from_keyword_recall(store: SqliteEvidenceStore) -> None:
    answer = engine(store, embedder=FailingEmbedder()).ask(WALKING)
    assert any(WALKING_RESULT in s.text for s in answer.plan.spans)
    assert any(n.startswith("semantic recall skipped: embedding failed") for n in answer.plan.notes)


def test_a_failed_decomposition_records_the_decomposers_usage(store: SqliteEvidenceStore) -> None:
    decomposer = LlmDecomposer(FakeChatModel(["no json here"] * 3))
    answer = engine(store, embedder=FakeEmbedder(), decomposer=decomposer).ask(WALKING)
    assert answer.verification.startswith("unavailable: decomposition failed")
    assert answer.usage["decompose_input_tokens"] > 0
    assert stored_trace(store, answer.trace_id).usage == answer.usage


# -------------------------------------------------------------------------------------- policy


def test_redact_removes_unsupported_claims_and_the_trace_keeps_the_draft(
    store: SqliteEvidenceStore,
) -> None:
    def write(plan: Plan) -> str:
        s = marker_of(plan, WALKING_RESULT)
        return (
            "Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg after "
            f"12 weeks [{s}]. Walking also cured diabetes in 40% of participants [{s}]."
        )

    answer = engine(
        store, embedder=FakeEmbedder(), generator=ScriptedGenerator(write), policy=Policy.REDACT
    ).ask(WALKING)
    assert answer.verification == "verified" and answer.policy is Policy.REDACT
    verdicts = [c.verdict for c in answer.claims]
    assert verdicts == [Verdict.SUPPORTED, Verdict.UNSUPPORTED]
    assert answer.answer is not None
    assert answer.answer.endswith(REDACTION_NOTICE) and "diabetes" not in answer.answer
    trace = stored_trace(store, answer.trace_id)
    assert "diabetes" in trace.draft and trace.delivered == answer.answer
    assert trace.request["policy"] == "redact"
    assert replay(trace).ok


def test_redact_withholds_an_answer_that_could_not_be_verified(store: SqliteEvidenceStore) -> None:
    answer = engine(store, embedder=None).ask(WALKING, policy=Policy.REDACT)
    assert answer.verification == "unavailable: no embedder configured"
    assert answer.answer is None and answer.draft
    assert stored_trace(store, answer.trace_id).delivered is None


# ------------------------------------------------------------------------ hints and generators


def test_a_claim_resting_on_a_cache_class_hint_is_never_supported(
    store: SqliteEvidenceStore,
) -> None:
    hint = "Daily walking for 30 minutes cures insomnia in 90% of adults."
    answer = engine(
        store, embedder=FakeEmbedder(), generator=ScriptedGenerator(lambda plan: hint)
    ).ask(WALKING, hints=[hint])
    assert answer.plan.hints[0].text == hint
    (claim,) = answer.claims
    assert claim.verdict is not Verdict.SUPPORTED
    assert claim.best_span is not None and not claim.best_span.id.startswith("H")
    trace = stored_trace(store, answer.trace_id)
    assert trace.plan[-1]["truth_class"] is False and trace.request["hints"] == [hint]


def test_the_llm_generator_sends_the_plans_prompt_at_temperature_zero(
    store: SqliteEvidenceStore,
) -> None:
    reply = "Daily walking lowered systolic blood pressure by 5 mmHg [S1]."
    chat = FakeChatModel([reply])
    answer = engine(store, embedder=FakeEmbedder(), generator=LlmGenerator(chat)).ask(WALKING)
    (call,) = chat.calls
    assert call.temperature == 0.0
    assert list(call.messages) == build_generation_messages(WALKING, answer.plan.evidence)
    trace = stored_trace(store, answer.trace_id)
    assert trace.models["gen"] == "fake-chat"
    assert trace.prompt_hash == prompt_hash(call.messages)
    assert trace.usage["gen_input_tokens"] > 0
    assert trace.usage["gen_output_tokens"] == len(reply.split())


def test_the_extractive_generator_cites_the_most_relevant_planned_sentences(
    store: SqliteEvidenceStore,
) -> None:
    answer = engine(store, embedder=FakeEmbedder()).ask(WALKING)
    first = answer.draft.split(" [S")[0]
    assert WALKING_RESULT in first
    assert answer.draft.count("[S") <= 3
    for marker in answer.citations:
        span = answer.plan.span(marker)
        assert span is not None and span.text.rstrip(".") in answer.draft


def test_without_a_trace_store_the_answer_has_no_trace_id(store: SqliteEvidenceStore) -> None:
    plain = Engine(
        store=store,
        traces=None,
        embedder=FakeEmbedder(),
        decomposer=RuleBasedDecomposer(),
        generator=ExtractiveGenerator(),
        score_model=V2,
    )
    assert isinstance(store, TraceStore)
    answer = plain.ask(WALKING)
    assert answer.trace_id is None and store.chain() == []


def test_a_blank_question_is_refused(store: SqliteEvidenceStore) -> None:
    with pytest.raises(InvalidInputError, match="question is empty"):
        engine(store, embedder=FakeEmbedder()).ask("   ")
