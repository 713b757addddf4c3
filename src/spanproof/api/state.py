"""What the HTTP app and the web UI share: the store, the verifier and the engine."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import BackgroundTasks, Request

from spanproof.config import Settings
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
