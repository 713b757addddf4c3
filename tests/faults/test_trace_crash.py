"""A process appending verification traces, killed with SIGKILL mid-append: every trace it
reported committed is in the chain unchanged, the chain checks out (``spanproof trace verify``
exits 0), nothing half-written is visible, and appending goes on from where the chain ends."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from process_kit import run_child
from spanproof.cli.main import cli
from spanproof.core.trace import check_chain
from spanproof.store.sqlite import SqliteEvidenceStore

# Verifies claims and appends each verification's trace as the API does, printing the id and
# hash of every trace once append() has returned (committed), then at once the next one.
CHILD = textwrap.dedent(
    """
    import sys
    from spanproof.services.replay import RecordingEmbedder
    from spanproof.services.verification_trace import verification_trace
    from spanproof.store.sqlite import SqliteEvidenceStore
    from spanproof.testing.fakes import FakeEmbedder
    from spanproof.verifier import Verifier, to_evidence
    from spanproof.verify.decompose import RuleBasedDecomposer
    from spanproof.verify.scoring import score_model

    model = score_model("v2")
    evidence = to_evidence([
        {"id": f"S{i}", "text": f"Treatment {i} lowered blood pressure by {i} mmHg in "
         f"{10 * i} adults over {i % 9 + 1} weeks. " * 20}
        for i in range(1, 9)
    ])
    store = SqliteEvidenceStore(sys.argv[1])
    for n in range(100_000):
        recorder = RecordingEmbedder(FakeEmbedder())
        verifier = Verifier(embedder=recorder, decomposer=RuleBasedDecomposer(), score_model=model)
        claims = [f"Treatment {n % 8 + 1} lowered blood pressure by {n} mmHg.",
                  f"Cohort {n} had {n % 5} adverse events."]
        report = verifier.check_claims(claims, evidence)
        trace = verification_trace(report, evidence, report.claims, recorder, model,
                                   {"mode": "claims", "claims": len(claims), "n": n})
        stored = store.append(trace)
        print(f"committed {stored.id} {stored.hash}", flush=True)
        print("appended", flush=True)
    """
)


def _append_until_killed(db: Path, count: int) -> dict[str, str]:
    """Run the child, SIGKILL it at its ``count``-th committed trace; {id: hash} it reported."""
    args = [sys.executable, "-c", CHILD, str(db)]
    lines = run_child(args, kill_after="appended", count=count, timeout=120)
    return dict(line.split()[1:3] for line in lines if line.startswith("committed "))


def _trace_verify(db: Path, trace_id: str) -> int:
    result = CliRunner().invoke(cli, ["trace", "verify", trace_id, "--db", str(db), "--json"])
    return result.exit_code


@pytest.mark.parametrize("kills", [(1,), (7, 3, 12)], ids=["once", "three-times"])
def test_a_trace_append_killed_mid_write_keeps_every_committed_trace_and_a_valid_chain(
    tmp_path: Path, kills: tuple[int, ...]
) -> None:
    db = tmp_path / "traces.sqlite"
    committed: dict[str, str] = {}
    for count in kills:
        committed |= _append_until_killed(db, count)
        with SqliteEvidenceStore(db) as store:
            chain = store.chain()
        assert check_chain(chain) == []
        stored = {t.id: t.hash for t in chain}
        # Every trace reported committed is there, byte for byte (its hash seals its body) ...
        assert {i: stored.get(i) for i in committed} == committed
        # (the child may have committed more before the kill landed: whole, as check_chain says)
        assert [t.seq for t in chain] == list(range(1, len(chain) + 1))
        assert _trace_verify(db, chain[-1].id) == 0
    assert len(committed) == sum(kills)

    # A store reopened after the kills appends after the last trace, and the chain still holds.
    more = _append_until_killed(db, 2)
    with SqliteEvidenceStore(db) as store:
        chain = store.chain()
    assert check_chain(chain) == []
    assert set(more) <= {t.id for t in chain}
    assert _trace_verify(db, next(iter(more))) == 0
