"""The LLM decomposition use case (SPEC §4.3): prompt, parse, retry, give up with a reason.

The chat model arrives as an argument. Every attempt sends the same fixed prompt at temperature
0; a reply that does not parse, or a retryable provider failure, costs one attempt. After the
last attempt the caller gets :class:`DecomposeError`, which verification turns into
``unavailable: <reason>``.
"""

from __future__ import annotations

from spanproof.core.errors import (
    ConfigurationError,
    DecomposeError,
    InvalidInputError,
    ProviderError,
)
from spanproof.core.models import Claim
from spanproof.core.ports import ChatModel, Usage
from spanproof.verify.decompose import build_decompose_messages, parse_claims, prompt_hash


class LlmDecomposer:
    """A :class:`~spanproof.core.ports.Decomposer` backed by a chat model.

    Attributes (for traces, describing the latest :meth:`decompose` call):
        last_usage: input and output tokens summed over its attempts.
        last_prompt_hash: SHA-256 of the canonical JSON of the messages sent ("" if none).
        last_attempts: how many model calls it made.
        last_model: the model name the provider reported on its last reply ("" if none).
    """

    def __init__(self, chat: ChatModel, attempts: int = 3) -> None:
        if attempts < 1:
            raise ConfigurationError(f"attempts must be at least 1, got {attempts}")
        self._chat = chat
        self._attempts = attempts
        self.last_usage = Usage()
        self.last_prompt_hash = ""
        self.last_attempts = 0
        self.last_model = ""

    @property
    def model_id(self) -> str:
        return self._chat.model_id

    def decompose(self, draft: str) -> list[Claim]:
        """Claims of ``draft``; ``[]`` for a blank draft, without calling the model.

        Raises:
            DecomposeError: no attempt gave a valid claim list, or the provider failed in a way
                that retrying cannot fix; ``attempts`` says how many calls were made.
        """
        self.last_usage, self.last_prompt_hash, self.last_attempts = Usage(), "", 0
        self.last_model = ""
        if not draft.strip():
            return []
        messages = build_decompose_messages(draft)
        self.last_prompt_hash = prompt_hash(messages)
        reason = ""
        for attempt in range(1, self._attempts + 1):
            self.last_attempts = attempt
            try:
                result = self._chat.complete(messages, temperature=0.0)
            except ProviderError as exc:
                reason = f"model call failed: {exc}"
                if not exc.retryable:
                    raise DecomposeError(
                        f"gave up after {attempt} attempt(s), the error is not retryable: {reason}",
                        attempts=attempt,
                    ) from exc
                continue
            self.last_model = result.model
            self.last_usage = Usage(
                self.last_usage.input_tokens + result.usage.input_tokens,
                self.last_usage.output_tokens + result.usage.output_tokens,
            )
            try:
                return parse_claims(result.text, draft)
            except InvalidInputError as exc:
                reason = f"invalid reply: {exc}"
        raise DecomposeError(
            f"no valid claims after {self._attempts} attempts: {reason}", attempts=self._attempts
        )
