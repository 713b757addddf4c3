"""The judge in the verdict (score model v5): windows, the combiner, bands, replay."""

from __future__ import annotations

import dataclasses
import math

import pytest

from spanproof.core.models import Claim, EvidenceSpan, Verdict
from spanproof.services.replay import replay
from spanproof.services.verification import score_all
from spanproof.services.verification_trace import RecordingEmbedder, verification_trace
from spanproof.testing.fakes import FakeChecker, FakeEmbedder, WholeDraftDecomposer
from spanproof.verifier import Verifier
from spanproof.verify.judging import (
    FEATURES,
    Combiner,
    WindowCandidate,
    choose_window,
    combine,
    feature_vector,
    judged_verdict,
    window_text,
)
from spanproof.verify.lexical import PlanIdf, weigh_claim
from spanproof.verify.scoring import V5

COMB = Combiner(
    weights=(6.0, -2.0, 0.0, 0.0, 0.0, 0.0, -4.0, -4.0, -4.0, -4.0, -4.0),
    bias=-3.0,
    supported_min=0.8,
    unsupported_max=0.3,
)
MODEL = dataclasses.replace(V5, combiner=COMB)
EVIDENCE = [
    EvidenceSpan(
        "S1",
        "The trial enrolled older adults. Daily walking lowered systolic blood pressure. "
        "Dropout was low.",
    ),
    EvidenceSpan("S2", "Tree canopy cooled city blocks."),
]
CLAIM = Claim("c1", "Daily walking lowered systolic blood pressure.")


def _window(position: int, span: int, start: int, end: int, cos: float) -> WindowCandidate:
    return WindowCandidate(position, span, start, end, cos)


def test_the_window_is_the_best_sentence_with_its_neighbours_in_plan_order() -> None:
    text = "A b. Walking lowered pressure. C d. E f."
    spans = {0: text}
    ranges = [(0, 4), (5, 30), (31, 35), (36, 40)]
    windows = [_window(k, 0, s, e, 0.9 if k == 1 else 0.1) for k, (s, e) in enumerate(ranges)]
    tokens = [text[s:e].lower().rstrip(".").split() for s, e in ranges]
    claim = weigh_claim(["walking", "lowered", "pressure"], PlanIdf(tokens))
    chosen = choose_window(claim, windows, tokens, spans, 0.65)
    assert chosen is not None
    # the best sentence and both neighbours, merged into one contiguous part
    assert chosen.parts == ((0, 0, 4), (0, 5, 30), (0, 31, 35))
    assert chosen.text == "A b. Walking lowered pressure. C d."
    assert chosen.text == window_text(chosen.parts, spans)
    assert choose_window(claim, [], [], spans, 0.65) is None


def test_a_close_runner_up_from_another_span_joins_the_window() -> None:
    spans = {0: "Walking lowered pressure.", 3: "Walking lowered pressure in adults."}
    windows = [_window(0, 0, 0, 25, 0.9), _window(0, 3, 0, 35, 0.88)]
    tokens = [["walking", "lowered", "pressure"], ["walking", "lowered", "pressure", "adults"]]
    claim = weigh_claim(["walking", "lowered", "pressure"], PlanIdf(tokens))
    chosen = choose_window(claim, windows, tokens, spans, 0.65)
    assert chosen is not None and chosen.parts == ((0, 0, 25), (3, 0, 35))
    far = [_window(0, 0, 0, 25, 0.9), _window(0, 3, 0, 35, 0.2)]
    alone = choose_window(claim, far, [tokens[0], ["other"]], spans, 0.65)
    assert alone is not None and alone.parts == ((0, 0, 25),)


