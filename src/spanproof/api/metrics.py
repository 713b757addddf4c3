"""Prometheus metrics for one app, kept and written by ``prometheus_client``.

Request counts by route template, method and status; a request latency histogram by route;
verifications by endpoint and outcome, and claim verdicts by kind.

Several worker processes (e.g. ``gunicorn -k uvicorn.workers.UvicornWorker -w 4``) each count
their own requests. To have ``/metrics`` answer the sum over all of them, set
``PROMETHEUS_MULTIPROC_DIR`` to an empty directory, writable by every worker, before the
processes start, and empty it again before each start: each process then keeps its values in
that directory and every process answers ``/metrics`` with the values of all, as
``prometheus_client``'s multiprocess mode does (one app per process in that mode: the values are
the process's, not the app object's).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.multiprocess import MultiProcessCollector

__all__ = ["BUCKETS", "CONTENT_TYPE", "MULTIPROCESS_ENV", "Metrics"]

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
#: The text format ``generate_latest`` writes (version 0.0.4).
CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4
#: Where worker processes keep their values; set: ``/metrics`` sums them all.
MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"


class Metrics:
    """The app's counters and latency histogram, in a registry of its own (thread-safe)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self._requests = Counter(
            "spanproof_http_requests_total",
            "HTTP requests by route, method and status.",
            ("route", "method", "status"),
            registry=self.registry,
        )
        self._latency = Histogram(
            "spanproof_http_request_duration_seconds",
            "HTTP request latency by route.",
            ("route",),
            buckets=BUCKETS,
            registry=self.registry,
        )
        self._verifications = Counter(
            "spanproof_verifications_total",
            "Verifications by endpoint and outcome.",
            ("endpoint", "outcome"),
            registry=self.registry,
        )
        self._verdicts = Counter(
            "spanproof_claim_verdicts_total",
            "Claim verdicts by verdict.",
            ("verdict",),
            registry=self.registry,
        )

    def observe_request(self, route: str, method: str, status: int, seconds: float) -> None:
        """Count one answered request under its route template, and its latency."""
        self._requests.labels(route, method, str(status)).inc()
        self._latency.labels(route).observe(seconds)

    def observe_verification(
        self, endpoint: str, verification: str, verdicts: Iterable[str]
    ) -> None:
        """Count one verification (``verified`` or ``unavailable``) and its claims' verdicts."""
        outcome = "verified" if verification == "verified" else "unavailable"
        self._verifications.labels(endpoint, outcome).inc()
        for verdict in verdicts:
            self._verdicts.labels(verdict).inc()

    def render(self) -> str:
        """The exposition text: this app's values, or every process's when
        ``PROMETHEUS_MULTIPROC_DIR`` is set."""
        if os.environ.get(MULTIPROCESS_ENV):
            everyone = CollectorRegistry()
            MultiProcessCollector(everyone)  # type: ignore[no-untyped-call]  # untyped upstream
            return generate_latest(everyone).decode("utf-8")
        return generate_latest(self.registry).decode("utf-8")
