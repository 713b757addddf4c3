"""The edit check (score model v4): every edit kind, the never-capped invariants, the records in
verify JSON and traces, replay, and the trace viewer's marks."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spanproof.core.models import Claim, EvidenceSpan, Verdict
from spanproof.core.trace import Trace, plan_hash
from spanproof.services.replay import RecordingEmbedder, replay, trace_embeddings
from spanproof.services.verification import score_all
from spanproof.testing.fakes import FakeEmbedder
from spanproof.verify.edits import (
    EditCheck,
    abbreviation_keys,
    align_edits,
    claim_run_share,
    judge_edits,
    near_copy,
    prepare_evidence,
    prepare_text,
    run_share,
    unit_of,
    window_share,
    written_together,
)
from spanproof.verify.scoring import (
    SCORE_MODELS,
    V2,
    V4,
    V6,
    V8,
    V9,
    V10,
    V11,
    V12,
    V13,
    V14,
    V15,
    V16,
    V17,
    V18,
    V19,
    V20,
    V29,
    V31,
    V32,
    V33,
    V34,
    V35,
    V36,
    V37,
    V38,
    V39,
    V40,
    V41,
    V42,
    V44,
    V45,
    V46,
    V47,
    V48,
    ScoreModel,
    score_model,
)

THRESHOLD = 0.8


def check(claim: str, evidence: str, similarity: float = 0.0) -> EditCheck:
    """The check with every open question answered by ``similarity``."""
    alignment = align_edits(claim, evidence)
    return judge_edits(alignment, [similarity] * len(alignment.questions), THRESHOLD)


def judgements(result: EditCheck) -> list[tuple[str, str, str, str]]:
    return [(e.op, e.claim_text, e.evidence_text, e.judgement) for e in result.edits]


# phase one and two on their own ------------------------------------------------------------------
def test_a_dropped_parenthetical_is_an_allowed_deletion() -> None:
    result = check(
        "Aspirin reduced stroke risk in the trial.",
        "Aspirin (given daily, not weekly) reduced stroke risk in the trial.",
    )
    assert result.outcome == "none"
    assert judgements(result) == [
        ("deletion", "", "given daily, not weekly", "allowed: compression")
    ]


def test_the_first_main_clause_of_a_sentence_has_no_edit() -> None:
    result = check(
        "TNF induced IL-6 in macrophages.",
        "TNF induced IL-6 in macrophages, whereas IL-1 did not.",
    )
    assert result.outcome == "none" and result.near_copy


def test_a_relative_clause_dropped_with_a_negation_in_it_stays_allowed() -> None:
    result = check(
        "Metformin lowered HbA1c in adults.",
        "Metformin, which did not cause weight gain, lowered HbA1c in adults.",
    )
    assert result.outcome == "none"
    assert [e.op for e in result.edits] == ["deletion"]


def test_an_insertion_stated_elsewhere_in_the_span_is_allowed() -> None:
    result = check(
        "Aspirin reduced stroke risk in older adults.",
        "Aspirin reduced stroke risk. The trial enrolled older adults only.",
    )
    assert result.outcome == "none"
    assert judgements(result) == [
        ("insertion", "in older adults", "", "allowed: stated in the evidence")
    ]


def test_an_insertion_the_evidence_never_states_is_unsupported() -> None:
    result = check("Aspirin reduced stroke risk in children.", "Aspirin reduced stroke risk.")
    assert result.outcome == "unsupported"
    assert judgements(result) == [
        ("insertion", "in children", "", "unsupported: not in the evidence")
    ]


def test_morphology_is_an_allowed_substitution() -> None:
    result = check("Aspirin reduces stroke risks.", "Aspirin reduced stroke risk.")
    assert result.outcome == "none"
    assert {e.judgement for e in result.edits} == {"allowed: morphology"}
    assert [e.claim_text for e in result.edits] == ["reduces", "risks"]


def test_an_abbreviation_the_evidence_defines_is_allowed() -> None:
    evidence = "We measured tumour necrosis factor (TNF). Tumour necrosis factor rose in mice."
    result = check("TNF rose in mice.", evidence)
    assert result.outcome == "none"
    assert judgements(result) == [
        (
            "substitution",
            "TNF",
            "Tumour necrosis factor",
            "allowed: abbreviation defined in the evidence",
        )
    ]


def test_an_abbreviation_the_evidence_does_not_define_is_a_different_entity() -> None:
    result = check("TNF levels rose in mice.", "Tumour necrosis factor levels rose in mice.")
    assert result.outcome == "unsupported"
    assert result.edits[0].judgement == "unsupported: different entity"


def test_a_number_in_another_format_is_allowed() -> None:
    result = check(
        "Five patients relapsed after 1000 days.", "5 patients relapsed after 1,000 days."
    )
    assert result.outcome == "none"
    assert {e.judgement for e in result.edits} == {"allowed: number format"}


def test_another_number_is_unsupported_without_asking() -> None:
    alignment = align_edits("Aspirin cut risk by 35%.", "Aspirin cut risk by 20%.")
    assert alignment.questions == ()
    result = judge_edits(alignment, [], THRESHOLD)
    assert judgements(result) == [("substitution", "35", "20", "unsupported: different number")]


def test_a_phrase_of_the_same_meaning_is_decided_by_its_similarity() -> None:
    claim, evidence = "Daily aspirin lowered stroke risk.", "Daily aspirin reduced stroke risk."
    alignment = align_edits(claim, evidence)
    assert [(q.claim_phrase, q.evidence_phrase) for q in alignment.questions] == [
        ("lowered", "reduced")
    ]
    same = judge_edits(alignment, [0.85], THRESHOLD)
    assert same.outcome == "none"
    assert same.edits[0].judgement == "allowed: same meaning (similarity 0.85)"
    other = judge_edits(alignment, [0.79], THRESHOLD)
    assert other.outcome == "unsupported"
    assert other.edits[0].judgement == "unsupported: different meaning (similarity 0.79 < 0.8)"


def test_a_phrase_from_another_abstract_is_an_unsupported_substitution() -> None:
    result = check(
        "The effect was mediated by natural killer cells.",
        "The effect was mediated by regulatory T cells.",
        similarity=0.43,
    )
    assert result.outcome == "unsupported"
    (edit,) = result.edits
    assert (edit.op, edit.claim_text, edit.evidence_text) == (
        "substitution",
        "natural killer",
        "regulatory T",
    )
    assert edit.claim_start == len("The effect was mediated by ")
    assert edit.evidence_start == len("The effect was mediated by ")


@pytest.mark.parametrize(
    ("claim", "evidence", "why"),
    [
        ("Aspirin did not reduce stroke risk.", "Aspirin reduced stroke risk.", "negation added"),
        ("Aspirin reduced stroke risk.", "Aspirin did not reduce stroke risk.", "negation dropped"),
        ("No patient relapsed.", "A patient relapsed.", "negation flip"),
        ("Aspirin increased stroke risk.", "Aspirin decreased stroke risk.", "direction flip"),
        ("Exercise worsened sleep quality.", "Exercise improved sleep quality.", "direction flip"),
    ],
)
def test_a_negation_or_direction_flip_is_a_contradiction(
    claim: str, evidence: str, why: str
) -> None:
    result = check(claim, evidence, similarity=1.0)
    assert result.outcome == "contradicted"
    assert f"contradicted: {why}" in {e.judgement for e in result.edits}


def test_swapped_roles_are_an_unsupported_transposition() -> None:
    result = check("IL-6 induces TNF in macrophages.", "TNF induces IL-6 in macrophages.")
    assert result.outcome == "unsupported"
    assert judgements(result)[0][0] == "transposition"
    assert judgements(result)[0][3] == "unsupported: roles swapped"


def test_a_block_that_trades_places_across_than_swaps_the_roles() -> None:
    result = check(
        "Self-harm rates were higher in male inmates than in female prisoners.",
        "Self-harm rates were higher in female prisoners than in male inmates.",
    )
    assert result.outcome == "unsupported"
    assert result.edits[0].op == "transposition"
    assert result.edits[0].judgement == "unsupported: roles swapped"


def test_a_fronted_phrase_is_reordered_not_swapped() -> None:
    result = check("In mice, aspirin reduced stroke risk.", "Aspirin reduced stroke risk in mice.")
    assert result.outcome == "none"
    assert "allowed: words reordered" in {e.judgement for e in result.edits}


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Risk rose in younger adults.", "Risk rose in older adults."),
        ("It helps nondiabetic patients most.", "It helps diabetic patients most."),
    ],
)
def test_an_opposite_term_is_unsupported_whatever_its_similarity(claim: str, evidence: str) -> None:
    result = check(claim, evidence, similarity=1.0)
    assert result.outcome == "unsupported"
    assert [e.judgement for e in result.edits] == ["unsupported: opposite term"]


def test_a_rewritten_sentence_is_not_a_near_copy() -> None:
    alignment = align_edits(
        "Amitriptyline is an effective treatment for chronic tension-type headaches.",
        "Amitriptyline significantly reduced (P < 0.05) frequency and duration of headache as "
        "well as analgesic consumption in chronic, but not in episodic, tension-type headache.",
    )
    assert not alignment.near_copy


def test_a_short_claim_with_one_phrase_changed_is_still_checked() -> None:
    alignment = align_edits(
        "The effect was mediated by natural killer cells.",
        "The effect was mediated by regulatory T cells.",
    )
    assert alignment.near_copy and len(alignment.questions) == 1


TWO_DETAILS_CLAIM = "Daily walking lowered diastolic blood pressure in adults with asthma."
TWO_DETAILS_EVIDENCE = (
    "Daily walking lowered systolic blood pressure by 5 mmHg in adults with mild hypertension."
)


def test_two_changed_details_escape_one_run_but_not_two() -> None:
    assert not align_edits(TWO_DETAILS_CLAIM, TWO_DETAILS_EVIDENCE).near_copy
    alignment = align_edits(TWO_DETAILS_CLAIM, TWO_DETAILS_EVIDENCE, changed_runs=2)
    # "diastolic" for "systolic" is an opposite term (no question); "asthma" is asked about
    assert alignment.near_copy and len(alignment.questions) == 1
    result = judge_edits(alignment, [0.5], THRESHOLD)
    assert result.outcome == "unsupported"
    changed = {e.claim_text for e in result.edits if e.judgement.startswith("unsupported")}
    assert changed == {"diastolic", "asthma"}


@pytest.mark.parametrize(
    ("copied", "one", "two"),
    [
        ([True, True, False, True, True, False], False, True),  # two runs of one, 4 of 6 kept
        ([True, False, False, True, False, False], False, False),  # 2 of 6 kept: too few
        ([False, False, False, True, True, True, True], False, False),  # a run of three
        ([True, True, False, True], True, True),  # one run: v4's rule
        ([True, False, True, False, True, False], False, False),  # three runs
    ],
)
def test_near_copy_counts_changed_runs(copied: list[bool], one: bool, two: bool) -> None:
    assert near_copy(copied) is one
    assert near_copy(copied, changed_runs=2) is two


def test_a_voice_change_that_keeps_the_roles_is_allowed() -> None:
    result = check("IL-6 is induced by TNF in macrophages.", "TNF induces IL-6 in macrophages.")
    assert result.outcome == "none"
    assert "allowed: voice changed, same roles" in {e.judgement for e in result.edits}


def test_a_voice_change_that_keeps_the_word_order_swaps_the_roles() -> None:
    result = check("IL-6 induces TNF in macrophages.", "IL-6 is induced by TNF in macrophages.")
    assert result.outcome == "unsupported"
    assert result.edits[0].op == "transposition"


def test_a_claim_that_is_not_a_near_copy_is_not_checked() -> None:
    alignment = align_edits(
        "Regular exercise improves mood.", "Aspirin reduced stroke risk in the trial."
    )
    assert not alignment.near_copy
    assert judge_edits(alignment, [], THRESHOLD) == EditCheck((), "none", near_copy=False)


def test_judge_edits_needs_one_similarity_per_question() -> None:
    alignment = align_edits("Daily aspirin lowered risk.", "Daily aspirin reduced risk.")
    with pytest.raises(ValueError, match="0 similarities for 1 questions"):
        judge_edits(alignment, [], THRESHOLD)


def test_words_spliced_from_two_sentences_are_unsupported() -> None:
    result = check("TNF rose.", "We measured TNF in serum. IL-6 rose.")
    assert result.outcome == "unsupported"
    assert result.edits[0].judgement == "unsupported: joins two sentences' parts"


def test_a_merged_claim_aligns_to_two_adjacent_sentences() -> None:
    evidence = prepare_evidence(
        "S1", "Aspirin reduced stroke. It also reduced bleeding. Cats sleep a lot."
    )
    result = judge_edits(align_edits("Aspirin reduced stroke and bleeding.", evidence), [], 0.8)
    assert result.near_copy and result.outcome == "none"
    assert all(e.evidence_id == "S1" for e in result.edits)


# invariants -------------------------------------------------------------------------------------
_words = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=12
)
_sentence = st.lists(_words, min_size=1, max_size=12).map(lambda ws: " ".join(ws) + ".")


@settings(max_examples=150, deadline=None)
@given(text=st.lists(_sentence, min_size=1, max_size=5).map(" ".join))
def test_a_claim_identical_to_its_window_is_never_capped(text: str) -> None:
    alignment = align_edits(text, text)
    assert alignment.questions == ()
    result = judge_edits(alignment, [], THRESHOLD)
    assert result.outcome == "none" and result.edits == ()


@settings(max_examples=150, deadline=None)
@given(sentences=st.lists(_sentence, min_size=1, max_size=5), pick=st.integers(0, 4))
def test_any_sentence_of_the_window_is_never_capped(sentences: list[str], pick: int) -> None:
    window = prepare_evidence("S1", " ".join(sentences))
    for sentence in window.body.text.split(". "):
        claim = sentence if sentence.endswith(".") else sentence + "."
        alignment = align_edits(claim, window)
        result = judge_edits(alignment, [0.0] * len(alignment.questions), THRESHOLD)
        assert result.outcome == "none", (claim, result)


@settings(max_examples=150, deadline=None)
@given(
    sentences=st.lists(_sentence, min_size=1, max_size=5),
    pick=st.integers(0, 4),
    units=st.booleans(),
    edges=st.booleans(),
    reorders=st.booleans(),
    formats=st.booleans(),
)
def test_under_v10_v11_v15_to_v19_any_sentence_of_the_window_is_never_capped(
    sentences: list[str],
    pick: int,
    units: bool,
    edges: bool,
    reorders: bool,
    formats: bool,
) -> None:
    """The edge readings of v12 to v14 (scope, inverting word, frame) are left out: they read a
    quote's edge across a full stop before a lowercase word or a figure, which the sentence
    splitter does not break at ("0. mouse."); v15 reads them within the sentence
    (:func:`test_v15_reads_a_quote_s_edge_within_its_sentence`)."""
    window = prepare_evidence("S1", " ".join(sentences), formats, formats, signs=formats)
    for sentence in window.body.text.split(". "):
        claim = sentence if sentence.endswith(".") else sentence + "."
        alignment = align_edits(
            prepare_text(claim, formats, spellings=formats, signs=formats),
            window,
            changed_runs=2,
            run_share_min=0.65,
            mixups=True,
            moved_figures=True,
            units=units,
            overstatement=edges,
            inversions=edges,
            frames=edges,
            restrictions=edges,
            reorders=reorders,
            local_qualifiers=edges,
            figure_nouns=edges,
            bounds=edges,
            contractions=formats,
            abbreviated=formats,
            compounds=formats,
            signs=formats,
        )
        result = judge_edits(alignment, [0.0] * len(alignment.questions), THRESHOLD)
        assert result.outcome == "none", (claim, result)


# score model v4 ---------------------------------------------------------------------------------
SPANS = (
    EvidenceSpan(
        "S1",
        "Budesonide reduced relapse in adults with asthma. TNF induces IL-6 in macrophages.",
    ),
    EvidenceSpan("S2", "Aspirin did not reduce stroke risk in the 2019 trial, unlike warfarin."),
)
CLAIMS = (
    Claim("c1", "Budesonide reduced relapse in adults with eczema."),
    Claim("c2", "IL-6 induces TNF in macrophages."),
    Claim("c3", "Aspirin reduced stroke risk in the 2019 trial."),
    Claim("c4", "Budesonide reduced relapse in adults with asthma."),
)


def test_v4_is_registered_and_v2_stays_without_the_check() -> None:
    assert SCORE_MODELS["v4"] is V4 and V4.edit_check and not V2.edit_check
    assert 0.0 < V4.edit_similarity_min <= 1.0


def test_v6_is_v4_with_two_changed_runs() -> None:
    assert SCORE_MODELS["v6"] is V6 and V6.edit_changed_runs == 2 and V4.edit_changed_runs == 1
    assert V6.edit_similarity_min == V4.edit_similarity_min and V6.combiner is None
    claims = [Claim(id="c1", text=TWO_DETAILS_CLAIM)]
    spans = [EvidenceSpan(id="e1", text=TWO_DETAILS_EVIDENCE)]
    v4, _ = score_all(claims, spans, FakeEmbedder(), V4)
    v6, status = score_all(claims, spans, FakeEmbedder(), V6)
    assert status == "verified"
    assert v4[0].edits == ()
    assert v6[0].verdict is Verdict.UNSUPPORTED and v6[0].score == V6.gate_cap
    assert {e.claim_text for e in v6[0].edits if e.status == "unsupported"} >= {"asthma"}


def test_v4_caps_edited_claims_and_records_their_edits() -> None:
    v2, _ = score_all(CLAIMS, SPANS, FakeEmbedder(), V2)
    v4, status = score_all(CLAIMS, SPANS, FakeEmbedder(), V4)
    assert status == "verified"
    assert [v.verdict for v in v2] == [
        Verdict.SUPPORTED,
        Verdict.SUPPORTED,
        Verdict.CONTRADICTED,
        Verdict.SUPPORTED,
    ]
    assert [v.verdict for v in v4] == [
        Verdict.UNSUPPORTED,
        Verdict.UNSUPPORTED,
        Verdict.CONTRADICTED,
        Verdict.SUPPORTED,
    ]
    assert v4[0].score == V4.gate_cap and v4[0].edits[0].claim_text == "eczema"
    assert v4[1].edits[0].op == "transposition"
    assert v4[2].polarity_gated and v4[2].edits[0].judgement == "contradicted: negation dropped"
    assert v4[3].edits == () and "edits" not in v4[3].to_dict()
    # v2's output has no trace of the check
    assert all("edits" not in v.to_dict() for v in v2)


def _trace(model_name: str, embedder: FakeEmbedder, record: bool = True) -> Trace:
    model = score_model(model_name)
    scorer = RecordingEmbedder(embedder) if record else embedder
    verdicts, status = score_all(CLAIMS, SPANS, scorer, model)
    plan = [{"marker": s.id, "id": s.id, "text": s.text, "truth_class": True} for s in SPANS]
    return Trace(
        kind="verification",
        request={},
        plan=plan,
        plan_hash=plan_hash(plan),
        prompt_hash="",
        models={"embed": embedder.model_id, "score_model": model.name, "decompose": "given"},
        draft="",
        claims=[v.to_dict() for v in verdicts],
        verification=status,
        delivered=None,
        embeddings=trace_embeddings(CLAIMS, SPANS, scorer, model),
    )


@pytest.mark.parametrize("record", [True, False], ids=["recorded", "re-embedded"])
def test_a_v4_trace_records_its_phrases_and_replays_exactly(record: bool) -> None:
    trace = _trace("v4", FakeEmbedder(), record)
    assert [p["text"] for p in trace.embeddings["phrases"]] == ["eczema", "asthma"]
    assert any("edits" in c for c in trace.claims)
    result = replay(trace)
    assert result.differences == [] and result.ok


def test_a_v4_trace_with_a_changed_edit_or_without_phrases_fails_replay() -> None:
    trace = _trace("v4", FakeEmbedder())
    claims = [dict(c) for c in trace.claims]
    claims[0]["edits"] = [dict(claims[0]["edits"][0], judgement="allowed: same meaning")]
    changed = replay(replace(trace, claims=claims))
    assert not changed.ok and "edits stored" in changed.differences[0]
    bare = {k: v for k, v in trace.embeddings.items() if k != "phrases"}
    assert not replay(replace(trace, embeddings=bare)).ok
    added = [dict(c) for c in trace.claims]
    added[3]["edits"] = claims[0]["edits"]  # claim c4 is verbatim: replay finds no edits
    extra = replay(replace(trace, claims=added))
    assert not extra.ok and extra.differences[0].startswith("claim c4: edits stored")


def test_v2_traces_keep_their_shape() -> None:
    trace = _trace("v2", FakeEmbedder())
    assert set(trace.embeddings) == {"claims", "windows"}
    assert replay(trace).ok


# the trace viewer, without a browser -----------------------------------------------------------
def test_the_trace_viewer_marks_the_changed_words_with_text_labels() -> None:
    from spanproof.web.edit_view import edits_view
    from spanproof.web.routes import templates

    trace = _trace("v4", FakeEmbedder())
    view = edits_view(trace.claims[0], trace.plan)
    assert view is not None and view.outcome == "unsupported"
    macros = templates.env.get_template("_edits.html").module
    html = str(macros.edit_check(view))  # type: ignore[attr-defined]
    assert "Edit check against S1: unsupported" in html
    claim_side, evidence_side = html.split("<figcaption>")[1:3]
    assert '<mark>eczema</mark><span class="edit-label"> [1 substitution]</span>' in claim_side
    assert '<mark>asthma</mark><span class="edit-label"> [1 substitution]</span>' in evidence_side
    assert "TNF induces" not in evidence_side  # the evidence sentence, not the whole span
    assert "unsupported: different meaning (similarity" in html
    contradicted = edits_view(trace.claims[2], trace.plan)
    assert contradicted is not None and contradicted.outcome == "contradicted"
    html = str(macros.edit_check(contradicted))  # type: ignore[attr-defined]
    assert '<del>did not</del><span class="edit-label"> [1 deletion]</span>' in html
    assert '<tr class="edit-contradicted">' in html


def test_the_viewer_ignores_malformed_edits() -> None:
    from spanproof.web.edit_view import edits_view

    claim = {"text": "x", "edits": [{"op": "deletion", "claim": {"start": "a"}}, 3]}
    assert edits_view(claim, []) is None
    assert edits_view({"text": "x"}, []) is None


def test_window_share_measures_how_much_of_its_window_a_claim_copies() -> None:
    sentence = "In older adults, aspirin reduced the risk of stroke by a third over five years."
    window = f"The trial ran in Ohio. {sentence} Bleeding was rare."
    assert window_share(sentence, window) == 1.0  # the best sentence, copied whole
    short = window_share("Aspirin reduced the risk of stroke.", window)
    assert 0.3 < short < 1.0  # a first clause copies part of it
    assert window_share("Aspirin reduced stroke.", window) < short
    assert window_share("Aspirin reduced the risk of stroke.", "") == 0.0
    assert window_share("the of and", window) == 0.0  # no content word


# score model v8: a near copy copies in stretches ------------------------------------------------
REWORDED_EVIDENCE = (
    "Inducible expression of KLF4 in the HL60 human acute myeloid leukemia cell line "
    "stimulated monocytic differentiation."
)
REWORDED_CLAIM = "Klf4 is important for proper myeloid cell differentiation."


def test_run_share_counts_the_words_copied_in_stretches() -> None:
    sentence = "Budesonide reduced relapse in adults with asthma."
    assert claim_run_share(sentence, sentence) == 1.0
    # one word changed at the end: six of seven words in one stretch
    assert claim_run_share("Budesonide reduced relapse in adults with eczema.", sentence) == 6 / 7
    # one word changed in the middle: two stretches, of four words and two
    assert claim_run_share("Budesonide reduced relapse in children with asthma.", sentence) == 6 / 7
    # a rewording that shares scattered single words: no stretch at all
    assert claim_run_share(REWORDED_CLAIM, REWORDED_EVIDENCE, changed_runs=2) == 0.0
    assert run_share(prepare_text(""), []) == 0.0
    assert claim_run_share("the of and", sentence) == 0.0  # no content word
    assert claim_run_share(sentence, "") == 0.0


def test_the_floor_leaves_a_rewording_to_v2_and_still_checks_a_copy() -> None:
    loose = align_edits(REWORDED_CLAIM, REWORDED_EVIDENCE, changed_runs=2)
    assert loose.near_copy and loose.questions  # v6 reads it as a copy with phrases changed
    floored = align_edits(REWORDED_CLAIM, REWORDED_EVIDENCE, changed_runs=2, run_share_min=0.65)
    assert not floored.near_copy
    swapped = align_edits(
        "Budesonide reduced relapse in adults with eczema.",
        "Budesonide reduced relapse in adults with asthma.",
        changed_runs=2,
        run_share_min=0.65,
    )
    assert swapped.near_copy and [q.claim_phrase for q in swapped.questions] == ["eczema"]


def test_v8_is_v6_with_a_floor_and_catches_what_v6_catches() -> None:
    assert SCORE_MODELS["v8"] is V8 and V8.edit_changed_runs == 2 and V6.edit_run_share_min == 0
    assert 0.0 < V8.edit_run_share_min < 1.0
    assert V8.edit_similarity_min == V6.edit_similarity_min and V8.combiner is None
    v6, _ = score_all(CLAIMS, SPANS, FakeEmbedder(), V6)
    v8, status = score_all(CLAIMS, SPANS, FakeEmbedder(), V8)
    assert status == "verified"
    assert [v.verdict for v in v8] == [v.verdict for v in v6]
    assert [v.edits for v in v8] == [v.edits for v in v6]
    claims = [Claim("c1", REWORDED_CLAIM)]
    spans = [EvidenceSpan("S1", REWORDED_EVIDENCE)]
    reworded_v6, _ = score_all(claims, spans, FakeEmbedder(), V6)
    reworded_v8, _ = score_all(claims, spans, FakeEmbedder(), V8)
    reworded_v2, _ = score_all(claims, spans, FakeEmbedder(), V2)
    assert reworded_v6[0].edits and reworded_v8[0].edits == ()
    assert reworded_v8[0].score == reworded_v2[0].score  # v2's reading stands


@pytest.mark.parametrize("record", [True, False], ids=["recorded", "re-embedded"])
def test_a_v8_trace_replays_exactly(record: bool) -> None:
    trace = _trace("v8", FakeEmbedder(), record)
    assert trace.models["score_model"] == "v8" and any("edits" in c for c in trace.claims)
    assert replay(trace).ok


# v9: two of the window's figures or names mixed up ------------------------------------------------
MIXED_EVIDENCE = "TNF induced IL-6 in macrophages, and IL-10 was measured in serum."
MIXED_CLAIM = "TNF induced IL-10 in macrophages."  # IL-6 and IL-10 of one sentence mixed up


def mixed(
    claim: str,
    evidence: str,
    mixups: bool,
    moved_figures: bool = False,
    units: bool = False,
    overstatement: bool = False,
    inversions: bool = False,
    frames: bool = False,
    restrictions: bool = False,
    reorders: bool = False,
    local_qualifiers: bool = False,
    figure_nouns: bool = False,
    bounds: bool = False,
    contractions: bool = False,
    compounds: bool = False,
) -> EditCheck:
    alignment = align_edits(
        claim,
        evidence,
        changed_runs=2,
        run_share_min=0.65,
        mixups=mixups,
        moved_figures=moved_figures,
        units=units,
        overstatement=overstatement,
        inversions=inversions,
        frames=frames,
        restrictions=restrictions,
        reorders=reorders,
        local_qualifiers=local_qualifiers,
        figure_nouns=figure_nouns,
        bounds=bounds,
        contractions=contractions,
        compounds=compounds,
    )
    return judge_edits(alignment, [0.0] * len(alignment.questions), THRESHOLD)


def test_v9_reads_a_figure_the_window_states_elsewhere_put_in_place_of_another() -> None:
    before = mixed(MIXED_CLAIM, MIXED_EVIDENCE, mixups=False)
    # Up to v8: "10" aligns to its other mention, so the check sees a word moved and "6"
    # dropped, and allows both.
    assert before.outcome == "none"
    assert {e.judgement for e in before.edits} == {
        "allowed: words reordered",
        "allowed: compression",
    }
    after = mixed(MIXED_CLAIM, MIXED_EVIDENCE, mixups=True)
    assert after.outcome == "unsupported"
    assert judgements(after) == [("substitution", "10", "6", "unsupported: different number")]


def test_v9_names_two_names_of_the_window_mixed_up() -> None:
    evidence = "TNF induced IL6 in macrophages, and CRP was measured in serum."
    claim = "CRP induced IL6 in macrophages."
    # v8 refuses it too, but as two roles swapped; v9 says what happened.
    before = mixed(claim, evidence, mixups=False)
    assert before.edits and before.edits[0].judgement == "unsupported: roles swapped"
    after = mixed(claim, evidence, mixups=True)
    assert judgements(after) == [("substitution", "CRP", "TNF", "unsupported: different entity")]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # A figure fronted: at its own place the window holds no other figure.
        ("In 2019, systolic pressure fell by 5 mmHg.", "Systolic pressure fell by 5 mmHg in 2019."),
        # The claim's figure in its own place: nothing mixed up.
        ("TNF induced IL-6 in macrophages.", MIXED_EVIDENCE),
    ],
    ids=["fronted", "same"],
)
def test_v9_leaves_a_moved_or_repeated_figure_alone(claim: str, evidence: str) -> None:
    assert mixed(claim, evidence, mixups=True).outcome == "none"


def assert_same_on_shared(new: ScoreModel, old: ScoreModel) -> None:
    """``new`` gives ``old``'s verdicts on the shared claims and spans."""
    v_old, _ = score_all(CLAIMS, SPANS, FakeEmbedder(), old)
    v_new, status = score_all(CLAIMS, SPANS, FakeEmbedder(), new)
    assert status == "verified"
    assert [v.verdict for v in v_new] == [v.verdict for v in v_old]


