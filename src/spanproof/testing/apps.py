"""The app state tests and benchmarks serve with: one store, an offline engine and verifier.

Everything defaults to the offline pieces (a :class:`FakeEmbedder`, the rule-based decomposer,
the extractive generator, score model v2); pass any of them to use another. A score model that
reads a checker (the judge of v5 and v57, v3's cross-encoder) gets the bundled one unless
``checker`` is given.
"""

from __future__ import annotations

from spanproof.api.state import AppState
from spanproof.config import Settings
from spanproof.core.checker import EntailmentChecker
from spanproof.core.ports import Decomposer, Embedder
from spanproof.core.store import EvidenceStore
from spanproof.core.trace import TraceStore
from spanproof.services.answering import Engine
from spanproof.services.generation import ExtractiveGenerator, Generator
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verifier import Verifier
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.scoring import V2, ScoreModel


def app_state(
    store: EvidenceStore,
    *,
    embedder: Embedder | None = None,
    decomposer: Decomposer | None = None,
    generator: Generator | None = None,
    score_model: ScoreModel = V2,
    settings: Settings | None = None,
    checker: EntailmentChecker | None = None,
) -> AppState:
    """An :class:`AppState` over ``store`` (which must also be the trace store)."""
    if checker is None and score_model.uses_checker:
        from spanproof.bootstrap import build_checker_for

        checker = build_checker_for(score_model)
    assert isinstance(store, TraceStore), "the store must keep traces too"
    embedder = embedder if embedder is not None else FakeEmbedder()
    decomposer = decomposer if decomposer is not None else RuleBasedDecomposer()
    engine = Engine(
        store=store,
        traces=store,
        embedder=embedder,
        decomposer=decomposer,
        generator=generator if generator is not None else ExtractiveGenerator(embedder),
        score_model=score_model,
        checker=checker,
    )
    verifier = Verifier(
        embedder=embedder, decomposer=decomposer, score_model=score_model, checker=checker
    )
    return AppState(
        settings=settings if settings is not None else Settings(),
        store=store,
        traces=store,
        verifier=verifier,
        engine=engine,
    )