def test_the_combiner_is_a_logistic_function_of_the_features() -> None:
    feats = feature_vector((0.9, 0.05, 0.05), 0.8, 0.7, 0.75, (False, False, False))
    assert len(feats) == len(FEATURES)
    z = COMB.bias + sum(w * f for w, f in zip(COMB.weights, feats, strict=True))
    assert combine(feats, COMB) == pytest.approx(1 / (1 + math.exp(-z)))
    gated = feature_vector((0.9, 0.05, 0.05), 0.8, 0.7, 0.75, (True, False, False))
    assert combine(gated, COMB) < combine(feats, COMB)
    assert feature_vector((0.5, 0.5, 0.0), 0, 0, 0, (False,) * 3, "contradicted")[-1] == 1.0
    with pytest.raises(ValueError):
        Combiner((1.0,), 0.0, 0.5, 0.3)
    with pytest.raises(ValueError):
        Combiner(COMB.weights, 0.0, 0.3, 0.5)  # unsupported threshold above supported


def test_bands_follow_the_calibrated_probability() -> None:
    entailed = (0.9, 0.05, 0.05)
    free = {"capped": False, "contradiction_named": False}
    assert judged_verdict(0.85, entailed, COMB, **free) is Verdict.SUPPORTED
    assert judged_verdict(0.5, entailed, COMB, **free) is Verdict.PARTIAL
    assert judged_verdict(0.1, (0.1, 0.2, 0.7), COMB, **free) is Verdict.UNSUPPORTED
    # a gate or the edit check caps: never supported, whatever the probability
    assert judged_verdict(0.99, entailed, COMB, capped=True, contradiction_named=False) is (
        Verdict.PARTIAL
    )
    # the judge's contradiction decides when the combiner does not say supported
    assert judged_verdict(0.1, (0.1, 0.8, 0.1), COMB, **free) is Verdict.CONTRADICTED
    assert judged_verdict(0.9, (0.1, 0.8, 0.1), COMB, **free) is Verdict.SUPPORTED
    # a named contradiction (negation flip) counts unless the judge reads entailment
    assert judged_verdict(0.1, (0.2, 0.2, 0.6), COMB, capped=True, contradiction_named=True) is (
        Verdict.CONTRADICTED
    )
    assert judged_verdict(0.1, (0.6, 0.2, 0.2), COMB, capped=True, contradiction_named=True) is (
        Verdict.UNSUPPORTED
    )


def test_v5_judges_every_claim_in_one_call_and_records_what_it_read() -> None:
    checker = FakeChecker((0.95, 0.03, 0.02))
    claims = [CLAIM, Claim("c2", "Tree canopy cooled city blocks.")]
    verdicts, status = score_all(claims, EVIDENCE, FakeEmbedder(), MODEL, checker)
    assert status == "verified"
    assert len(checker.calls) == 1 and len(checker.calls[0]) == 2  # one batched call
    first = verdicts[0]
    assert first.judge is not None
    assert first.verdict is Verdict.SUPPORTED and first.score == first.judge.probability
    record = first.to_dict()["judge"]
    assert record["probabilities"]["entailed"] == pytest.approx(0.95)
    assert set(record["features"]) == set(FEATURES)
    # the window text sent to the judge is what the record's ranges name
    span_text = {s.id: s.text for s in EVIDENCE}
    sent = checker.calls[0][0][1]
    assert sent == " ".join(span_text[w["id"]][w["start"] : w["end"]].strip()
                            for w in record["window"])  # fmt: skip
    assert "Daily walking lowered systolic blood pressure." in sent


def test_v5_verdicts_follow_the_judge_not_closeness() -> None:
    neutral = FakeChecker((0.02, 0.03, 0.95))
    verdicts, _ = score_all([CLAIM], EVIDENCE, FakeEmbedder(), MODEL, neutral)
    assert verdicts[0].verdict is Verdict.UNSUPPORTED  # same words, the judge says no
    contra = FakeChecker((0.02, 0.95, 0.03))
    verdicts, _ = score_all([CLAIM], EVIDENCE, FakeEmbedder(), MODEL, contra)
    assert verdicts[0].verdict is Verdict.CONTRADICTED


