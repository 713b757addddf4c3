"""Score model v72: evidence read without its invisible format characters."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spanproof.bootstrap import build_checker_for, build_embedder
from spanproof.config import load_settings
from spanproof.core.models import (
    DEFAULT_SCORE_MODEL,
    Claim,
    ClaimVerdict,
    ErasedRange,
    EvidenceSpan,
    Verdict,
)
from spanproof.services.verification import score_all
from spanproof.text.visible import INVISIBLE, visible_text
from spanproof.verify.scoring import SCORE_MODELS, V71, V72, ScoreModel

ZWSP, SHY, JOINER, BOM = "\u200b", "\u00ad", "\u2060", "\ufeff"
TRIAL = (
    "In the trial, the vaccine reduced hospitalisation among adults over 65 by 40 percent "
    "compared with placebo, and the Zurich team reported no serious adverse events."
)
CLAIM = (
    "The vaccine reduced hospitalisation among adults over 65 by 40 percent compared with placebo"
)
#: The same sentence as a web page can carry it: a zero-width space inside two words.
SPLIT = TRIAL.replace("hospitalisation", f"hospital{ZWSP}isation").replace(
    "placebo", f"pla{ZWSP}cebo"
)


def _score(
    model: ScoreModel, claims: list[str], evidence: list[EvidenceSpan]
) -> list[ClaimVerdict]:
    settings = load_settings()
    verdicts, status = score_all(
        [Claim(f"c{i}", text) for i, text in enumerate(claims, start=1)],
        evidence,
        build_embedder(settings),
        model,
        build_checker_for(model, settings),
    )
    assert status == "verified"
    return verdicts


# --- the text as read ---------------------------------------------------------------------


def test_a_text_without_invisible_characters_has_no_view() -> None:
    assert visible_text(TRIAL) is None


def test_the_view_leaves_them_out_and_maps_each_offset_back() -> None:
    view = visible_text(f"{BOM}Zu{SHY}rich{ZWSP} team")
    assert view is not None
    assert view.text == "Zurich team"
    assert view.original[slice(*view.range(0, 6))] == f"Zu{SHY}rich"  # not the space after it
    assert view.original[slice(*view.range(7, 11))] == "team"
    assert view.range(2, 2) == (4, 4)  # an empty range stays empty, just before the "r"
    assert (view.visible(0), view.visible(3), view.visible(4), view.visible(8)) == (0, 2, 2, 6)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "b", " ", ".", "é", ZWSP, SHY, JOINER, BOM, "\u200e"]), max_size=30
    ),
    st.data(),
)
def test_every_range_of_the_view_is_its_own_text_in_the_original(
    chars: list[str], data: st.DataObject
) -> None:
    text = "".join(chars)
    view = visible_text(text)
    if view is None:
        assert INVISIBLE.search(text) is None
        return
    assert view.text == INVISIBLE.sub("", text)
    start = data.draw(st.integers(0, len(view.text)))
    end = data.draw(st.integers(start, len(view.text)))
    a, b = view.range(start, end)
    assert 0 <= a <= b <= len(text)
    assert INVISIBLE.sub("", text[a:b]) == view.text[start:end]
    assert view.visible(a) == start  # and back


# --- score model v72 ----------------------------------------------------------------------


def test_v72_is_v71_reading_visible_evidence() -> None:
    assert SCORE_MODELS["v72"] is V72
    assert DEFAULT_SCORE_MODEL != "v71"  # v72 until v73
    assert dataclasses.replace(V71, name="v72", visible_evidence=True) == V72
    assert not V71.visible_evidence


def test_v71_refuses_a_copy_of_a_word_split_by_a_zero_width_space_and_v72_supports_it() -> None:
    evidence = [EvidenceSpan("S1", SPLIT)]
    before = _score(V71, [CLAIM], evidence)[0]
    assert before.verdict is Verdict.UNSUPPORTED
    after = _score(V72, [CLAIM], evidence)[0]
    assert after.verdict is Verdict.SUPPORTED
    # as the plain sentence is, bit for bit, but for where it points
    plain = _score(V72, [CLAIM], [EvidenceSpan("S1", TRIAL)])[0]
    assert (after.score, after.edits, after.judge is None) == (
        plain.score,
        plain.edits,
        plain.judge is None,
    )


@pytest.mark.parametrize("mark", [SHY, JOINER, BOM, "\u200d", "\u2066"])
def test_v72_reads_other_invisible_characters_as_nothing(mark: str) -> None:
    text = TRIAL.replace("hospitalisation", f"hos{mark}pitalisation").replace(
        "Zurich", f"Zu{mark}rich"
    )
    claims = [CLAIM, "The Zurich team reported no serious adverse events"]
    got = _score(V72, claims, [EvidenceSpan("S1", text)])
    plain = _score(V72, claims, [EvidenceSpan("S1", TRIAL)])
    assert [(v.verdict, v.score) for v in got] == [(v.verdict, v.score) for v in plain]


def test_v72_points_into_the_evidence_as_given() -> None:
    claims = [CLAIM, "The vaccine reduced hospitalisation among adults over 65 by 50 percent"]
    got = _score(V72, claims, [EvidenceSpan("S1", SPLIT)])
    for verdict in got:
        ref = verdict.best_span
        assert ref is not None and ref.id == "S1"
        quoted = SPLIT[ref.start : ref.end]
        assert ZWSP in quoted and "hospital" in quoted
        if verdict.judge is not None:
            assert all(0 <= r.start <= r.end <= len(SPLIT) for r in verdict.judge.window)
    changed = got[1]
    assert changed.verdict is not Verdict.SUPPORTED
    figures = [e for e in changed.edits if e.evidence_text]
    assert figures, changed.edits
    for edit in figures:
        assert SPLIT[edit.evidence_start : edit.evidence_end] == edit.evidence_text


def test_v72_moves_an_erased_range_with_the_text() -> None:
    start = SPLIT.index("hospital")
    end = SPLIT.index("among")
    evidence = [EvidenceSpan("S1", SPLIT, erased=(ErasedRange(start, end),))]
    verdict = _score(V72, [CLAIM], evidence)[0]
    assert verdict.verdict is Verdict.EVIDENCE_REDACTED


def test_v72_reads_a_span_whose_id_another_span_shares_as_given() -> None:
    evidence = [EvidenceSpan("S1", SPLIT), EvidenceSpan("S1", "Unrelated text about trains.")]
    assert _score(V72, [CLAIM], evidence) == _score(V71, [CLAIM], evidence)


def test_v72_changes_nothing_where_the_evidence_has_no_invisible_character() -> None:
    claims = [CLAIM, "The Zurich team reported serious adverse events", "Placebo was saline"]
    evidence = [EvidenceSpan("S1", TRIAL), EvidenceSpan("S2", "Placebo was saline in 2024.")]
    assert _score(V72, claims, evidence) == _score(V71, claims, evidence)
