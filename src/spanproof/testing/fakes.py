"""In-process fakes implementing spanproof's ports."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from spanproof.core.errors import ProviderError
from spanproof.core.models import Claim
from spanproof.core.ports import ChatMessage, ChatResult, FloatMatrix, Usage
from spanproof.core.trace import Trace
from spanproof.text.tokens import token_texts


class FakeEmbedder:
    """A deterministic bag-of-words embedder: each token hashes to a signed unit direction.

    Texts sharing vocabulary get high cosine, so it exercises the scorer without a model.
    ``calls`` counts embed calls; ``texts_embedded`` counts texts.
    """

    def __init__(self, dim: int = 256, model_id: str = "fake-bow") -> None:
        self._dim = dim
        self._model_id = model_id
        self.calls = 0
        self.texts_embedded = 0

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def model_hash(self) -> str:
        return hashlib.sha256(f"{self._model_id}:{self._dim}".encode()).hexdigest()

    def _vector(self, text: str) -> np.ndarray:
        vec = np.zeros(self._dim, dtype=np.float64)
        for token in token_texts(text):
            digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
            index = int.from_bytes(digest[:4], "little") % self._dim
            sign = 1.0 if digest[4] & 1 else -1.0
            vec[index] += sign
        norm = float(np.linalg.norm(vec))
        return vec / norm if norm > 0 else vec

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        self.calls += 1
        self.texts_embedded += len(texts)
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        return np.stack([self._vector(t) for t in texts]).astype(np.float32)

    def window_ranges(self, text: str) -> list[tuple[int, int]]:
        return [(0, len(text))]


@dataclass(frozen=True, slots=True)
class ChatCall:
    """One call a :class:`FakeChatModel` received."""

    messages: tuple[ChatMessage, ...]
    temperature: float
    max_tokens: int


class FakeChatModel:
    """An in-process chat model that answers from a script, in order.

    Each reply is a string (the text returned) or an exception instance (raised, e.g. a
    ``ProviderError``). Usage is deterministic: whitespace-separated words of the messages in,
    words of the reply out. ``calls`` records every call; a call past the end of the script
    raises a non-retryable ``ProviderError``.
    """

    def __init__(self, replies: Sequence[str | Exception], model_id: str = "fake-chat") -> None:
        self._replies = list(replies)
        self._model_id = model_id
        self.calls: list[ChatCall] = []

    @property
    def model_id(self) -> str:
        return self._model_id

    def complete(
        self, messages: Sequence[ChatMessage], *, temperature: float = 0.0, max_tokens: int = 2048
    ) -> ChatResult:
        self.calls.append(ChatCall(tuple(messages), temperature, max_tokens))
        if not self._replies:
            raise ProviderError("FakeChatModel has no scripted reply left", retryable=False)
        reply = self._replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        words_in = sum(len(m.content.split()) for m in messages)
        return ChatResult(reply, self._model_id, Usage(words_in, len(reply.split())))


class WholeDraftDecomposer:
    """A :class:`~spanproof.core.ports.Decomposer` that reads a whole draft as one claim, ``c1``
    (its text stripped): a verification of exactly the claim a test names."""

    model_id = "whole-draft"

    def decompose(self, draft: str) -> list[Claim]:
        return [Claim("c1", draft.strip())]


class FakeChecker:
    """An :class:`~spanproof.core.checker.EntailmentChecker` answering one fixed probability row
    for every pair, and remembering the pairs it was asked about."""

    def __init__(
        self, probabilities: Sequence[float] = (0.1, 0.8, 0.1), model_id: str = "fake-checker"
    ) -> None:
        self._row = np.asarray(probabilities, dtype=np.float32)
        self._model_id = model_id
        self.calls: list[list[tuple[str, str]]] = []

    @property
    def model_id(self) -> str:
        return self._model_id

    def check(self, pairs: Sequence[Any]) -> FloatMatrix:
        self.calls.append([(p[0], p[1]) for p in pairs])
        return np.tile(self._row, (len(pairs), 1))


def generation_trace(**fields: Any) -> Trace:
    """A stored generation's trace with an empty plan, draft and claims, and ``fields`` (such as
    ``relevance`` or ``proposition``) set: what a trace page's views read, without a store."""
    base: dict[str, Any] = {
        "kind": "generation",
        "request": {"question": "q"},
        "plan": [],
        "plan_hash": "",
        "prompt_hash": "",
        "models": {},
        "draft": "",
        "claims": [],
        "verification": "verified",
        "delivered": None,
    }
    return Trace(**{**base, **fields})
