"""/metrics values: one app's own, or the sum over worker processes (PROMETHEUS_MULTIPROC_DIR)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from spanproof.api.metrics import MULTIPROCESS_ENV, Metrics

REQUESTS = 'spanproof_http_requests_total{method="POST",route="/v1/verify",status="200"}'

#: A worker: counts argv[1] requests and one verification, then prints its /metrics text.
WORKER = """
import sys
from spanproof.api.metrics import Metrics

metrics = Metrics()
for _ in range(int(sys.argv[1])):
    metrics.observe_request("/v1/verify", "POST", 200, 0.02)
metrics.observe_verification("verify", "verified", ["supported"])
print(metrics.render())
"""


def _worker(requests: int, env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(requests)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.splitlines()


def test_each_app_counts_only_its_own_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MULTIPROCESS_ENV, raising=False)
    first, second = Metrics(), Metrics()
    first.observe_request("/v1/verify", "POST", 200, 0.02)
    first.observe_request("/v1/verify", "POST", 200, 0.3)
    assert f"{REQUESTS} 2.0" in first.render().splitlines()
    assert REQUESTS not in second.render()
    buckets = [x for x in first.render().splitlines() if x.startswith("spanproof_http_request_d")]
    assert 'spanproof_http_request_duration_seconds_bucket{le="0.025",route="/v1/verify"} 1.0' in (
        buckets
    )
    assert 'spanproof_http_request_duration_seconds_bucket{le="0.5",route="/v1/verify"} 2.0' in (
        buckets
    )


def test_with_a_multiprocess_directory_every_process_answers_the_sum(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != MULTIPROCESS_ENV}
    env[MULTIPROCESS_ENV] = str(tmp_path)
    _worker(2, env)  # a worker that has exited still counts: its values stay in the directory
    second = _worker(3, env)
    assert f"{REQUESTS} 5.0" in second
    assert 'spanproof_http_request_duration_seconds_count{route="/v1/verify"} 5.0' in second
    assert 'spanproof_verifications_total{endpoint="verify",outcome="verified"} 2.0' in second
    assert 'spanproof_claim_verdicts_total{verdict="supported"} 2.0' in second
    assert len(list(tmp_path.glob("counter_*.db"))) == 2  # one file per worker process

    without = {k: v for k, v in env.items() if k != MULTIPROCESS_ENV}
    assert f"{REQUESTS} 3.0" in _worker(3, without)  # no directory: a process's own values
