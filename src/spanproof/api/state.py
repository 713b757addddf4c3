"""What the HTTP app and the web UI share: the store, the verifier and the engine.

Built here from the adapters ``bootstrap`` makes: the app depends on the composition root, never
the reverse (an import-linter contract keeps it so).
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import BackgroundTasks, Request

from spanproof.config import Settings
from spanproof.core.errors import ConfigurationError
from spanproof.core.keys import KeyStore
from spanproof.core.ports import WorkQueue
from spanproof.core.store import EvidenceStore
from spanproof.core.trace import TraceStore
from spanproof.services.answering import Engine
from spanproof.verifier import Verifier


@dataclass
class AppState:
    """The objects one app process serves with (built by ``bootstrap`` or by tests).

    ``store`` also implements :class:`TraceStore` on both shipped backends (``traces`` is the same
    object); ``engine`` answers questions over ``store``.
    """

    settings: Settings
    store: EvidenceStore
    traces: TraceStore
    verifier: Verifier
    engine: Engine
    #: Set when the API only enqueues (``workflows.api_enqueue``): work goes to the workers.
    work_queue: WorkQueue | None = None


def build_app_state(settings: Settings, db: str | None = None) -> AppState:
    """What the HTTP app serves: the store, its traces, a verifier and the engine, sharing one
    embedder and decomposer. The caller owns the store: close it with ``state.store.close()``.

    Raises:
        ConfigurationError: the store keeps no traces.
    """
    from spanproof.bootstrap import build_engine, build_work_queue

    engine = build_engine(settings, db)
    store = engine.store
    if not isinstance(store, TraceStore) or engine.embedder is None:
        store.close()
        raise ConfigurationError(
            "the HTTP API needs a store that keeps traces (SQLite or PostgreSQL)"
        )
    verifier = Verifier(
        embedder=engine.embedder,
        decomposer=engine.decomposer,
        score_model=engine.score_model,
        checker=engine.checker,
    )
    work_queue = build_work_queue(settings, db) if settings.workflows.api_enqueue else None
    return AppState(
        settings=settings,
        store=store,
        traces=store,
        verifier=verifier,
        engine=engine,
        work_queue=work_queue,
    )


def get_state(request: Request) -> AppState:
    """The app's state (FastAPI dependency)."""
    state: AppState = request.app.state.spanproof
    return state


def stored_key_store(state: AppState) -> KeyStore | None:
    """The state's store as the API's key store when it holds an active key, else None (stored
    keys off). Decided once, when the app is built: restart after creating the first key."""
    store = state.store
    if isinstance(store, KeyStore) and store.has_active_api_keys():
        return store
    return None


def run_or_enqueue_walks(state: AppState, background: BackgroundTasks) -> None:
    """The impact walks an event started: to the workers' queue when the API only enqueues,
    else run after the response (a crash leaves them journalled for ``spanproof walks resume``).
    """
    from spanproof.services import impact

    if state.work_queue is None:
        background.add_task(impact.resume_walks, state.store)
        return
    for walk in impact.graph(state.store).list_walks(status="running", limit=1000):
        state.work_queue.enqueue_walk(walk.id)