def assert_one_field_more(new: ScoreModel, old: ScoreModel, field: str) -> None:
    """``new`` is registered under its name and is ``old`` with ``field`` set, nothing else."""
    assert SCORE_MODELS[new.name] is new and getattr(new, field)
    assert not getattr(old, field)
    assert replace(new, name=old.name, **{field: False}) == old


def assert_one_rule_more(new: ScoreModel, old: ScoreModel, claim: str, evidence: str) -> None:
    """``new`` gives ``old``'s verdicts on the shared claims and spans, and refuses the one
    claim that its added rule reads, which ``old`` supports."""
    assert_same_on_shared(new, old)
    claims = [Claim("c1", claim)]
    spans = [EvidenceSpan("S1", evidence)]
    assert score_all(claims, spans, FakeEmbedder(), old)[0][0].verdict is Verdict.SUPPORTED
    assert score_all(claims, spans, FakeEmbedder(), new)[0][0].verdict is Verdict.UNSUPPORTED


def test_v9_is_v8_with_mixups_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v9"] is V9 and V9.edit_mixups and not V8.edit_mixups
    assert replace(V9, name="v8", edit_mixups=False) == V8
    assert_one_rule_more(V9, V8, MIXED_CLAIM, MIXED_EVIDENCE)


@pytest.mark.parametrize("model", [f"v{n}" for n in range(9, 50)])
@pytest.mark.parametrize("record", [True, False], ids=["recorded", "re-embedded"])
def test_a_v9_or_later_trace_replays_exactly(model: str, record: bool) -> None:
    trace = _trace(model, FakeEmbedder(), record)
    assert trace.models["score_model"] == model and any("edits" in c for c in trace.claims)
    assert replay(trace).ok


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Type I interferon signalling was required for clearance of the virus.",
            "Type II interferon signalling was required for clearance of the virus.",
        ),
        (
            "Influenza A infection increased hospital admissions in children.",
            "Influenza B infection increased hospital admissions in children.",
        ),
        (
            "HLA-A alleles affect susceptibility to the disease.",
            "HLA-B alleles affect susceptibility to the disease.",
        ),
    ],
    ids=["type-I", "influenza-A", "HLA-A"],
)
def test_v9_reads_a_capital_a_or_i_inside_a_sentence_as_a_name(claim: str, evidence: str) -> None:
    # Up to v8 the letter is the article "a" or the pronoun "I": a dropped function word.
    assert mixed(claim, evidence, mixups=False).outcome == "none"
    after = mixed(claim, evidence, mixups=True)
    assert after.outcome == "unsupported"
    assert [e.judgement for e in after.edits] == ["unsupported: different entity"]


def test_v9_still_reads_a_sentence_opening_a_as_the_article() -> None:
    after = mixed(
        "A randomised trial of aspirin reduced stroke risk in older adults.",
        "The randomised trial of aspirin reduced stroke risk in older adults.",
        mixups=True,
    )
    assert after.outcome == "none"
    assert [e.judgement for e in after.edits] == ["allowed: compression"]


# v10: a figure stated later put into a shortened copy ---------------------------------------------
CUT_EVIDENCE = "Systolic blood pressure fell by 5 mmHg after 12 weeks; 8 participants dropped out."
CUT_CLAIM = "Systolic blood pressure fell by 5 mmHg after 8 weeks."  # 12 dropped, the later 8 in


def test_v10_reads_a_later_figure_put_in_place_of_a_dropped_one() -> None:
    # Up to v9: "8" aligns in order to "8 participants", "weeks" reads as moved and
    # "12" as a compression, and all are allowed. v10: "8" took the dropped "12"'s place.
    before = mixed(CUT_CLAIM, CUT_EVIDENCE, mixups=True, moved_figures=False)
    assert before.outcome == "none"
    after = mixed(CUT_CLAIM, CUT_EVIDENCE, mixups=True, moved_figures=True)
    assert after.outcome == "unsupported"
    assert judgements(after) == [
        ("transposition", "weeks", "weeks", "allowed: words reordered"),
        ("deletion", "", "12", "unsupported: different number"),
    ]


def test_v10_reads_a_later_name_put_in_place_of_a_dropped_one() -> None:
    evidence = "Such defects are mimicked by downregulation of OSBP, a VAP interactor."
    claim = "Such defects are mimicked by downregulation of VAP."
    assert mixed(claim, evidence, mixups=True, moved_figures=False).outcome == "none"
    after = mixed(claim, evidence, mixups=True, moved_figures=True)
    assert after.outcome == "unsupported"
    assert judgements(after) == [("deletion", "", "OSBP, a", "unsupported: different entity")]


def test_v10_reads_a_later_figure_given_to_an_earlier_noun() -> None:
    evidence = "Statins lowered LDL cholesterol by 30% and triglycerides by 15% in the trial."
    claim = "Statins lowered LDL cholesterol by 15% in the trial."  # the 15% is the triglycerides'
    assert mixed(claim, evidence, mixups=True, moved_figures=False).outcome == "none"
    after = mixed(claim, evidence, mixups=True, moved_figures=True)
    assert judgements(after) == [
        ("deletion", "", "30% and triglycerides by", "unsupported: different number")
    ]


@pytest.mark.parametrize(
    ("claim", "evidence", "dropped"),
    [
        (
            "The hazard ratio was 0.8 for women in the cohort.",
            "The hazard ratio was 0.8 for men and 0.9 for women in the cohort.",
            "men and 0.9 for",
        ),
        (
            "Blood pressure fell by 5 mmHg in the walking group.",
            "Blood pressure fell by 5 mmHg in the diet group and by 8 mmHg in the walking group.",
            "diet group and by 8 mmHg in the",
        ),
    ],
    ids=["for-women", "with-unit"],
)
def test_v10_reads_an_earlier_figure_carried_on_to_a_later_noun(
    claim: str, evidence: str, dropped: str
) -> None:
    assert mixed(claim, evidence, mixups=True, moved_figures=False).outcome == "none"
    after = mixed(claim, evidence, mixups=True, moved_figures=True)
    assert judgements(after) == [("deletion", "", dropped, "unsupported: different number")]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # One of two figures dropped, no clause mark crossed: "6 months" is still stated.
        ("Follow-up was done at 6 months.", "Follow-up was done at 3 and 6 months."),
        # A bracketed aside dropped whole, a figure after it.
        (
            "Among the 655 patients, 581 had measurable disease at baseline.",
            "Among the 655 patients (median age, 61 years; 405 men), 581 had measurable disease "
            "at baseline.",
        ),
        # An abbreviation in brackets dropped, a name after it.
        (
            "Primary human papillomavirus DNA screening was compared with cytology.",
            "Primary human papillomavirus (HPV) DNA screening was compared with cytology.",
        ),
        # The first clause, its own figure in place.
        (
            "Systolic blood pressure fell by 5 mmHg after 12 weeks.",
            CUT_EVIDENCE,
        ),
        # One of two figures dropped with its noun: the other keeps its own.
        (
            "Statins lowered triglycerides by 15% in the trial.",
            "Statins lowered LDL cholesterol by 30% and triglycerides by 15% in the trial.",
        ),
        # The dropped noun follows its figure, so it was the first figure's ("for men").
        (
            "The hazard ratio was 0.9 for women in the cohort.",
            "The hazard ratio was 0.8 for men and 0.9 for women in the cohort.",
        ),
        # A noun before "and": it belongs to the figure before it.
        (
            "Mortality was 20% in the placebo group overall.",
            "Mortality was 12% in the drug group and 20% in the placebo group overall.",
        ),
        # One figure of a list kept ("3 months" was one of the visits): no noun of its own.
        (
            "Follow-up was done at 3 months after surgery.",
            "Follow-up was done at 3 and 12 months after surgery.",
        ),
        # The first figure with its own noun, the rest dropped.
        (
            "The hazard ratio was 0.8 for men in the cohort.",
            "The hazard ratio was 0.8 for men and 0.9 for women in the cohort.",
        ),
    ],
    ids=[
        "list",
        "aside",
        "abbreviation",
        "first-clause",
        "own-figure",
        "noun-after",
        "group",
        "list-first",
        "first-own-noun",
    ],
)
def test_v10_still_allows_compressions_that_keep_their_figures(claim: str, evidence: str) -> None:
    assert mixed(claim, evidence, mixups=True, moved_figures=True).outcome == "none"


