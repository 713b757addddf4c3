"""Escalation of borderline claims to an entailment checker (score model v3, SPEC §4.5)."""

from __future__ import annotations

import dataclasses
import math

import pytest
from pydantic import ValidationError

from spanproof.config import Settings
from spanproof.core.errors import ConfigurationError
from spanproof.core.models import (
    DEFAULT_SCORE_MODEL,
    Claim,
    ClaimVerdict,
    EvidenceSpan,
    SpanRef,
    Verdict,
)
from spanproof.services.replay import replay
from spanproof.services.verification import score_all
from spanproof.services.verification_trace import RecordingEmbedder, verification_trace
from spanproof.testing.fakes import FakeChecker, FakeEmbedder, WholeDraftDecomposer
from spanproof.verifier import Verifier
from spanproof.verify.escalation import escalated, needs_escalation
from spanproof.verify.scoring import SCORE_MODELS, V2, V3, score_model

EVIDENCE = [EvidenceSpan("S1", "Daily walking lowered systolic blood pressure in adults.")]
CLAIM = Claim("c1", "Daily walking lowered blood pressure in adults.")
#: Every ungated claim escalates: the band covers the whole score range.
WIDE = dataclasses.replace(V3, escalation_band=1.0)


def _verdict(score: float, **changes: object) -> ClaimVerdict:
    base = ClaimVerdict("c", "t", None, Verdict.SUPPORTED, score, SpanRef("S1", 0, 5), 1, (),
                        False)  # fmt: skip
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def test_only_ungated_borderline_open_verdicts_escalate() -> None:
    edge = V3.supported_min + V3.escalation_band - 1e-9  # type: ignore[operator]
    assert needs_escalation(_verdict(V3.supported_min), V3)
    assert needs_escalation(_verdict(edge), V3)
    assert not needs_escalation(_verdict(edge + 0.01), V3)
    assert not needs_escalation(_verdict(0.5), V2)  # v2 never escalates
    assert not needs_escalation(_verdict(0.5, numeric_gated=True), V3)
    assert not needs_escalation(_verdict(0.5, polarity_gated=True), V3)
    assert not needs_escalation(_verdict(0.5, verdict=Verdict.CONTRADICTED), V3)
    assert not needs_escalation(_verdict(0.5, verdict=Verdict.EVIDENCE_REDACTED), V3)
    assert not needs_escalation(_verdict(0.5, best_span=None), V3)


def test_the_checkers_label_decides_and_the_rest_is_kept() -> None:
    v = _verdict(0.55, verdict=Verdict.PARTIAL)
    assert escalated(v, [0.7, 0.2, 0.1]).verdict is Verdict.SUPPORTED
    assert escalated(v, [0.2, 0.7, 0.1]).verdict is Verdict.CONTRADICTED
    # neutral: the checker cannot tell, so the scores' verdict stands (but it was escalated)
    neutral = escalated(v, [0.2, 0.1, 0.7])
    assert neutral.verdict is Verdict.PARTIAL and neutral.escalated
    assert escalated(_verdict(0.45, verdict=Verdict.UNSUPPORTED), [0.2, 0.1, 0.7]).verdict is (
        Verdict.UNSUPPORTED
    )
    out = escalated(v, [0.2, 0.7, 0.1])
    assert out.escalated and out.score == v.score and out.best_span == v.best_span
    assert out.to_dict()["escalated"] is True and "escalated" not in v.to_dict()


def test_score_all_sends_claim_and_best_window_to_the_checker() -> None:
    checker = FakeChecker((0.05, 0.9, 0.05))
    verdicts, status = score_all([CLAIM], EVIDENCE, FakeEmbedder(), WIDE, checker)
    assert status == "verified"
    assert verdicts[0].verdict is Verdict.CONTRADICTED and verdicts[0].escalated
    assert checker.calls == [[(CLAIM.text, EVIDENCE[0].text)]]
    unchanged, _ = score_all([CLAIM], EVIDENCE, FakeEmbedder(), V2)
    assert not unchanged[0].escalated and unchanged[0].verdict is not Verdict.CONTRADICTED


