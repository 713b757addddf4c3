"""The one retry policy of the HTTP adapters: what it retries, how long it waits, what it raises."""

from __future__ import annotations

import pytest

from spanproof.core.errors import ConfigurationError, ProviderError, SourceError
from spanproof.providers.retry import RetryAfter, RetryPolicy, is_retryable_status, tries


class Script:
    """An attempt that fails with the scripted errors in turn, then returns ``"ok"``."""

    def __init__(self, *failures: BaseException) -> None:
        self.failures = list(failures)
        self.calls: list[int] = []

    def __call__(self, n: int) -> str:
        self.calls.append(n)
        if self.failures:
            raise self.failures.pop(0)
        return "ok"


def policy(waits: list[float], **kwargs: float) -> RetryPolicy:
    options: dict[str, float] = {"max_attempts": 4, "backoff": 0.5} | kwargs
    return RetryPolicy(
        max_attempts=int(options["max_attempts"]),
        backoff=options["backoff"],
        max_retry_after=options.get("max_retry_after", 120.0),
        sleep=waits.append,
    )


def busy(n: int = 1) -> SourceError:
    return SourceError(f"HTTP 503 after {tries(n)}", retryable=True)


def test_retryable_failures_are_retried_after_a_doubling_backoff() -> None:
    waits: list[float] = []
    attempt = Script(busy(1), busy(2), busy(3))
    assert policy(waits).run(attempt) == "ok"
    assert attempt.calls == [1, 2, 3, 4]
    assert waits == [0.5, 1.0, 2.0]
    assert all(type(w) is float for w in waits)


def test_a_failure_that_is_not_retryable_is_raised_at_once() -> None:
    waits: list[float] = []
    gone = SourceError("HTTP 404 after 2 attempts", retryable=False)
    attempt = Script(busy(1), gone)
    with pytest.raises(SourceError) as caught:
        policy(waits).run(attempt)
    assert caught.value is gone
    assert attempt.calls == [1, 2]
    assert waits == [0.5]


def test_when_attempts_run_out_the_last_failure_is_raised_as_it_was() -> None:
    waits: list[float] = []
    last = ProviderError("HTTP 500 after 3 attempts", retryable=True)
    attempt = Script(busy(1), busy(2), last)
    with pytest.raises(ProviderError) as caught:
        policy(waits, max_attempts=3, backoff=0.25).run(attempt)
    assert caught.value is last
    assert caught.value.retryable is True
    assert waits == [0.25, 0.5]


def test_an_error_that_is_not_a_runtime_failure_is_never_retried() -> None:
    waits: list[float] = []
    attempt = Script(ValueError("a bug"))
    with pytest.raises(ValueError, match="a bug"):
        policy(waits).run(attempt)
    assert attempt.calls == [1]
    assert waits == []


def test_retry_after_replaces_the_backoff_for_that_wait() -> None:
    waits: list[float] = []
    attempt = Script(RetryAfter(busy(1), 7.0), busy(2), RetryAfter(busy(3), 0.0))
    assert policy(waits).run(attempt) == "ok"
    assert waits == [7.0, 1.0, 0.0]


def test_a_retry_after_beyond_the_limit_fails_at_once_and_stays_retryable() -> None:
    waits: list[float] = []
    attempt = Script(RetryAfter(busy(1), 3600.0))
    with pytest.raises(SourceError) as caught:
        policy(waits, max_retry_after=120.0).run(attempt)
    assert caught.value.retryable is True
    assert str(caught.value) == (
        "HTTP 503 after 1 attempt (asked to retry after 3600 s, more than max_retry_after=120 s)"
    )
    assert attempt.calls == [1]
    assert waits == []


def test_a_retry_after_on_the_last_attempt_raises_the_failure_it_carries() -> None:
    waits: list[float] = []
    last = busy(2)
    attempt = Script(busy(1), RetryAfter(last, 1.0))
    with pytest.raises(SourceError) as caught:
        policy(waits, max_attempts=2).run(attempt)
    assert caught.value is last
    assert waits == [0.5]


def test_one_attempt_means_no_retry() -> None:
    waits: list[float] = []
    attempt = Script(busy(1))
    with pytest.raises(SourceError):
        policy(waits, max_attempts=1).run(attempt)
    assert attempt.calls == [1]
    assert waits == []


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"max_attempts": 0}, "max_attempts"),
        ({"backoff": -1.0}, "backoff"),
        ({"backoff": float("nan")}, "backoff"),
        ({"max_retry_after": -1.0}, "max_retry_after"),
    ],
)
def test_arguments_out_of_range_are_configuration_errors(
    kwargs: dict[str, float], named: str
) -> None:
    with pytest.raises(ConfigurationError, match=named):
        policy([], **kwargs)


def test_retryable_statuses_are_408_425_429_5xx_and_what_an_adapter_adds() -> None:
    assert [
        s for s in (400, 404, 408, 409, 425, 429, 500, 503, 599, 600) if is_retryable_status(s)
    ] == [
        408,
        425,
        429,
        500,
        503,
        599,
    ]
    assert is_retryable_status(409, also=frozenset({409}))