def test_v10_is_v9_with_moved_figures_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v10"] is V10 and V10.edit_moved_figures and not V9.edit_moved_figures
    assert replace(V10, name="v9", edit_moved_figures=False) == V9
    assert_one_rule_more(V10, V9, CUT_CLAIM, CUT_EVIDENCE)


# v11: a copied figure keeps its unit --------------------------------------------------------------
UNIT_EVIDENCE = "Systolic blood pressure fell by 5 mmHg after 12 weeks of daily walking."
UNIT_CLAIM = "Systolic blood pressure fell by 5% after 12 weeks of daily walking."


@pytest.mark.parametrize(
    ("text", "figure", "unit"),
    [
        ("fell by 5% after", "5", "%"),
        ("fell by 30 % in", "30", "%"),
        ("fell by 30 per cent in", "30", "%"),
        ("fell by 5 mmHg", "5", "mmhg"),
        ("fell by 5 mm Hg", "5", "mmhg"),
        ("a 12-week trial", "12", "week"),
        ("after two weeks", "two", "week"),
        ("rose by 3 percentage points", "3", "pp"),
        ("after 12 participants", "12", "count"),
        ("96-covid-19-patients-recover", "96", None),  # a slug, not a count
        ("COVID-19-related deaths", "19", None),
        ("(n = 12) overall", "12", None),
        ("by 30 in all", "30", None),
    ],
)
def test_a_figure_reads_its_unit(text: str, figure: str, unit: str | None) -> None:
    prepared = prepare_text(text)
    k = next(i for i, t in enumerate(prepared.tokens) if t.text == figure)
    assert prepared.units[k] == unit
    assert unit_of(prepared.text, prepared.tokens, prepared.content, k) == unit


@pytest.mark.parametrize(
    ("claim", "evidence", "claim_figure", "evidence_figure"),
    [
        (UNIT_CLAIM, UNIT_EVIDENCE, "5%", "5 mmHg"),
        # The percent sign is the only change: the tokens alone quote the span word for word.
        ("LDL cholesterol fell by 30%.", "LDL cholesterol fell by 30 mg/dL.", "30%", "30 mg"),
        # The new unit is in the window, so an insertion check alone would allow it.
        (
            "LDL cholesterol fell by 30 mg at 6 months.",
            "Patients took 40 mg daily, and LDL cholesterol fell by 30% at 6 months.",
            "30 mg",
            "30%",
        ),
        (
            "Systolic blood pressure fell by 5 mmHg after 12 participants.",
            "Systolic blood pressure fell by 5 mmHg after 12 weeks; 8 participants dropped out.",
            "12 participants",
            "12 weeks",
        ),
    ],
    ids=["percent-for-mmHg", "percent-only", "unit-stated-elsewhere", "count-for-weeks"],
)
def test_v11_reads_a_copied_figure_given_another_unit(
    claim: str, evidence: str, claim_figure: str, evidence_figure: str
) -> None:
    before = mixed(claim, evidence, mixups=True, moved_figures=True)
    after = mixed(claim, evidence, mixups=True, moved_figures=True, units=True)
    assert after.outcome == "unsupported"
    unit_edits = [e for e in after.edits if e.judgement == "unsupported: different unit"]
    assert [(e.claim_text, e.evidence_text) for e in unit_edits] == [
        (claim_figure, evidence_figure)
    ]
    assert not any(e.judgement == "unsupported: different unit" for e in before.edits)


def test_v10_misses_a_percent_for_an_absolute_unit_that_v11_reads() -> None:
    assert mixed(UNIT_CLAIM, UNIT_EVIDENCE, mixups=True, moved_figures=True).outcome == "none"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Systolic blood pressure fell by 5 mm Hg.", "Systolic blood pressure fell by 5 mmHg."),
        ("LDL cholesterol fell by 30 percent.", "LDL cholesterol fell by 30%."),
        ("LDL cholesterol fell by 30%.", "LDL cholesterol fell by 30 %."),
        ("Weight fell in the 12-week trial.", "Weight fell in the 12 weeks trial."),
        ("Weight fell after 2 weeks of walking.", "Weight fell after two weeks of walking."),
        ("IL-6 levels rose by 30% in the cohort.", "IL-6 levels rose by 30% in the cohort."),
        # A unit dropped is a compression: "5" still stands where the window has it.
        ("Systolic blood pressure fell by 5 after 12 weeks.", UNIT_EVIDENCE),
    ],
    ids=["mm-Hg", "percent-word", "percent-space", "hyphen", "number-word", "verbatim", "dropped"],
)
def test_v11_allows_a_unit_written_another_way(claim: str, evidence: str) -> None:
    after = mixed(claim, evidence, mixups=True, moved_figures=True, units=True)
    assert after.outcome == "none", judgements(after)


def test_v11_is_v10_with_units_and_citation_markers_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v11"] is V11 and V11.edit_units and not V10.edit_units
    assert V11.citation_markers and not V10.citation_markers
    assert replace(V11, name="v10", edit_units=False, citation_markers=False) == V10
    assert_one_rule_more(V11, V10, UNIT_CLAIM, UNIT_EVIDENCE)


@pytest.mark.parametrize("marker", ["[12]", "[3, 4]", "(Smith et al., 2019)", "[<|cit|>]", "[S1]"])
def test_v11_reads_a_copied_claim_without_its_citation_marker(marker: str) -> None:
    claim = [Claim("c1", f"Budesonide reduced relapse in adults with asthma {marker}.")]
    v2, _ = score_all(claim, SPANS, FakeEmbedder(), V2)
    v10, _ = score_all(claim, SPANS, FakeEmbedder(), V10)
    v11, _ = score_all(claim, SPANS, FakeEmbedder(), V11)
    # Up to v10 the marker's words are the claim's: v2's gates read a number or a name no span
    # states ("12", "Smith"), v10's edit check an inserted word; v11 blanks the marker.
    assert (v2[0].verdict is Verdict.SUPPORTED) == (marker in ("[<|cit|>]", "[S1]"))
    assert v10[0].verdict is not Verdict.SUPPORTED
    assert v11[0].verdict is Verdict.SUPPORTED and v11[0].text == claim[0].text
    # A detail changed beside the marker is still read.
    changed = [Claim("c1", f"Budesonide reduced relapse in adults with eczema {marker}.")]
    edited, _ = score_all(changed, SPANS, FakeEmbedder(), V11)
    assert edited[0].verdict is Verdict.UNSUPPORTED
    assert [e.claim_text for e in edited[0].edits if e.status != "allowed"] == ["eczema"]


# v12: a compression keeps the finding's strength --------------------------------------------------
def strong(claim: str, evidence: str, overstatement: bool = True) -> EditCheck:
    return mixed(claim, evidence, mixups=True, moved_figures=True, units=True,
                 overstatement=overstatement)  # fmt: skip


@pytest.mark.parametrize(
    ("claim", "evidence", "dropped", "why"),
    [
        (
            "Metformin reduced tumour growth with colorectal cancer.",
            "Metformin reduced tumour growth in mice with colorectal cancer.",
            "in mice",
            "scope dropped",
        ),
        # Quoting less of the sentence drops the qualifier at its end, or at its start.
        (
            "The defect can be pharmacologically corrected by the drug.",
            "The defect can be pharmacologically corrected by the drug in mice.",
            "in mice",
            "scope dropped",
        ),
        (
            "Metformin reduced tumour growth by half.",
            "In mice, metformin reduced tumour growth by half.",
            "In mice",
            "scope dropped",
        ),
        (
            "Metformin reduces tumour growth in patients with colorectal cancer.",
            "Metformin may reduce tumour growth in patients with colorectal cancer.",
            "may",
            "hedge dropped",
        ),
        (
            "Dexamethasone is useful in severe, intubated patients.",
            "Dexamethasone may be useful in severe, intubated patients.",
            "may be",
            "hedge dropped",
        ),
        (
            "Statins lowered the risk of dementia in observational studies.",
            "Statins were associated with a lower risk of dementia in observational studies.",
            "were associated with a",
            "association stated as an effect",
        ),
    ],
    ids=["scope", "scope-tail", "scope-head", "hedge", "modal-be", "association"],
)
def test_v12_reads_a_compression_that_overstates_the_finding(
    claim: str, evidence: str, dropped: str, why: str
) -> None:
    assert strong(claim, evidence, overstatement=False).outcome == "none"
    after = strong(claim, evidence)
    assert after.outcome == "unsupported"
    assert [(e.evidence_text, e.judgement) for e in after.edits if e.status != "allowed"] == [
        (dropped, f"unsupported: {why}")
    ]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # A dropped clause's own hedge or association is not the finding's.
        (
            "The rate fell by half in the second year.",
            "The rate fell by half, which may reflect better screening, in the second year.",
        ),
        (
            "Statins lowered LDL cholesterol in the trial.",
            "Statins lowered LDL cholesterol (a marker associated with stroke) in the trial.",
        ),
        # The claim keeps a hedge or a scope of its own.
        (
            "Metformin might reduce tumour growth in patients with cancer.",
            "Metformin may reduce tumour growth in patients with cancer.",
        ),
        # The first clause, the species in the next one.
        (
            "Metformin reduced tumour growth in patients.",
            "Metformin reduced tumour growth in patients, whereas in mice it had no effect.",
        ),
        # A dropped conjunct's own scope: the claim states the other conjunct.
        (
            "The cells possess the potential to differentiate into hepatocytes.",
            "The cells can be stably expanded in vitro and possess the potential to "
            "differentiate into hepatocytes.",
        ),
        ("Metformin reduced tumour growth by half.", "Metformin reduced tumour growth by half."),
    ],
    ids=[
        "clause-hedge",
        "bracket-association",
        "own-hedge",
        "next-clause",
        "conjunct",
        "verbatim",
    ],
)
def test_v12_leaves_a_faithful_compression_alone(claim: str, evidence: str) -> None:
    assert strong(claim, evidence).outcome == "none", judgements(strong(claim, evidence))


def test_v12_is_v11_with_overstatement_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v12"] is V12 and V12.edit_overstatement and not V11.edit_overstatement
    assert replace(V12, name="v11", edit_overstatement=False) == V11
    assert_one_rule_more(
        V12,
        V11,
        "Metformin reduced tumour growth with colorectal cancer.",
        "Metformin reduced tumour growth in mice with colorectal cancer.",
    )


# v13: a compression keeps what inverts the finding ---------------------------------------------
def inverted(claim: str, evidence: str, inversions: bool = True) -> EditCheck:
    return mixed(claim, evidence, mixups=True, moved_figures=True, units=True,
                 overstatement=True, inversions=inversions)  # fmt: skip


@pytest.mark.parametrize(
    ("claim", "evidence", "dropped"),
    [
        # Quoted from just after the head: a verbatim copy of the sentence's tail.
        (
            "Exercise increased the risk of falls in elderly patients.",
            "Lack of exercise increased the risk of falls in elderly patients.",
            "Lack of",
        ),
        (
            "TNF reduced joint inflammation in patients with arthritis.",
            "Blocking TNF reduced joint inflammation in patients with arthritis.",
            "Blocking",
        ),
        # The head inside the quote, after a lead-in the claim keeps.
        (
            "In mice, Nrf2 increased oxidative damage in the liver after injury.",
            "In mice, deletion of Nrf2 increased oxidative damage in the liver after injury.",
            "deletion of",
        ),
        (
            "There was evidence that vitamin D reduces fracture risk in older women.",
            "There was insufficient evidence that vitamin D reduces fracture risk in older women.",
            "insufficient",
        ),
        (
            "Aspirin and heparin reduced the rate of stroke in the trial.",
            "Neither aspirin nor heparin reduced the rate of stroke in the trial.",
            "Neither",
        ),
    ],
    ids=["head-noun", "head-gerund", "inside", "shortfall", "neither"],
)
def test_v13_reads_a_compression_that_drops_what_inverts_the_finding(
    claim: str, evidence: str, dropped: str
) -> None:
    assert inverted(claim, evidence, inversions=False).outcome == "none"
    after = inverted(claim, evidence)
    assert after.outcome == "unsupported", judgements(after)
    assert (dropped, "unsupported: inverting word dropped") in [
        (e.evidence_text, e.judgement) for e in after.edits
    ]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # The head belongs to a word the claim does not quote: the claim starts later.
        (
            "Exercise increased the risk of falls in elderly patients.",
            "Lack of sleep was common, and exercise increased the risk of falls in elderly "
            "patients.",
        ),
        # The inverting words stay in the claim.
        (
            "Lack of exercise increased the risk of falls.",
            "Lack of exercise increased the risk of falls in elderly patients.",
        ),
    ],
    ids=["another-clause", "kept"],
)
def test_v13_leaves_a_faithful_compression_alone(claim: str, evidence: str) -> None:
    assert inverted(claim, evidence).outcome == "none", judgements(inverted(claim, evidence))


def test_v13_is_v12_with_inversions_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v13"] is V13 and V13.edit_inversions and not V12.edit_inversions
    assert replace(V13, name="v12", edit_inversions=False) == V12
    assert_one_rule_more(
        V13,
        V12,
        "Exercise increased the risk of falls in elderly patients.",
        "Lack of exercise increased the risk of falls in elderly patients.",
    )


# v14: a claim quotes only what the window asserts ----------------------------------------------
def framed(claim: str, evidence: str, frames: bool = True) -> EditCheck:
    return mixed(claim, evidence, mixups=True, moved_figures=True, units=True,
                 overstatement=True, inversions=True, frames=frames)  # fmt: skip


@pytest.mark.parametrize(
    ("claim", "evidence", "head"),
    [
        (
            "Vitamin C prevents the common cold in adults.",
            "There is no evidence that vitamin C prevents the common cold in adults.",
            "There is no evidence that",
        ),
        (
            "Aspirin reduces the risk of cancer in older adults.",
            "It remains unclear whether aspirin reduces the risk of cancer in older adults.",
            "It remains unclear whether",
        ),
        (
            "Obesity impairs wound healing in diabetic patients.",
            "We tested the hypothesis that obesity impairs wound healing in diabetic patients.",
            "We tested the hypothesis that",
        ),
        # The head from the clause mark: the lead-in before it is not the frame.
        (
            "Antibiotics shorten the illness in children with otitis.",
            "In 2019, the claim that antibiotics shorten the illness in children with otitis was "
            "refuted.",
            "the claim that",
        ),
        # Inside the quote: the claim keeps the lead-in and drops the frame.
        (
            "In adults, vitamin C prevents the common cold.",
            "In adults, it is unlikely that vitamin C prevents the common cold.",
            "it is unlikely that",
        ),
    ],
    ids=["denied", "asked", "supposed", "after-clause-mark", "inside"],
)
def test_v14_reads_a_claim_quoted_from_what_the_window_does_not_assert(
    claim: str, evidence: str, head: str
) -> None:
    assert framed(claim, evidence, frames=False).outcome == "none"
    after = framed(claim, evidence)
    assert after.outcome == "unsupported", judgements(after)
    assert (head, "unsupported: not asserted by the window") in [
        (e.evidence_text, e.judgement) for e in after.edits
    ]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # An asserting lead-in is a compression.
        (
            "Vitamin C prevents the common cold in adults.",
            "Our results suggest that vitamin C prevents the common cold in adults.",
        ),
        (
            "Vitamin C prevents the common cold in adults.",
            "These data support the hypothesis that vitamin C prevents the common cold in adults.",
        ),
        # A negation far from "that" belongs to its own words.
        (
            "Tumour-intrinsic factors influence metastatic seeding in mice.",
            "Carcinomas that did not metastasize in the same animals suggest that "
            "tumour-intrinsic factors influence metastatic seeding in mice.",
        ),
        (
            "Risk rose in both groups over the five years of follow-up.",
            "Regardless of whether risk rose in both groups over the five years of follow-up.",
        ),
        # The claim keeps the frame.
        (
            "It is unclear whether aspirin reduces the risk of cancer.",
            "It is unclear whether aspirin reduces the risk of cancer in older adults.",
        ),
    ],
    ids=["suggest-that", "backed-hypothesis", "far-negation", "regardless", "kept"],
)
def test_v14_leaves_a_faithful_compression_alone(claim: str, evidence: str) -> None:
    assert framed(claim, evidence).outcome == "none", judgements(framed(claim, evidence))


def test_v14_is_v13_with_frames_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v14"] is V14 and V14.edit_frames and not V13.edit_frames
    assert replace(V14, name="v13", edit_frames=False) == V13
    assert_one_rule_more(
        V14,
        V13,
        "Vitamin C prevents the common cold in adults.",
        "There is no evidence that vitamin C prevents the common cold in adults.",
    )


# v15: what restricts a finding, and a phrase written the other way round --------------------------
def restricted(claim: str, evidence: str, on: bool = True) -> EditCheck:
    return mixed(claim, evidence, mixups=True, moved_figures=True, units=True,
                 overstatement=True, inversions=True, frames=True, restrictions=on,
                 reorders=on)  # fmt: skip


