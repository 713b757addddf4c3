"""Schemathesis over every route of ``/openapi.json``: no 5xx, documented shapes, one 4xx shape."""

from __future__ import annotations

from pathlib import Path

from api_kit import fuzz_api, fuzz_app

#: Cases per operation and mode in CI (``scripts/fuzz.py --api`` runs more).
EXAMPLES = 20


def test_every_route_survives_schema_driven_fuzzing(tmp_path: Path) -> None:
    with fuzz_app(tmp_path) as app:
        tally = fuzz_api(app, EXAMPLES)
    assert len(tally.cases) >= 40, sorted(tally.cases)  # ~26 operations x 2 modes
    assert not tally.failures, "\n\n".join(f"{k}:\n{v}" for k, v in tally.failures.items())
