"""``spanproof trace verify`` as a user reads it: one trace of one claim is counted in the
singular."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from spanproof.cli.main import cli
from spanproof.core.models import Claim, EvidenceSpan
from spanproof.core.trace import Trace, plan_hash
from spanproof.services.replay import RecordingEmbedder, trace_embeddings
from spanproof.services.verification import score_all
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.scoring import score_model

DRAFT = "Aspirin reduced stroke risk by 20% [S1]."
SPAN = EvidenceSpan("S1", "Aspirin reduced the risk of stroke by 20% in the 2019 trial.")


def _one_claim_trace() -> Trace:
    """A verification trace of one claim, written the way the engine writes one."""
    claims = [Claim("c1", "Aspirin reduced stroke risk by 20%.", (0, 34), ("S1",))]
    embedder = RecordingEmbedder(FakeEmbedder())
    model = score_model("v2")
    verdicts, status = score_all(claims, [SPAN], embedder, model)
    plan: list[dict[str, object]] = [
        {"marker": "S1", "id": "S1", "text": SPAN.text, "truth_class": True}
    ]
    return Trace(
        kind="verification",
        request={"draft": DRAFT},
        plan=plan,
        plan_hash=plan_hash(plan),
        prompt_hash="",
        models={
            "embed": embedder.model_id,
            "embed_hash": embedder.model_hash,
            "score_model": model.name,
            "decompose": "given",
        },
        draft=DRAFT,
        claims=[v.to_dict() for v in verdicts],
        verification=status,
        delivered=DRAFT,
        embeddings=trace_embeddings(claims, [SPAN], embedder, model),
    )


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