@pytest.mark.parametrize(
    ("claim", "evidence", "dropped", "why"),
    [
        (
            "Metformin reduced HbA1c in adults over two years.",
            "Metformin in combination with insulin reduced HbA1c in adults over two years.",
            "in combination with insulin",
            "co-intervention dropped",
        ),
        (
            "Metformin reduced HbA1c in adults over two years.",
            "Insulin plus metformin reduced HbA1c in adults over two years.",
            "Insulin plus",
            "co-intervention dropped",
        ),
        (
            "Metformin reduced HbA1c in adults over two years.",
            "Metformin reduced HbA1c in adults over two years when combined with insulin.",
            "when combined with insulin",
            "co-intervention dropped",
        ),
        (
            "Vitamin D reduced hip fractures in older women.",
            "High-dose vitamin D reduced hip fractures in older women.",
            "High-dose",
            "dose dropped",
        ),
        (
            "The physical training group improved cardiovascular fitness more than the "
            "moderate-intensity group.",
            "The high-intensity physical training group improved cardiovascular fitness more "
            "than the moderate-intensity group.",
            "high-intensity",
            "dose dropped",
        ),
        (
            "The mutation was found in patients with familial disease.",
            "The mutation was found in a subgroup of patients with familial disease.",
            "a subgroup of",
            "subgroup dropped",
        ),
        (
            "The intervention reduced relapse at one year.",
            "Among smokers, the intervention reduced relapse at one year.",
            "Among smokers",
            "population dropped",
        ),
        (
            "The intervention reduced relapse at one year.",
            "However, in women aged 50 years or older, the intervention reduced relapse at one "
            "year.",
            "in women aged 50 years or older",
            "population dropped",
        ),
        (
            "The intervention reduced relapse at one year.",
            "The intervention reduced relapse at one year among current smokers.",
            "among current smokers",
            "population dropped",
        ),
        (
            "Aspirin reduced mortality in patients.",
            "Aspirin reduced mortality in patients with type 2 diabetes.",
            "with type 2 diabetes",
            "population dropped",
        ),
        (
            "Aspirin reduced mortality in patients over five years.",
            "Aspirin reduced mortality in patients with type 2 diabetes over five years.",
            "with type 2 diabetes",
            "population dropped",
        ),
        (
            "We found that mice were protected from colitis.",
            "We found that mice lacking IL-6 were protected from colitis.",
            "lacking IL-6",
            "population dropped",
        ),
        (
            "The drug reduced tumour size in the phase 1 trial.",
            "The drug reduced tumour size at the highest dose tested in the phase 1 trial.",
            "at the highest dose tested",
            "dose dropped",
        ),
        (
            "The drug reduced pain.",
            "The drug reduced pain, but only in women under 50 years of age.",
            "but only in women under 50 years of age",
            "restriction dropped",
        ),
        (
            "The risk was lower in the treated group.",
            "The risk was lower in the treated group, although the difference was not significant.",
            "although the difference was not significant",
            "caveat dropped",
        ),
        (
            "Mortality fell in the treated arm.",
            "Mortality fell in the treated arm; however, this did not reach statistical "
            "significance.",
            "however, this did not reach statistical significance",
            "caveat dropped",
        ),
    ],
    ids=[
        "combination",
        "plus-before",
        "combined-tail",
        "dose",
        "intensity-level",
        "subgroup",
        "lead-in",
        "lead-in-after-clause-mark",
        "population-tail",
        "narrowed-tail",
        "narrowed-inside",
        "genotype",
        "highest-dose",
        "but-only",
        "not-significant",
        "however-not-significant",
    ],
)
def test_v15_reads_a_restriction_the_claim_drops(
    claim: str, evidence: str, dropped: str, why: str
) -> None:
    assert restricted(claim, evidence, on=False).outcome == "none"
    after = restricted(claim, evidence)
    assert after.outcome == "unsupported", judgements(after)
    assert (dropped, f"unsupported: {why}") in [
        (e.evidence_text, e.judgement) for e in after.edits
    ], judgements(after)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # The whole population restricts nothing.
        (
            "The intervention reduced relapse at one year.",
            "In all participants, the intervention reduced relapse at one year.",
        ),
        # A lead-in that names no population.
        (
            "The intervention reduced relapse at one year.",
            "In this trial, the intervention reduced relapse at one year.",
        ),
        # The claim keeps the restriction, in its own place.
        (
            "In smokers, the intervention reduced relapse at one year.",
            "The intervention reduced relapse at one year in smokers.",
        ),
        (
            "High-dose vitamin D reduced hip fractures.",
            "High-dose vitamin D reduced hip fractures over five years.",
        ),
        # A comma-delimited clause about the population, dropped whole.
        (
            "Aspirin reduced mortality in patients over five years.",
            "Aspirin reduced mortality in patients, who were recruited in 2010, over five years.",
        ),
        # A restriction in a clause the claim does not quote.
        (
            "The intervention reduced relapse at one year.",
            "The intervention reduced relapse at one year, especially among smokers.",
        ),
        # A concession about another thing than the finding.
        (
            "Relapse fell in the treated group.",
            "Relapse fell in the treated group, but weight did not change significantly.",
        ),
        # The claim speaks of significance itself.
        (
            "Relapse fell significantly in the treated group.",
            "Relapse fell significantly in the treated group, although the difference was not "
            "significant after adjustment.",
        ),
    ],
    ids=[
        "all",
        "no-population",
        "kept-moved",
        "kept-dose",
        "clause",
        "next-clause",
        "other-subject",
        "claim-on-significance",
    ],
)
def test_v15_leaves_a_faithful_compression_alone(claim: str, evidence: str) -> None:
    assert restricted(claim, evidence).outcome == "none", judgements(restricted(claim, evidence))


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Obesity was a risk factor of severe illness in patients with COVID-19.",
            "Obesity was a risk factor of severe illness in COVID-19 patients.",
        ),
        (
            "A novel ACE2 isoform is expressed in respiratory epithelia.",
            "A novel isoform of ACE2 is expressed in respiratory epithelia.",
        ),
        # The modifier moved, not the noun.
        (
            "Mortality was higher in patients with cancer treated with drug A.",
            "Mortality was higher in cancer patients treated with drug A.",
        ),
        (
            "The use of the spray during the pandemic may reduce cross infection and protect "
            "healthcare workers.",
            "The use of the spray during the pandemic may protect healthcare workers and reduce "
            "cross infection.",
        ),
    ],
    ids=["with", "of", "modifier-moved", "conjuncts"],
)
def test_v15_reads_a_phrase_written_the_other_way_round_as_reordered(
    claim: str, evidence: str
) -> None:
    before = restricted(claim, evidence, on=False)
    assert [e.judgement for e in before.edits if e.op == "transposition"] == [
        "unsupported: roles swapped"
    ]
    after = restricted(claim, evidence)
    assert after.outcome == "none", judgements(after)
    assert [e.judgement for e in after.edits if e.op == "transposition"] == [
        "allowed: words reordered"
    ]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("IL-6 induces TNF in macrophages.", "TNF induces IL-6 in macrophages."),
        (
            "Expression was higher in smokers than in non-smokers.",
            "Expression was higher in non-smokers than in smokers.",
        ),
        # The two arguments of "the effect of A on B" (v15 reads "on" as a relation word).
        (
            "The effect of smoking on cancer was large in the cohort.",
            "The effect of cancer on smoking was large in the cohort.",
        ),
        # Two nouns, each with its own modifier, traded.
        (
            "Cancer patients with diabetes had higher mortality in the cohort.",
            "Diabetes patients with cancer had higher mortality in the cohort.",
        ),
        # A noun moved past a verb phrase, not its modifier.
        (
            "Expression of TNF inhibits IL-6 in macrophages.",
            "TNF inhibits IL-6 expression in macrophages.",
        ),
        # Conjuncts that "respectively" ties to their figures.
        (
            "Hospital stay and total cost fell by 2 days and 10%, respectively.",
            "Total cost and hospital stay fell by 2 days and 10%, respectively.",
        ),
    ],
    ids=[
        "two-entities",
        "effect-on",
        "comparison",
        "two-modified-nouns",
        "past-a-verb",
        "respectively",
    ],
)
def test_v15_still_reads_roles_swapped(claim: str, evidence: str) -> None:
    after = restricted(claim, evidence)
    assert after.outcome == "unsupported", judgements(after)


def test_v15_is_v14_with_restrictions_and_reorders_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v15"] is V15 and V15.edit_restrictions and V15.edit_reorders
    assert not (V14.edit_restrictions or V14.edit_reorders)
    assert replace(V15, name="v14", edit_restrictions=False, edit_reorders=False) == V14
    assert_one_rule_more(
        V15,
        V14,
        "The intervention reduced relapse at one year.",
        "Among smokers, the intervention reduced relapse at one year.",
    )


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        (
            "Tumour growth fell after mTOR knockdown. p70 phosphorylation rose in all samples.",
            "p70 phosphorylation rose in all samples.",
        ),
        (
            "It is unknown whether. miR-21 levels rose in the treated mice.",
            "miR-21 levels rose in the treated mice.",
        ),
        (
            "Tumours grew in all of the mice. p21 levels rose within a week.",
            "p21 levels rose within a week.",
        ),
    ],
    ids=["inverter", "frame", "scope"],
)
def test_v15_reads_a_quote_s_edge_within_its_sentence(evidence: str, claim: str) -> None:
    """The sentence splitter reads no break before a lowercase word ("p21"), so v12 to v14 read
    a claim quoting such a sentence whole against the end of the one before it; v15 does not."""
    assert framed(claim, evidence).outcome == "unsupported", judgements(framed(claim, evidence))
    assert restricted(claim, evidence).outcome == "none", judgements(restricted(claim, evidence))


# v16: what keeps a dropped qualifier is read where it was dropped ---------------------------------
def local(claim: str, evidence: str, on: bool = True) -> EditCheck:
    return mixed(claim, evidence, mixups=True, moved_figures=True, units=True,
                 overstatement=True, inversions=True, frames=True, restrictions=True,
                 reorders=True, local_qualifiers=on)  # fmt: skip


@pytest.mark.parametrize(
    ("claim", "evidence", "dropped", "why"),
    [
        # A scope of another kind keeps none: "in vitro" is no "in mice".
        (
            "Blockade of the integrin reduces podocyte motility in vitro and lowers proteinuria.",
            "Blockade of the integrin reduces podocyte motility in vitro and lowers proteinuria "
            "in mice.",
            "in mice",
            "scope dropped",
        ),
        (
            "DNA release is proinflammatory, and when this DNA is injected into mice, it "
            "stimulates interferon signalling.",
            "DNA release is proinflammatory in vitro, and when this DNA is injected into mice, "
            "it stimulates interferon signalling.",
            "in vitro",
            "scope dropped",
        ),
        # A closing phrase set off by a comma scopes the whole sentence.
        (
            "The antagonists suppressed tumour growth without overt toxicity.",
            "The antagonists suppressed tumour growth without overt toxicity, in mice.",
            "in mice",
            "scope dropped",
        ),
        # A hedge kept in another clause keeps none in this one.
        (
            "Dexamethasone may be useful in severe patients, but is dangerous during recovery.",
            "Dexamethasone may be useful in severe patients, but could be dangerous during "
            "recovery.",
            "could be",
            "hedge dropped",
        ),
        # A hedge reaches over the conjuncts after it, not over those before it.
        (
            "The drug reduces relapse in adults and may reduce it in children with asthma.",
            "The drug potentially reduces relapse in adults and may reduce it in children with "
            "asthma.",
            "potentially",
            "hedge dropped",
        ),
        (
            "Infection may be a cause of gastric cancer; half of all cases are associated with it.",
            "Infection may be a cause of gastric cancer; half of all cases may be associated "
            "with it.",
            "may be",
            "hedge dropped",
        ),
        # An association kept in another clause does not keep this one.
        (
            "The haplotype correlates with weak IL-2 signalling, and lowered FOXP3 levels in "
            "regulatory T cells.",
            "The haplotype correlates with weak IL-2 signalling, and is associated with lower "
            "FOXP3 levels in regulatory T cells.",
            "is associated with",
            "association stated as an effect",
        ),
    ],
    ids=[
        "vitro-for-mice",
        "mice-for-vitro",
        "closing-phrase",
        "but-clause",
        "and-phrase",
        "semicolon",
        "association",
    ],
)
def test_v16_reads_a_qualifier_dropped_where_the_claim_keeps_another(
    claim: str, evidence: str, dropped: str, why: str
) -> None:
    after = local(claim, evidence)
    assert local(claim, evidence, on=False).outcome == "none", judgements(
        local(claim, evidence, on=False)
    )
    assert after.outcome == "unsupported", judgements(after)
    assert any(
        dropped in e.evidence_text and e.judgement == f"unsupported: {why}" for e in after.edits
    ), judgements(after)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # The same kind of scope, kept elsewhere in the claim.
        (
            "In a rat model of panic, inhibition of GABA synthesis in the hypothalamus produces "
            "anxiety.",
            "In a rat model of panic, inhibition of GABA synthesis in the hypothalamus of rats "
            "produces anxiety.",
        ),
        # A broad scope kept by a species the claim names.
        (
            "ACE2 is similar in different species such as pigs, cats and monkeys.",
            "ACE2 is similar in different species of animals such as pigs, cats and monkeys.",
        ),
        # A hedge kept in the same stretch of the claim.
        (
            "HAND2 methylation could be employed as a biomarker of endometrial cancer.",
            "HAND2 methylation could potentially be employed as a biomarker of endometrial cancer.",
        ),
        # A hedge before the edit reaches over the conjunct after "and".
        (
            "Exercise may reduce falls in older adults and also reduce fractures.",
            "Exercise may reduce falls in older adults and may also reduce fractures.",
        ),
        # A phrase after a comma that is longer than a closing scope: another clause.
        (
            "The antagonists suppressed tumour growth without overt toxicity.",
            "The antagonists suppressed tumour growth without overt toxicity, as seen in our "
            "earlier studies of mice.",
        ),
    ],
    ids=["same-species", "broad-by-species", "same-stretch", "over-and", "long-phrase"],
)
def test_v16_leaves_a_qualifier_the_claim_keeps_alone(claim: str, evidence: str) -> None:
    assert local(claim, evidence).outcome == "none", judgements(local(claim, evidence))


def figures(claim: str, evidence: str, on: bool = True) -> EditCheck:
    return mixed(claim, evidence, mixups=True, moved_figures=True, units=True,
                 overstatement=True, inversions=True, frames=True, restrictions=True,
                 reorders=True, local_qualifiers=True, figure_nouns=on)  # fmt: skip


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # "below" places the later figure; "a pH" before it is its noun.
        (
            "The enzyme buffers the periplasm to a pH of roughly 2.0.",
            "The enzyme buffers the periplasm to a pH of roughly 6.1 even in gastric juice at a "
            "pH below 2.0.",
        ),
        # "over" bounds the later figure; "exons that can produce" names the earlier one.
        (
            "The gene has a complex organization with 31,000 potential splice forms.",
            "The gene has a complex organization with 101 exons that can produce over 31,000 "
            "potential splice forms.",
        ),
        # A label's noun right before the later figure, past another figure dropped.
        (
            "The share diagnosed early rose from 22.5% in period 1 to 25.5% in period 3.",
            "The share diagnosed early rose from 22.5% in period 1 to 25.5% in period 2 and "
            "26.3% in period 3.",
        ),
        # The earlier figure carried on to a later noun past "over".
        (
            "Despite chemotherapy, 20% of adult patients with ALL relapse.",
            "Despite chemotherapy, 20% of pediatric patients and over 50% of adult patients "
            "with ALL relapse.",
        ),
    ],
    ids=["below", "over", "label", "carried-past-over"],
)
def test_v16_reads_a_figure_given_another_figure_s_noun(claim: str, evidence: str) -> None:
    assert figures(claim, evidence, on=False).outcome == "none"
    after = figures(claim, evidence)
    assert after.outcome == "unsupported", judgements(after)
    assert "unsupported: different number" in [e.judgement for e in after.edits]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Mortality was 20% at one year.", "Mortality was 12% at 30 days and 20% at one year."),
        ("Survival was 35% in stage 3.", "Survival was 60% in stage 2 and 35% in stage 3."),
        ("The risk rose in type 2 diabetes.", "The risk rose in type 1 and type 2 diabetes."),
        (
            "HbA1c fell by 0.7% in phase 3.",
            "HbA1c fell by 0.5% in the first phase 2 trial and by 0.7% in phase 3.",
        ),
        (
            "Levels were above 40 ng/mL in 30 patients.",
            "Levels were above 40 ng/mL in 30 patients and below 10 ng/mL in 12.",
        ),
        (
            "Of the patients, over 50 relapsed within a year.",
            "Of the 120 patients, over 50 relapsed within a year.",
        ),
    ],
    ids=["list-item", "stage", "label-list", "phase", "tail", "count-dropped"],
)
def test_v16_leaves_a_figure_kept_with_its_noun_alone(claim: str, evidence: str) -> None:
    assert figures(claim, evidence).outcome == "none", judgements(figures(claim, evidence))


def bounded(claim: str, evidence: str, on: bool = True) -> EditCheck:
    return mixed(claim, evidence, mixups=True, moved_figures=True, units=True,
                 overstatement=True, inversions=True, frames=True, restrictions=True,
                 reorders=True, local_qualifiers=True, figure_nouns=True,
                 bounds=on)  # fmt: skip


@pytest.mark.parametrize(
    ("claim", "evidence", "bound"),
    [
        (
            "Adverse events occurred in 5% of patients receiving the drug.",
            "Adverse events occurred in less than 5% of patients receiving the drug.",
            "less than",
        ),
        (
            "In 50% of adult patients the disease relapsed within a year.",
            "In over 50% of adult patients the disease relapsed within a year.",
            "over",
        ),
        # At a quote's start.
        (
            "50% of adult patients with ALL relapse within a year.",
            "Over 50% of adult patients with ALL relapse within a year.",
            "Over",
        ),
        (
            "The drug reduced mortality by 30% in adults with sepsis.",
            "The drug reduced mortality by up to 30% in adults with sepsis.",
            "up to",
        ),
    ],
    ids=["less-than", "over", "quote-start", "up-to"],
)
def test_v16_reads_a_figure_s_bound_dropped(claim: str, evidence: str, bound: str) -> None:
    before = bounded(claim, evidence, on=False)
    assert "unsupported: bound dropped" not in [e.judgement for e in before.edits]
    after = bounded(claim, evidence)
    assert after.outcome == "unsupported", judgements(after)
    assert (bound, "unsupported: bound dropped") in [
        (e.evidence_text, e.judgement) for e in after.edits
    ], judgements(after)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # An approximation dropped: no bound, and "by about 30%" names no agent.
        (
            "The drug reduced mortality by 30% in adults with sepsis.",
            "The drug reduced mortality by about 30% in adults with sepsis.",
        ),
        (
            "The drug reduced mortality by 30% in adults with sepsis.",
            "The drug reduced mortality by approximately 30% in adults with sepsis.",
        ),
        # The bound kept.
        (
            "Over 50% of adult patients with ALL relapse within a year.",
            "Over 50% of adult patients with ALL relapse within a year, and most die.",
        ),
        # "over" before no figure.
        (
            "Patients were followed for a year after surgery.",
            "Patients were followed for over a year after surgery.",
        ),
    ],
    ids=["about", "approximately", "kept", "no-figure"],
)
def test_v16_leaves_an_approximation_or_a_kept_bound_alone(claim: str, evidence: str) -> None:
    assert bounded(claim, evidence).outcome == "none", judgements(bounded(claim, evidence))


