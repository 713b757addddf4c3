"""``spanproof trace verify`` as a user reads it: one trace of one claim is counted in the
singular."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from spanproof.cli.main import cli
from spanproof.core.models import EvidenceSpan
from spanproof.core.trace import Trace
from spanproof.services.replay import RecordingEmbedder
from spanproof.services.verification_trace import verification_trace
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verifier import Verifier
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.scoring import V2

SPAN = EvidenceSpan("S1", "Aspirin reduced the risk of stroke by 20% in the 2019 trial.")


def _one_claim_trace() -> Trace:
    """A verification trace of one claim, written as the API writes one."""
    recorder = RecordingEmbedder(FakeEmbedder())
    verifier = Verifier(embedder=recorder, decomposer=RuleBasedDecomposer(), score_model=V2)
    report = verifier.check_claims(["Aspirin reduced stroke risk by 20%."], [SPAN])
    return verification_trace(report, [SPAN], report.claims, recorder, V2, {"mode": "claims"})


def test_one_trace_of_one_claim_is_counted_in_the_singular(tmp_path: Path) -> None:
    db = tmp_path / "traces.sqlite"
    with SqliteEvidenceStore(db) as store:
        store.append(_one_claim_trace())
    result = CliRunner().invoke(
        cli, ["trace", "verify", "--all", "--db", str(db)], env={"COLUMNS": "250"}
    )
    assert result.exit_code == 0, result.stderr
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert lines[0] == "trace chain: 1 trace"  # the table's title
    assert "ok (1 claim)" in result.stdout and "1 claims" not in result.stdout
    assert "chain of 1 trace intact; 1 replayed" in result.stdout
