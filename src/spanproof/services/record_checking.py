"""The record checkers beyond the rules (SPEC §5.3): the LLM checker, and the rules with the
trained entailment model beside them.

**LLM checker** — prompt, parse, retry, give an unusable verdict.

:class:`LlmRecordChecker` is a checker for :func:`spanproof.services.records.verify_record`: a
callable ``(record, passages) -> Verdict`` like :func:`spanproof.evidence.checker.check`, backed
by the chat model it receives. Every attempt sends the same fixed prompt
(:mod:`spanproof.evidence.check_prompt`) at temperature 0. A reply that does not parse, or a
retryable provider failure, costs one attempt. After the last attempt:

* if the model replied at least once, the answer is
  :func:`~spanproof.evidence.check_prompt.unusable_verdict` (``ambiguous``, every check failed,
  the reason in each note), which the record service sends to review;
* if the model never replied, the last :class:`ProviderError` is raised, so an unreachable or
  misconfigured model leaves records ``proposed`` instead of filling the review queue.

A non-retryable provider failure is raised at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from spanproof.core.checker import CHECKER_LABELS, EntailmentChecker
from spanproof.core.errors import ConfigurationError, InvalidInputError, ProviderError
from spanproof.core.ports import ChatModel, Usage
from spanproof.core.records import Record, Verdict
from spanproof.evidence.check_prompt import (
    build_check_messages,
    parse_verdict,
    prompt_hash,
    unusable_verdict,
)
from spanproof.evidence.checker import MODEL_ID as RULES_MODEL_ID
from spanproof.evidence.checker import check, focus_sentence

RuleChecker = Callable[[Record, Sequence[str]], Verdict]


class LlmRecordChecker:
    """A record checker backed by a chat model.

    Attributes (describing the latest call):
        last_prompt_hash: SHA-256 of the canonical JSON of the messages sent ("" if none).
        last_attempts: how many model calls it made.
        last_usage: input and output tokens summed over its attempts.
        last_model: the model name the provider reported on its last reply ("" if none).
    """

    def __init__(self, chat: ChatModel, attempts: int = 3, *, max_tokens: int = 2048) -> None:
        if attempts < 1:
            raise ConfigurationError(f"attempts must be at least 1, got {attempts}")
        self._chat = chat
        self._attempts = attempts
        self._max_tokens = max_tokens
        self.last_prompt_hash = ""
        self.last_attempts = 0
        self.last_usage = Usage()
        self.last_model = ""

    @property
    def model_id(self) -> str:
        """The chat model's id, recorded on every verdict and attempt."""
        return self._chat.model_id

    def prompt_hash_for(self, record: Record, passages: Sequence[str]) -> str:
        """The hash of the prompt :meth:`__call__` sends for ``record`` and ``passages``."""
        return prompt_hash(build_check_messages(record, passages))

    def __call__(self, record: Record, passages: Sequence[str]) -> Verdict:
        """Label and five checks for ``record`` against ``passages``.

        Raises:
            ProviderError: the provider failed without retry, or never replied in any attempt.
        """
        messages = build_check_messages(record, passages)
        self.last_prompt_hash = prompt_hash(messages)
        self.last_attempts, self.last_usage, self.last_model = 0, Usage(), ""
        reason = ""
        error: ProviderError | None = None
        replied = False
        for attempt in range(1, self._attempts + 1):
            self.last_attempts = attempt
            try:
                result = self._chat.complete(messages, temperature=0.0, max_tokens=self._max_tokens)
            except ProviderError as exc:
                if not exc.retryable:
                    raise
                error, reason = exc, f"model call failed: {exc}"
                continue
            replied = True
            self.last_model = result.model
            self.last_usage = Usage(
                self.last_usage.input_tokens + result.usage.input_tokens,
                self.last_usage.output_tokens + result.usage.output_tokens,
            )
            try:
                return parse_verdict(result.text, passages, self.model_id)
            except InvalidInputError as exc:
                reason = f"invalid reply: {exc}"
        if not replied and error is not None:
            raise error
        return unusable_verdict(
            self.model_id, f"no valid reply after {self._attempts} attempt(s); last: {reason}"
        )


class ModelAssistedChecker:
    """The deterministic record checker with the trained entailment model beside it (SPEC §5.3).

    The five rule checks (:func:`spanproof.evidence.checker.check`) decide as before. When they
    would label the record ``entailed`` and the model reads the record's statement against the
    passage sentence the rules relied on as ``contradicted``, the label becomes ``ambiguous``, so
    a reviewer decides beside the passage. The model can send a record to review; it never
    verifies or rejects one on its own. A statement that is itself a quotation of the passages
    (whitespace aside) is not asked about: the passage states it word for word, so there is
    nothing for the model to read (an earlier cross-encoder also misread many such identical
    pairs as contradicted; docs/model-card.md).
    ``entailment`` must read the texts (the cross-encoder): the pair's embedding slots are left
    empty.
    """

    def __init__(self, entailment: EntailmentChecker, rules: RuleChecker = check) -> None:
        self._model = entailment
        self._rules = rules
        self.model_id = f"{RULES_MODEL_ID}+{entailment.model_id}"
        #: Records the model sent to review since this checker was made.
        self.disagreements = 0

    def __call__(self, record: Record, passages: Sequence[str]) -> Verdict:
        verdict = self._rules(record, passages)
        label = verdict.label
        if label == "entailed" and not _quoted(record.statement, passages):
            sentence = focus_sentence(record, passages)
            none = np.zeros(0, dtype=np.float32)
            probs = self._model.check([(record.statement, sentence, none, none)])[0]
            if int(np.argmax(probs)) == CHECKER_LABELS.index("contradicted"):
                label = "ambiguous"
                self.disagreements += 1
        return Verdict(label, verdict.checks, self.model_id)


def _quoted(statement: str, passages: Sequence[str]) -> bool:
    """Whether ``statement`` occurs in one of ``passages``, whitespace aside."""
    wanted = " ".join(statement.split())
    return bool(wanted) and any(wanted in " ".join(p.split()) for p in passages)