@pytest.mark.parametrize(
    ("claim", "evidence", "why"),
    [
        (
            "Adverse events occurred in 5% of patients receiving the drug.",
            "Adverse events occurred in <5% of patients receiving the drug.",
            "bound dropped",
        ),
        (
            "The difference was significant (P = .001) in all of the groups.",
            "The difference was significant (P<.001) in all of the groups.",
            "bound dropped",
        ),
        (
            "Patients aged 65 years were included in the trial cohort.",
            "Patients aged ≥65 years were included in the trial cohort.",
            "bound dropped",
        ),
        (
            "Adverse events occurred in >5% of patients receiving the drug.",
            "Adverse events occurred in <5% of patients receiving the drug.",
            "different bound",
        ),
        (
            "Adverse events occurred in <5% of patients receiving the drug.",
            "Adverse events occurred in 5% of patients receiving the drug.",
            "different bound",
        ),
        (
            "Adverse events occurred in over 5% of patients receiving the drug.",
            "Adverse events occurred in under 5% of patients receiving the drug.",
            "different bound",
        ),
    ],
    ids=["sign-dropped", "p-value", "at-least-sign", "sign-flipped", "sign-added", "words-flipped"],
)
def test_v16_reads_a_comparison_sign_the_claim_drops_or_changes(
    claim: str, evidence: str, why: str
) -> None:
    """The signs are no tokens: up to v15 "5%" quotes "<5%" word for word."""
    assert f"unsupported: {why}" not in [
        e.judgement for e in bounded(claim, evidence, on=False).edits
    ]
    after = bounded(claim, evidence)
    assert after.outcome == "unsupported", judgements(after)
    assert f"unsupported: {why}" in [e.judgement for e in after.edits], judgements(after)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Adverse events occurred in less than 5% of patients receiving the drug.",
            "Adverse events occurred in <5% of patients receiving the drug.",
        ),
        (
            "Adverse events occurred in <5% of patients receiving the drug.",
            "Adverse events occurred in less than 5% of patients receiving the drug.",
        ),
        (
            "Adverse events occurred in under 5% of patients receiving the drug.",
            "Adverse events occurred in below 5% of patients receiving the drug.",
        ),
        (
            "The difference was significant (p < 0.05) in all of the groups.",
            "The difference was significant (p<0.05) in all of the groups.",
        ),
        (
            "The mean age was 54 ± 3 years in the group.",
            "The mean age was 54 ± 3 years in the group.",
        ),
    ],
    ids=["words-for-sign", "sign-for-words", "same-side-words", "spacing", "plus-minus"],
)
def test_v16_reads_a_bound_written_another_way_as_the_same(claim: str, evidence: str) -> None:
    assert bounded(claim, evidence).outcome == "none", judgements(bounded(claim, evidence))


def test_up_to_v15_an_amount_behind_an_approximation_reads_as_an_agent() -> None:
    """Up to v15 "reduced … by about 30%" reads as a passive with an agent, so a claim that
    drops "about" changes the voice: roles swapped. v16 reads the amount."""
    claim = "The drug reduced mortality by 30% in adults with sepsis."
    evidence = "The drug reduced mortality by about 30% in adults with sepsis."
    before = bounded(claim, evidence, on=False)
    assert before.outcome == "unsupported"
    assert "unsupported: roles swapped (voice changed, word order kept)" in [
        e.judgement for e in before.edits
    ]


def test_v16_is_v15_with_local_qualifiers_figure_nouns_and_bounds_and_nothing_else_here() -> None:
    assert SCORE_MODELS["v16"] is V16
    assert V16.edit_local_qualifiers and V16.edit_figure_nouns and V16.edit_bounds
    assert not (V15.edit_local_qualifiers or V15.edit_figure_nouns or V15.edit_bounds)
    plain = replace(
        V16, name="v15", edit_local_qualifiers=False, edit_figure_nouns=False, edit_bounds=False
    )
    assert plain == V15
    assert_one_rule_more(
        V16,
        V15,
        "Dexamethasone may be useful in severe patients, but is dangerous during recovery.",
        "Dexamethasone may be useful in severe patients, but could be dangerous during recovery.",
    )


# v17: a figure written another way is the figure it is -------------------------------------------
def _verdict(model: ScoreModel, claim: str, evidence: str) -> Verdict:
    verdicts, status = score_all(
        [Claim("c1", claim)], [EvidenceSpan("S1", evidence)], FakeEmbedder(), model
    )
    assert status == "verified"
    return verdicts[0].verdict


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Mortality was lower in the treated group (P < 0.001).",
            "Mortality was lower in the treated group (P < .001).",
        ),
        (
            "Mortality was lower in the treated group (P<.001).",
            "Mortality was lower in the treated group (P < 0.001).",
        ),
        (
            "The hazard ratio for death was 0.85 in adults.",
            "The hazard ratio for death was .85 in adults.",
        ),
        (
            "Life expectancy rose by an average of 2.9 years in the region.",
            "Life expectancy rose by an average of 2\u00b79 years in the region.",
        ),
        (
            "Seventy studies involving 671,945 women were included.",
            "Seventy studies involving 671 945 women were included.",
        ),
        (
            "Cancer was assessed in 14336 first-degree relatives of the cases.",
            "Cancer was assessed in 14\u2009336 first-degree relatives of the cases.",
        ),
    ],
    ids=["leading-dot-in-evidence", "leading-dot-in-claim", "ratio", "middle-dot", "space", "thin"],
)
def test_v17_reads_a_figure_written_another_way_as_the_same(claim: str, evidence: str) -> None:
    assert _verdict(V16, claim, evidence) is Verdict.UNSUPPORTED
    assert _verdict(V17, claim, evidence) is Verdict.SUPPORTED
    ev = prepare_evidence("S1", evidence, number_formats=True)
    result = judge_edits(align_edits(prepare_text(claim, number_formats=True), ev), [], THRESHOLD)
    assert result.outcome == "none", judgements(result)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Mortality was lower in the treated group (P < .01).",
            "Mortality was lower in the treated group (P < .001).",
        ),
        (
            "Seventy studies involving 945 women were included.",
            "Seventy studies involving 671 945 women were included.",
        ),
        (
            "Life expectancy rose by an average of 9 years in the region.",
            "Life expectancy rose by an average of 2\u00b79 years in the region.",
        ),
    ],
    ids=["another-decimal", "one-group", "one-part"],
)
def test_v17_refuses_what_up_to_v16_quoted_from_a_split_figure(claim: str, evidence: str) -> None:
    assert _verdict(V16, claim, evidence) is Verdict.SUPPORTED
    assert _verdict(V17, claim, evidence) is Verdict.UNSUPPORTED


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Vitamin D supplementation doesn't reduce the risk of fractures in older adults.",
            "Vitamin D supplementation does not reduce the risk of fractures in older adults.",
        ),
        (
            "Vitamin D supplementation does not reduce the risk of fractures in older adults.",
            "Vitamin D supplementation doesn\u2019t reduce the risk of fractures in older adults.",
        ),
        (
            "The vaccine can't prevent infection in children under five.",
            "The vaccine cannot prevent infection in children under five.",
        ),
        (
            "In the pandemic, we're making decisions without reliable data.",
            "In the pandemic, we are making decisions without reliable data.",
        ),
        # at a quote's edge the contraction stands against both words, not the verb alone
        (
            "Controls replenished their hepatic ATP stores during follow-up but patients didn't.",
            "Controls replenished their hepatic ATP stores during follow-up but patients did not.",
        ),
        (
            "Researchers've shown that the drug is safe in mice.",
            "Researchers have shown that the drug is safe in mice.",
        ),
        # "couldn't" keeps the "could" of "could not": no hedge dropped
        (
            "Differences between model predictions couldn't be explained by model structure.",
            "Differences between model predictions could not be explained by model structure.",
        ),
    ],
    ids=["doesn't", "does-not", "can't", "we're", "sentence-end", "sentence-start", "couldn't"],
)
def test_v17_reads_a_contraction_as_the_words_it_stands_for(claim: str, evidence: str) -> None:
    before = mixed(claim, evidence, mixups=True, overstatement=True)
    assert before.outcome != "none", judgements(before)
    after = mixed(claim, evidence, mixups=True, overstatement=True, contractions=True)
    assert after.outcome == "none", judgements(after)
    assert "allowed: same words (contraction)" in [e.judgement for e in after.edits]


@pytest.mark.parametrize(
    ("claim", "evidence", "why"),
    [
        (
            "Vitamin D supplementation does reduce the risk of fractures in older adults.",
            "Vitamin D supplementation doesn't reduce the risk of fractures in older adults.",
            "contradicted: negation flip",
        ),
        (
            "The vaccine can prevent infection in children under five.",
            "The vaccine can't prevent infection in children under five.",
            "contradicted: negation flip",
        ),
        (
            "In the pandemic, they're making decisions without reliable data.",
            "In the pandemic, we are making decisions without reliable data.",
            "unsupported: not in the evidence",
        ),
    ],
    ids=["negation-dropped", "can", "another-pronoun"],
)
def test_v17_leaves_a_contraction_of_other_words_alone(claim: str, evidence: str, why: str) -> None:
    result = mixed(claim, evidence, mixups=True, contractions=True)
    assert result.outcome != "none"
    assert why in [e.judgement for e in result.edits], judgements(result)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Intracerebral hemorrhage was more common in the treated group of older adults.",
            "Intracerebral haemorrhage was more common in the treated group of older adults.",
        ),
        (
            "Pediatric patients with leukemia received the drug for six months.",
            "Paediatric patients with leukaemia received the drug for six months.",
        ),
        (
            "Beta-blockers reduced mortality after myocardial infarction in the trial.",
            "\u03b2-blockers reduced mortality after myocardial infarction in the trial.",
        ),
        # a Greek letter in a name: one entity for the entity gate too
        (
            "IL-1beta levels were elevated in the synovial fluid of patients with gout.",
            "IL-1\u03b2 levels were elevated in the synovial fluid of patients with gout.",
        ),
        (
            "Patients with solid tumors were followed at three centres for a year.",
            "Patients with solid tumors were followed at three centers for a year.",
        ),
    ],
    ids=[
        "haemorrhage",
        "paediatric-leukaemia",
        "greek-letter",
        "greek-in-a-name",
        "american-in-the-window",
    ],
)
def test_v17_reads_a_british_spelling_as_the_american_one(claim: str, evidence: str) -> None:
    assert _verdict(V16, claim, evidence) is Verdict.UNSUPPORTED
    assert _verdict(V17, claim, evidence) is Verdict.SUPPORTED


def test_v17_still_gates_another_name_written_with_a_greek_letter() -> None:
    evidence = "IL-1\u03b2 levels were elevated in the synovial fluid of patients with gout."
    claim = "IL-1alpha levels were elevated in the synovial fluid of patients with gout."
    assert _verdict(V17, claim, evidence) is Verdict.UNSUPPORTED


def test_v17_still_reads_another_word_in_a_respelled_copy() -> None:
    evidence = "Intracerebral haemorrhage was more common in the treated group of older adults."
    claim = "Intracerebral thrombosis was more common in the treated group of older adults."
    assert _verdict(V17, claim, evidence) is Verdict.UNSUPPORTED
    assert _verdict(V17, claim.replace("thrombosis", "hemorrhage"), evidence) is Verdict.SUPPORTED


def test_v17_is_v16_with_formats_contractions_and_spellings_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v17"] is V17 and V17.number_formats and not V16.number_formats
    assert V17.edit_contractions and not V16.edit_contractions
    assert V17.spellings and not V16.spellings
    assert V17.edit_shared_abbreviations and not V16.edit_shared_abbreviations
    plain = replace(
        V17,
        name="v16",
        number_formats=False,
        edit_contractions=False,
        spellings=False,
        edit_shared_abbreviations=False,
    )
    assert plain == V16
    assert_one_rule_more(
        V17,
        V16,
        "Mortality was lower in the treated group (P < .01).",
        "Mortality was lower in the treated group (P < .001).",
    )


def test_v17_reads_a_detail_changed_in_a_copy_whose_figures_use_middle_dots() -> None:
    """A figure kept in one token must not hide the copy from the check's cheap bound (the span's
    words are counted with the same tokens)."""
    evidence = (
        "Associations were strongest for intracerebral haemorrhage (hazard ratio 1\u00b744 [95% "
        "CI 1\u00b732-1\u00b758]) and stable angina (1\u00b741 [1\u00b736-1\u00b746])."
    )
    claim = evidence.replace("stable angina", "unstable angina")
    assert _verdict(V16, claim, evidence) is Verdict.UNSUPPORTED
    assert _verdict(V17, claim, evidence) is Verdict.UNSUPPORTED
    assert _verdict(V17, evidence, evidence) is Verdict.SUPPORTED


_DEFINES = (
    "Treatment with the G4-stabilizing compound pyridostatin (PDS) increases telomere fragility "
    "in BRCA2-deficient cells."
)
_USES = (
    "Remarkably, PDS reduces proliferation of HR-defective cells by inducing DSB accumulation, "
    "checkpoint activation, and deregulated G2/M progression."
)


def test_v17_reads_an_abbreviation_another_span_of_the_source_defines() -> None:
    claim = "Pyridostatin reduces proliferation of HR-defective cells by inducing DSB accumulation."
    together = [EvidenceSpan("S1", _DEFINES), EvidenceSpan("S2", _USES)]
    apart = [
        EvidenceSpan("S1", _DEFINES, source={"source_id": "a"}),
        EvidenceSpan("S2", _USES, source={"source_id": "b"}),
    ]
    for model, spans, expected in [
        (V16, together, Verdict.UNSUPPORTED),
        (V17, together, Verdict.SUPPORTED),
        (V17, apart, Verdict.UNSUPPORTED),  # another source's definition is not this one's
    ]:
        verdicts, _ = score_all([Claim("c1", claim)], spans, FakeEmbedder(), model)
        assert verdicts[0].verdict is expected, (model.name, spans, verdicts[0].edits)


def test_v17_reads_a_long_form_put_in_for_its_abbreviation_as_stated() -> None:
    claim = "Pyridostatin deregulates G2/M progression."
    window = prepare_evidence("S2", _USES, shared=abbreviation_keys(_DEFINES))
    for abbreviated, judgement in [
        (False, "unsupported: not in the evidence"),
        (True, "allowed: stated in the evidence (abbreviated)"),
    ]:
        alignment = align_edits(
            claim, window, changed_runs=2, run_share_min=0.65, mixups=True, abbreviated=abbreviated
        )
        result = judge_edits(alignment, [0.0] * len(alignment.questions), THRESHOLD)
        assert judgement in [e.judgement for e in result.edits], judgements(result)
    # a long form the window's abbreviation does not stand for is still new
    other = align_edits(
        "Olaparib deregulates G2/M progression.",
        window,
        changed_runs=2,
        run_share_min=0.65,
        mixups=True,
        abbreviated=True,
    )
    result = judge_edits(other, [0.0] * len(other.questions), THRESHOLD)
    assert result.outcome == "unsupported", judgements(result)


# v18: a word written together, with a hyphen or apart is the same word --------------------------
@pytest.mark.parametrize(
    ("claim", "evidence", "judged_before"),
    [
        (
            "Gefitinib improved progression-free survival in nonsmall cell lung cancer.",
            "Gefitinib improved progression-free survival in non-small cell lung cancer.",
            "unsupported: opposite term",
        ),
        (
            "Long-term use of antiinflammatory drugs lowered the rate of relapse.",
            "Long-term use of anti-inflammatory drugs lowered the rate of relapse.",
            "unsupported: opposite term",
        ),
        (
            "Non-alcoholic fatty liver disease was common in the cohort of older adults.",
            "Nonalcoholic fatty liver disease was common in the cohort of older adults.",
            "unsupported: opposite term",
        ),
        (
            "Postoperative delirium was common in elderly patients after hip surgery.",
            "Post-operative delirium was common in elderly patients after hip surgery.",
            None,
        ),
        (
            "Overexpression of the noncoding RNA extended the lifespan of the worms.",
            "Over-expression of the non-coding RNA extended the life-span of the worms.",
            None,
        ),
        (
            "Health care workers were screened weekly for infection in the study.",
            "Healthcare workers were screened weekly for infection in the study.",
            None,
        ),
    ],
    ids=["nonsmall", "antiinflammatory", "non-alcoholic", "postoperative", "three", "apart"],
)
def test_v18_reads_a_word_written_together_with_a_hyphen_or_apart_as_the_same(
    claim: str, evidence: str, judged_before: str | None
) -> None:
    before = mixed(claim, evidence, mixups=True, contractions=True)
    assert before.outcome != "none", judgements(before)
    if judged_before is not None:
        assert judged_before in [e.judgement for e in before.edits], judgements(before)
    after = mixed(claim, evidence, mixups=True, contractions=True, compounds=True)
    assert after.outcome == "none", judgements(after)
    assert "allowed: same words (written together or apart)" in [
        e.judgement for e in after.edits
    ], judgements(after)


def test_v18_reads_the_voice_of_a_copy_whose_last_word_is_written_together() -> None:
    """The window is read up to its last aligned word ("… detected by"), so the claim is too:
    "by coimmunoprecipitation" against "by co-immunoprecipitation" keeps the passive."""
    claim = "An interaction between NCC and IL18r was detected by coimmunoprecipitation."
    evidence = "An interaction between NCC and IL18r was detected by co-immunoprecipitation."
    after = mixed(claim, evidence, mixups=True, compounds=True)
    assert after.outcome == "none", judgements(after)
    # a passive turned active with the roles kept is still read as such
    swapped = mixed(
        "Macrophages were activated by interferon in the mice.",
        "Interferon activated macrophages in the mice.",
        mixups=True,
        compounds=True,
    )
    assert (
        swapped.outcome
        == mixed(
            "Macrophages were activated by interferon in the mice.",
            "Interferon activated macrophages in the mice.",
            mixups=True,
        ).outcome
    )


@pytest.mark.parametrize(
    ("claim", "evidence", "why"),
    [
        (
            "IL-8 levels were elevated in the synovial fluid of patients with gout.",
            "IL-6 levels were elevated in the synovial fluid of patients with gout.",
            "unsupported: different number",
        ),
        (
            "Patients received 510 mg of the drug daily for six months in the trial.",
            "Patients received 5-10 mg of the drug daily for six months in the trial.",
            "unsupported: different number",
        ),
        (
            "Gefitinib improved progression-free survival in small-cell lung cancer.",
            "Gefitinib improved progression-free survival in non-small-cell lung cancer.",
            None,
        ),
    ],
    ids=["another-name", "a-range-is-no-figure", "non-dropped"],
)
def test_v18_still_reads_another_word_in_a_word_written_another_way(
    claim: str, evidence: str, why: str | None
) -> None:
    result = mixed(claim, evidence, mixups=True, contractions=True, compounds=True)
    assert result.outcome != "none", judgements(result)
    if why is not None:
        assert why in [e.judgement for e in result.edits], judgements(result)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("non-small", "nonsmall", True),
        ("non small", "Non-small", True),
        ("IL-6", "IL6", True),
        ("(life-span)", "lifespan,", True),
        ("\u201cwell\u2011tolerated\u201d", "well tolerated", True),
        ("CD4+", "CD4-", False),
        ("5-10", "510", False),
        ("5 10", "510", False),
        ("IL-6", "IL-8", False),
        ("non-small", "small", False),
        ("twofold", "2-fold", True),
        ("two-fold", "twofold", True),
        ("threefold", "2-fold", False),
    ],
)
def test_written_together_leaves_out_only_what_joins_two_letters(
    a: str, b: str, same: bool
) -> None:
    one, other = prepare_text(a), prepare_text(b)
    together = written_together(one, range(len(one.tokens)))
    assert (together == written_together(other, range(len(other.tokens)))) is same


