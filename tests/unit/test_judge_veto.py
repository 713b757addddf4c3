"""Score model v57: the judge's veto on what the rules call supported."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest
from test_judging import EVIDENCE  # the judge tests' evidence: two spans, one sentence to read

from spanproof.core.models import Claim, Verdict
from spanproof.core.outcome import judge_doubt
from spanproof.services.replay import replay
from spanproof.services.verification import score_all
from spanproof.services.verification_trace import RecordingEmbedder, verification_trace
from spanproof.testing.fakes import FakeChecker, FakeEmbedder, WholeDraftDecomposer
from spanproof.verifier import Verifier
from spanproof.verify.scoring import SCORE_MODELS, V56, V57, V58

COPIED = Claim("c1", "Daily walking lowered systolic blood pressure.")
#: supported by the rules, not a near copy of its span: what the judge reads
REWORDED = Claim("c1", "Systolic blood pressure was lowered by daily walking.")
REVERSED = Claim("c2", "Daily walking raised systolic blood pressure.")
ENTAILED = (0.9, 0.05, 0.05)
DOUBTED = (0.04, 0.06, 0.9)


def _rules(claims: list[Claim]) -> list[Verdict]:
    verdicts, status = score_all(claims, EVIDENCE, FakeEmbedder(), V56)
    assert status == "verified"
    return [v.verdict for v in verdicts]


def test_v57_is_v56_with_the_veto_and_reads_the_judge() -> None:
    assert SCORE_MODELS["v57"] is V57
    assert dataclasses.replace(V57, name="v56", judge_veto=None) == V56
    assert V57.judge_veto == 0.1 and V57.reads_judge and V57.uses_checker
    assert not V56.uses_checker


def test_only_supported_claims_are_read_all_in_one_call() -> None:
    other = Claim("c3", "Blocks of the city were cooled by tree canopy.")
    claims = [REWORDED, REVERSED, other]
    assert _rules(claims) == [Verdict.SUPPORTED, Verdict.CONTRADICTED, Verdict.SUPPORTED]
    checker = FakeChecker(ENTAILED)
    verdicts, status = score_all(claims, EVIDENCE, FakeEmbedder(), V57, checker)
    assert status == "verified"
    assert len(checker.calls) == 1
    assert [c for c, _ in checker.calls[0]] == [REWORDED.text, other.text]
    kept, reversed_, _ = verdicts
    assert kept.verdict is Verdict.SUPPORTED and reversed_.verdict is Verdict.CONTRADICTED
    assert reversed_.judge is None
    assert kept.judge is not None and not kept.judge.vetoed
    record = kept.to_dict()["judge"]
    assert record["veto"] == 0.1 and record["vetoed"] is False
    assert record["probability"] == pytest.approx(0.9) and record["features"] == {}
    # the window the record names is the text the judge read
    span_text = {s.id: s.text for s in EVIDENCE}
    window = " ".join(span_text[w["id"]][w["start"] : w["end"]].strip() for w in record["window"])
    assert checker.calls[0][0][1] == window and COPIED.text in window


def test_a_faithful_near_copy_is_not_read_the_edit_check_read_it() -> None:
    checker = FakeChecker(DOUBTED)
    verdicts, _ = score_all([COPIED], EVIDENCE, FakeEmbedder(), V57, checker)
    assert verdicts[0].verdict is Verdict.SUPPORTED and verdicts[0].judge is None
    assert checker.calls == []  # nothing to read: no call at all


def test_a_doubted_claim_is_partial_and_keeps_the_rules_score() -> None:
    rules, _ = score_all([REWORDED], EVIDENCE, FakeEmbedder(), V56)
    verdicts, _ = score_all([REWORDED], EVIDENCE, FakeEmbedder(), V57, FakeChecker(DOUBTED))
    vetoed = verdicts[0]
    assert vetoed.verdict is Verdict.PARTIAL
    assert vetoed.score == rules[0].score and vetoed.best_span == rules[0].best_span
    assert vetoed.judge is not None and vetoed.judge.vetoed
    assert judge_doubt(vetoed.to_dict()["judge"]) == "judge: entailed 0.04 < 0.1"


def test_the_floor_itself_is_not_below_it() -> None:
    at_floor = FakeChecker((0.1, 0.0, 0.9))
    verdicts, _ = score_all([REWORDED], EVIDENCE, FakeEmbedder(), V57, at_floor)
    # float32 0.1 read back is 0.10000000149…, not below the floor
    assert verdicts[0].verdict is Verdict.SUPPORTED
    below = FakeChecker((0.0999, 0.0, 0.9001))
    verdicts, _ = score_all([REWORDED], EVIDENCE, FakeEmbedder(), V57, below)
    assert verdicts[0].verdict is Verdict.PARTIAL


def test_judge_doubt_says_nothing_of_a_claim_not_vetoed() -> None:
    assert judge_doubt(None) == ""
    assert judge_doubt({"probability": 0.9, "veto": 0.1, "vetoed": False}) == ""
    assert judge_doubt({"probability": 0.3, "features": {}}) == ""  # v5's combiner
    assert judge_doubt({"vetoed": True}) == "judge: doubts it"


def test_v57_needs_a_judge_and_the_report_names_it() -> None:
    verdicts, status = score_all([REWORDED], EVIDENCE, FakeEmbedder(), V57)
    assert verdicts == [] and status == "unavailable: score model v57 needs a judge"
    checker = FakeChecker(ENTAILED, model_id="judge-x")
    verifier = Verifier(
        embedder=FakeEmbedder(),
        decomposer=WholeDraftDecomposer(),
        score_model="v57",
        checker=checker,
    )
    report = verifier.check_claims([REWORDED.text], EVIDENCE).to_dict()
    assert report["checker_model"] == "judge-x" and report["score_model"] == "v57"


def test_a_v57_trace_replays_with_its_judge_and_an_llm_judged_one_from_the_trace() -> None:
    recorder = RecordingEmbedder(FakeEmbedder())
    verifier = Verifier(embedder=recorder, decomposer=WholeDraftDecomposer(), score_model=V57,
                        checker=FakeChecker(DOUBTED))  # fmt: skip
    report = verifier.check_claims([REWORDED.text], EVIDENCE)
    assert report.claims[0].verdict is Verdict.PARTIAL
    trace = verification_trace(report, EVIDENCE, report.claims, recorder, V57, {})
    assert replay(trace, FakeChecker(DOUBTED)).ok
    assert not replay(trace, FakeChecker(ENTAILED)).ok  # the judge now says otherwise
    llm = FakeChecker(DOUBTED, model_id="llm-judge:m@prompt:abc")
    verifier = Verifier(
        embedder=recorder, decomposer=WholeDraftDecomposer(), score_model=V57, checker=llm
    )
    report = verifier.check_claims([REWORDED.text], EVIDENCE)
    trace = verification_trace(report, EVIDENCE, report.claims, recorder, V57, {})
    assert replay(trace).ok  # from the judgements the trace stores
    tampered = [dict(c, judge=dict(c["judge"], probabilities={"entailed": 0.9,
                "contradicted": 0.05, "neutral": 0.05})) for c in trace.claims]  # fmt: skip
    assert not replay(dataclasses.replace(trace, claims=tampered)).ok


def _vetoed_report() -> tuple[Any, Any]:
    recorder = RecordingEmbedder(FakeEmbedder())
    verifier = Verifier(embedder=recorder, decomposer=WholeDraftDecomposer(), score_model=V57,
                        checker=FakeChecker(DOUBTED))  # fmt: skip
    report = verifier.check_claims([REWORDED.text], EVIDENCE)
    return report, verification_trace(report, EVIDENCE, report.claims, recorder, V57, {})


def test_the_cli_table_says_why_a_vetoed_claim_is_partial() -> None:
    from rich.console import Console

    from spanproof.cli.render import render_report

    report, _ = _vetoed_report()
    console = Console(record=True, width=200)
    render_report(report, console, {s.id: s.text for s in EVIDENCE})
    text = console.export_text()
    assert "partial" in text and "judge: entailed 0.04 < 0.1" in text


def test_the_trace_page_says_the_judge_doubts_and_a_person_should_look() -> None:
    from spanproof.web.trace_view import VETOED, claim_views

    _, trace = _vetoed_report()
    (view,) = claim_views(cast(Any, None), trace)  # inline evidence: no store is read
    assert view.verdict == "partial" and view.judge_doubt == "judge: entailed 0.04 < 0.1"
    assert view.evidence is not None
    assert (view.evidence.relation, view.evidence.caption) == VETOED
    assert "a person should look" in view.evidence.caption
    # a partial the judge did not veto keeps the plain caption
    plain = dict(trace.claims[0], judge=None)
    (other,) = claim_views(cast(Any, None), dataclasses.replace(trace, claims=[plain]))
    assert other.judge_doubt == "" and other.evidence is not None
    assert other.evidence.caption != VETOED[1]


#: contradicted by the polarity gate, not a near copy the edit check read word by word
TURNED = Claim("c1", "Systolic blood pressure rose with daily walking.")


def test_v58_reads_a_polarity_contradiction_and_turns_it_partial_when_the_judge_reads_it_so() -> (
    None
):
    assert V58.contradiction_veto == 0.5 and V58.judge_veto == V57.judge_veto
    assert dataclasses.replace(V58, name="v57", contradiction_veto=None) == V57
    rules, _ = score_all([TURNED], EVIDENCE, FakeEmbedder(), V57, FakeChecker(ENTAILED))
    assert rules[0].verdict is Verdict.CONTRADICTED and rules[0].judge is None
    checker = FakeChecker(ENTAILED)
    verdicts, _ = score_all([TURNED], EVIDENCE, FakeEmbedder(), V58, checker)
    doubted = verdicts[0]
    assert doubted.verdict is Verdict.PARTIAL and doubted.score == rules[0].score
    assert doubted.judge is not None and doubted.judge.vetoed
    record = doubted.to_dict()["judge"]
    assert record["doubts"] == "contradicted" and record["veto"] == 0.5
    assert judge_doubt(record) == "judge: entailed 0.90 ≥ 0.5"
    # the judge reading it as contradicted (or not entailed enough) leaves it contradicted
    for row in ((0.4999, 0.5, 0.0001), (0.05, 0.9, 0.05)):
        kept, _ = score_all([TURNED], EVIDENCE, FakeEmbedder(), V58, FakeChecker(row))
        assert kept[0].verdict is Verdict.CONTRADICTED
        assert kept[0].judge is not None and not kept[0].judge.vetoed


def test_v58_leaves_a_contradiction_the_edit_check_named_to_the_edit_check() -> None:
    checker = FakeChecker(ENTAILED)
    verdicts, _ = score_all([REVERSED], EVIDENCE, FakeEmbedder(), V58, checker)
    assert verdicts[0].verdict is Verdict.CONTRADICTED and verdicts[0].judge is None
    assert any(e.judgement.startswith("contradicted") for e in verdicts[0].edits)
    assert checker.calls == []


def test_a_v57_record_keeps_its_shape_and_the_page_says_what_v58_doubted() -> None:
    from spanproof.web.trace_view import VETOED_CONTRADICTION, claim_views

    verdicts, _ = score_all([REWORDED], EVIDENCE, FakeEmbedder(), V57, FakeChecker(DOUBTED))
    assert "doubts" not in verdicts[0].to_dict()["judge"]
    recorder = RecordingEmbedder(FakeEmbedder())
    verifier = Verifier(embedder=recorder, decomposer=WholeDraftDecomposer(), score_model=V58,
                        checker=FakeChecker(ENTAILED))  # fmt: skip
    report = verifier.check_claims([TURNED.text], EVIDENCE)
    trace = verification_trace(report, EVIDENCE, report.claims, recorder, V58, {})
    assert replay(trace, FakeChecker(ENTAILED)).ok
    assert not replay(trace, FakeChecker((0.05, 0.9, 0.05))).ok
    (view,) = claim_views(cast(Any, None), trace)
    assert view.verdict == "partial" and view.judge_doubt == "judge: entailed 0.90 ≥ 0.5"
    assert view.evidence is not None
    assert (view.evidence.relation, view.evidence.caption) == VETOED_CONTRADICTION
