"""Relevance and abstention in the verified-answer loop (issue 15), on a real SQLite store holding
the demo corpus: a question the store does not answer gets an explicit abstention (no draft, the
closest sources, outcome ``abstained``, relevance in the trace); one it answers is answered from
relevant spans only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from spanproof.bootstrap import build_parser
from spanproof.core.models import Outcome
from spanproof.core.ports import Embedder
from spanproof.core.trace import Trace, check_chain
from spanproof.ingest.files import iter_path
from spanproof.services.answering import ABSTENTION, Engine
from spanproof.services.generation import ExtractiveGenerator, Generation
from spanproof.services.ingestion import embed_pending, ingest
from spanproof.services.planning import Plan
from spanproof.services.replay import replay
from spanproof.store.sqlite.store import SqliteEvidenceStore
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.relevance import RELEVANCE_V1, relevance_model_for
from spanproof.verify.scoring import V2

CORPUS = Path(__file__).parents[2] / "examples" / "demo" / "corpus"
WALKING = "What did daily walking do to blood pressure?"
FRANCE = "What is the capital of France?"


class RefusingGenerator:
    """A generator an abstaining engine must never call."""

    model_id = "refusing"

    def generate(self, question: str, plan: Plan) -> Generation:
        raise AssertionError(f"the generator was asked to answer {question!r}")


def load(path: Path, embedder: Embedder) -> SqliteEvidenceStore:
    store = SqliteEvidenceStore(path)
    parse = build_parser()
    for source_id, fetched in iter_path(CORPUS):
        ingest(store, fetched, source_id, parse)
    embed_pending(store, embedder)
    return store


def engine(store: SqliteEvidenceStore, embedder: Embedder, generator: object = None) -> Engine:
    return Engine(
        store=store,
        traces=store,
        embedder=embedder,
        decomposer=RuleBasedDecomposer(),
        generator=generator or ExtractiveGenerator(embedder),  # type: ignore[arg-type]
        score_model=V2,
        relevance=relevance_model_for(embedder.model_id),
    )


@pytest.fixture(scope="module")
def minilm() -> Embedder:
    from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder

    return OnnxMiniLMEmbedder()


@pytest.fixture
def fake_store(tmp_path: Path) -> Iterator[SqliteEvidenceStore]:
    store = load(tmp_path / "fake.sqlite", FakeEmbedder())
    yield store
    store.close()


def stored(store: SqliteEvidenceStore, trace_id: str | None) -> Trace:
    assert trace_id is not None
    trace = store.get_trace(trace_id)
    assert trace is not None
    return trace


def assert_abstains(store: SqliteEvidenceStore, embedder: Embedder, question: str) -> None:
    answer = engine(store, embedder, RefusingGenerator()).ask(question)
    assert not answer.answered and answer.abstained
    assert answer.answer == ABSTENTION and answer.draft == ""
    assert answer.claims == () and answer.citations == {}
    assert answer.outcome is Outcome.ABSTAINED and answer.verification == "verified"
    plan = answer.plan
    assert plan.spans == () and plan.abstains
    assert plan.floor is not None and answer.relevance is not None
    assert answer.relevance < plan.floor
    assert 1 <= len(plan.closest) <= 3
    assert len({s.source["source_id"] for s in plan.closest}) == len(plan.closest)
    assert all(s.source["relevance"] < plan.floor and not s.truth_class for s in plan.closest)
    data = answer.to_dict()
    assert data["answered"] is False and data["outcome"] == "abstained"
    assert data["answer"] == ABSTENTION and data["relevance"] == answer.relevance
    assert [c["id"] for c in data["closest"]] == [s.id for s in plan.closest]
    trace = stored(store, answer.trace_id)
    assert trace.delivered == ABSTENTION and trace.draft == "" and trace.outcome == "abstained"
    assert trace.relevance["answered"] is False and trace.relevance["spans"] == {}
    assert trace.relevance["model"] == plan.relevance_model
    assert [c["id"] for c in trace.relevance["closest"]] == [s.id for s in plan.closest]
    assert trace.compute_hash() == trace.hash and check_chain(store.chain()) == []
    assert replay(trace).ok


def assert_answers(store: SqliteEvidenceStore, embedder: Embedder) -> None:
    answer = engine(store, embedder).ask(WALKING)
    assert answer.answered and not answer.abstained
    assert "lowered systolic blood pressure by 5 mmHg" in answer.draft.split(" [S")[0]
    assert answer.outcome is Outcome.ALL_SUPPORTED
    plan = answer.plan
    assert plan.spans and plan.closest == ()
    assert plan.floor is not None and all(r >= plan.floor for r in plan.relevance)
    assert answer.relevance == max(plan.relevance)
    data = answer.to_dict()
    assert data["answered"] is True and data["closest"] == []
    trace = stored(store, answer.trace_id)
    assert trace.relevance["answered"] is True
    assert list(trace.relevance["spans"]) == [s.id for s in plan.spans]
    assert replay(trace).ok


@pytest.mark.model
def test_with_the_bundled_embedder_an_unrelated_question_abstains(
    tmp_path: Path, minilm: Embedder
) -> None:
    with load(tmp_path / "minilm.sqlite", minilm) as store:
        assert relevance_model_for(minilm.model_id) is RELEVANCE_V1
        assert_abstains(store, minilm, FRANCE)
        assert_abstains(store, minilm, "Who won the football world cup in 1998?")
        assert_answers(store, minilm)


def test_with_another_embedder_the_lexical_model_decides(fake_store: SqliteEvidenceStore) -> None:
    assert_abstains(fake_store, FakeEmbedder(), FRANCE)
    assert_answers(fake_store, FakeEmbedder())


def test_a_failing_embedder_falls_back_to_the_lexical_model(tmp_path: Path) -> None:
    class Failing(FakeEmbedder):
        @property
        def model_id(self) -> str:
            return RELEVANCE_V1.embed_model  # claims the bundled model, answers nothing

        def embed(self, texts):  # type: ignore[no-untyped-def]
            from spanproof.core.errors import ProviderError

            raise ProviderError("down", retryable=True)

    with load(tmp_path / "f.sqlite", FakeEmbedder()) as store:
        answer = engine(store, Failing()).ask(WALKING)
    assert answer.answered and answer.plan.relevance_model == "relevance-v1-lexical"


def test_without_a_relevance_model_the_engine_never_abstains(
    fake_store: SqliteEvidenceStore,
) -> None:
    plain = Engine(
        store=fake_store,
        traces=fake_store,
        embedder=FakeEmbedder(),
        decomposer=RuleBasedDecomposer(),
        generator=ExtractiveGenerator(FakeEmbedder()),
        score_model=V2,
    )
    answer = plain.ask(FRANCE)
    assert answer.answered and answer.relevance is None and answer.plan.spans
    trace = stored(fake_store, answer.trace_id)
    assert trace.relevance == {} and "relevance" not in trace.body()