def test_v18_leaves_a_hyphened_prefix_that_negates_nothing_to_the_compression() -> None:
    claim = "Hospital mortality fell after the new protocol was introduced in the unit."
    evidence = "In-hospital mortality fell after the new protocol was introduced in the unit."
    result = mixed(claim, evidence, mixups=True, contractions=True, compounds=True)
    assert result.outcome == "none", judgements(result)


def test_v18_is_v17_with_compounds_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v18"] is V18 and V18.edit_compounds and not V17.edit_compounds
    assert replace(V18, name="v17", edit_compounds=False) == V17
    v17, _ = score_all(CLAIMS, SPANS, FakeEmbedder(), V17)
    v18, status = score_all(CLAIMS, SPANS, FakeEmbedder(), V18)
    assert status == "verified"
    assert [v.verdict for v in v18] == [v.verdict for v in v17]
    claim = "Gefitinib improved progression-free survival in nonsmall cell lung cancer."
    evidence = "Gefitinib improved progression-free survival in non-small cell lung cancer."
    assert _verdict(V17, claim, evidence) is Verdict.UNSUPPORTED
    assert _verdict(V18, claim, evidence) is Verdict.SUPPORTED


# v19: a sign is part of what it is written with -------------------------------------------------
@pytest.mark.parametrize(
    ("claim", "evidence", "judgement"),
    [
        (
            "CD4- T cells were depleted in the lymph nodes of infected macaques.",
            "CD4+ T cells were depleted in the lymph nodes of infected macaques.",
            ("substitution", "CD4-", "CD4+", "unsupported: different sign"),
        ),
        (
            "Atherosclerotic lesions were larger in Apoe+/+ mice fed a western diet.",
            "Atherosclerotic lesions were larger in Apoe\u2212/\u2212 mice fed a western diet.",
            ("substitution", "Apoe+/+", "Apoe\u2212/\u2212", "unsupported: different sign"),
        ),
        (
            "The mean change in systolic pressure was 2.3 mmHg in the walking group.",
            "The mean change in systolic pressure was \u22122.3 mmHg in the walking group.",
            ("substitution", "2.3", "\u22122.3", "unsupported: different number"),
        ),
    ],
    ids=["marker", "genotype", "minus-dropped"],
)
def test_v19_reads_a_sign_that_word_segmentation_drops(
    claim: str, evidence: str, judgement: tuple[str, str, str, str]
) -> None:
    assert _verdict(V18, claim, evidence) is Verdict.SUPPORTED
    verdicts, _ = score_all(
        [Claim("c1", claim)], [EvidenceSpan("S1", evidence)], FakeEmbedder(), V19
    )
    assert verdicts[0].verdict is Verdict.UNSUPPORTED
    edits = [(e.op, e.claim_text, e.evidence_text, e.judgement) for e in verdicts[0].edits]
    assert judgement in edits, edits


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # the same sign written with a hyphen-minus or the math minus
        (
            "Lesions were larger in Apoe-/- mice fed a western diet for 12 weeks.",
            "Lesions were larger in Apoe\u2212/\u2212 mice fed a western diet for 12 weeks.",
        ),
        (
            "Mean change was -2.3 mmHg (95% CI -3.1 to -1.5) in the walking group.",
            "Mean change was \u22122.3 mmHg (95% CI \u22123.1 to \u22121.5) in the walking group.",
        ),
        # a sign only one side writes, and a hyphen that joins a compound, are no sign changed
        (
            "CD4 T cells were depleted in the lymph nodes of infected macaques.",
            "CD4+ T cells were depleted in the lymph nodes of infected macaques.",
        ),
        (
            "Patients aged 60-64 years had the highest risk of fracture in the cohort.",
            "Patients aged 60-64 years had the highest risk of fracture in the cohort.",
        ),
    ],
    ids=["genotype-written-otherwise", "minus-written-otherwise", "sign-left-out", "range"],
)
def test_v19_reads_the_same_sign_written_another_way_as_the_same(claim: str, evidence: str) -> None:
    assert _verdict(V19, claim, evidence) is Verdict.SUPPORTED


@pytest.mark.parametrize(
    ("text", "markers"),
    [
        ("CD4+ and CD8\u2212 cells", {"cd4": "+", "cd8": "-"}),
        ("Apoe\u2212/\u2212 and Ldlr+/- mice", {"apoe": "-/-", "ldlr": "+/-"}),
        ("CD4- T cells (ER-)", {"cd4": "-", "er": "-"}),
        # a hyphen before a letter or a digit joins; a figure's "+" is a bound
        ("CD4-positive IL-6 and 10+ years", {}),
    ],
)
def test_marker_of_reads_the_sign_written_right_after_a_name(
    text: str, markers: dict[str, str]
) -> None:
    prepared = prepare_text(text, number_formats=True, signs=True)
    found = {t.text: m for t, m in zip(prepared.tokens, prepared.markers, strict=True) if m}
    assert found == markers


def test_v19_is_v18_with_signs_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v19"] is V19 and V19.signs and not V18.signs
    assert V19.fold_words and V19.edit_postposed_bounds and not V18.edit_postposed_bounds
    plain = replace(V19, name="v18", signs=False, fold_words=False, edit_postposed_bounds=False)
    assert plain == V18
    v18, _ = score_all(CLAIMS, SPANS, FakeEmbedder(), V18)
    v19, status = score_all(CLAIMS, SPANS, FakeEmbedder(), V19)
    assert status == "verified"
    assert [v.verdict for v in v19] == [v.verdict for v in v18]
    assert_one_rule_more(
        V19,
        V18,
        "Regulatory CD4- T cells suppressed the response in the 2019 trial.",
        "Regulatory CD4+ T cells suppressed the response in the 2019 trial.",
    )


@pytest.mark.parametrize(
    ("claim", "evidence", "before", "after"),
    [
        # the same bound written after the figure, as a sign or in words before it
        (
            "Falls were common in patients aged 65 years or older in the cohort.",
            "Falls were common in patients aged \u226565 years in the cohort.",
            "unsupported: bound dropped",
            "allowed: same bound",
        ),
        (
            "Falls were common in patients aged over 65 years in the cohort.",
            "Falls were common in patients aged 65 years or older in the cohort.",
            "unsupported: not in the evidence",
            "allowed: same bound",
        ),
        (
            "Women who took 5 or more tablets a day had fewer fractures.",
            "Women who took at least 5 tablets a day had fewer fractures.",
            "unsupported: bound dropped",
            "allowed: same bound",
        ),
        (
            "The trial enrolled outpatients with an ejection fraction of \u226435%.",
            "The trial enrolled outpatients with an ejection fraction of 35% or less.",
            "unsupported: different bound",
            None,
        ),
    ],
    ids=["sign", "words-before", "at-least", "sign-at-the-quote-s-end"],
)
def test_v19_reads_a_bound_written_after_its_figure_as_the_same_bound(
    claim: str, evidence: str, before: str, after: str | None
) -> None:
    old = mixed(claim, evidence, mixups=True, bounds=True, contractions=True, compounds=True)
    assert before in [e.judgement for e in old.edits], judgements(old)
    assert _verdict(V18, claim, evidence) is Verdict.UNSUPPORTED
    new, _ = score_all([Claim("c1", claim)], [EvidenceSpan("S1", evidence)], FakeEmbedder(), V19)
    assert new[0].verdict is Verdict.SUPPORTED, new[0].edits
    if after is not None:
        assert after in [e.judgement for e in new[0].edits]


@pytest.mark.parametrize(
    ("claim", "evidence", "judgement"),
    [
        (
            "Falls were common in patients aged 65 years in the cohort.",
            "Falls were common in patients aged 65 years or older in the cohort.",
            "unsupported: bound dropped",
        ),
        (
            "Women who took 5 tablets a day had fewer fractures than the others.",
            "Women who took 5 or more tablets a day had fewer fractures than the others.",
            "unsupported: bound dropped",
        ),
        (
            "Falls were common in patients aged 65 years or older in the cohort.",
            "Falls were common in patients aged <65 years in the cohort.",
            "unsupported: different bound",
        ),
        (
            "The trial enrolled outpatients with an ejection fraction of 35%.",
            "The trial enrolled outpatients with an ejection fraction of 35% or less.",
            "unsupported: bound dropped",
        ),
        (
            "Eligible patients were aged 18 years and had advanced melanoma.",
            "Eligible patients were aged 18 years and older and had advanced melanoma.",
            "unsupported: bound dropped",
        ),
    ],
    ids=["dropped", "dropped-before-a-noun", "other-side", "at-the-quote-s-end", "and-older"],
)
def test_v19_refuses_a_bound_written_after_its_figure_dropped_or_turned(
    claim: str, evidence: str, judgement: str
) -> None:
    verdicts, _ = score_all(
        [Claim("c1", claim)], [EvidenceSpan("S1", evidence)], FakeEmbedder(), V19
    )
    assert verdicts[0].verdict is Verdict.UNSUPPORTED
    assert judgement in [e.judgement for e in verdicts[0].edits], verdicts[0].edits


def test_v19_leaves_a_figure_and_another_figure_alone() -> None:
    text = "Falls were common in patients aged 65 and 70 years in the large cohort."
    assert _verdict(V19, text, text) is Verdict.SUPPORTED
    claim = "Falls were common in patients aged 65 years in the large cohort."
    assert _verdict(V19, claim, text) is _verdict(V18, claim, text)


def test_v19_reads_a_fold_in_words_as_its_figure() -> None:
    evidence = "Expression rose twofold in the treated cells after stimulation."
    claim = "Expression rose 2-fold in the treated cells after stimulation."
    assert _verdict(V18, claim, evidence) is Verdict.UNSUPPORTED  # the numeric gate: 2 absent
    assert _verdict(V19, claim, evidence) is Verdict.SUPPORTED
    other = "Expression rose threefold in the treated cells after stimulation."
    verdicts, _ = score_all([Claim("c1", other)], [EvidenceSpan("S1", claim)], FakeEmbedder(), V19)
    assert verdicts[0].verdict is Verdict.UNSUPPORTED and verdicts[0].numeric_gated


def test_v47_reads_a_cardinal_number_word_as_its_figure() -> None:
    evidence = "One hour after the dose, caffeine shortened reaction time by 25 milliseconds."
    claim = "Caffeine shortened reaction time by 25 milliseconds four hours after the dose."
    assert _verdict(V45, claim, evidence) is Verdict.SUPPORTED  # "four" was no figure
    verdicts, _ = score_all(
        [Claim("c1", claim)], [EvidenceSpan("S1", evidence)], FakeEmbedder(), V47
    )
    assert verdicts[0].verdict is Verdict.UNSUPPORTED and verdicts[0].numeric_gated
    # a figure the span writes in words is stated
    written = "Four hours after the dose, caffeine shortened reaction time by 25 milliseconds."
    digits = "Caffeine shortened reaction time by 25 milliseconds 4 hours after the dose."
    assert _verdict(V45, digits, written) is Verdict.UNSUPPORTED
    assert _verdict(V47, digits, written) is Verdict.SUPPORTED
    assert V48.supported_needs_copy and V48.number_words and not V46.number_words


# v20: a word's other forms are the word ---------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "The drug reduced tumour growth in mouse models of breast cancer.",
            "The drug reduced tumour growth in mice models of breast cancer.",
        ),
        (
            "Two analyses showed no effect of vitamin D on hip fractures.",
            "Two analysis showed no effect of vitamin D on hip fractures.",
        ),
        (
            "Lamin A lines the nuclei of fibroblasts from these patients.",
            "Lamin A lines the nucleus of fibroblasts from these patients.",
        ),
        (
            "G-CSF mobilizes HSPC through changes in the osteocytic network.",
            "G-CSF mobilizes HSPCs through changes in the osteocytic network.",
        ),
    ],
    ids=["mice", "analyses", "nuclei", "plural-abbreviation"],
)
def test_v20_reads_an_irregular_plural_or_a_plural_abbreviation_as_the_word(
    claim: str, evidence: str
) -> None:
    before, _ = score_all([Claim("c1", claim)], [EvidenceSpan("S1", evidence)], FakeEmbedder(), V19)
    after, _ = score_all([Claim("c1", claim)], [EvidenceSpan("S1", evidence)], FakeEmbedder(), V20)
    assert "allowed: morphology" not in [e.judgement for e in before[0].edits]
    assert [e.judgement for e in after[0].edits] == ["allowed: morphology"]
    assert after[0].verdict is Verdict.SUPPORTED


def test_v20_still_reads_another_word_as_another_word() -> None:
    claim = "Statin use lowered cholesterol in men with type 2 diabetes in the trial."
    evidence = "Statin use lowered cholesterol in women with type 2 diabetes in the trial."
    verdicts, _ = score_all(
        [Claim("c1", claim)], [EvidenceSpan("S1", evidence)], FakeEmbedder(), V20
    )
    assert verdicts[0].verdict is not Verdict.SUPPORTED
    assert "allowed: morphology" not in [e.judgement for e in verdicts[0].edits]


# --- v31: words taken from an opposed clause are no words reordered -----------------------------
_OPPOSED = (
    "Blood group A was associated with a higher risk of infection, whereas blood group O was "
    "associated with a lower risk of infection."
)


def _clauses(claim: str, evidence: str, clause_mixups: bool) -> list[tuple[str, str, str, str]]:
    alignment = align_edits(
        claim, evidence, mixups=True, reorders=True, clause_mixups=clause_mixups
    )
    return judgements(judge_edits(alignment, [0.0] * len(alignment.questions), THRESHOLD))


def test_a_subject_taken_from_the_opposed_clause_changes_the_finding() -> None:
    claim = "Blood group O was associated with a higher risk of infection."
    before = _clauses(claim, _OPPOSED, clause_mixups=False)
    assert ("transposition", "O", "O", "allowed: words reordered") in before
    after = _clauses(claim, _OPPOSED, clause_mixups=True)
    assert ("transposition", "O", "O", "unsupported: words from another clause") in after
    # each clause's own finding is still a faithful shortened copy
    for kept in ("Blood group A was associated with a higher risk of infection.",
                 "Blood group O was associated with a lower risk of infection."):  # fmt: skip
        assert all(j.startswith("allowed") for *_, j in _clauses(kept, _OPPOSED, True))


def test_a_block_moved_within_its_clause_or_between_agreeing_clauses_is_reordered() -> None:
    within = _clauses("In mice, tumour growth slowed.",
                      "Tumour growth slowed in mice, whereas it rose in rats.", True)  # fmt: skip
    assert ("transposition", "mice", "mice", "allowed: words reordered") in within
    agreeing = _clauses("In mice, tumour growth slowed.",
                        "Tumour growth slowed; this was seen in mice.", True)  # fmt: skip
    assert ("transposition", "mice", "mice", "allowed: words reordered") in agreeing


def test_v31_is_v29_with_clause_mixups_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v31"] is V31 and V31.edit_clause_mixups and not V29.edit_clause_mixups
    assert replace(V31, name="v29", edit_clause_mixups=False) == V29
    claim = "In the trial, sitagliptin increased insulin sensitivity."
    evidence = (
        "In the trial, metformin increased insulin sensitivity; sitagliptin decreased insulin "
        "sensitivity."
    )
    assert_one_rule_more(V31, V29, claim, evidence)


# --- v33: what a deletion carries on to the words it joins ---------------------------------------
def _verdicts(model: ScoreModel, claim: str, evidence: str) -> tuple[str, list[str]]:
    v = score_all([Claim("c1", claim)], [EvidenceSpan("S1", evidence)], FakeEmbedder(), model)
    verdict = v[0][0]
    return verdict.verdict.value, [e.judgement for e in verdict.edits if e.status != "allowed"]


@pytest.mark.parametrize(
    ("claim", "evidence", "why"),
    [
        (
            "The cohort included adults between the ages of 18 years and older from four "
            "countries.",
            "The cohort included adults between the ages of 18 years and 65 years and older "
            "from four countries.",
            "unsupported: bound carried on",
        ),
        (
            "Insulin doses were similar in the first year of follow-up.",
            "Insulin doses were similar in the first year versus the second year of follow-up.",
            "unsupported: comparison dropped",
        ),
        (
            "In the model, all patients received the vaccine within two days.",
            "In the model, mortality fell by a third if all patients received the vaccine "
            "within two days.",
            "unsupported: not asserted by the window",
        ),
        (
            "All patients received the vaccine within two days.",
            "Mortality fell by a third if all patients received the vaccine within two days.",
            "unsupported: not asserted by the window",
        ),
        (
            "Mean systolic pressure of 120 mm Hg was recorded at the first visit.",
            "Mean systolic pressure of 135 mm Hg and diastolic pressure of 120 mm Hg was "
            "recorded at the first visit.",
            "unsupported: different number",
        ),
        (
            "The tax reduced obesity prevalence by 1.5% among adults.",
            "The tax reduced obesity prevalence by 3.2% (95% CI 1.5%-4.4%) and diabetes "
            "incidence by 1.5% among adults.",
            "unsupported: different number",
        ),
    ],
    ids=[
        "bound-carried",
        "comparison-dropped",
        "conditional",
        "conditional-edge",
        "repeated-frame",
        "bracketed-figure",
    ],
)
def test_v33_reads_what_a_deletion_carries_on(claim: str, evidence: str, why: str) -> None:
    assert _verdicts(V32, claim, evidence) == ("supported", [])
    verdict, refused = _verdicts(V33, claim, evidence)
    assert verdict == "unsupported" and why in refused


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "The cohort included adults aged 65 years and older from four countries.",
            "The cohort included adults aged 65 years and older from four countries, and "
            "their carers.",
        ),
        (
            "Insulin doses fell in the first year of follow-up.",
            "Insulin doses fell in the first year versus the second year of follow-up.",
        ),
        (
            "In the model, mortality fell by a third.",
            "In the model, mortality fell by a third if all patients received the vaccine "
            "within two days.",
        ),
        (
            "The tax reduced obesity prevalence by 3.2% among adults.",
            "The tax reduced obesity prevalence by 3.2% (95% CI 1.5%-4.4%) among adults.",
        ),
        (
            "The hazard ratio for statin use for months 7 to 12 was 0.81 (0.70 to 0.95).",
            "The hazard ratio for statin use for months 0 to 6 after discharge was 1.20 (1.01 "
            "to 1.43) and for months 7 to 12 was 0.81 (0.70 to 0.95).",
        ),
        (
            "Ages were similar, but the treated patients smoked more often in the first year.",
            "Ages were similar, but the treated patients smoked more often compared to the "
            "untreated patients in the first year.",
        ),
        (
            "Heart rate did not differ between the two arms (72 bpm) at week 4.",
            "Heart rate did not differ between the two arms (72 bpm versus 74 bpm) at week 4.",
        ),
    ],
    ids=[
        "own-bound",
        "no-sameness-word",
        "main-clause",
        "figure-of-its-own",
        "shared-frame",
        "sameness-in-another-clause",
        "both-sides-stated",
    ],
)
def test_v33_keeps_a_faithful_compression(claim: str, evidence: str) -> None:
    assert _verdicts(V33, claim, evidence) == ("supported", [])


