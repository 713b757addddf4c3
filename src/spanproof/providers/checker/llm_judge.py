"""The LLM judge: an :class:`~spanproof.core.checker.EntailmentChecker` over a chat model.

MiniCheck's protocol (Tang et al., 2024): one document (the evidence window) and one claim in,
one label out, at temperature 0. The user message is always MiniCheck's
``Document: <window>\\nClaim: <claim>`` (whitespace runs shown as single spaces). Two fixed
prompts, each pinned by the SHA-256 of its text (:data:`JUDGE_PROMPT_SHA256`):

* ``json`` (default, any chat model): a system prompt asks for one JSON object,
  ``{"label": "supported"}`` or ``{"label": "unsupported"}``;
* ``minicheck``: the user message alone, as Bespoke-MiniCheck was trained (it answers ``Yes`` or
  ``No``; ``ollama pull bespoke-minicheck``).

:func:`parse_judge_reply` is strict and reads either answer, whatever the prompt:

* ``{"label": "supported"}`` or ``Yes`` → ``entailed``, probabilities ``[1, 0, 0]``;
* ``{"label": "unsupported"}`` or ``No`` → ``neutral``, ``[0, 0, 1]``;
* ``{"label": "contradicted"}`` or ``{"label": "refuted"}`` → ``contradicted``, ``[0, 1, 0]``.

MiniCheck is binary: "unsupported" says the document does not back the claim, not that it states
the opposite, so it maps to ``neutral``; a model that volunteers a three-way answer
(``contradicted``/``refuted``) is taken at its word. The JSON may sit in one ```` ```json ````
fence; ``Yes``/``No`` may carry a final full stop; label case is ignored; anything else (extra
keys, prose around the answer) is refused. A refused reply is asked again, up to ``attempts``
model calls in all, then the pair fails with a :class:`ProviderError`. A provider failure
(HTTP error, timeout, already retried by the HTTP layer) fails at once. Wrap the judge in
:class:`~spanproof.core.judgement.FallbackJudge` to hand failed calls to the local judge.

Labels are cached by (model, prompt hash, claim, window) in a
:class:`~spanproof.providers.checker.judge_cache.SqliteJudgementCache`, so verifying the same
claims again makes no model call.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from spanproof.core.checker import CHECKER_LABELS, CheckerPair
from spanproof.core.errors import ConfigurationError, InvalidInputError, ProviderError
from spanproof.core.ports import ChatMessage, ChatModel, Usage
from spanproof.core.replies import load_json_reply
from spanproof.core.trace import canonical_json, sha256_hex
from spanproof.providers.checker.judge_cache import SqliteJudgementCache, judgement_key

__all__ = [
    "JUDGE_PROMPT_SHA256",
    "JUDGE_SYSTEM_PROMPT",
    "JUDGE_USER_TEMPLATE",
    "LABEL_PROBABILITIES",
    "JudgePrompt",
    "JudgeStats",
    "LlmJudge",
    "build_judge_messages",
    "parse_judge_reply",
]

JudgePrompt = Literal["json", "minicheck"]

JUDGE_SYSTEM_PROMPT = """\
You check whether a document supports a claim.

Judge the claim only against the document, never from memory or outside knowledge.
- supported: the document states the claim, or the claim follows from it directly. Every part \
of the claim is backed: its numbers, direction of effect, population, species, intervention, \
outcome and qualifiers.
- unsupported: the document does not state the claim, states only part of it, states it more \
broadly or more certainly than the document does, or states something that conflicts with it.

