"""What a worker process's steps run against: the store and the adapters, bound once per process.

Workflow arguments travel through the engine's system database, so they are plain values
(ids, a fetched document); the store, parser, embedder and checker are process resources that
every step finds here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from spanproof.core.documents import FetchedDocument
from spanproof.core.errors import ConfigurationError
from spanproof.core.ports import Embedder
from spanproof.core.store import EvidenceStore
from spanproof.services.ingestion import Parser
from spanproof.services.records import Checker

Fetcher = Callable[[str], tuple[str, FetchedDocument]]


@dataclass
class Runtime:
    """The adapters of one worker process.

    Attributes:
        store: the evidence store every step writes to.
        parse: the format-detecting parser.
        embedder: builds the embedder on first use (loading a model is slow, and a worker that
            only verifies never needs one).
        checker: the record checker.
        fetch: fetches ``pmc:…`` / ``pmid:…`` / ``doi:…`` through its connector.
        walk_batch: impact-walk edges per journalled step.
    """

    store: EvidenceStore
    parse: Parser
    embedder: Callable[[], Embedder]
    checker: Checker
    fetch: Fetcher
    walk_batch: int = 50
    _embedder: Embedder | None = field(default=None, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def get_embedder(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                self._embedder = self.embedder()
            return self._embedder


_BOUND: list[Runtime] = []
_JOURNAL: list[str] = []


def bind(runtime: Runtime, system_database_url: str = "") -> None:
    """Make ``runtime`` the one this process's steps use, and ``system_database_url`` the
    journal they enqueue into (:func:`journal_url`)."""
    _BOUND[:] = [runtime]
    _JOURNAL[:] = [system_database_url] if system_database_url else []


def unbind() -> None:
    _BOUND.clear()
    _JOURNAL.clear()


def journal_url() -> str:
    """The system database of the engine running in this process.

    Raises:
        ConfigurationError: no engine is running here.
    """
    if not _JOURNAL:
        raise ConfigurationError("no workflow engine runs in this process")
    return _JOURNAL[0]


def current() -> Runtime:
    """The bound runtime.

    Raises:
        ConfigurationError: no runtime is bound (the engine was not started with one).
    """
    if not _BOUND:
        raise ConfigurationError(
            "no workflow runtime in this process: start workflows through `spanproof worker` "
            "or spanproof.workflows.running(config, runtime)"
        )
    return _BOUND[0]
