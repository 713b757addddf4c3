"""Running a fuzz property under Hypothesis: the CI settings, and a counting runner for scripts."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from fuzz_kit import Property, hard_limit
from hypothesis import HealthCheck, given, settings

#: Ordinary per-input bound (Hypothesis fails an input slower than this, after re-running it).
DEADLINE = timedelta(seconds=5)
_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example,
            HealthCheck.filter_too_much]  # fmt: skip


def fuzz_settings(examples: int, *, derandomize: bool = True) -> settings:
    """Deterministic in CI (``derandomize``), no example database, the per-input deadline."""
    return settings(
        max_examples=examples,
        derandomize=derandomize,
        database=None,
        deadline=DEADLINE,
        suppress_health_check=_SLOW_OK,
        print_blob=True,
    )


def run_property(prop: Property, examples: int | None = None, *, derandomize: bool = True) -> None:
    """Run ``prop`` (raising the first falsifying input's error, as Hypothesis does)."""

    @fuzz_settings(examples or prop.examples, derandomize=derandomize)
    @given(prop.strategy)
    def inner(value: Any) -> None:
        with hard_limit():
            prop.check(value)

    inner()


@dataclass
class Tally:
    """What a counted run saw: inputs, outcomes by label, the slowest input."""

    name: str
    runs: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    slowest_s: float = 0.0
    failure: str = ""


def count_property(prop: Property, examples: int, *, derandomize: bool = False) -> Tally:
    """Run ``prop`` counting outcomes and timing each input; a failure is recorded, not raised."""
    tally = Tally(prop.name)

    @fuzz_settings(examples, derandomize=derandomize)
    @given(prop.strategy)
    def inner(value: Any) -> None:
        started = time.perf_counter()
        with hard_limit():
            outcome = prop.check(value)
        tally.slowest_s = max(tally.slowest_s, time.perf_counter() - started)
        tally.runs += 1
        tally.outcomes[outcome] += 1

    try:
        inner()
    except Exception as exc:  # report it with the counts; the script's exit code says it failed
        tally.failure = f"{type(exc).__name__}: {str(exc)[:2000]}"
    return tally
