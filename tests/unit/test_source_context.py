"""Score model v67: evidence items cut from one source (sentences, chunks, as a store's plan
lists them, in order of relevance) are read as that source's text."""

from __future__ import annotations

import dataclasses
from typing import Any

from spanproof.core.models import ClaimVerdict, Verdict
from spanproof.verifier import Verifier
from spanproof.verify.scoring import SCORE_MODELS, V66, V67


def _pieces(source: str, *sentences: str, order: tuple[int, ...] | None = None) -> list[Any]:
    """``sentences`` as items of one source with their offsets, listed in ``order``."""
    items, start = [], 0
    for n, text in enumerate(sentences):
        items.append(
            {"id": f"S{n + 1}", "text": text, "source_id": source, "start": start,
             "end": start + len(text)}
        )  # fmt: skip
        start += len(text) + 1
    return [items[k] for k in (order or range(len(items)))]


def _verdict(model: str, claim: str, evidence: list[Any]) -> ClaimVerdict:
    (verdict,) = Verifier(score_model=model).score_claims([claim], evidence)
    return verdict


WALL = _pieces(
    "wall",
    "Construction of the Berlin Wall began on 13 August 1961.",
    "It was opened on the night of 9 November 1989.",
    order=(1, 0),  # the plan lists the more relevant sentence first
)
MAJORS = _pieces(
    "rules",
    "Students at Pellham University may switch majors during their first two years.",
    "Switching into engineering requires a grade of C or better, and any change of major "
    "after the second year needs approval from the dean.",
    order=(1, 0),
)


def test_an_it_is_named_by_the_piece_before_it_in_its_source_from_v67() -> None:
    claim = "The Berlin Wall was opened on the night of 9 November 1989."
    assert _verdict("v66", claim, WALL).verdict is Verdict.UNSUPPORTED
    verdict = _verdict("v67", claim, WALL)
    assert verdict.verdict is Verdict.SUPPORTED
    assert not verdict.entity_gated
    assert [e.judgement for e in verdict.edits] == ["allowed: named in the evidence before"]


def test_an_opening_frame_may_name_another_piece_of_the_source_from_v67() -> None:
    claim = "At Pellham, any change of major after the second year needs approval from the dean."
    assert _verdict("v66", claim, MAJORS).verdict is Verdict.UNSUPPORTED
    verdict = _verdict("v67", claim, MAJORS)
    assert verdict.verdict is Verdict.SUPPORTED
    assert "allowed: context stated in the evidence" in [e.judgement for e in verdict.edits]


def test_pieces_of_another_source_or_without_offsets_name_nothing() -> None:
    claim = "The Berlin Wall was opened on the night of 9 November 1989."
    other = [dict(WALL[0]), dict(WALL[1], source_id="another")]
    assert _verdict("v67", claim, other).verdict is Verdict.UNSUPPORTED
    bare = [{"id": item["id"], "text": item["text"]} for item in WALL]
    assert _verdict("v67", claim, bare).verdict is Verdict.UNSUPPORTED


def test_a_name_the_source_does_not_give_stays_refused() -> None:
    claim = "The Great Wall was opened on the night of 9 November 1989."
    assert _verdict("v67", claim, WALL).verdict is not Verdict.SUPPORTED


def test_v67_is_v66_reading_the_source() -> None:
    assert SCORE_MODELS["v67"] is V67 and not V66.source_context
    assert dataclasses.replace(V66, name="v67", source_context=True) == V67
