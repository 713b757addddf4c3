"""Evidence longer than the model's window: nothing is silently truncated."""

from __future__ import annotations

import pytest

from spanproof import Verifier
from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder
from spanproof.verify.decompose import RuleBasedDecomposer

pytestmark = pytest.mark.model

FILLER = (
    "The committee met on a rainy afternoon to review the building plans. "
    "Several members asked about the parking arrangements near the library. "
    "The architect described the choice of brick for the outer walls. "
    "A long discussion followed about the colour of the window frames. "
    "Someone suggested planting trees along the northern boundary. "
)
SUPPORT = "Participants who took the iron supplement had markedly higher haemoglobin levels."
CLAIM = "The iron supplement raised haemoglobin levels in participants."


@pytest.fixture(scope="module")
def embedder() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder()


def long_evidence(embedder: OnnxMiniLMEmbedder) -> str:
    text = FILLER * 6 + SUPPORT
    # The supporting sentence starts beyond the model's 256-piece input window.
    assert embedder.window_ranges(text)[0][1] < text.index(SUPPORT)
    return text


@pytest.mark.parametrize("model", ["v1", "v2"])
def test_a_supporting_sentence_after_the_token_limit_is_still_seen(
    embedder: OnnxMiniLMEmbedder, model: str
) -> None:
    text = long_evidence(embedder)
    verifier = Verifier(embedder=embedder, decomposer=RuleBasedDecomposer(), score_model=model)
    (verdict,) = verifier.score_claims([CLAIM], [{"id": "E1", "text": text}])
    assert verdict.best_span is not None
    start, end = verdict.best_span.start, verdict.best_span.end
    # The best window is a later one, and it holds the supporting sentence.
    assert start > 0
    assert text.index(SUPPORT) >= start and text.index(SUPPORT) + len(SUPPORT) <= end
    truncated_only = embedder.embed([CLAIM, text])
    truncated_cos = float(truncated_only[0] @ truncated_only[1])
    window = embedder.embed([CLAIM, text[start:end]])
    assert float(window[0] @ window[1]) > truncated_cos


def test_v2_judges_the_supporting_sentence_on_its_own(embedder: OnnxMiniLMEmbedder) -> None:
    text = long_evidence(embedder)
    verifier = Verifier(embedder=embedder, decomposer=RuleBasedDecomposer(), score_model="v2")
    (verdict,) = verifier.score_claims([CLAIM], [{"id": "E1", "text": text}])
    assert verdict.verdict.value == "supported"
    assert text[verdict.best_span.start : verdict.best_span.end] == SUPPORT  # type: ignore[union-attr]