def test_v5_needs_a_judge_and_names_it() -> None:
    verdicts, status = score_all([CLAIM], EVIDENCE, FakeEmbedder(), MODEL)
    assert verdicts == [] and status == "unavailable: score model v5 needs a judge"
    checker = FakeChecker(model_id="judge-x")
    verifier = Verifier(
        embedder=FakeEmbedder(),
        decomposer=WholeDraftDecomposer(),
        score_model=MODEL,
        checker=checker,
    )
    assert verifier.check_claims([CLAIM.text], EVIDENCE).to_dict()["checker_model"] == "judge-x"


def test_a_v5_trace_replays_with_its_judge_and_an_llm_judged_one_from_the_trace() -> None:
    recorder = RecordingEmbedder(FakeEmbedder())
    checker = FakeChecker((0.9, 0.05, 0.05))
    verifier = Verifier(
        embedder=recorder, decomposer=WholeDraftDecomposer(), score_model=V5, checker=checker
    )
    report = verifier.check_claims([CLAIM.text], EVIDENCE)
    trace = verification_trace(report, EVIDENCE, report.claims, recorder, V5, {})
    assert replay(trace, FakeChecker((0.9, 0.05, 0.05))).ok
    assert not replay(trace, FakeChecker((0.1, 0.05, 0.85))).ok
    # an LLM judge's trace replays from its stored judgements, with no judge at hand
    llm = FakeChecker((0.2, 0.7, 0.1), model_id="llm-judge:m@prompt:abc")
    verifier = Verifier(
        embedder=recorder, decomposer=WholeDraftDecomposer(), score_model=V5, checker=llm
    )
    report = verifier.check_claims([CLAIM.text], EVIDENCE)
    trace = verification_trace(report, EVIDENCE, report.claims, recorder, V5, {})
    assert trace.models["checker_model"] == "llm-judge:m@prompt:abc"
    assert replay(trace).ok
    tampered = [dict(c, judge=dict(c["judge"], probabilities={"entailed": 0.9,
                "contradicted": 0.05, "neutral": 0.05})) for c in trace.claims]  # fmt: skip
    assert not replay(dataclasses.replace(trace, claims=tampered)).ok


def test_a_v5_trace_of_a_retired_local_judge_replays_from_its_stored_judgements() -> None:
    recorder = RecordingEmbedder(FakeEmbedder())
    old = FakeChecker((0.9, 0.05, 0.05), model_id="spanproof-judge@sha256:0123456789ab")
    verifier = Verifier(
        embedder=recorder, decomposer=WholeDraftDecomposer(), score_model=V5, checker=old
    )
    report = verifier.check_claims([CLAIM.text], EVIDENCE)
    trace = verification_trace(report, EVIDENCE, report.claims, recorder, V5, {})
    # the installed judge is another one and would say otherwise: the stored judgements count
    installed = FakeChecker((0.1, 0.05, 0.85), model_id="spanproof-judge@sha256:ba9876543210")
    assert replay(trace, installed).ok
    tampered = [dict(c, judge=dict(c["judge"], probabilities={"entailed": 0.1,
                "contradicted": 0.05, "neutral": 0.85})) for c in trace.claims]  # fmt: skip
    assert not replay(dataclasses.replace(trace, claims=tampered), installed).ok
    # the judge that made it, still installed, is run again (and must agree)
    assert replay(trace, FakeChecker((0.9, 0.05, 0.05), model_id=old.model_id)).ok
    assert not replay(trace, FakeChecker((0.1, 0.05, 0.85), model_id=old.model_id)).ok


def test_v5_is_a_setting_and_a_cli_choice() -> None:
    from click.testing import CliRunner

    from spanproof.cli.main import cli
    from spanproof.config import Settings

    assert Settings(verify={"score_model": "v5"}).verify.score_model == "v5"  # type: ignore[arg-type]
    help_text = CliRunner().invoke(cli, ["verify", "--help"]).output
    assert "v5" in help_text