def test_v33_is_v32_with_carried_details_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v33"] is V33 and V33.edit_carried_details
    assert not V32.edit_carried_details
    assert replace(V33, name="v32", edit_carried_details=False) == V32
    assert_one_rule_more(
        V33,
        V32,
        "Insulin doses were similar in the first year of follow-up.",
        "Insulin doses were similar in the first year versus the second year of follow-up.",
    )


# --- v35: a dropped word of extent ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("claim", "evidence", "why"),
    [
        (
            "Cardiac fibrosis is mediated by matrix-depositing fibroblasts in the heart.",
            "Cardiac fibrosis is mediated partly by matrix-depositing fibroblasts in the heart.",
            "unsupported: extent dropped",
        ),
        (
            "The drug rescued the motor phenotype of the knockout mice.",
            "The drug partially rescued the motor phenotype of the knockout mice.",
            "unsupported: extent dropped",
        ),
        (
            "Aspirin gave a significant reduction in stroke among the older patients.",
            "Aspirin gave a marginally significant reduction in stroke among the older patients.",
            "unsupported: extent dropped",
        ),
        (
            "Bone alkaline phosphatase showed correlation with the risk of fractures.",
            "Bone alkaline phosphatase showed some correlation with the risk of fractures.",
            "unsupported: part stated as the whole",
        ),
        (
            "The treatment induced remission in patients with refractory disease.",
            "The treatment induced remission in a minority of patients with refractory disease.",
            "unsupported: part stated as the whole",
        ),
        # A quote that leaves the word off right before it.
        (
            "Patients with refractory disease responded to the second course of treatment.",
            "Some patients with refractory disease responded to the second course of treatment.",
            "unsupported: part stated as the whole",
        ),
        (
            "Effective vaccines were combined in the trial of the new schedule.",
            "Partially effective vaccines were combined in the trial of the new schedule.",
            "unsupported: extent dropped",
        ),
        # What held largely, or some of the time, stated of the whole.
        (
            "The molecular mechanisms by which the enzyme increases longevity are unknown.",
            "The molecular mechanisms by which the enzyme increases longevity are largely unknown.",
            "unsupported: extent dropped",
        ),
        (
            "Health promotion programmes are offered to prisoners in the region studied.",
            "Health promotion programmes are seldom offered to prisoners in the region studied.",
            "unsupported: part stated as the whole",
        ),
        # A trend, or a finding that was not significant, stated as a finding.
        (
            "Aspirin showed lower mortality among the older patients of the trial.",
            "Aspirin showed a trend towards lower mortality among the older patients of the trial.",
            "unsupported: extent dropped",
        ),
        (
            "Aspirin produced a reduction in stroke among the older patients of the trial.",
            "Aspirin produced a non-significant reduction in stroke among the older patients of "
            "the trial.",
            "unsupported: extent dropped",
        ),
        (
            "Aspirin lowered mortality among the older patients of the trial.",
            "Aspirin lowered mortality, although not significantly, among the older patients of "
            "the trial.",
            "unsupported: caveat dropped",
        ),
    ],
    ids=[
        "partly",
        "partially",
        "marginally",
        "some",
        "minority",
        "some-edge",
        "partially-edge",
        "largely",
        "seldom",
        "trend",
        "non-significant",
        "concession",
    ],
)
def test_v35_reads_a_dropped_word_of_extent(claim: str, evidence: str, why: str) -> None:
    assert _verdicts(V34, claim, evidence) == ("supported", [])
    verdict, refused = _verdicts(V35, claim, evidence)
    assert verdict == "unsupported" and why in refused


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # A word of size alone: the claim says what the window says, less exactly.
        (
            "Patient satisfaction decreased between one and two years in both groups.",
            "Patient satisfaction decreased slightly between one and two years in both groups.",
        ),
        # An approximate count is no part of what the finding speaks of.
        (
            "The trial enrolled 30 patients with refractory disease at four centres.",
            "The trial enrolled some 30 patients with refractory disease at four centres.",
        ),
        # A dropped clause of its own.
        (
            "The drug rescued the motor phenotype of the knockout mice.",
            "The drug rescued the motor phenotype of the knockout mice, which some strains lack.",
        ),
        # A word of extent before the quote that qualifies another phrase.
        (
            "Patients with refractory disease gained weight over the second course.",
            "Treatment was partially effective and patients with refractory disease gained "
            "weight over the second course.",
        ),
        # "Significantly" dropped: the claim says less, not more.
        (
            "Aspirin lowered mortality among the older patients of the trial.",
            "Aspirin significantly lowered mortality among the older patients of the trial.",
        ),
        # A dropped clause about another thing's significance.
        (
            "Aspirin lowered mortality among the older patients.",
            "Aspirin lowered mortality among the older patients, whereas statins did not "
            "significantly change it.",
        ),
    ],
    ids=["slightly", "some-figure", "clause", "another-phrase", "significantly", "other-thing"],
)
def test_v35_keeps_a_faithful_compression(claim: str, evidence: str) -> None:
    assert _verdicts(V35, claim, evidence) == ("supported", [])


def test_v35_is_v34_with_extent_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v35"] is V35 and V35.edit_extent and not V34.edit_extent
    assert replace(V35, name="v34", edit_extent=False) == V34
    assert_one_rule_more(
        V35,
        V34,
        "The drug rescued the motor phenotype of the knockout mice.",
        "The drug partially rescued the motor phenotype of the knockout mice.",
    )


# --- v36: what the window only supposes -----------------------------------------------------------
def _assert_v36_refuses(claim: str, evidence: str, why: str) -> None:
    """v35 supports the copy; v36 refuses it, naming ``why``."""
    assert _verdicts(V35, claim, evidence) == ("supported", [])
    verdict, refused = _verdicts(V36, claim, evidence)
    assert verdict == "unsupported" and why in refused


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Vitamin D supplementation reduces the risk of respiratory infections in children.",
            "It has been proposed that vitamin D supplementation reduces the risk of respiratory "
            "infections in children.",
        ),
        (
            "Vitamin D supplementation reduces the risk of respiratory infections in children.",
            "It has been widely suggested that vitamin D supplementation reduces the risk of "
            "respiratory infections in children.",
        ),
        (
            "Statin therapy lowers the incidence of dementia in older adults.",
            "We predicted that statin therapy lowers the incidence of dementia in older adults.",
        ),
        (
            "Microglia solely function in disease states in the central nervous system.",
            "Recent findings challenge the concept that microglia solely function in disease "
            "states in the central nervous system.",
        ),
        (
            "Vitamin D supplementation reduces the risk of respiratory infections in children.",
            "Vitamin D supplementation is thought to reduce the risk of respiratory infections in "
            "children.",
        ),
        (
            "Haematopoietic stem cells reside within a specialized microenvironment in the bone "
            "marrow.",
            "Haematopoietic stem cells are commonly assumed to reside within a specialized "
            "microenvironment in the bone marrow.",
        ),
        (
            "The new regimen reduced relapse in the second year of treatment.",
            "The new regimen was expected to reduce relapse in the second year of treatment.",
        ),
        (
            "Statin therapy prevents dementia in older adults with high cholesterol.",
            "Statin therapy is unlikely to prevent dementia in older adults with high cholesterol.",
        ),
        (
            "Vitamin D supplementation reduces the risk of respiratory infections in children.",
            "It is doubtful that vitamin D supplementation reduces the risk of respiratory "
            "infections in children.",
        ),
        (
            "The school programme reduces obesity among children in deprived areas.",
            "The school programme aims to reduce obesity among children in deprived areas.",
        ),
        (
            "The vaccine elicits broadly neutralizing antibodies against all known strains.",
            "The vaccine was designed to elicit broadly neutralizing antibodies against all known "
            "strains.",
        ),
        (
            "A single dose reduces viral load in patients with chronic hepatitis B.",
            "A single dose was insufficient to reduce viral load in patients with chronic "
            "hepatitis B.",
        ),
    ],
    ids=[
        "proposed-that",
        "passive-suggested",
        "we-predicted",
        "concept",
        "thought-to",
        "adverb-assumed-to",
        "expected-to",
        "unlikely-to",
        "doubtful-that",
        "aims-to",
        "designed-to",
        "insufficient-to",
    ],
)
def test_v36_reads_a_supposition_stated_as_a_finding(claim: str, evidence: str) -> None:
    _assert_v36_refuses(claim, evidence, "unsupported: not asserted by the window")


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "This compound inhibits tumour growth in patients with colorectal cancer.",
            "This compound has the potential to inhibit tumour growth in patients with "
            "colorectal cancer.",
        ),
        (
            "Annual screening reduces mortality from colorectal cancer in older adults.",
            "Annual screening would reduce mortality from colorectal cancer in older adults.",
        ),
        (
            "Clinicians screen all pregnant women for hepatitis C at the first visit.",
            "Clinicians should screen all pregnant women for hepatitis C at the first visit.",
        ),
        (
            "Annual screening reduces mortality from colorectal cancer in older adults.",
            "Annual screening in theory reduces mortality from colorectal cancer in older adults.",
        ),
        (
            "Annual screening reduces mortality from colorectal cancer in older adults.",
            "Annual screening theoretically reduces mortality from colorectal cancer in older "
            "adults.",
        ),
    ],
    ids=["potential", "would", "should", "in-theory", "theoretically"],
)
def test_v36_reads_more_hedges_dropped(claim: str, evidence: str) -> None:
    _assert_v36_refuses(claim, evidence, "unsupported: hedge dropped")


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # What the authors found, or conclude from their data, is asserted.
        (
            "Vitamin D supplementation reduces the risk of respiratory infections in children.",
            "Our results suggest that vitamin D supplementation reduces the risk of respiratory "
            "infections in children.",
        ),
        (
            "Vitamin D supplementation reduces the risk of respiratory infections in children.",
            "We found that vitamin D supplementation reduces the risk of respiratory infections "
            "in children.",
        ),
        (
            "Vitamin D supplementation reduces the risk of respiratory infections in children.",
            "Vitamin D supplementation was shown to reduce the risk of respiratory infections in "
            "children.",
        ),
        # A frame that data back: asserted (v14's backing words and v36's).
        (
            "Vitamin D supplementation reduces the risk of respiratory infections in children.",
            "These data are in agreement with the prediction that vitamin D supplementation "
            "reduces the risk of respiratory infections in children.",
        ),
        # "suggested" in the active voice of the authors' results.
        (
            "Vitamin D supplementation reduces the risk of respiratory infections in children.",
            "The trial suggested that vitamin D supplementation reduces the risk of respiratory "
            "infections in children.",
        ),
        # A supposing word that is no passive before "to".
        (
            "Patients received the drug for two years.",
            "As expected, patients received the drug for two years.",
        ),
        # What the subject could do, or did: asserted.
        (
            "Vitamin D supplementation reduced the risk of respiratory infections in children.",
            "Vitamin D supplementation was able to reduce the risk of respiratory infections in "
            "children.",
        ),
        (
            "Vitamin D supplementation reduces the risk of respiratory infections in children.",
            "Vitamin D supplementation can reduce the risk of respiratory infections in children.",
        ),
        # The claim keeps its own aim: nothing is stated as done.
        (
            "The programme aims to reduce obesity among children.",
            "The school programme aims to reduce obesity among children in deprived areas.",
        ),
        # Enough to do it: asserted; a theory the finding agrees with is no hedge.
        (
            "A single dose reduced viral load in patients with chronic hepatitis B.",
            "A single dose was sufficient to reduce viral load in patients with chronic "
            "hepatitis B.",
        ),
        (
            "Vitamin D supplementation reduces the risk of respiratory infections in children.",
            "Consistent with the theory, vitamin D supplementation reduces the risk of "
            "respiratory infections in children.",
        ),
        # The claim keeps a hedge of its own in the same stretch.
        (
            "Annual screening may reduce mortality from colorectal cancer in older adults.",
            "Annual screening would reduce mortality from colorectal cancer in older adults.",
        ),
    ],
    ids=[
        "suggest",
        "found",
        "shown-to",
        "backed",
        "active-suggested",
        "as-expected",
        "able-to",
        "can",
        "aim-kept",
        "sufficient-to",
        "theory-agreed",
        "hedge-kept",
    ],
)
def test_v36_keeps_what_the_window_asserts(claim: str, evidence: str) -> None:
    assert _verdicts(V36, claim, evidence) == ("supported", [])


def test_v36_is_v35_with_suppositions_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v36"] is V36 and V36.edit_suppositions and not V35.edit_suppositions
    assert replace(V36, name="v35", edit_suppositions=False) == V35
    assert_one_rule_more(
        V36,
        V35,
        "Vitamin D supplementation reduces the risk of respiratory infections in children.",
        "Vitamin D supplementation is thought to reduce the risk of respiratory infections in "
        "children.",
    )


# --- v37: what says the finding was not significant ---------------------------------------------
BP_CAVEAT = (
    "The exercise group had lower blood pressure at 12 weeks, but the difference was not "
    "statistically significant (P = 0.21)."
)


def _assert_v37_refuses(claim: str, evidence: str, verdict: str, why: str) -> None:
    """v36 supports the copy; v37 refuses it with ``verdict``, naming ``why``."""
    assert _verdicts(V36, claim, evidence) == ("supported", [])
    said, refused = _verdicts(V37, claim, evidence)
    assert said == verdict and why in refused


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "The exercise group had lower blood pressure at 12 weeks.",
            "Although the exercise group had lower blood pressure at 12 weeks, the difference "
            "did not reach statistical significance.",
        ),
        (
            "Mortality was lower in the treatment group.",
            "Mortality was lower in the treatment group (12% vs 15%), although this difference "
            "was not significant.",
        ),
        (
            "Mortality was lower in the treatment group (12% vs 15%).",
            "Mortality was lower in the treatment group (12% vs 15%), although this difference "
            "was not significant.",
        ),
        (
            "Mortality was lower in the treatment group.",
            "Mortality was lower in the treatment group; this difference was not significant.",
        ),
        (
            "Mortality was lower in the treatment group.",
            "Mortality was lower in the treatment group (12% vs 15%). This difference was not "
            "statistically significant.",
        ),
        (
            "Mortality was lower in the treatment group.",
            "Mortality was lower in the treatment group, but this difference failed to reach "
            "statistical significance.",
        ),
    ],
    ids=["conceding-clause", "past-an-aside", "out-of-an-aside", "this-difference",
         "next-sentence", "failed-to-reach"],
)  # fmt: skip
def test_v37_reads_a_caveat_of_non_significance(claim: str, evidence: str) -> None:
    _assert_v37_refuses(claim, evidence, "unsupported", "unsupported: caveat dropped")


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The exercise group had significantly lower blood pressure at 12 weeks.", BP_CAVEAT),
        (
            "The exercise group had significantly lower blood pressure at 12 weeks.",
            "Although the exercise group had lower blood pressure at 12 weeks, the difference "
            "did not reach statistical significance.",
        ),
        (
            "Mortality was significantly lower in the treatment group.",
            "Mortality was lower in the treatment group (12% vs 15%). This difference was not "
            "statistically significant.",
        ),
    ],
    ids=["moved-from-a-denial", "conceding-clause", "inserted-next-sentence"],
)
def test_v37_contradicts_a_significance_the_window_denies(claim: str, evidence: str) -> None:
    _assert_v37_refuses(claim, evidence, "contradicted", "contradicted: significance reversed")


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # The clause speaks of another thing.
        (
            "Mortality was lower in the treatment group.",
            "Mortality was lower in the treatment group, whereas the control group did not "
            "change significantly.",
        ),
        (
            "Mortality was lower in the treatment group.",
            "Mortality was lower in the treatment group. The difference in stroke rates was not "
            "significant.",
        ),
        # The conceding clause is taken back by something other than significance.
        (
            "Mortality was lower in the treatment group.",
            "Although mortality was lower in the treatment group, stroke rates were higher.",
        ),
        # The claim says it was not significant itself.
        (
            "Mortality was lower in the treatment group, but not significantly.",
            "Mortality was lower in the treatment group, although this difference was not "
            "significant.",
        ),
        # A significance the window states of the finding, beside one it denies of another.
        (
            "Drug X significantly reduced relapse in the trial.",
            "Drug X reduced relapse in the trial (P < 0.001). Weight was not significantly "
            "changed.",
        ),
        # A next sentence of one concession word and nothing after it: no clause to read.
        (
            "Mortality was lower in the treatment group.",
            "Mortality was lower in the treatment group. However",
        ),
    ],
    ids=["whereas-another", "next-sentence-another", "conceded-otherwise", "claim-denies-too",
         "significant-elsewhere", "a-lone-however-ends-the-text"],
)  # fmt: skip
def test_v37_keeps_what_is_not_a_caveat_of_its_finding(claim: str, evidence: str) -> None:
    assert _verdicts(V37, claim, evidence)[0] == "supported"


