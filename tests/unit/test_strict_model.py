"""Score models v43 and v46 (strict): `supported` only for a faithful near copy the edit check
read word by word; whatever else the scores would support is `partial` — "the evidence may
support this; a person should look". v43 is strict v42, v46 strict v45 (v42 with v44's edit
check and v45's comparisons)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from spanproof.core.models import Claim, EvidenceSpan, Verdict
from spanproof.services.replay import RecordingEmbedder, replay
from spanproof.services.verification import score_all, verify_draft
from spanproof.services.verification_trace import verification_trace
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verifier import Verifier
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.policy import FLAG_MARK_RE
from spanproof.verify.scoring import SCORE_MODELS, V42, V43, V45, V46, ScoreModel

SOURCE = (
    "In a randomised trial of 240 adults with mild hypertension, daily walking for 30 minutes "
    "lowered systolic blood pressure by 5 mmHg after 12 weeks compared with usual care."
)
#: a faithful shortened copy of SOURCE, a reworded one, a copy with its figure changed, and one
#: with its direction reversed
COPY = "In adults with mild hypertension, daily walking for 30 minutes lowered systolic blood "
COPY += "pressure by 5 mmHg after 12 weeks."
REWORDED = "Walking every day lowered the systolic blood pressure of adults with mild hypertension."
CHANGED = COPY.replace("5 mmHg", "9 mmHg")
REVERSED = COPY.replace("lowered", "raised")


def _verdicts(model: ScoreModel, *claims: str) -> list[Verdict]:
    found, status = score_all(
        [Claim(f"c{k}", c) for k, c in enumerate(claims, start=1)],
        [EvidenceSpan("S1", SOURCE)],
        FakeEmbedder(),
        model,
    )
    assert status == "verified"
    return [v.verdict for v in found]


def test_a_faithful_copy_stays_supported_and_a_rewording_is_partial() -> None:
    assert _verdicts(V42, COPY, REWORDED) == [Verdict.SUPPORTED, Verdict.SUPPORTED]
    assert _verdicts(V43, COPY, REWORDED) == [Verdict.SUPPORTED, Verdict.PARTIAL]


def test_what_v42_refuses_v43_refuses_the_same_way() -> None:
    for claim in (CHANGED, REVERSED, "Walking cured diabetes in 40% of participants."):
        assert _verdicts(V43, claim) == _verdicts(V42, claim)
        assert _verdicts(V43, claim)[0] in (Verdict.UNSUPPORTED, Verdict.CONTRADICTED)


def test_a_partial_claim_keeps_its_score_and_span() -> None:
    spans = [EvidenceSpan("S1", SOURCE)]
    (old,), _ = score_all([Claim("c1", REWORDED)], spans, FakeEmbedder(), V42)
    (new,), _ = score_all([Claim("c1", REWORDED)], spans, FakeEmbedder(), V43)
    assert new.verdict is Verdict.PARTIAL
    assert (new.score, new.best_span, new.edits) == (old.score, old.best_span, old.edits)


@pytest.mark.parametrize(("strict", "base"), [(V43, V42), (V46, V45)], ids=["v43", "v46"])
def test_a_strict_model_is_its_base_with_supported_needs_copy(
    strict: ScoreModel, base: ScoreModel
) -> None:
    assert SCORE_MODELS[strict.name] is strict and strict.supported_needs_copy
    assert not base.supported_needs_copy
    assert replace(strict, name=base.name, supported_needs_copy=False) == base


#: A copy that drops the population its finding holds for, keeping another clause's "women".
CHEST_PAIN = (
    "Men and women presented equally with chest pain; however, nausea was more frequent among "
    "women."
)
DROPPED = "Men and women presented equally with chest pain; however, nausea was more frequent."


def test_v46_does_not_take_a_copy_that_drops_a_population_for_a_faithful_one() -> None:
    def verdict(model: ScoreModel) -> Verdict:
        spans = [EvidenceSpan("S1", CHEST_PAIN)]
        (v,), _ = score_all([Claim("c1", DROPPED)], spans, FakeEmbedder(), model)
        return v.verdict

    assert verdict(V43) is Verdict.SUPPORTED  # v42's edit check found nothing changed
    assert verdict(V46) is Verdict.UNSUPPORTED  # v44's reads the population dropped
    assert _verdicts(V46, COPY, REWORDED) == [Verdict.SUPPORTED, Verdict.PARTIAL]


def test_under_flag_a_partial_claim_is_marked_for_a_person() -> None:
    report = verify_draft(
        f"{REWORDED} [S1]. {COPY} [S1].",
        (EvidenceSpan("S1", SOURCE),),
        decomposer=RuleBasedDecomposer(),
        embedder=FakeEmbedder(),
        model=V43,
    )
    assert [c.verdict for c in report.claims] == [Verdict.PARTIAL, Verdict.SUPPORTED]
    assert report.outcome.value == "not_all_supported"
    assert report.delivered is not None
    assert [m.group(1) for m in FLAG_MARK_RE.finditer(report.delivered)] == ["partial"]


def test_a_v43_trace_with_a_partial_claim_replays_exactly() -> None:
    recorder = RecordingEmbedder(FakeEmbedder())
    verifier = Verifier(embedder=recorder, decomposer=RuleBasedDecomposer(), score_model=V43)
    evidence = [EvidenceSpan("S1", SOURCE)]
    report = verifier.check_claims([REWORDED, COPY], evidence)
    trace = verification_trace(report, evidence, report.claims, recorder, V43, {})
    assert trace.models["score_model"] == "v43"
    assert [c["verdict"] for c in trace.claims] == ["partial", "supported"]
    assert replay(trace).ok
    trace.claims[0]["verdict"] = "supported"  # as v42 said
    assert not replay(trace).ok
