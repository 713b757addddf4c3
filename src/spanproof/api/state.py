"""What the HTTP app and the web UI share: the store, the verifier and the engine."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from spanproof.config import Settings
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


def get_state(request: Request) -> AppState:
    """The app's state (FastAPI dependency)."""
    state: AppState = request.app.state.spanproof
    return state