def test_v3_without_a_checker_is_unavailable_not_silently_v2() -> None:
    verdicts, status = score_all([CLAIM], EVIDENCE, FakeEmbedder(), V3)
    assert verdicts == [] and status == "unavailable: score model v3 needs an entailment checker"


def test_reports_name_the_checker_only_under_v3() -> None:
    embedder = FakeEmbedder()
    v2 = Verifier(embedder=embedder, decomposer=WholeDraftDecomposer(), score_model="v2")
    assert "checker_model" not in v2.check_claims([CLAIM.text], EVIDENCE).to_dict()
    v3 = Verifier(embedder=embedder, decomposer=WholeDraftDecomposer(), score_model=WIDE,
                  checker=FakeChecker())  # fmt: skip
    assert v3.check_claims([CLAIM.text], EVIDENCE).to_dict()["checker_model"] == "fake-checker"


def test_a_v3_trace_replays_only_with_its_checker() -> None:
    recorder = RecordingEmbedder(FakeEmbedder())
    checker = FakeChecker((0.1, 0.1, 0.8))
    verifier = Verifier(
        embedder=recorder, decomposer=WholeDraftDecomposer(), score_model=V3, checker=checker
    )
    report = verifier.check_claims([CLAIM.text], EVIDENCE)
    trace = verification_trace(report, EVIDENCE, report.claims, recorder, V3, {})
    assert trace.models["checker_model"] == "fake-checker"
    assert replay(trace, FakeChecker((0.1, 0.1, 0.8))).ok
    assert not replay(trace).ok
    assert not replay(trace, FakeChecker(model_id="another")).ok


def test_the_band_is_configurable_and_the_model_named_by_it() -> None:
    wider = score_model("v3", 0.3)
    assert wider.name == "v3:band=0.3" and wider.escalation_band == 0.3
    assert dataclasses.replace(wider, name="v3", escalation_band=0.15) == V3
    assert score_model(wider.name) == wider  # what a trace records rebuilds the same model
    assert score_model("v3", 0.15) is V3 and score_model("v3") is V3
    for name, band in (("v2", 0.3), ("v1", 0.3), ("v3", 0.0), ("v3", 1.5), ("v3", math.nan),
                       ("v3:band=x", None), ("v3:band=0.3", 0.5), ("v4", 0.3),
                       ("v99", None)):  # fmt: skip
        with pytest.raises(ConfigurationError):
            score_model(name, band)
    assert Settings(verify={"escalation_band": 0.3}).verify.escalation_band == 0.3  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Settings(verify={"escalation_band": 1.5})  # type: ignore[arg-type]


def test_a_trace_made_with_another_band_replays_with_it() -> None:
    recorder = RecordingEmbedder(FakeEmbedder())
    model = score_model("v3", 1.0)
    checker = FakeChecker((0.05, 0.9, 0.05))
    verifier = Verifier(
        embedder=recorder, decomposer=WholeDraftDecomposer(), score_model=model, checker=checker
    )
    report = verifier.check_claims([CLAIM.text], EVIDENCE)
    assert report.claims[0].escalated and report.claims[0].verdict is Verdict.CONTRADICTED
    trace = verification_trace(report, EVIDENCE, report.claims, recorder, model, {})
    assert trace.models["score_model"] == "v3:band=1"
    assert replay(trace, FakeChecker((0.05, 0.9, 0.05))).ok
    # replayed as plain v3 the claim would not escalate, so the verdict would differ
    plain = dataclasses.replace(trace, models={**trace.models, "score_model": "v3"})
    assert not replay(plain, FakeChecker((0.05, 0.9, 0.05))).ok


def test_the_band_setting_applies_to_the_escalating_model_only() -> None:
    from spanproof.bootstrap import build_score_model

    settings = Settings(verify={"escalation_band": 0.3})  # type: ignore[arg-type]
    # the default model does not escalate
    assert build_score_model(settings) is SCORE_MODELS[DEFAULT_SCORE_MODEL]
    assert SCORE_MODELS[DEFAULT_SCORE_MODEL].escalation_band is None  # it reads the judge
    assert build_score_model(settings, "v3").name == "v3:band=0.3"
    assert build_score_model(Settings(), "v3") is V3