Return ONLY one JSON object, with no text before or after it:
{"label": "supported"} or {"label": "unsupported"}
"""

#: MiniCheck's input format (and Bespoke-MiniCheck's prompt template).
JUDGE_USER_TEMPLATE = "Document: {document}\nClaim: {claim}"

#: The system prompt each prompt style sends (``minicheck`` sends none).
_SYSTEM_PROMPTS: dict[str, str] = {"json": JUDGE_SYSTEM_PROMPT, "minicheck": ""}

#: SHA-256 of each prompt style's fixed text (system prompt and user template).
JUDGE_PROMPT_SHA256: dict[str, str] = {
    style: sha256_hex(canonical_json({"system": system, "user": JUDGE_USER_TEMPLATE}))
    for style, system in _SYSTEM_PROMPTS.items()
}

#: The probability row of each label, in :data:`~spanproof.core.checker.CHECKER_LABELS` order.
LABEL_PROBABILITIES: dict[str, tuple[float, float, float]] = {
    "entailed": (1.0, 0.0, 0.0),
    "contradicted": (0.0, 1.0, 0.0),
    "neutral": (0.0, 0.0, 1.0),
}

_JSON_LABELS = {
    "supported": "entailed",
    "unsupported": "neutral",
    "contradicted": "contradicted",
    "refuted": "contradicted",
}
_YES_NO = re.compile(r"(?i)(?P<answer>yes|no)\.?")
_EXPECTED = 'one JSON object {"label": "supported"} or {"label": "unsupported"}, or Yes/No'


@dataclass(frozen=True, slots=True)
class JudgeStats:
    """What one :meth:`LlmJudge.check` call cost.

    Attributes:
        pairs: distinct (claim, window) pairs asked about.
        cache_hits: of those, how many the cache answered.
        calls: model calls made (retries of refused replies included).
        usage: tokens summed over those calls.
    """

    pairs: int = 0
    cache_hits: int = 0
    calls: int = 0
    usage: Usage = field(default_factory=Usage)


_NO_STATS = JudgeStats()


def build_judge_messages(
    claim: str, window: str, prompt: JudgePrompt = "json"
) -> list[ChatMessage]:
    """The messages that ask about ``claim`` against ``window`` under ``prompt``."""
    user = JUDGE_USER_TEMPLATE.format(document=_flat(window), claim=_flat(claim))
    system = _SYSTEM_PROMPTS[prompt]
    return (
        [ChatMessage("system", system), ChatMessage("user", user)]
        if system
        else [ChatMessage("user", user)]
    )


def parse_judge_reply(text: str) -> str:
    """The checker label a judge reply gives (see the module docstring's table).

    Raises:
        InvalidInputError: the reply is not one of the accepted answers; the message says why.
    """
    answer = _YES_NO.fullmatch(text.strip())
    if answer is not None:
        return "entailed" if answer["answer"].lower() == "yes" else "neutral"
    payload = load_json_reply(text, "judge reply", _EXPECTED)
    if not isinstance(payload, dict) or set(payload) != {"label"}:
        shown = sorted(payload) if isinstance(payload, dict) else type(payload).__name__
        raise InvalidInputError(
            f"judge reply must be an object with the key label alone, got {shown}"
        )
    label = payload["label"]
    mapped = _JSON_LABELS.get(label.strip().lower()) if isinstance(label, str) else None
    if mapped is None:
        raise InvalidInputError(
            f"judge reply label must be supported or unsupported (or contradicted), got {label!r}"
        )
    return mapped


class LlmJudge:
    """The :class:`~spanproof.core.checker.EntailmentChecker` of a chat model under MiniCheck's
    protocol (module docstring). The embeddings in each pair are not read.

    Args:
        chat: the chat model (OpenAI-compatible or Anthropic adapter, or a test double).
        cache: where labels are kept between calls and processes; None: no cache.
        prompt: ``json`` (any chat model) or ``minicheck`` (Bespoke-MiniCheck's bare prompt).
        attempts: model calls per pair before a refused reply becomes a failure.
        max_tokens: the reply budget of each call (a label needs a handful).

    Raises:
        ConfigurationError: an unknown prompt, or ``attempts`` or ``max_tokens`` below 1.
    """

    def __init__(
        self,
        chat: ChatModel,
        cache: SqliteJudgementCache | None = None,
        *,
        prompt: JudgePrompt = "json",
        attempts: int = 3,
        max_tokens: int = 64,
    ) -> None:
        if prompt not in JUDGE_PROMPT_SHA256:
            raise ConfigurationError(
                f"unknown judge prompt {prompt!r}; choose one of {sorted(JUDGE_PROMPT_SHA256)}"
            )
        if attempts < 1 or max_tokens < 1:
            raise ConfigurationError(
                f"attempts and max_tokens must be at least 1, got {attempts} and {max_tokens}"
            )
        self._chat = chat
        self._cache = cache
        self._prompt: JudgePrompt = prompt
        self._attempts = attempts
        self._max_tokens = max_tokens
        self._latest = threading.local()

    @property
    def model(self) -> str:
        """The chat model's id (the cache's ``model``)."""
        return self._chat.model_id

    @property
    def prompt_sha256(self) -> str:
        """The SHA-256 of the fixed prompt this judge sends."""
        return JUDGE_PROMPT_SHA256[self._prompt]

    @property
    def model_id(self) -> str:
        """``llm-judge:<model>@prompt:<first 12 hex digits of the prompt hash>``."""
        return f"llm-judge:{self.model}@prompt:{self.prompt_sha256[:12]}"

    @property
    def last_stats(self) -> JudgeStats:
        """What the calling thread's latest :meth:`check` cost (zeros before any)."""
        stats: JudgeStats = getattr(self._latest, "stats", _NO_STATS)
        return stats

    def check(self, pairs: Sequence[CheckerPair]) -> npt.NDArray[np.float32]:
        """One-hot probabilities ``(len(pairs), 3)`` in ``CHECKER_LABELS`` order.

        Pairs are looked up in the cache first; each distinct miss is one question (up to
        ``attempts`` calls), and its label is cached as soon as it is known.

        Raises:
            ProviderError: the model call failed, or no reply parsed in ``attempts`` calls.
            StoreError: the cache failed.
        """
        keys = [judgement_key(pair[0], pair[1]) for pair in pairs]
        texts = {key: (pair[0], pair[1]) for key, pair in zip(keys, pairs, strict=True)}
        labels = (
            self._cache.get_many(self.model, self.prompt_sha256, list(texts))
            if self._cache is not None
            else {}
        )
        stats = JudgeStats(pairs=len(texts), cache_hits=len(labels))
        self._latest.stats = stats
        for key, (claim, window) in texts.items():
            if key in labels:
                continue
            labels[key], calls, usage = self._ask(claim, window)
            stats = JudgeStats(
                stats.pairs,
                stats.cache_hits,
                stats.calls + calls,
                Usage(
                    stats.usage.input_tokens + usage.input_tokens,
                    stats.usage.output_tokens + usage.output_tokens,
                ),
            )
            self._latest.stats = stats
            if self._cache is not None:
                self._cache.put(self.model, self.prompt_sha256, key, labels[key])
        rows = [LABEL_PROBABILITIES[labels[key]] for key in keys]
        return np.asarray(rows, dtype=np.float32).reshape(len(keys), len(CHECKER_LABELS))

    def close(self) -> None:
        """Close the cache and the chat model (when it can be closed)."""
        if self._cache is not None:
            self._cache.close()
        close = getattr(self._chat, "close", None)
        if callable(close):
            close()

    def _ask(self, claim: str, window: str) -> tuple[str, int, Usage]:
        """(label, calls made, tokens used) for one pair; see :meth:`check` for errors."""
        messages = build_judge_messages(claim, window, self._prompt)
        used = Usage()
        reason = ""
        for attempt in range(1, self._attempts + 1):
            result = self._chat.complete(messages, temperature=0.0, max_tokens=self._max_tokens)
            used = Usage(
                used.input_tokens + result.usage.input_tokens,
                used.output_tokens + result.usage.output_tokens,
            )
            try:
                return parse_judge_reply(result.text), attempt, used
            except InvalidInputError as exc:
                reason = f"{exc} (reply began {_flat(result.text)[:60]!r})"
        raise ProviderError(
            f"judge model {self.model!r} gave no valid reply in {self._attempts} attempt(s); "
            f"last: {reason}",
            retryable=False,
        )


def _flat(text: str) -> str:
    return " ".join(text.split())
