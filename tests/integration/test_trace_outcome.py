"""Traces gain ``outcome`` and ``counts``; traces stored before they existed still read back byte
for byte, keep their hash chain, replay, and show an outcome derived the same way."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from spanproof.cli.main import cli
from spanproof.core.models import Outcome
from spanproof.core.outcome import trace_outcome
from spanproof.core.trace import Trace, check_chain
from spanproof.services.replay import RecordingEmbedder, replay
from spanproof.services.verification_trace import verification_trace
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verifier import Verifier, to_evidence
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.policy import strip_flags
from spanproof.verify.scoring import score_model

#: Two traces as spanproof stored them before ``outcome`` (see the README beside them).
FIXTURE = Path(__file__).parents[1] / "fixtures" / "traces" / "pre_outcome.jsonl"
EVIDENCE = [
    {
        "id": "S1",
        "text": "Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg after 12 "
        "weeks.",
    },
    {
        "id": "S2",
        "text": "Sodium restriction to 1,500 mg per day did not change diastolic blood pressure.",
    },
]
DRAFT = (
    "Daily walking for 30 minutes lowered systolic blood pressure by 5 mmHg after 12 weeks [S1]. "
    "Sodium restriction to 1,500 mg per day reduced diastolic blood pressure [S2]. "
    "Walking also cured diabetes in 40% of participants."
)


def stored_bodies() -> list[str]:
    return FIXTURE.read_text(encoding="utf-8").splitlines()


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False, env={"COLUMNS": "250"})
    return result.exit_code, result.stdout, result.stderr


def new_trace() -> Trace:
    model = score_model("v2")
    recorder = RecordingEmbedder(FakeEmbedder())
    verifier = Verifier(embedder=recorder, decomposer=RuleBasedDecomposer(), score_model=model)
    evidence = to_evidence(EVIDENCE)
    report = verifier.verify(DRAFT, evidence, policy="flag")
    request = {"mode": "draft", "policy": "flag"}
    return verification_trace(report, evidence, report.claims, recorder, model, request)


def test_old_traces_read_back_byte_for_byte_keep_their_chain_and_replay() -> None:
    bodies = stored_bodies()
    assert all("outcome" not in json.loads(b) and "counts" not in json.loads(b) for b in bodies)
    traces = [Trace.from_json(body) for body in bodies]
    assert [t.to_json() for t in traces] == bodies
    assert all(t.compute_hash() == t.hash for t in traces)
    assert check_chain(traces) == []
    for trace in traces:
        result = replay(trace)
        assert result.ok, result.differences
    # Their outcome is derived from their verdicts, the same rule new traces store.
    assert [trace_outcome(t)[0] for t in traces] == [Outcome.CONTRADICTED, Outcome.CONTRADICTED]
    assert trace_outcome(traces[0])[1]["unsupported"] == 1
    # Written before flag markers: the old flag trace delivered the draft unchanged.
    assert traces[0].delivered == traces[0].draft


def test_a_new_trace_stores_outcome_and_counts_and_marks_the_flagged_text() -> None:
    trace = new_trace()
    assert [c["verdict"] for c in trace.claims] == ["supported", "contradicted", "unsupported"]
    assert trace.outcome == "contradicted"
    assert trace.counts == {
        "supported": 1,
        "partial": 0,
        "unsupported": 1,
        "contradicted": 1,
        "evidence_redacted": 0,
    }
    assert trace.delivered is not None and "⟦contradicted⟧" in trace.delivered
    assert strip_flags(trace.delivered) == trace.draft == DRAFT
    assert replay(trace).ok  # replay compares claims, not the delivered text


def test_a_chain_of_old_and_new_traces_verifies_and_shows_both_outcomes(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    SqliteEvidenceStore(path).close()  # creates the schema
    old = [Trace.from_json(body) for body in stored_bodies()]
    conn = sqlite3.connect(path)
    try:
        conn.executemany(
            "INSERT INTO traces (seq, id, hash, prev_hash, kind, created_at, body) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(t.seq, t.id, t.hash, t.prev_hash, t.kind, t.created_at, t.to_json()) for t in old],
        )
        conn.commit()
    finally:
        conn.close()
    with SqliteEvidenceStore(path) as store:
        appended = store.append(new_trace())
        chain = store.chain()
    assert appended.seq == 3 and appended.prev_hash == old[-1].hash
    assert json.loads(appended.to_json())["outcome"] == "contradicted"
    assert check_chain(chain) == []

    code, out, err = run("trace", "verify", "--all", "--db", str(path))
    assert code == 0, out + err
    for trace in (old[0], appended):
        code, out, err = run("trace", "show", trace.id, "--db", str(path))
        assert code == 0, err
        assert "outcome: ✖ 1 claim contradicted, 1 unsupported, 1 supported" in out
        assert "verification: verified" in out
