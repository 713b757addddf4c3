"""The one retry policy of the HTTP adapters (model endpoints and literature connectors).

An attempt returns its result or raises a :class:`~spanproof.core.errors.RuntimeFailure`. The
policy reads only the failure's ``retryable``: a retryable failure is tried again, up to
``max_attempts`` attempts in all, after ``backoff`` seconds, twice that, and so on; any other
failure is raised at once. An attempt whose reply said how long to wait (``Retry-After``) raises
:class:`RetryAfter` instead: the policy waits that long, or gives up at once (the failure still
retryable) when it is longer than ``max_retry_after``. When the attempts run out, the last
attempt's failure is raised as it was.

What is retryable (the statuses, transport errors) and how requests are paced stay with each
adapter; this module only decides whether and when to try again. It runs on ``tenacity``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import NoReturn, TypeVar

from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    stop_any,
    wait_exponential,
)
from tenacity.stop import stop_base

from spanproof.core.errors import ConfigurationError, RuntimeFailure

__all__ = ["RetryAfter", "RetryPolicy", "is_retryable_status", "tries"]

T = TypeVar("T")

#: Besides 5xx: request timeout, too early, too many requests.
_RETRYABLE_STATUSES = frozenset({408, 425, 429})


def is_retryable_status(status: int, *, also: frozenset[int] = frozenset()) -> bool:
    """Whether an HTTP status may succeed on a later try: 408, 425, 429, 5xx and ``also``."""
    return status in _RETRYABLE_STATUSES or status in also or 500 <= status <= 599


def tries(attempt: int) -> str:
    """``"1 attempt"``, ``"2 attempts"``: how failure messages count."""
    return f"{attempt} attempt{'s' if attempt > 1 else ''}"


class RetryAfter(Exception):
    """Raised by an attempt whose reply asked to wait ``seconds`` before the next one.

    A signal to the policy, never raised past it: once it stops trying, the policy raises
    ``failure`` itself.
    """

    def __init__(self, failure: RuntimeFailure, seconds: float) -> None:
        super().__init__(str(failure))
        self.failure = failure
        self.seconds = seconds


def _retryable(exc: BaseException) -> bool:
    if isinstance(exc, RetryAfter):
        exc = exc.failure
    return isinstance(exc, RuntimeFailure) and exc.retryable


class RetryPolicy:
    """Runs an attempt until it succeeds, fails for good, or ``max_attempts`` have failed.

    Args:
        max_attempts: attempts in all (1 = no retry).
        backoff: seconds before the first retry without ``Retry-After``; doubled each time.
        max_retry_after: the longest ``Retry-After`` (seconds) waited for.
        sleep: how to wait; tests inject a fake so nothing waits.

    Raises:
        ConfigurationError: an argument out of range.
    """

    def __init__(
        self,
        *,
        max_attempts: int,
        backoff: float,
        max_retry_after: float = math.inf,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if max_attempts < 1:
            raise ConfigurationError(f"max_attempts must be at least 1, got {max_attempts}")
        if not backoff >= 0:
            raise ConfigurationError(f"backoff must be zero or more seconds, got {backoff}")
        if not max_retry_after >= 0:
            raise ConfigurationError(f"max_retry_after must be zero or more, got {max_retry_after}")
        self.max_attempts = max_attempts
        self.backoff = backoff
        self.max_retry_after = max_retry_after
        self._sleep = sleep
        self._backoff_wait = wait_exponential(multiplier=backoff, exp_base=2)

    def run(self, attempt: Callable[[int], T]) -> T:
        """``attempt(n)`` for n = 1, 2, ... as the policy says; what the first success returns.

        Raises:
            RuntimeFailure: the failure of the attempt that ended the tries.
        """
        retrying = Retrying(
            stop=stop_any(
                stop_after_attempt(self.max_attempts), _RetryAfterBeyond(self.max_retry_after)
            ),
            wait=self._wait,
            retry=retry_if_exception(_retryable),
            sleep=lambda seconds: self._sleep(float(seconds)),
            retry_error_callback=self._give_up,
        )
        for trial in retrying:
            with trial:
                return attempt(trial.retry_state.attempt_number)
        raise AssertionError("unreachable: the policy returns or raises")  # pragma: no cover

    def _wait(self, state: RetryCallState) -> float:
        exc = _failure(state)
        if isinstance(exc, RetryAfter):
            return exc.seconds
        return float(self._backoff_wait(state))

    def _give_up(self, state: RetryCallState) -> NoReturn:
        exc = _failure(state)
        if not isinstance(exc, RetryAfter):
            raise exc if exc is not None else AssertionError("gave up without a failure")
        failure = exc.failure
        if exc.seconds > self.max_retry_after:
            failure = type(failure)(
                f"{failure} (asked to retry after {exc.seconds:g} s, more than "
                f"max_retry_after={self.max_retry_after:g} s)",
                retryable=failure.retryable,
            )
        raise failure


class _RetryAfterBeyond(stop_base):
    """Stop when the last reply asked to wait longer than ``limit`` seconds."""

    def __init__(self, limit: float) -> None:
        self.limit = limit

    def __call__(self, retry_state: RetryCallState) -> bool:
        exc = _failure(retry_state)
        return isinstance(exc, RetryAfter) and exc.seconds > self.limit


def _failure(state: RetryCallState) -> BaseException | None:
    return state.outcome.exception() if state.outcome is not None else None