@pytest.mark.parametrize(
    ("claim", "evidence", "why"),
    [
        (
            "Drug X reduced relapse.",
            "Drug X reduced relapse in the per-protocol analysis but not in the "
            "intention-to-treat analysis.",
            "unsupported: restriction dropped",
        ),
        (
            "Drug X reduced relapse.",
            "Drug X reduced relapse at 6 months, but not at 12 months.",
            "unsupported: restriction dropped",
        ),
        (
            "Drug X reduces relapse in older patients.",
            "Low-certainty evidence suggests that drug X reduces relapse in older patients.",
            "unsupported: not asserted by the window",
        ),
        (
            "Drug X reduces relapse in older patients.",
            "There is limited evidence that drug X reduces relapse in older patients.",
            "unsupported: not asserted by the window",
        ),
        (
            "Drug X reduced relapse in older patients.",
            "Drug X numerically reduced relapse in older patients.",
            "unsupported: extent dropped",
        ),
        (
            "Drug X reduced relapse.",
            "Drug X reduced relapse compared with no treatment but not compared with placebo.",
            "unsupported: restriction dropped",
        ),
        (
            "Glucagon increased hepatic glucose output in the fasted dogs.",
            "Glucagon transiently increased hepatic glucose output in the fasted dogs.",
            "unsupported: duration dropped",
        ),
        (
            "Drug X caused an increase in insulin secretion in healthy volunteers.",
            "Drug X caused a transient increase in insulin secretion in healthy volunteers.",
            "unsupported: duration dropped",
        ),
        (
            "Drug X reduces deaths from heart disease by 2030.",
            "Drug X is projected to reduce deaths from heart disease by 2030.",
            "unsupported: not asserted by the window",
        ),
        (
            "Drug X reduced relapse.",
            "Drug X reduced relapse only in patients with a high viral load.",
            "unsupported: restriction dropped",
        ),
        (
            "Drug X reduced relapse.",
            "Drug X reduced relapse, although the effect was attenuated after adjustment for age.",
            "unsupported: caveat dropped",
        ),
        (
            "Drug X was associated with lower mortality.",
            "Drug X was associated with lower mortality; however, this association was not "
            "robust to adjustment for smoking.",
            "unsupported: caveat dropped",
        ),
    ],
    ids=["contrasted-analysis", "contrasted-time", "low-certainty", "limited-evidence",
         "numerically", "contrasted-comparator", "transiently", "a-transient", "projected-to",
         "only-in", "attenuated", "not-robust"],
)  # fmt: skip
def test_v37_reads_other_caveats_of_the_finding(claim: str, evidence: str, why: str) -> None:
    _assert_v37_refuses(claim, evidence, "unsupported", why)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # The claim keeps the qualifier the contrast limits it to.
        (
            "Drug X reduced relapse in the per-protocol analysis.",
            "Drug X reduced relapse in the per-protocol analysis but not in the "
            "intention-to-treat analysis.",
        ),
        # The contrast is of another outcome, not of a qualifier of this one.
        (
            "Drug X reduced relapse.",
            "Drug X reduced relapse and mortality but not hospital admissions.",
        ),
        # Strong evidence asserts what it is evidence for.
        (
            "Drug X reduces relapse in older patients.",
            "Strong evidence suggests that drug X reduces relapse in older patients.",
        ),
        # The claim keeps the duration, or the projection.
        (
            "Glucagon transiently increased hepatic glucose output.",
            "Glucagon transiently increased hepatic glucose output in the fasted dogs.",
        ),
        (
            "Drug X is projected to reduce deaths from heart disease.",
            "Drug X is projected to reduce deaths from heart disease by 2030.",
        ),
        (
            "Drug X reduced relapse only in patients with a high viral load.",
            "Drug X reduced relapse only in patients with a high viral load.",
        ),
        # "only" of size, not of a condition.
        ("Drug X reduced relapse.", "Drug X reduced relapse only modestly."),
        # Taken back at another time, which the claim keeps apart.
        (
            "Drug X reduced relapse at 6 months.",
            "Drug X reduced relapse at 6 months. This effect disappeared at 12 months.",
        ),
        (
            "Drug X reduced relapse.",
            "Drug X reduced relapse, whereas the benefit of drug Y disappeared after adjustment.",
        ),
    ],
    ids=[
        "qualifier-kept",
        "another-outcome",
        "strong-evidence",
        "duration-kept",
        "projection-kept",
        "only-kept",
        "only-a-size",
        "another-time",
        "whereas-another",
    ],
)
def test_v37_keeps_what_no_caveat_limits(claim: str, evidence: str) -> None:
    assert _verdicts(V37, claim, evidence)[0] == "supported"


def test_v37_is_v36_with_caveats_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v37"] is V37 and V37.edit_caveats and not V36.edit_caveats
    assert replace(V37, name="v36", edit_caveats=False) == V36
    assert_one_rule_more(
        V37,
        V36,
        "Mortality was lower in the treatment group.",
        "Mortality was lower in the treatment group; this difference was not significant.",
    )


# --- v38: an association stated as an effect, near copy or not -----------------------------------
@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Dexamethasone increases the risk of postoperative bleeding in children.",
            "Dexamethasone use was associated with postoperative bleeding in children.",
        ),
        (
            "Short sleep raises evening cortisol in adolescents.",
            "In adolescents, evening cortisol was linked with short sleep.",
        ),
    ],
    ids=["increases", "raises"],
)
def test_v38_reads_an_effect_claimed_on_an_association(claim: str, evidence: str) -> None:
    assert _verdicts(V37, claim, evidence) == ("supported", [])
    assert _verdicts(V38, claim, evidence) == (
        "unsupported",
        ["unsupported: association stated as an effect"],
    )


def test_v38_names_the_effect_and_the_association_it_stands_for() -> None:
    claim = "Dexamethasone increases the risk of postoperative bleeding in children."
    evidence = "Dexamethasone use was associated with postoperative bleeding in children."
    v = score_all([Claim("c1", claim)], [EvidenceSpan("S1", evidence)], FakeEmbedder(), V38)[0][0]
    (edit,) = v.edits
    assert (edit.op, edit.claim_text, edit.evidence_text) == (
        "substitution",
        "increases",
        "associated",
    )
    assert claim[edit.claim_start : edit.claim_end] == "increases"
    assert evidence[edit.evidence_start : edit.evidence_end] == "associated"
    assert v.score == V38.gate_cap


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # The claim states the association itself.
        (
            "Dexamethasone use is associated with postoperative bleeding in children.",
            "Dexamethasone use was associated with postoperative bleeding in children.",
        ),
        # The window states the effect.
        (
            "Dexamethasone increases the risk of postoperative bleeding in children.",
            "Dexamethasone increased postoperative bleeding in children.",
        ),
        # The window writes an effect word with its association: read as stating it.
        (
            "Coffee intake lowers the risk of type 2 diabetes in women.",
            "Higher coffee intake was associated with a lower risk of type 2 diabetes in women.",
        ),
    ],
    ids=["association-kept", "effect-stated", "effect-word-in-window"],
)
def test_v38_keeps_what_states_no_effect_on_an_association(claim: str, evidence: str) -> None:
    assert _verdicts(V38, claim, evidence)[0] == _verdicts(V37, claim, evidence)[0]


def test_v38_is_v37_with_association_effects_and_changes_nothing_else_here() -> None:
    assert SCORE_MODELS["v38"] is V38 and V38.association_effects
    assert not V37.association_effects
    assert replace(V38, name="v37", association_effects=False) == V37
    assert_one_rule_more(
        V38,
        V37,
        "Dexamethasone increases the risk of postoperative bleeding in children.",
        "Dexamethasone use was associated with postoperative bleeding in children.",
    )


def _assert_one_reading_replays(
    model: ScoreModel, claim: str, evidence: str, judgement: str, record: bool
) -> None:
    """A trace whose one claim ``model`` refused with the edit ``judgement`` replays exactly
    (embeddings recorded or re-embedded), and fails replay once its verdict is the previous
    model's `supported`."""
    claims = [Claim("c1", claim)]
    spans = [EvidenceSpan("S1", evidence)]
    embedder = FakeEmbedder()
    scorer = RecordingEmbedder(embedder) if record else embedder
    verdicts, status = score_all(claims, spans, scorer, model)
    assert [e.judgement for e in verdicts[0].edits] == [judgement]
    plan = [{"marker": s.id, "id": s.id, "text": s.text, "truth_class": True} for s in spans]
    trace = Trace(
        kind="verification",
        request={},
        plan=plan,
        plan_hash=plan_hash(plan),
        prompt_hash="",
        models={"embed": embedder.model_id, "score_model": model.name, "decompose": "given"},
        draft="",
        claims=[v.to_dict() for v in verdicts],
        verification=status,
        delivered=None,
        embeddings=trace_embeddings(claims, spans, scorer, model),
    )
    assert replay(trace).ok
    trace.claims[0]["verdict"] = "supported"  # as the previous model would have said
    assert not replay(trace).ok


@pytest.mark.parametrize("record", [True, False], ids=["recorded", "re-embedded"])
def test_a_v38_trace_with_an_association_read_as_an_effect_replays_exactly(record: bool) -> None:
    _assert_one_reading_replays(
        V38,
        "Short sleep raises evening cortisol in adolescents.",
        "In adolescents, evening cortisol was linked with short sleep.",
        "unsupported: association stated as an effect",
        record,
    )


# --- v39: a direction read with the thing it acts on ---------------------------------------------
POLYMEAL_CLAIM = (
    "In the general population, the Polymeal is an effective alternative that increases "
    "cardiovascular morbidity."
)
POLYMEAL_WINDOW = (
    "The Polymeal promises to be an effective, safe and cheap alternative to reduce "
    "cardiovascular morbidity and increase life expectancy in the general population."
)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (POLYMEAL_CLAIM, POLYMEAL_WINDOW),
        (
            "V-9302 inhibits antitumor responses by decreasing cell death and oxidative stress.",
            "Pharmacological blockade of ASCT2 with V-9302 resulted in attenuated cancer cell "
            "growth and proliferation, increased cell death, and increased oxidative stress, "
            "which collectively contributed to antitumor responses in vitro and in vivo.",
        ),
    ],
    ids=["polymeal", "v9302"],
)
def test_v39_contradicts_the_opposite_direction_of_the_same_thing(
    claim: str, evidence: str
) -> None:
    assert _verdicts(V38, claim, evidence) == ("supported", [])
    assert _verdicts(V39, claim, evidence) == ("contradicted", ["contradicted: direction flip"])


def test_v39_names_the_claims_direction_word_and_the_windows_opposite() -> None:
    v = score_all(
        [Claim("c1", POLYMEAL_CLAIM)], [EvidenceSpan("S1", POLYMEAL_WINDOW)], FakeEmbedder(), V39
    )[0][0]
    (edit,) = v.edits
    assert (edit.op, edit.claim_text, edit.evidence_text) == ("substitution", "increases", "reduce")
    assert POLYMEAL_WINDOW[edit.evidence_start : edit.evidence_end] == "reduce"
    assert v.score == V39.gate_cap


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # The window states the claim's direction of the same thing too.
        (
            "Polymeal nutrition reduces cardiovascular morbidity.",
            "The Polymeal is an alternative to reduce cardiovascular morbidity and increase "
            "life expectancy in the general population.",
        ),
        # An inverting word on one side only: loss of X lowering Y agrees with X raising Y.
        (
            "Loss of RIM1 decreases IME1 expression in yeast cells.",
            "These findings suggest that RIM1 acts in yeast cells to stimulate IME1 expression.",
        ),
        # The window's opposite word is negated.
        (
            "Exercise training increases insulin sensitivity in older adults.",
            "In older adults, exercise training did not reduce insulin sensitivity.",
        ),
        # Different things: the risk of one outcome raised, of another lowered.
        (
            "Statin therapy increases the risk of diabetes in older adults.",
            "In older adults, statin therapy reduced the risk of stroke and raised muscle pain.",
        ),
    ],
    ids=["direction-also-stated", "inverted", "negated", "other-thing"],
)
def test_v39_keeps_what_does_not_reverse_the_claims_thing(claim: str, evidence: str) -> None:
    assert _verdicts(V39, claim, evidence)[0] == _verdicts(V38, claim, evidence)[0]


def test_v39_is_v38_with_direction_objects_and_changes_nothing_else_here() -> None:
    assert_one_field_more(V39, V38, "direction_objects")
    assert_same_on_shared(V39, V38)


def test_v39_leaves_a_near_copy_to_the_edit_check() -> None:
    # a copy with its direction word flipped is the edit check's to read, as under v38
    claim = "Aspirin increased the risk of colorectal cancer in women."
    evidence = "Aspirin reduced the risk of colorectal cancer in women."
    assert _verdicts(V39, claim, evidence) == _verdicts(V38, claim, evidence)


@pytest.mark.parametrize("record", [True, False], ids=["recorded", "re-embedded"])
def test_a_v39_trace_with_a_direction_reversed_on_its_thing_replays_exactly(record: bool) -> None:
    _assert_one_reading_replays(
        V39, POLYMEAL_CLAIM, POLYMEAL_WINDOW, "contradicted: direction flip", record
    )


# --- v40: a cure claimed where the window states none --------------------------------------------
CURE_WINDOW = (
    "In patients with moderate to severe COVID-19 disease, the use of intravenous vitamin C was "
    "feasible and safe."
)
CURE_CLAIM = "Intravenous vitamin C cures moderate to severe COVID-19 disease in patients."


def test_v40_refuses_a_cure_the_window_does_not_state() -> None:
    assert _verdicts(V39, CURE_CLAIM, CURE_WINDOW) == ("supported", [])
    assert _verdicts(V40, CURE_CLAIM, CURE_WINDOW) == (
        "unsupported",
        ["unsupported: cure not stated"],
    )
    v = score_all(
        [Claim("c1", CURE_CLAIM)], [EvidenceSpan("S1", CURE_WINDOW)], FakeEmbedder(), V40
    )[0][0]
    (edit,) = v.edits
    assert (edit.op, edit.claim_text, edit.evidence_text) == ("insertion", "cures", "")
    assert CURE_CLAIM[edit.claim_start : edit.claim_end] == "cures"
    assert edit.evidence_start == edit.evidence_end
    assert v.score == V40.gate_cap


def test_v40_keeps_a_cure_the_window_states() -> None:
    window = CURE_WINDOW.replace("was feasible and safe", "cured the disease")
    assert _verdicts(V40, CURE_CLAIM, window) == _verdicts(V39, CURE_CLAIM, window)
    assert _verdicts(V40, CURE_CLAIM, window)[0] == "supported"


def test_v40_is_v39_with_cure_claims_and_changes_nothing_else_here() -> None:
    assert_one_field_more(V40, V39, "cure_claims")
    assert_one_rule_more(V40, V39, CURE_CLAIM, CURE_WINDOW)


@pytest.mark.parametrize("record", [True, False], ids=["recorded", "re-embedded"])
def test_a_v40_trace_with_a_cure_not_stated_replays_exactly(record: bool) -> None:
    _assert_one_reading_replays(
        V40, CURE_CLAIM, CURE_WINDOW, "unsupported: cure not stated", record
    )


# --- v42: a negation deleted from the finding the claim keeps, past a comma ---------------------
STIMULANTS = (
    "Among young adults, current use of stimulant medications, compared with nonuse, was not "
    "associated with an increased risk of stroke."
)


@pytest.mark.parametrize(
    ("claim", "deleted"),
    [
        (
            "Among young adults, current use of stimulant medications increased the risk of "
            "stroke.",
            "compared with nonuse, was not associated with an",
        ),
        (
            "Among young adults, current use of stimulant medications, compared with nonuse, "
            "increased risk of stroke.",
            "was not associated with an",
        ),
    ],
    ids=["past-a-comparison-group", "after-a-comma"],
)
def test_v42_reads_a_negation_deleted_from_the_kept_finding_as_dropped(
    claim: str, deleted: str
) -> None:
    assert _verdicts(V41, claim, STIMULANTS) == ("supported", [])  # read as a clause dropped
    assert _verdicts(V42, claim, STIMULANTS) == (
        "contradicted",
        ["contradicted: negation dropped"],
    )
    v = score_all([Claim("c1", claim)], [EvidenceSpan("S1", STIMULANTS)], FakeEmbedder(), V42)
    (dropped,) = [e for e in v[0][0].edits if e.status != "allowed"]
    assert (dropped.op, dropped.evidence_text) == ("deletion", deleted)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # the negation ends where its clause does: an aside, a relative clause
        (
            "In the trial, aspirin reduced pain in adults with arthritis.",
            "In the trial, aspirin, not placebo, reduced pain in adults with arthritis.",
        ),
        (
            "Among adults, statins reduced stroke risk in the cohort.",
            "Among adults, statins, which were not given to children, reduced stroke risk in the "
            "cohort.",
        ),
    ],
    ids=["aside", "relative-clause"],
)
def test_v42_leaves_a_negation_whose_clause_ends_before_the_kept_words(
    claim: str, evidence: str
) -> None:
    assert _verdicts(V42, claim, evidence) == _verdicts(V41, claim, evidence)
    assert _verdicts(V42, claim, evidence)[0] == "supported"


def test_v42_is_v41_with_edit_negation_scope() -> None:
    assert_one_field_more(V42, V41, "edit_negation_scope")
    assert_same_on_shared(V42, V41)


@pytest.mark.parametrize("record", [True, False], ids=["recorded", "re-embedded"])
def test_a_v42_trace_with_a_negation_dropped_past_a_comma_replays_exactly(record: bool) -> None:
    claim = (
        "Among young adults, current use of stimulant medications, compared with nonuse, "
        "increased risk of stroke."
    )
    _assert_one_reading_replays(V42, claim, STIMULANTS, "contradicted: negation dropped", record)


# --- v44: a dropped population read where it was dropped ----------------------------------------
CHEST_PAIN = (
    "Men and women reported chest pain equally often; however, nausea was more frequent among "
    "women."
)
CHILDREN = "Sleep problems appear common in children, but their causes remain unclear."


@pytest.mark.parametrize(
    ("claim", "evidence", "deleted"),
    [
        # the claim's "women" copies the first clause's: the finding's population is dropped
        (
            "Men and women reported chest pain equally often; however, nausea was more frequent.",
            CHEST_PAIN,
            "among women",
        ),
        # a comma after the phrase and none before it: no clause dropped whole
        ("Sleep problems appear common, but their causes remain unclear.", CHILDREN, "in children"),
    ],
    ids=["copied-from-another-clause", "before-a-comma"],
)
def test_v44_reads_a_population_dropped_where_it_was_dropped(
    claim: str, evidence: str, deleted: str
) -> None:
    assert _verdicts(V42, claim, evidence) == ("supported", [])
    assert _verdicts(V44, claim, evidence) == ("unsupported", ["unsupported: population dropped"])
    v = score_all([Claim("c1", claim)], [EvidenceSpan("S1", evidence)], FakeEmbedder(), V44)
    (dropped,) = [e for e in v[0][0].edits if e.status != "allowed"]
    assert (dropped.op, dropped.evidence_text) == ("deletion", deleted)


def test_v44_reads_a_quote_that_leaves_a_population_off_its_end() -> None:
    claim = "Men and women reported chest pain equally often; however, nausea was more frequent"
    assert _verdicts(V42, claim, CHEST_PAIN) == ("supported", [])
    assert _verdicts(V44, claim, CHEST_PAIN) == (
        "unsupported",
        ["unsupported: population dropped"],
    )


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # the claim states the population in words of its own
        ("Among women, nausea was more frequent.", CHEST_PAIN),
        (
            "In women with diabetes, aspirin reduced mortality.",
            "Aspirin reduced mortality in women with diabetes.",
        ),
        # the phrase is an aside marked on both sides, dropped whole as before
        (
            "Aspirin reduced falls and fractures in the trial.",
            "Aspirin reduced falls, in women as in men, and fractures in the trial.",
        ),
        # the whole population, which restricts nothing
        (
            "Nausea was more frequent.",
            "Nausea was more frequent in all patients.",
        ),
    ],
    ids=["own-words", "moved-to-the-front", "aside", "whole-population"],
)
def test_v44_leaves_a_population_the_claim_keeps_or_that_restricts_nothing(
    claim: str, evidence: str
) -> None:
    assert _verdicts(V44, claim, evidence) == _verdicts(V42, claim, evidence)


def test_v44_is_v42_with_edit_local_population() -> None:
    assert_one_field_more(V44, V42, "edit_local_population")
    assert_same_on_shared(V44, V42)


@pytest.mark.parametrize("record", [True, False], ids=["recorded", "re-embedded"])
def test_a_v44_trace_with_a_population_dropped_replays_exactly(record: bool) -> None:
    claim = "Sleep problems appear common, but their causes remain unclear."
    _assert_one_reading_replays(V44, claim, CHILDREN, "unsupported: population dropped", record)
