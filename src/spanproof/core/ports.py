"""Ports: the small interfaces adapters implement and services call.

Every model call records its model id; embedders also expose the hash of their weights file so a
result can name exactly which model produced it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from spanproof.core.documents import FetchedDocument
from spanproof.core.models import Claim

FloatMatrix = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised vectors under one named model."""

    @property
    def model_id(self) -> str:
        """A stable model name, recorded with every result (e.g. ``all-MiniLM-L6-v2-int8``)."""
        ...

    @property
    def model_hash(self) -> str:
        """SHA-256 of the model weights (or the remote model's id when it has no file)."""
        ...

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """Embed ``texts``; returns an ``(len(texts), dim)`` float32 array of unit rows.

        Texts longer than the model's window are truncated by the model: callers that must not
        lose text split it first with :meth:`window_ranges`.
        """
        ...

    def window_ranges(self, text: str) -> list[tuple[int, int]]:
        """Character ranges of overlapping windows that each fit the model's input window.

        Short texts give ``[(0, len(text))]``. Windows cover every character of ``text``.
        """
        ...


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: str  # "system" | "user" | "assistant"
    content: str


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass(frozen=True, slots=True)
class ChatResult:
    text: str
    model: str
    usage: Usage = field(default_factory=Usage)


@runtime_checkable
class ChatModel(Protocol):
    """A chat-completion model (Anthropic Messages, OpenAI-compatible, or a test double)."""

    @property
    def model_id(self) -> str: ...

    def complete(
        self, messages: Sequence[ChatMessage], *, temperature: float = 0.0, max_tokens: int = 2048
    ) -> ChatResult:
        """Return the model's reply. Raises ``ProviderError`` on failure."""
        ...


@runtime_checkable
class Decomposer(Protocol):
    """Cuts a draft into atomic claims (SPEC §4.3)."""

    @property
    def model_id(self) -> str:
        """``rules-v6`` for the rule-based decomposer, else the chat model's id."""
        ...

    def decompose(self, draft: str) -> list[Claim]:
        """Return claims with ``draft_span`` set. Raises ``DecomposeError`` when it cannot."""
        ...


@runtime_checkable
class WorkQueue(Protocol):
    """Where an API process that only enqueues sends work for the workers (the durable
    workflow engine's queues). Each call returns the workflow id."""

    def enqueue_ingest(self, source_id: str, fetched: FetchedDocument) -> str:
        """Queue ingestion (and embedding) of one fetched document as ``source_id``."""
        ...

    def enqueue_walk(self, walk_id: str) -> str:
        """Queue the rest of an impact walk whose journal row exists (started with the change
        that caused it)."""
        ...

    def close(self) -> None: ...
