"""The verification use case through the public Verifier (SPEC §4.4–§4.6)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import numpy as np
import pytest

import spanproof
from spanproof import Claim, DecomposeError, Outcome, Policy, ProviderError, Verdict, Verifier
from spanproof.core.ports import FloatMatrix
from spanproof.services.verification import score_all, verify_draft
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verifier import to_evidence
from spanproof.verify.policy import REDACTION_NOTICE, strip_flags
from spanproof.verify.scoring import V1, V2

_MARKER = re.compile(r"\s*\[(S\d+)\]")


class SplitDecomposer:
    """Splits a draft on '. '; each piece is one claim, markers like [S1] are collected."""

    model_id = "test-split"

    def __init__(self) -> None:
        self.calls = 0

    def decompose(self, draft: str) -> list[Claim]:
        self.calls += 1
        claims: list[Claim] = []
        pos = 0
        for piece in draft.split(". "):
            start, end = pos, pos + len(piece)
            pos = end + 2
            text = _MARKER.sub("", piece).strip().rstrip(".")
            if text:
                claims.append(
                    Claim(
                        id=f"c{len(claims) + 1}",
                        text=text,
                        draft_span=(start, end),
                        cited_markers=tuple(_MARKER.findall(piece)),
                    )
                )
        return claims


class FailingDecomposer:
    model_id = "test-failing"

    def decompose(self, draft: str) -> list[Claim]:
        raise DecomposeError("model returned no JSON after 3 attempts", attempts=3)


class FailingEmbedder(FakeEmbedder):
    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        self.calls += 1
        raise ProviderError("connection refused")


class ShortEmbedder(FakeEmbedder):
    """Returns one row too few: an inconsistent model."""

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        return super().embed(texts)[:-1]


class NaNEmbedder(FakeEmbedder):
    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        out = super().embed(texts).copy()
        out[0, 0] = np.nan
        return out


EVIDENCE = [
    {"id": "S1", "text": "Aspirin lowered fever in adults within two hours."},
    {"id": "S2", "text": "Ibuprofen reduced joint pain in 120 patients."},
]
DRAFT = (
    "Aspirin lowered fever in adults [S1]. "
    "Ibuprofen reduced joint pain in 400 patients [S2]. "
    "Paracetamol cured the common cold in children"
)

CLAIM_KEYS = {
    "id",
    "text",
    "draft_span",
    "verdict",
    "score",
    "best_span",
    "candidates_considered",
    "cited_markers",
    "numeric_gated",
    "entity_gated",
    "polarity_gated",
}


def verifier(
    embedder: FakeEmbedder | None = None, decomposer: object = None, model: str = "v2"
) -> Verifier:
    return Verifier(
        embedder=embedder if embedder is not None else FakeEmbedder(),
        decomposer=decomposer if decomposer is not None else SplitDecomposer(),  # type: ignore[arg-type]
        score_model=model,
    )


def test_test_decomposer_spans_slice_back() -> None:
    claims = SplitDecomposer().decompose(DRAFT)
    assert [c.text for c in claims] == [
        "Aspirin lowered fever in adults",
        "Ibuprofen reduced joint pain in 400 patients",
        "Paracetamol cured the common cold in children",
    ]
    for c in claims:
        assert c.draft_span is not None
        assert c.text in DRAFT[slice(*c.draft_span)]
    assert [c.cited_markers for c in claims] == [("S1",), ("S2",), ()]


def test_end_to_end_verdicts() -> None:
    embedder = FakeEmbedder()
    report = verifier(embedder).verify(DRAFT, EVIDENCE)
    assert report.verification == "verified"
    assert report.score_model == "v2"
    assert report.embed_model == "fake-bow"
    verdicts = [c.verdict for c in report.claims]
    assert verdicts[0] is Verdict.SUPPORTED
    assert verdicts[1] is Verdict.UNSUPPORTED  # wrong number
    assert report.claims[1].numeric_gated is True
    assert verdicts[2] is Verdict.UNSUPPORTED  # topical fabrication
    assert report.claims[0].best_span is not None
    assert report.claims[0].best_span.id == "S1"
    assert embedder.calls == 1
    # flag is the default: the draft, each claim that is not supported marked after its range
    assert report.delivered == (
        "Aspirin lowered fever in adults [S1]. "
        "Ibuprofen reduced joint pain in 400 patients [S2] ⟦unsupported⟧. "
        "Paracetamol cured the common cold in children ⟦unsupported⟧"
    )
    assert strip_flags(report.delivered) == report.draft == DRAFT
    assert report.outcome is Outcome.NOT_ALL_SUPPORTED
    assert report.counts == {
        "supported": 1,
        "partial": 0,
        "unsupported": 2,
        "contradicted": 0,
        "evidence_redacted": 0,
    }


def test_empty_draft_is_verified_with_no_claims_and_no_calls() -> None:
    # The service's reading (an extractive answer from an empty plan is empty); the library's
    # Verifier refuses an empty draft as bad input, as the API does.
    embedder = FakeEmbedder()
    decomposer = SplitDecomposer()
    for draft in ("", "   \n\t"):
        report = verify_draft(
            draft, to_evidence(EVIDENCE), decomposer=decomposer, embedder=embedder, model=V2
        )
        assert report.verification == "verified"
        assert report.claims == ()
        assert report.delivered == draft
        assert report.outcome is Outcome.NO_CLAIMS
    assert embedder.calls == 0
    assert decomposer.calls == 0


def test_decomposer_returning_no_claims_is_verified_without_embedding() -> None:
    embedder = FakeEmbedder()
    report = verifier(embedder).verify(". . ", EVIDENCE)
    assert report.verification == "verified"
    assert report.claims == ()
    assert embedder.calls == 0


@pytest.mark.parametrize(
    "evidence",
    [
        [],
        [{"id": "S1", "text": "Aspirin lowered fever in adults.", "truth_class": False}],
    ],
)
def test_no_truth_class_evidence_gives_unsupported_without_embedding(
    evidence: list[dict[str, object]],
) -> None:
    embedder = FakeEmbedder()
    report = verifier(embedder).verify("Aspirin lowered fever in adults [S1]", evidence)
    assert report.verification == "verified"
    assert [c.verdict for c in report.claims] == [Verdict.UNSUPPORTED]
    assert report.claims[0].score == 0.0
    assert report.claims[0].best_span is None
    assert report.claims[0].cited_markers == ("S1",)
    assert embedder.calls == 0


def test_no_embedder_is_unavailable() -> None:
    claims = [Claim(id="c1", text="Aspirin lowered fever")]
    evidence = [spanproof.EvidenceSpan(id="S1", text="Aspirin lowered fever.")]
    verdicts, status = score_all(claims, evidence, None, V2)
    assert verdicts == []
    assert status == "unavailable: no embedder configured"


def test_no_embedder_with_no_truth_evidence_is_still_verified() -> None:
    claims = [Claim(id="c1", text="Aspirin lowered fever")]
    verdicts, status = score_all(claims, [], None, V1)
    assert status == "verified"
    assert [v.verdict for v in verdicts] == [Verdict.UNSUPPORTED]


def test_embedder_failure_is_unavailable_with_reason() -> None:
    embedder = FailingEmbedder()
    report = verifier(embedder).verify(DRAFT, EVIDENCE)
    assert report.verification == "unavailable: embedding failed: connection refused"
    assert report.claims == ()
    assert report.delivered == DRAFT  # flag delivers the draft unchanged: nothing was judged
    assert report.outcome is Outcome.UNAVAILABLE
    assert embedder.calls == 1


def test_wrong_row_count_is_an_inconsistent_model() -> None:
    report = verifier(ShortEmbedder()).verify(DRAFT, EVIDENCE)
    assert report.verification.startswith("unavailable: inconsistent embedding model")
    assert report.claims == ()


def test_non_finite_vectors_are_an_inconsistent_model() -> None:
    report = verifier(NaNEmbedder()).verify(DRAFT, EVIDENCE)
    assert report.verification.startswith("unavailable: inconsistent embedding model")


def test_decompose_error_is_unavailable() -> None:
    embedder = FakeEmbedder()
    report = verifier(embedder, FailingDecomposer()).verify(DRAFT, EVIDENCE)
    assert report.verification.startswith("unavailable: decomposition failed")
    assert "no JSON" in report.verification
    assert report.claims == ()
    assert embedder.calls == 0


@pytest.mark.parametrize(
    ("embedder", "decomposer"),
    [(FailingEmbedder(), None), (ShortEmbedder(), None), (FakeEmbedder(), FailingDecomposer())],
)
def test_redact_under_unavailable_withholds_the_draft(
    embedder: FakeEmbedder, decomposer: object
) -> None:
    report = verifier(embedder, decomposer).verify(DRAFT, EVIDENCE, policy="redact")
    assert report.verification.startswith("unavailable: ")
    assert report.delivered is None
    assert report.draft == DRAFT


def test_redact_replaces_unsupported_claims_and_keeps_original_draft() -> None:
    report = verifier().verify(DRAFT, EVIDENCE, policy=Policy.REDACT)
    assert report.verification == "verified"
    assert report.draft == DRAFT
    assert report.delivered is not None
    assert report.delivered.startswith("Aspirin lowered fever in adults [S1]. ")
    assert "400" not in report.delivered
    assert "Paracetamol" not in report.delivered
    # The unsupported ranges (38, 87) and (89, 134) are separated by ". ": two notices.
    assert report.delivered == (
        f"Aspirin lowered fever in adults [S1]. {REDACTION_NOTICE}. {REDACTION_NOTICE}"
    )


def test_unknown_policy_is_rejected() -> None:
    with pytest.raises(spanproof.InvalidInputError, match="flag"):
        verifier().verify(DRAFT, EVIDENCE, policy="delete")


def test_report_json_shape() -> None:
    report = verifier().verify(DRAFT, EVIDENCE)
    data = report.to_dict()
    assert set(data) == {
        "score_model",
        "embed_model",
        "embed_model_hash",
        "verification",
        "outcome",
        "counts",
        "claims",
        "delivered",
    }
    assert data["outcome"] == "not_all_supported"
    assert sum(data["counts"].values()) == len(data["claims"])
    assert len(data["claims"]) == 3
    for claim in data["claims"]:
        assert set(claim) == CLAIM_KEYS
        assert isinstance(claim["draft_span"], list)
        assert isinstance(claim["cited_markers"], list)
        assert set(claim["best_span"]) == {"id", "start", "end"}
        assert claim["verdict"] in {v.value for v in Verdict}
    json.dumps(data)  # serialisable as is


def test_unavailable_report_json_shape() -> None:
    data = verifier(FailingEmbedder()).verify(DRAFT, EVIDENCE).to_dict()
    assert set(data) == {
        "score_model",
        "embed_model",
        "embed_model_hash",
        "verification",
        "outcome",
        "counts",
        "claims",
        "delivered",
    }
    assert data["claims"] == []
    assert data["outcome"] == "unavailable" and set(data["counts"].values()) == {0}


@pytest.mark.parametrize("model", ["v1", "v2"])
def test_same_inputs_give_identical_reports(model: str) -> None:
    first = verifier(model=model).verify(DRAFT, EVIDENCE, policy="redact").to_dict()
    second = verifier(model=model).verify(DRAFT, EVIDENCE, policy="redact").to_dict()
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def test_check_claims_verifies_standalone_claims() -> None:
    v = verifier()
    verdicts = v.score_claims(
        ["Aspirin lowered fever in adults", {"text": "Ibuprofen cured cancer", "id": "x"}],
        EVIDENCE,
    )
    assert [c.id for c in verdicts] == ["c1", "x"]
    assert verdicts[0].verdict is Verdict.SUPPORTED
    assert verdicts[0].draft_span is None
    assert verdicts[1].verdict is Verdict.UNSUPPORTED


def test_score_claims_raises_when_unavailable() -> None:
    with pytest.raises(ProviderError, match="unavailable"):
        verifier(FailingEmbedder()).score_claims(["Aspirin lowered fever"], EVIDENCE)


def test_duplicate_evidence_ids_are_rejected() -> None:
    with pytest.raises(spanproof.InvalidInputError, match="duplicate"):
        verifier().verify(DRAFT, [EVIDENCE[0], EVIDENCE[0]])
