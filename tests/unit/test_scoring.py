"""Claim scoring with hand-made cosines: candidates, ties, bands, erasure, v2 gates."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from spanproof.core.errors import ConfigurationError
from spanproof.core.models import (
    SCORE_MODEL_NAMES,
    Claim,
    ClaimVerdict,
    Edit,
    ErasedRange,
    EvidenceSpan,
    PairScore,
    Verdict,
)
from spanproof.text.sentences import split_sentences
from spanproof.text.stems import singular
from spanproof.verify.fusion import fuse
from spanproof.verify.gates import (
    base_form,
    cues,
    direction_of,
    direction_word,
    is_agent_noun,
    is_negation,
    names_no_denial,
    opposed_clauses,
    polarity_gate_trips,
    states_polarity,
    written_within,
)
from spanproof.verify.scoring import (
    SCORE_MODELS,
    V1,
    V2,
    V19,
    V20,
    V21,
    V22,
    V23,
    V24,
    V25,
    V26,
    V27,
    V28,
    V29,
    V30,
    V33,
    V34,
    ScoreModel,
    _eligible,
    hyphen_names,
    joined_forms,
    name_figures,
    names_a_change,
    prepare_plan,
    resolve_markers,
    score_claim,
    score_model,
    select_candidates,
)

UNRELATED = [
    "The weather in spring was mild and dry.",
    "Rainfall records were kept by volunteers.",
    "Bridges were inspected every second year.",
    "Library opening hours changed in autumn.",
    "The museum added a new wing for sculpture.",
    "Trains ran late during the winter storms.",
    "A festival drew visitors from nearby towns.",
    "Coffee prices moved with the harvest.",
    "The council approved a cycling lane.",
    "Students planted trees along the river.",
    "Bakers reported strong holiday sales.",
    "Ferries resumed after the harbour repairs.",
]


def spans(*texts: str, truth: bool = True) -> list[EvidenceSpan]:
    return [EvidenceSpan(id=f"e{i}", text=t, truth_class=truth) for i, t in enumerate(texts)]


def score(
    claim: str | Claim,
    evidence: list[EvidenceSpan],
    cosines: list[float],
    model: ScoreModel = V1,
    windows: list[tuple[int, int]] | None = None,
) -> tuple[ClaimVerdict, list[PairScore]]:
    c = claim if isinstance(claim, Claim) else Claim(id="c1", text=claim)
    plan = prepare_plan(evidence, model)
    return score_claim(c, np.array(cosines, dtype=np.float64), plan, windows)


# --- models -------------------------------------------------------------------------------


def test_score_models_are_named_and_v1_has_no_v2_gates() -> None:
    assert score_model("v1") is V1
    assert score_model("v2") is V2
    assert (V1.entity_gate, V1.polarity_gate, V1.months_need_digits) == (False, False, False)
    assert (V2.entity_gate, V2.polarity_gate, V2.months_need_digits) == (True, True, True)
    assert V1.beta == 0.65
    assert V1.candidates_m == 8
    assert V1.partial_min == 0.50
    assert V1.gate_cap == 0.2
    assert V1.partial_min <= V1.supported_min <= 1.0
    assert V2.partial_min <= V2.supported_min <= 1.0


def test_the_configuration_api_and_cli_offer_every_shipped_score_model() -> None:
    assert tuple(SCORE_MODELS) == SCORE_MODEL_NAMES


def test_unknown_score_model_names_the_choices() -> None:
    choices = (
        r"v1, v2, .*, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32, v33, v34, "
        r"v35, v36, v37, v38, v39, v40, v41, v42, v43, v44, v45, v46, v47, v48, v49, v50, v51, "
        r"v52, v53, v54, v55, v56, v57, v58, v59, v60, v61, v62, v63, v64, v65, v66, v67, v68, "
        r"v69, v70, v71, v72, v73, v74, v75, v76, v77, v78, v79$"
    )
    with pytest.raises(ConfigurationError, match=choices):
        score_model("v99")


# --- candidates ---------------------------------------------------------------------------


def test_cited_span_outside_top_m_is_still_a_candidate() -> None:
    evidence = spans(*UNRELATED)
    # Cosines strictly decreasing in plan order, so e10 ranks 11th.
    cosines = [0.9 - 0.05 * i for i in range(12)]
    order = sorted(range(12), key=lambda i: -cosines[i])
    assert order.index(10) == 10  # ranked 11th
    claim = Claim(id="c1", text=UNRELATED[10], cited_markers=("S11",))
    verdict, pairs = score(claim, evidence, cosines)
    assert verdict.candidates_considered == 9
    assert [p.span_index for p in pairs] == [0, 1, 2, 3, 4, 5, 6, 7, 10]
    # The cited span is the verbatim source; it wins although its cosine is low.
    assert verdict.best_span is not None
    assert verdict.best_span.id == "e10"


def test_without_citation_only_top_m_are_candidates() -> None:
    evidence = spans(*UNRELATED)
    cosines = [0.9 - 0.05 * i for i in range(12)]
    verdict, pairs = score(UNRELATED[10], evidence, cosines)
    assert verdict.candidates_considered == 8
    assert 10 not in [p.span_index for p in pairs]


def test_cited_span_already_in_top_m_is_not_counted_twice() -> None:
    evidence = spans(*UNRELATED)
    cosines = [0.9 - 0.05 * i for i in range(12)]
    claim = Claim(id="c1", text=UNRELATED[0], cited_markers=("S1", "e0", "S1"))
    verdict, _ = score(claim, evidence, cosines)
    assert verdict.candidates_considered == 8


def test_top_m_ties_on_cosine_keep_plan_order() -> None:
    plan = prepare_plan(spans(*UNRELATED), V1)
    chosen = select_candidates(np.full(12, 0.5), [], plan)
    assert chosen == list(range(8))


def test_candidates_m_is_respected() -> None:
    model = replace(V1, candidates_m=2)
    evidence = spans(*UNRELATED[:5])
    verdict, pairs = score(UNRELATED[4], evidence, [0.1, 0.9, 0.2, 0.8, 0.3], model)
    assert [p.span_index for p in pairs] == [1, 3]
    assert verdict.candidates_considered == 2


def test_cache_class_span_is_never_best_even_with_cosine_one() -> None:
    claim_text = "Aspirin lowered fever in adults."
    evidence = [
        EvidenceSpan(id="cache", text=claim_text, truth_class=False),
        EvidenceSpan(id="truth", text="Aspirin was given to adults with fever."),
    ]
    claim = Claim(id="c1", text=claim_text, cited_markers=("cache", "S1"))
    verdict, pairs = score(claim, evidence, [1.0, 0.3])
    assert verdict.best_span is not None
    assert verdict.best_span.id == "truth"
    assert [p.span_index for p in pairs] == [1]
    assert verdict.candidates_considered == 1


def test_only_cache_class_spans_gives_unsupported_without_candidates() -> None:
    evidence = spans("Aspirin lowered fever.", truth=False)
    verdict, pairs = score("Aspirin lowered fever.", evidence, [1.0])
    assert verdict.verdict is Verdict.UNSUPPORTED
    assert verdict.score == 0.0
    assert verdict.best_span is None
    assert verdict.candidates_considered == 0
    assert pairs == []


# --- markers ------------------------------------------------------------------------------


def test_markers_resolve_by_id_then_by_position() -> None:
    evidence = [
        EvidenceSpan(id="S2", text="first"),
        EvidenceSpan(id="ev-b", text="second"),
        EvidenceSpan(id="ev-c", text="third"),
        EvidenceSpan(id="ev-d", text="fourth", truth_class=False),
    ]
    plan = prepare_plan(evidence, V1)
    assert resolve_markers(["ev-b"], plan) == [1]
    assert resolve_markers(["S3"], plan) == [2]
    assert resolve_markers(["S2"], plan) == [0]  # an id equal to the marker wins
    assert resolve_markers(["S1"], plan) == [0]
    assert resolve_markers(["S4", "ev-d"], plan) == []  # cache-class never resolves
    assert resolve_markers(["S0", "S5", "S99", "nope", "s1"], plan) == []
    assert resolve_markers(["S3", "ev-c", "S1"], plan) == [2, 0]


# --- ties ---------------------------------------------------------------------------------


def test_ties_keep_first_span_in_plan_order() -> None:
    text = "Aspirin lowered fever in adults."
    evidence = [EvidenceSpan(id="a", text=text), EvidenceSpan(id="b", text=text)]
    verdict, pairs = score(text, evidence, [0.9, 0.9])
    assert pairs[0].score == pairs[1].score
    assert verdict.best_span is not None
    assert verdict.best_span.id == "a"
    evidence.reverse()
    verdict, _ = score(text, evidence, [0.9, 0.9])
    assert verdict.best_span is not None
    assert verdict.best_span.id == "b"


def test_claim_score_is_the_max_pair_score() -> None:
    evidence = spans(
        "Aspirin lowered fever in adults.",
        "Aspirin lowered fever.",
        "Fever is common in adults.",
    )
    verdict, pairs = score("Aspirin lowered fever in adults.", evidence, [0.7, 0.95, 0.4])
    assert verdict.score == max(p.score for p in pairs)
    assert verdict.best_span is not None
    best = max(pairs, key=lambda p: p.score)
    assert verdict.best_span.id == evidence[best.span_index].id


def test_pair_score_is_fusion_of_cosine_and_coverage() -> None:
    evidence = spans("Aspirin lowered fever in adults.")
    verdict, pairs = score("Aspirin lowered fever.", evidence, [0.8])
    assert pairs[0].lexical == 1.0
    assert pairs[0].score == pytest.approx(fuse(0.8, 1.0), rel=1e-12)
    assert verdict.score == pytest.approx(0.8**0.65, rel=1e-12)


# --- bands --------------------------------------------------------------------------------

_COS_ONLY = replace(V1, beta=1.0, supported_min=0.7)  # score == cosine exactly


@pytest.mark.parametrize(
    ("cos", "expected"),
    [
        (1.0, Verdict.SUPPORTED),
        (0.7, Verdict.SUPPORTED),
        (float(np.nextafter(0.7, 0.0)), Verdict.PARTIAL),
        (0.5, Verdict.PARTIAL),
        (float(np.nextafter(0.5, 0.0)), Verdict.UNSUPPORTED),
        (0.0, Verdict.UNSUPPORTED),
    ],
)
def test_bands_at_exact_boundaries(cos: float, expected: Verdict) -> None:
    text = "Aspirin lowered fever."
    verdict, _ = score(text, spans(text), [cos], _COS_ONLY)
    assert verdict.score == cos
    assert verdict.verdict is expected


def test_supported_min_is_read_from_the_model() -> None:
    text = "Aspirin lowered fever."
    strict = _COS_ONLY.with_supported_min(0.9)
    verdict, _ = score(text, spans(text), [0.85], strict)
    assert verdict.verdict is Verdict.PARTIAL


# --- erasure ------------------------------------------------------------------------------


def test_best_span_overlapping_erased_range_gives_evidence_redacted() -> None:
    text = "Aspirin lowered fever in adults."
    evidence = [EvidenceSpan(id="e0", text=text, erased=(ErasedRange(8, 15),))]
    verdict, _ = score(text, evidence, [0.95])
    assert verdict.verdict is Verdict.EVIDENCE_REDACTED
    assert verdict.best_span is not None
    assert verdict.best_span.id == "e0"


def test_window_clear_of_erased_range_is_not_redacted() -> None:
    text = "Aspirin lowered fever in adults. Extra unrelated trailing words here."
    evidence = [EvidenceSpan(id="e0", text=text, erased=(ErasedRange(33, 38),))]
    verdict, _ = score("Aspirin lowered fever in adults.", evidence, [0.95], windows=[(0, 33)])
    assert verdict.verdict is Verdict.SUPPORTED
    assert verdict.best_span is not None
    assert (verdict.best_span.start, verdict.best_span.end) == (0, 33)


def test_erased_range_touching_window_end_does_not_overlap() -> None:
    text = "Aspirin lowered fever in adults."
    evidence = [EvidenceSpan(id="e0", text=text, erased=(ErasedRange(32, 40),))]
    verdict, _ = score(text, evidence, [0.95], windows=[(0, 32)])
    assert verdict.verdict is Verdict.SUPPORTED


def test_erasure_on_non_best_span_does_not_redact() -> None:
    text = "Aspirin lowered fever in adults."
    evidence = [
        EvidenceSpan(id="e0", text=text),
        EvidenceSpan(id="e1", text="Fever was measured.", erased=(ErasedRange(0, 5),)),
    ]
    verdict, _ = score(text, evidence, [0.95, 0.2])
    assert verdict.verdict is Verdict.SUPPORTED


# --- numeric gate in scoring --------------------------------------------------------------


def test_wrong_number_in_near_verbatim_span_is_unsupported() -> None:
    evidence = spans("Aspirin lowered fever in 40 adults.")
    verdict, pairs = score("Aspirin lowered fever in 400 adults.", evidence, [0.99])
    assert pairs[0].fused > V1.supported_min
    assert verdict.score == 0.2
    assert verdict.numeric_gated is True
    assert verdict.verdict is Verdict.UNSUPPORTED


def test_v1_reads_modal_may_as_a_month_and_v2_does_not() -> None:
    evidence = spans("Aspirin can reduce fever in adults.")
    claim = "Aspirin may reduce fever in adults."
    v1, _ = score(claim, evidence, [1.0], V1)
    v2, _ = score(claim, evidence, [1.0], V2)
    assert v1.numeric_gated is True
    assert v1.score == 0.2
    assert v2.numeric_gated is False
    assert v2.score > 0.5


# --- v2 gates -----------------------------------------------------------------------------


def test_v2_entity_gate_caps_a_swapped_entity() -> None:
    evidence = spans("Fever in adults was reduced by Insulin.")
    claim = "Fever in adults was reduced by Metformin."
    v2, pairs = score(claim, evidence, [1.0], V2)
    assert pairs[0].fused > V2.supported_min
    assert v2.entity_gated is True
    assert v2.score == V2.gate_cap
    assert v2.verdict is Verdict.UNSUPPORTED


def test_v1_ignores_the_entity_gate() -> None:
    evidence = spans("Fever in adults was reduced by Insulin.")
    v1, _ = score("Fever in adults was reduced by Metformin.", evidence, [1.0], V1)
    assert v1.entity_gated is False
    assert v1.score > V1.gate_cap
    assert v1.verdict in {Verdict.SUPPORTED, Verdict.PARTIAL}


def test_v2_entity_found_across_hyphenation() -> None:
    evidence = spans("Serum IL-6 levels increased in mice.")
    v2, _ = score("Serum IL6 levels increased in mice.", evidence, [1.0], V2)
    assert v2.entity_gated is False
    assert v2.score > V2.gate_cap


def test_v2_entity_gate_passes_when_entity_present() -> None:
    evidence = spans("Fever in adults was reduced by Metformin.")
    v2, _ = score("Fever in adults was reduced by Metformin.", evidence, [1.0], V2)
    assert v2.entity_gated is False
    assert v2.verdict is Verdict.SUPPORTED


def test_v2_polarity_gate_caps_a_negation_mismatch() -> None:
    evidence = spans("Aspirin lowered fever in adults.", "Trains ran late.")
    v2, pairs = score("Aspirin never lowered fever in adults.", evidence, [1.0, 0.1], V2)
    assert pairs[0].polarity_gated is True
    assert pairs[0].score == V2.gate_cap
    assert v2.polarity_gated is True
    assert v2.verdict in {Verdict.CONTRADICTED, Verdict.UNSUPPORTED}


def test_v2_polarity_gate_caps_a_direction_reversal() -> None:
    evidence = spans("Aspirin increased fever in adults.")
    v2, pairs = score("Aspirin decreased fever in adults.", evidence, [1.0], V2)
    assert pairs[0].polarity_gated is True
    assert pairs[0].score == V2.gate_cap
    assert v2.polarity_gated is True


def test_v2_polarity_agrees_when_both_negate() -> None:
    evidence = spans("Aspirin did not lower fever in adults.")
    v2, _ = score("Aspirin did not lower fever in adults.", evidence, [1.0], V2)
    assert v2.polarity_gated is False
    assert v2.verdict is Verdict.SUPPORTED


def test_polarity_uses_the_sentence_that_matches_the_claim() -> None:
    evidence = spans("Trains did not run on time. Aspirin lowered fever in adults.")
    v2, _ = score("Aspirin lowered fever in adults.", evidence, [1.0], V2)
    assert v2.polarity_gated is False
    assert v2.verdict is Verdict.SUPPORTED


def test_opposite_statement_is_contradicted_in_v2_but_reads_supported_in_v1() -> None:
    evidence = spans("Aspirin reduced fever in adults.", "Coffee prices moved.")
    claim = "Aspirin did not reduce fever in adults."
    v1, _ = score(claim, evidence, [1.0, 0.1], V1)
    v2, _ = score(claim, evidence, [1.0, 0.1], V2)
    assert v1.verdict in {Verdict.SUPPORTED, Verdict.PARTIAL}
    assert v1.polarity_gated is False
    assert v2.verdict is Verdict.CONTRADICTED
    assert v2.polarity_gated is True
    assert v2.best_span is not None
    assert v2.best_span.id == "e0"


def test_direction_reversal_is_contradicted_in_v2() -> None:
    evidence = spans("Aspirin reduced fever in adults.")
    v2, _ = score("Aspirin increased fever in adults.", evidence, [1.0], V2)
    assert v2.verdict is Verdict.CONTRADICTED


def test_weak_opposite_statement_is_unsupported_not_contradicted() -> None:
    evidence = spans("Aspirin reduced fever in adults.")
    v2, _ = score("Aspirin did not reduce fever in adults.", evidence, [0.3], V2)
    assert v2.verdict is Verdict.UNSUPPORTED


def test_contradiction_needs_the_polarity_gate_alone() -> None:
    # Opposite direction AND a wrong number: the number, not the polarity, is the problem.
    evidence = spans("Aspirin reduced fever in 40 adults.")
    v2, _ = score("Aspirin increased fever in 400 adults.", evidence, [1.0], V2)
    assert v2.verdict is Verdict.UNSUPPORTED
    assert v2.numeric_gated is True


# --- properties ---------------------------------------------------------------------------

_WORDS = [
    "aspirin",
    "lowered",
    "raised",
    "fever",
    "not",
    "in",
    "adults",
    "mice",
    "IL-6",
    "Metformin",
    "5",
    "10",
    "May",
    "2020",
]
_sentence = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=8).map(" ".join)
_cos = st.floats(-1.0, 1.0)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(_sentence, _cos, st.booleans()), min_size=1, max_size=12),
    _sentence,
    st.sampled_from([V1, V2]),
)
def test_scores_are_in_unit_interval_and_gates_only_lower(
    items: list[tuple[str, float, bool]], claim: str, model: ScoreModel
) -> None:
    evidence = [
        EvidenceSpan(id=f"e{i}", text=t, truth_class=truth) for i, (t, _, truth) in enumerate(items)
    ]
    verdict, pairs = score(claim, evidence, [c for _, c, _ in items], model)
    assert 0.0 <= verdict.score <= 1.0
    for pair in pairs:
        assert 0.0 <= pair.lexical <= 1.0
        assert 0.0 <= pair.score <= pair.fused <= 1.0
        gated = pair.numeric_gated or pair.entity_gated or pair.polarity_gated
        if not gated:
            assert pair.score == pair.fused
        if gated:
            assert pair.score <= model.gate_cap
        assert evidence[pair.span_index].truth_class
    if pairs:
        if model.dominance_margin is None:
            assert verdict.score == max(p.score for p in pairs)
        else:  # v2: a much less similar span cannot rescue a gated closest span
            assert verdict.score <= max(p.score for p in pairs)
        assert verdict.candidates_considered == len(pairs)
        assert len(pairs) <= model.candidates_m


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(_sentence, _cos), min_size=1, max_size=8).flatmap(
        lambda items: st.tuples(st.just(items), st.permutations(range(len(items))))
    ),
    _sentence,
    st.sampled_from([V1, V2]),
)
def test_plan_order_never_changes_the_max_score(
    data: tuple[list[tuple[str, float]], list[int]], claim: str, model: ScoreModel
) -> None:
    items, perm = data
    evidence = [EvidenceSpan(id=f"e{i}", text=t) for i, (t, _) in enumerate(items)]
    cosines = [c for _, c in items]
    verdict, _ = score(claim, evidence, cosines, model)
    permuted, _ = score(claim, [evidence[i] for i in perm], [cosines[i] for i in perm], model)
    assert permuted.score == verdict.score
    assert permuted.candidates_considered == verdict.candidates_considered


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(_sentence, _cos), min_size=1, max_size=8), _sentence)
def test_numeric_gate_only_lowers_the_claim_score(
    items: list[tuple[str, float]], claim: str
) -> None:
    evidence = [EvidenceSpan(id=f"e{i}", text=t) for i, (t, _) in enumerate(items)]
    cosines = [c for _, c in items]
    gated, _ = score(claim, evidence, cosines, V1)
    ungated, _ = score(claim, evidence, cosines, replace(V1, gate_cap=1.0))
    assert gated.score <= ungated.score


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        (
            "Counts of CD4 cells increased after treatment.",
            "Counts of CD45 cells increased after treatment.",
        ),
        ("Mutations in BRCA1 raised the risk.", "Mutations in BRCA12 raised the risk."),
    ],
)
def test_v2_entity_gate_catches_an_identifier_that_is_a_prefix_of_another(
    claim: str, span: str
) -> None:
    v2, _ = score(claim, spans(span), [0.97], V2)
    assert v2.entity_gated is True
    assert v2.verdict is Verdict.UNSUPPORTED


# --- v20: the gates read a word's other forms as the word --------------------------------------


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        ("HSPC mobilization depends on osteocytes.", "HSPCs mobilization depends on osteocytes."),
        ("MICALs regulate actin dynamics in cells.", "MICAL regulates actin dynamics in cells."),
        ("Survivors of Hodgkin lymphoma had SMNs.", "Survivors of Hodgkin's lymphoma had SMNs."),
        ("Survivors of Hodgkin’s lymphoma had SMNs.", "Survivors of Hodgkin lymphoma had SMNs."),
    ],
)
def test_v20_entity_gate_reads_a_plural_or_possessive_as_its_entity(claim: str, span: str) -> None:
    evidence = spans(span + " Osteoclasts and NK cells were counted in SMCs.")
    v19, _ = score(claim, evidence, [0.97], V19)
    v20, _ = score(claim, evidence, [0.97], V20)
    assert v19.entity_gated is True
    assert v20.entity_gated is False
    assert v20.verdict is Verdict.SUPPORTED


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        # Another entity is still another entity, plural or not.
        ("HSPC mobilization depends on osteocytes.", "MSCs mobilization depends on osteocytes."),
        # "AIDS" is no plural of "AID": a capital S is part of the name.
        ("AIDS expression rose in B cells.", "AID expression rose in B cells, not CSR."),
        ("Survivors of Hodgkin's lymphoma had SMNs.", "Survivors of Burkitt's lymphoma had SMNs."),
    ],
)
def test_v20_entity_gate_still_catches_another_entity(claim: str, span: str) -> None:
    v20, _ = score(claim, spans(span), [0.97], V20)
    assert v20.entity_gated is True
    assert v20.verdict is Verdict.UNSUPPORTED


def test_v20_polarity_gate_reads_a_direction_word_s_forms_as_one_word() -> None:
    claim = "Inhibiting HDAC6 increases survival of mice with ARID1A mutated tumors."
    span = (
        "Inhibition of HDAC6 activity using a small-molecule inhibitor improved the survival "
        "of mice bearing ARID1A-mutated tumours."
    )
    v19, _ = score(claim, spans(span), [0.95], V19)
    v20, _ = score(claim, spans(span), [0.95], V20)
    assert v19.polarity_gated is True
    assert v20.polarity_gated is False


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        (
            "Inhibiting HDAC6 decreases survival of mice.",
            "Inhibition of HDAC6 increased survival of mice.",
        ),
        (
            "An inhibitor of HDAC6 lowered survival of mice.",
            "An inhibitor of HDAC6 raised survival of mice.",
        ),
        (
            "HDAC6 inhibitors did not change survival of mice.",
            "HDAC6 inhibitors changed survival of mice.",
        ),
    ],
)
def test_v20_polarity_gate_still_catches_a_flip(claim: str, span: str) -> None:
    v20, _ = score(claim, spans(span), [0.95], V20)
    assert v20.polarity_gated is True


def test_v20_is_v19_with_word_forms() -> None:
    assert SCORE_MODELS["v20"] is V20 and V20.word_forms and not V19.word_forms
    assert replace(V20, name="v19", word_forms=False) == V19


_FORMS = st.sampled_from(["HSPCs", "HSPC", "Hodgkin's", "inhibitor", "inhibition", "NETs"])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_WORDS), _FORMS), min_size=1, max_size=10))
def test_v20_gates_never_cap_a_claim_that_copies_its_span(words: list[str]) -> None:
    text = " ".join(words)
    v20, _ = score(text, spans(text), [1.0], V20)
    assert not (v20.entity_gated or v20.polarity_gated)


@pytest.mark.parametrize(
    ("surface", "base"),
    [
        ("HSPCs", "hspc"),
        ("mRNAs", "mrna"),
        ("NETs", "net"),
        ("Hodgkin's", "hodgkin"),
        ("Alzheimer\u2019s", "alzheimer"),
        ("AIDS", None),  # a capital S is part of the name
        ("Cs", None),
        ("cells", None),
        ("HSPC", None),
        ("it's", None),
        ("That's", None),
        ("Crohn's", "crohn"),
    ],
)
def test_base_form_reads_a_plural_abbreviation_or_a_possessive(
    surface: str, base: str | None
) -> None:
    assert base_form(surface) == base


def test_direction_word_and_agent_nouns() -> None:
    assert (
        direction_word("inhibiting") == direction_word("inhibition") == direction_word("inhibits")
    )
    assert direction_word("increased") != direction_word("decreased")
    assert direction_word("lower") == "lower" and direction_word("aspirin") == "aspirin"
    assert direction_of(direction_word("inhibition")) == direction_of("inhibition")
    for noun in ("inhibitor", "inhibitors", "activator", "promoter", "suppressor", "blockers"):
        assert is_agent_noun(noun), noun
    for word in ("inhibits", "lower", "higher", "fewer", "increased", "promoted", "aspirin"):
        assert not is_agent_noun(word), word


def test_singular_brings_an_irregular_plural_back() -> None:
    assert [singular(w) for w in ("mice", "analyses", "nuclei", "criteria", "larvae")] == [
        "mouse",
        "analysis",
        "nucleus",
        "criterion",
        "larva",
    ]
    # "bases" is also the plural of "base": left to the stemmer
    assert singular("bases") == "bases" and singular("cells") == "cells"


# --- v21: a figure written as part of a name; a failed near copy dominates ----------------------


def test_joined_forms_pairs_a_figure_after_letters_with_the_name_it_joins() -> None:
    tokens = ["c2", "acts", "with", "a", "769662", "in", "2", "brca", "1", "carriers"]
    joins = [joined for _atom, joined in joined_forms(tokens, V21)]
    # "in 2" joins as "in2" too: harmless, since only a span that writes "in2" covers it
    assert joins == ["a769662", "in2", "brca1"]
    assert [joined for _atom, joined in joined_forms(["5", "mice", "7.5"], V21)] == [None, None]


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        (
            "C2 works synergistically with A-769662 to activate AMPK in cells.",
            "C2 acts synergistically with the drug A769662 to activate AMPK in cells.",
        ),
        (
            "BRCA 1 mutation carriers have a risk that depends on the mutation site.",
            "Risks varied by the location of BRCA1/2 mutations in carriers.",
        ),
        ("IL-6 levels rose in the patients after surgery.", "IL6 levels rose in the patients."),
    ],
)
def test_v21_reads_a_figure_written_as_part_of_a_name_as_the_name(claim: str, span: str) -> None:
    assert_figure_read_as_the_name(claim, span, V20, V21)


def assert_figure_read_as_the_name(
    claim: str, span: str, before: ScoreModel, after: ScoreModel
) -> None:
    """``before``'s numeric gate trips on a figure of a name that ``after`` reads as the name's,
    so the claim is supported under ``after``."""
    old, _ = score(claim, spans(span), [0.95], before)
    new, _ = score(claim, spans(span), [0.95], after)
    assert old.numeric_gated is True
    assert new.numeric_gated is False
    assert new.verdict is Verdict.SUPPORTED


def assert_figure_gated(claim: str, span: str, model: ScoreModel) -> None:
    verdict, _ = score(claim, spans(span), [0.95], model)
    assert verdict.numeric_gated is True
    assert verdict.verdict is Verdict.UNSUPPORTED


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        # another name's figure, and a figure the span states nowhere, still trip the gate
        ("A-769663 activates AMPK in cells.", "The drug A769662 activates AMPK in cells."),
        ("IL-7 levels rose in the patients.", "IL6 levels rose in the patients."),
        ("IL-6 levels rose in 12 patients.", "IL6 levels rose in 10 patients."),
        # a figure the claim also writes alone must be stated alone
        ("BRCA 1 carriers: 1 in 5 had cancer.", "BRCA1 carriers: 2 in 5 had cancer."),
    ],
)
def test_v21_still_gates_a_figure_the_span_does_not_state(claim: str, span: str) -> None:
    assert_figure_gated(claim, span, V21)


def _pair(
    index: int, fused: float, edited: bool = False, named: bool = False, entity: bool = False
) -> PairScore:
    score = min(fused, V21.gate_cap) if (edited or entity) else fused
    return PairScore(
        index, fused, fused, fused, score, False, entity, False, edited, edit_named=named
    )


def test_v21_lets_no_span_rescue_a_near_copy_of_the_closest_span_with_a_named_change() -> None:
    # the closest span is a near copy with a detail changed; a looser neighbour within v2's
    # dominance margin (0.2) scores above the threshold
    pairs = [_pair(0, 0.74, edited=True, named=True), _pair(1, 0.58)]
    assert [p.span_index for p in _eligible(pairs, V20)] == [0, 1]
    assert [p.span_index for p in _eligible(pairs, V21)] == [0]
    # a change judged only by a phrase's similarity, or a gate other than the edit check,
    # keeps v2's margin
    unnamed = [_pair(0, 0.74, edited=True), _pair(1, 0.58)]
    assert [p.span_index for p in _eligible(unnamed, V21)] == [0, 1]
    gated = [_pair(0, 0.74, entity=True), _pair(1, 0.58)]
    assert [p.span_index for p in _eligible(gated, V21)] == [0, 1]
    # a closer span that is not gated decides as before
    closer = [_pair(0, 0.74, edited=True, named=True), _pair(1, 0.81)]
    assert _eligible(closer, V21) == closer


@pytest.mark.parametrize(
    ("judgement", "named"),
    [
        ("unsupported: different entity", True),
        ("unsupported: different number", True),
        ("unsupported: roles swapped", True),
        ("unsupported: opposite term", True),
        ("unsupported: hedge dropped", False),
        ("unsupported: association stated as an effect", False),
        ("unsupported: different meaning (similarity 0.36 < 0.86)", False),
        ("unsupported: not in the evidence", False),
        ("allowed: morphology", False),
        ("contradicted: negation flip", False),
    ],
)
def test_names_a_change_reads_the_edit_s_judgement(judgement: str, named: bool) -> None:
    edit = Edit("substitution", 0, 3, "HuR", "e0", 0, 7, "AgDscam", judgement)
    assert names_a_change(edit) is named


def test_v21_is_v20_with_joined_identifiers_and_copy_dominance() -> None:
    assert SCORE_MODELS["v21"] is V21 and V21.joined_identifiers and V21.copy_dominates
    assert not (V20.joined_identifiers or V20.copy_dominates)
    assert replace(V21, name="v20", joined_identifiers=False, copy_dominates=False) == V20


_NAMES = st.sampled_from(["A-769662", "A769662", "BRCA 1", "BRCA1", "IL-6", "IL6", "12", "p53"])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_WORDS), _NAMES), min_size=1, max_size=10))
def test_v21_gates_never_cap_a_claim_that_copies_its_span(words: list[str]) -> None:
    text = " ".join(words)
    v21, _ = score(text, spans(text), [1.0], V21)
    assert not (v21.numeric_gated or v21.entity_gated or v21.polarity_gated)
    assert v21.verdict is Verdict.SUPPORTED


# --- v22: longer lists of direction and negation words for the polarity gate ---------------------


@pytest.mark.parametrize(
    ("token", "direction", "before"),
    [
        ("impedes", "down", None),
        ("hindered", "down", None),
        ("deactivates", "down", None),  # read before "activat", which begins no "deactivat" word
        ("scarce", "down", None),
        ("mitigating", "down", None),
        ("encourages", "up", None),
        ("expanded", "up", None),
        ("expansion", "up", None),
        ("prolongs", "up", None),
        ("activates", "up", "up"),  # the earlier list still reads
        ("reduced", "down", "down"),
        ("induced", None, None),  # "LPS-induced", "induced pluripotent": a cause, no direction
        ("triggering", None, None),  # "Triggering of PD-1 … induced IL-10": a cause too
        ("inactivated", None, None),  # "heat-inactivated": a method
    ],
)
def test_v22_lists_more_direction_words(
    token: str, direction: str | None, before: str | None
) -> None:
    assert direction_of(token, more=True) == direction
    assert direction_of(token) == before


def test_v22_reads_words_that_deny_what_they_qualify_as_negations() -> None:
    for word in ("ineffective", "incapable", "inability"):
        assert is_negation(word, more=True) and not is_negation(word)
    # "ineffective" and "not effective" agree; "ineffective" against "effective" flips
    assert not polarity_gate_trips(
        cues(["the", "drug", "is", "ineffective"], True, True),
        cues(["the", "drug", "was", "not", "effective"], True, True),
    )
    assert polarity_gate_trips(
        cues(["the", "drug", "is", "ineffective"], True, True),
        cues(["the", "drug", "was", "effective"], True, True),
    )


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        (
            "A Th2 environment impedes kidney disease in lupus.",
            "Basophils that home to lymph nodes promote Th2 differentiation and kidney disease "
            "in mice with a lupus-like illness.",
        ),
        (
            "The PDPN gene deactivates the receptor CLEC-2.",
            "PDPN, expressed by lymphatic endothelial cells, separates blood from lymph by "
            "activating the platelet receptor CLEC-2.",
        ),
        (
            "Plasma cells specific for TG2 are scarce in the gut of patients with active disease.",
            "TG2-specific plasma cells were markedly expanded in the duodenal mucosa of "
            "people with active coeliac disease.",
        ),
        (
            "Cognitive behavioural therapy is an ineffective treatment for insomnia.",
            "Therapy of this kind improved sleep in adults with chronic insomnia in every trial.",
        ),
    ],
)
def test_v22_gates_a_claim_whose_direction_word_opposes_its_span(claim: str, span: str) -> None:
    v21, _ = score(claim, spans(span), [0.95], V21)
    v22, _ = score(claim, spans(span), [0.95], V22)
    assert v21.verdict is Verdict.SUPPORTED and not v21.polarity_gated
    assert v22.polarity_gated is True
    assert v22.verdict is not Verdict.SUPPORTED


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        # two words of one direction: no flip
        (
            "Blocking the receptor hinders tumour growth in mice.",
            "Blockade of the receptor reduced tumour growth in mice.",
        ),
        # the same word on both sides is shared, not opposed
        (
            "Exercise encourages weight loss in adults with obesity.",
            "In adults with obesity, regular training encourages weight loss.",
        ),
        # "ineffective" read as "not effective" on both sides
        (
            "The vaccine was ineffective in older adults.",
            "In adults over 65 years, the vaccine did not prove effective.",
        ),
    ],
)
def test_v22_keeps_a_claim_whose_direction_agrees_with_its_span(claim: str, span: str) -> None:
    v22, _ = score(claim, spans(span), [0.95], V22)
    assert v22.polarity_gated is False
    assert v22.verdict is Verdict.SUPPORTED


def test_v22_is_v21_with_more_cues() -> None:
    assert SCORE_MODELS["v22"] is V22 and V22.more_cues and not V21.more_cues
    assert replace(V22, name="v21", more_cues=False) == V21


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(_WORDS),
            st.sampled_from(["impedes", "expanded", "scarce", "ineffective", "deactivates"]),
        ),
        min_size=1,
        max_size=10,
    )
)
def test_v22_gates_never_cap_a_claim_that_copies_its_span(words: list[str]) -> None:
    text = " ".join(words)
    v22, _ = score(text, spans(text), [1.0], V22)
    assert not (v22.numeric_gated or v22.entity_gated or v22.polarity_gated)
    assert v22.verdict is Verdict.SUPPORTED


# --- v23: the polarity gate reads the sentences that cover the claim nearly as well ---------------

_AIM_THEN_RESULT = (
    "We examined the effects of chenodeoxycholic acid treatment on brown adipose tissue activity "
    "in healthy women. Chenodeoxycholic acid increased brown adipose tissue activity."
)


def test_states_polarity_reads_the_claims_direction_and_negation() -> None:
    down = cues(["the", "drug", "decreases", "pain"], True, True)
    assert states_polarity(down, cues(["pain", "was", "lower"], True, True))
    assert not states_polarity(down, cues(["we", "studied", "pain"], True, True))
    assert not states_polarity(down, cues(["pain", "increased"], True, True))
    negated = cues(["the", "drug", "does", "not", "affect", "pain"], True, True)
    assert states_polarity(negated, cues(["no", "effect", "on", "pain"], True, True))
    # a claim that states no direction and no negation has nothing to state
    assert states_polarity(cues(["the", "drug", "affects", "pain"], True, True), down)


def test_v23_reads_a_result_that_an_aim_sentence_covering_the_claim_better_hides() -> None:
    claim = "Chenodeoxycholic acid treatment decreases brown adipose tissue activity."
    v22, _ = score(claim, spans(_AIM_THEN_RESULT), [0.95], V22)
    v23, _ = score(claim, spans(_AIM_THEN_RESULT), [0.95], V23)
    assert v22.verdict is Verdict.SUPPORTED and not v22.polarity_gated
    assert v23.polarity_gated is True
    assert v23.verdict is Verdict.CONTRADICTED


@pytest.mark.parametrize(
    "span",
    [
        # a close sentence states the claim's direction: the opposite elsewhere is not read
        _AIM_THEN_RESULT + " In obese women chenodeoxycholic acid decreased brown adipose "
        "tissue activity.",
        # the only sentence stating the opposite covers too little of the claim
        "We examined the effects of chenodeoxycholic acid treatment on brown adipose tissue "
        "activity in healthy women. Bile acids increased energy expenditure.",
    ],
)
def test_v23_keeps_a_claim_no_close_sentence_contradicts(span: str) -> None:
    claim = "Chenodeoxycholic acid treatment decreases brown adipose tissue activity."
    v23, _ = score(claim, spans(span), [0.95], V23)
    assert v23.polarity_gated is False
    assert v23.verdict is Verdict.SUPPORTED


def test_v23_reads_no_other_sentence_for_a_claim_without_direction_or_negation() -> None:
    claim = "Chenodeoxycholic acid treatment affects brown adipose tissue activity."
    v23, _ = score(claim, spans(_AIM_THEN_RESULT), [0.95], V23)
    assert v23.polarity_gated is False and v23.verdict is Verdict.SUPPORTED


def test_v23_is_v22_reading_close_sentences() -> None:
    assert SCORE_MODELS["v23"] is V23 and V23.close_sentences and not V22.close_sentences
    assert replace(V23, name="v22", close_sentences=False) == V22


_CUE_WORDS = ["increased", "lower", "not", "decreases", "ineffective", "no"]
_cue_sentence = st.lists(
    st.one_of(st.sampled_from(_WORDS), st.sampled_from(_CUE_WORDS)), min_size=1, max_size=8
).map(" ".join)


@settings(max_examples=100, deadline=None)
@given(_cue_sentence, st.lists(_cue_sentence, max_size=3))
def test_v23_never_gates_a_claim_that_copies_a_sentence_of_its_span(
    claim: str, others: list[str]
) -> None:
    # the copied sentence first (the best-covering sentence on a tie), then any others, which
    # may state the opposite: the copy states the claim's polarity, so no other is read
    text = ". ".join([claim, *(o[0].upper() + o[1:] for o in others)]) + "."
    assume(len(split_sentences(text)) == 1 + len(others))  # read as that many sentences
    v23, _ = score(claim, spans(text), [1.0], V23)
    assert not (v23.numeric_gated or v23.entity_gated or v23.polarity_gated)
    assert v23.verdict is Verdict.SUPPORTED


# --- v24: a span stating no direction does not support a claim a close span reverses -------------

_CLAIM_DOWN = "Lower diastolic blood pressure is associated with abdominal aortic aneurysm."
_NO_DIRECTION = "We examined diastolic blood pressure and abdominal aortic aneurysm in a cohort."
_OPPOSITE = "Higher diastolic blood pressure was associated with abdominal aortic aneurysm."


def test_v24_lets_no_span_without_a_direction_rescue_a_claim_a_close_span_reverses() -> None:
    evidence = spans(_NO_DIRECTION, _OPPOSITE)
    v23, _ = score(_CLAIM_DOWN, evidence, [0.9, 0.9], V23)
    v24, _ = score(_CLAIM_DOWN, evidence, [0.9, 0.9], V24)
    assert v23.verdict is Verdict.SUPPORTED and v23.best_span.id == "e0"
    assert v24.verdict is Verdict.CONTRADICTED and v24.best_span.id == "e1"
    assert v24.polarity_gated


@pytest.mark.parametrize(
    ("texts", "cosines"),
    [
        # a span that states the claim's direction still supports it
        (
            (
                _NO_DIRECTION,
                _OPPOSITE,
                "Lower diastolic blood pressure was associated with "
                "abdominal aortic aneurysm in women.",
            ),
            [0.9, 0.9, 0.9],
        ),
        # the reversing span is far less similar than the closest: v2's margin, no veto
        ((_NO_DIRECTION, _OPPOSITE), [0.95, 0.3]),
    ],
)
def test_v24_keeps_a_claim_no_close_span_reverses_alone(
    texts: tuple[str, ...], cosines: list[float]
) -> None:
    v24, _ = score(_CLAIM_DOWN, spans(*texts), cosines, V24)
    assert v24.verdict is Verdict.SUPPORTED


def test_v24_reads_spans_as_v23_for_a_claim_without_direction_or_negation() -> None:
    claim = "Diastolic blood pressure is associated with abdominal aortic aneurysm."
    evidence = spans(
        _NO_DIRECTION, "Diastolic blood pressure was not associated with abdominal aortic aneurysm."
    )
    v23, _ = score(claim, evidence, [0.9, 0.9], V23)
    v24, _ = score(claim, evidence, [0.9, 0.9], V24)
    assert v24.verdict is v23.verdict and v24.score == v23.score


def test_v24_is_v23_reading_close_spans() -> None:
    assert SCORE_MODELS["v24"] is V24 and V24.close_spans and not V23.close_spans
    assert replace(V24, name="v23", close_spans=False) == V23


# --- v25: a name written within a longer one is that name for the entity gate ------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [("ras", "kras"), ("vsmcs", "smcs"), ("amp", "ampk"), ("e4", "apoe4"), ("rank", "rankl")],
)
def test_written_within_reads_a_shorter_or_longer_writing_of_a_name(a: str, b: str) -> None:
    assert written_within(a, b) and written_within(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("il6", "il68"),  # another figure: another member of the family
        ("cd4", "cd45"),
        ("oct3", "oct4"),
        ("kras", "hras"),  # neither holds the other
        ("x", "xbp"),  # one letter is no name
        ("tnf", "ifn"),
    ],
)
def test_written_within_keeps_other_names_apart(a: str, b: str) -> None:
    assert not written_within(a, b)


_KRAS_SPAN = "MEK inhibitors effectively treated KRAS mutated lung cancers in mouse models."


def test_v25_reads_a_name_written_within_a_longer_one_as_that_name() -> None:
    claim = "MEK inhibitors effectively treated RAS mutated lung cancers in mouse models."
    v23, _ = score(claim, spans(_KRAS_SPAN), [0.95], V23)
    v25, _ = score(claim, spans(_KRAS_SPAN), [0.95], V25)
    v26, _ = score(claim, spans(_KRAS_SPAN), [0.95], V26)
    assert v23.entity_gated and v23.verdict is not Verdict.SUPPORTED
    assert not v25.entity_gated and v25.verdict is Verdict.SUPPORTED
    assert not v26.entity_gated and v26.verdict is Verdict.SUPPORTED


@pytest.mark.parametrize(
    "claim",
    [
        "MEK inhibitors effectively treated HRAS mutated lung cancers in mouse models.",
        "MEK inhibitors effectively treated EGFR mutated lung cancers in mouse models.",
    ],
)
def test_v25_still_gates_a_name_put_for_another(claim: str) -> None:
    v25, _ = score(claim, spans(_KRAS_SPAN), [0.95], V25)
    assert v25.entity_gated and v25.verdict is not Verdict.SUPPORTED


def test_v25_gates_another_figure_of_a_name() -> None:
    span = "IL-6 levels rose in patients with sepsis after surgery."
    v25, _ = score(
        "IL-8 levels rose in patients with sepsis after surgery.", spans(span), [0.95], V25
    )
    assert v25.verdict is not Verdict.SUPPORTED


def test_v25_is_v23_reading_names_written_within_others() -> None:
    assert SCORE_MODELS["v25"] is V25 and V25.entity_variants and not V23.entity_variants
    assert replace(V25, name="v23", entity_variants=False) == V23


def test_v26_is_v25_with_the_close_span_rule_of_v24() -> None:
    assert SCORE_MODELS["v26"] is V26 and V26.close_spans and not V25.close_spans
    assert replace(V26, name="v24", entity_variants=False) == V24


def test_v26_lets_no_span_without_a_direction_rescue_a_claim_a_close_span_reverses() -> None:
    evidence = spans(_NO_DIRECTION, _OPPOSITE)
    v25, _ = score(_CLAIM_DOWN, evidence, [0.9, 0.9], V25)
    v26, _ = score(_CLAIM_DOWN, evidence, [0.9, 0.9], V26)
    assert v25.verdict is Verdict.SUPPORTED
    assert v26.verdict is Verdict.CONTRADICTED and v26.polarity_gated


# --- v27: negations that deny -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("beta blockers improve heart failure outcomes", "failure"),
        ("treated with or without steroids", "without"),
        ("whether or not they smoked", "not"),
        ("not only lowers but also delays", "not"),
        ("no more than 5 percent of patients", "no"),
        ("compared with no treatment", "no"),
        ("higher odds than never smokers", "never"),
        ("risk among never smokers", "never"),
        ("compared with paracetamol or no antipyretic", "no"),
    ],
)
def test_v27_reads_a_negation_word_that_names_a_condition_group_or_bound(
    text: str, word: str
) -> None:
    tokens = text.split()
    assert names_no_denial(tokens, tokens.index(word))
    assert cues(tokens, True, True, scoped=True).negation_parity == 0
    assert cues(tokens, True, True).negation_parity == 1  # before v27: a denial


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("the drug did not lower blood pressure", "not"),
        ("failure to respond to treatment", "failure"),
        ("the treatment had little or no effect", "no"),
        ("patients who never recovered", "never"),
        ("no difference was found", "no"),
        ("no longer detectable after treatment", "no"),
    ],
)
def test_v27_still_reads_a_denial_as_a_denial(text: str, word: str) -> None:
    tokens = text.split()
    assert not names_no_denial(tokens, tokens.index(word))
    assert cues(tokens, True, True, scoped=True).negation_parity == 1


def test_v27_reads_lacking_as_a_denial_only_when_predicated() -> None:
    predicated = ["evidence", "of", "an", "association", "was", "lacking"]
    attributive = ["mice", "lacking", "p53", "developed", "tumours"]
    assert cues(predicated, True, True, scoped=True).negation_parity == 1
    assert cues(attributive, True, True, scoped=True).negation_parity == 0
    assert cues(predicated, True, True).negation_parity == 0  # before v27: not a negation


@pytest.mark.parametrize("word", ["inaccurate", "unreliable", "insufficient", "unlikely"])
def test_v27_reads_an_adjective_that_denies_as_a_negation(word: str) -> None:
    tokens = ["the", "test", "is", word]
    assert cues(tokens, True, True, scoped=True).negation_parity == 1
    assert cues(tokens, True, True).negation_parity == 0  # before v27: no negation
    # "is inaccurate" agrees with "is not accurate"
    denied = ["the", "test", "is", "not", "accurate"]
    assert not polarity_gate_trips(
        cues(["the", "test", "is", "inaccurate"], True, True, scoped=True),
        cues(denied, True, True, scoped=True),
    )


def test_v27_is_v25_counting_only_negations_that_deny() -> None:
    assert SCORE_MODELS["v27"] is V27 and V27.scoped_negations and not V25.scoped_negations
    assert replace(V27, name="v25", scoped_negations=False) == V25


_COMPARATOR_SPAN = (
    "In this cohort, ibuprofen use was not associated with worse clinical outcomes, compared "
    "with paracetamol or no antipyretic."
)


def test_v27_reads_a_denial_beside_a_comparison_group_as_a_denial() -> None:
    claim = "Ibuprofen use was associated with worse clinical outcomes."
    v25, _ = score(claim, spans(_COMPARATOR_SPAN), [0.9], V25)
    v27, _ = score(claim, spans(_COMPARATOR_SPAN), [0.9], V27)
    # "not … or no antipyretic": two negation words, an even count, read as affirmed by v25
    assert v25.verdict is Verdict.SUPPORTED and not v25.polarity_gated
    assert v27.verdict is Verdict.CONTRADICTED and v27.polarity_gated


def test_v27_does_not_read_a_condition_named_failure_as_a_denial() -> None:
    claim = "Beta blockers improve clinical outcomes in heart failure."
    span = "In patients with a weak heart, beta blockers improved clinical outcomes."
    v25, _ = score(claim, spans(span), [0.9], V25)
    v27, _ = score(claim, spans(span), [0.9], V27)
    # v25 reads "failure" as a negation the span lacks: a flip
    assert v25.verdict is Verdict.CONTRADICTED and v25.polarity_gated
    assert v27.verdict is Verdict.SUPPORTED and not v27.polarity_gated
    denied = "In patients with a weak heart, beta blockers did not improve clinical outcomes."
    v27, _ = score(claim, spans(denied), [0.9], V27)
    assert v27.verdict is Verdict.CONTRADICTED and v27.polarity_gated


# --- v28: opposed clauses read one by one ---------------------------------------------------

_OPPOSED = (
    "Drug A increased the risk of relapse in the first year; drug B decreased the risk of "
    "relapse in the second year."
)


def test_opposed_clauses_splits_only_a_sentence_whose_clauses_state_opposite_directions() -> None:
    assert opposed_clauses(_OPPOSED) == [
        "Drug A increased the risk of relapse in the first year",
        "drug B decreased the risk of relapse in the second year.",
    ]
    agreeing = "Drug A increased the risk, whereas drug B increased it more."
    assert opposed_clauses(agreeing) == [agreeing]
    assert opposed_clauses("Drug A increased the risk of relapse.") == [
        "Drug A increased the risk of relapse."
    ]
    contrast = "Serum levels rose in cases, while they fell in controls."
    assert opposed_clauses(contrast) == ["Serum levels rose in cases", "they fell in controls."]


def test_v28_reads_the_clause_that_covers_the_claim() -> None:
    claim = "Drug B increased the risk of relapse in the second year."
    v27, _ = score(claim, spans(_OPPOSED), [0.9], V27)
    v28, _ = score(claim, spans(_OPPOSED), [0.9], V28)
    # whole, the sentence states both directions, so none is unshared and the gate cannot trip
    assert v27.verdict is Verdict.SUPPORTED and not v27.polarity_gated
    assert v28.verdict is Verdict.CONTRADICTED and v28.polarity_gated
    # the claim the B clause states is supported
    agree = "Drug B decreased the risk of relapse in the second year."
    assert score(agree, spans(_OPPOSED), [0.9], V28)[0].verdict is Verdict.SUPPORTED


def test_v28_is_v27_reading_opposed_clauses() -> None:
    assert SCORE_MODELS["v28"] is V28 and V28.opposed_clauses and not V27.opposed_clauses
    assert replace(V28, name="v27", opposed_clauses=False) == V27


# --- v29: the close sentences' floor at 0.3; v30: the window the verdict quotes -------------

_HCQ = (
    "Hydroxychloroquine, alone or in combination with azithromycin, is being widely used in "
    "Covid-19 therapy based on anecdotal and limited observational evidence. An association of "
    "increased overall mortality was identified in patients treated with hydroxychloroquine "
    "alone."
)
_HCQ_WINDOW = (_HCQ.index("An association"), len(_HCQ))


def assert_reads_the_reversal(
    claim: str, text: str, window: tuple[int, int], old: ScoreModel, new: ScoreModel
) -> None:
    """``old`` supports ``claim`` (a "decreased" claim) against ``text``, quoting ``window``;
    ``new`` reads the reversal and contradicts it, and still supports the claim turned round."""
    before, _ = score(claim, spans(text), [0.9], old, [window])
    after, _ = score(claim, spans(text), [0.9], new, [window])
    assert before.verdict is Verdict.SUPPORTED and not before.polarity_gated
    assert after.verdict is Verdict.CONTRADICTED and after.polarity_gated
    agree = claim.replace("decreased", "increased")
    assert score(agree, spans(text), [0.9], new, [window])[0].verdict is Verdict.SUPPORTED


def test_v29_reads_a_reversing_sentence_that_covers_the_claim_less() -> None:
    claim = (
        "As a COVID-19 treatment on its own, hydroxychloroquine is associated with decreased "
        "overall mortality."
    )
    # the first sentence covers the claim best and states no direction; the second, which
    # reverses the claim, covers it below v23's floor of 0.4 and above v29's 0.3
    assert_reads_the_reversal(claim, _HCQ, _HCQ_WINDOW, V28, V29)


_WARD = (
    "Patients with covid-19 pneumonia received hydroxychloroquine at our hospital during the "
    "first wave of 2020. Their death rate rose."
)
_WARD_WINDOW = (_WARD.index("Their"), len(_WARD))


def test_v30_reads_the_quoted_window_when_the_sentence_read_states_nothing() -> None:
    claim = "At our hospital, hydroxychloroquine decreased deaths of covid-19 pneumonia patients."
    # the first sentence covers the claim and states no direction; the quoted one shares no
    # word with it, so no coverage floor reads it, and it states the opposite direction
    assert_reads_the_reversal(claim, _WARD, _WARD_WINDOW, V29, V30)
    # with no window known (the whole span read), v30 is v29
    assert score(claim, spans(_WARD), [0.9], V30)[0] == score(claim, spans(_WARD), [0.9], V29)[0]


def test_v30_does_not_read_the_window_when_the_sentence_read_states_the_claims_polarity() -> None:
    text = (
        "Treatment with drug X decreased overall mortality in patients with sepsis. "
        "Mortality increased in untreated patients with sepsis during the same period."
    )
    window = (text.index("Mortality increased"), len(text))
    claim = "In septic patients, overall mortality was decreased by drug X."
    v30, _ = score(claim, spans(text), [0.9], V30, [window])
    # (a rewording, not a near copy: the gates decide)
    assert v30.verdict is Verdict.SUPPORTED and not v30.polarity_gated
    # the window alone would trip the gate
    assert score(claim, spans(text[window[0] :]), [0.9], V30)[0].polarity_gated


def test_v29_lowers_v28s_floor_and_v30_adds_the_window() -> None:
    assert SCORE_MODELS["v29"] is V29 and V29.close_coverage_min == 0.3
    assert V28.close_coverage_min == 0.4
    assert replace(V29, name="v28", close_coverage_min=0.4) == V28
    assert SCORE_MODELS["v30"] is V30 and V30.window_polarity and not V29.window_polarity
    assert replace(V30, name="v29", window_polarity=False) == V29


# --- v34: a figure written after a name with a hyphen is part of the name ------------------------


def test_name_figures_reads_figures_written_after_a_name_with_a_hyphen() -> None:
    assert name_figures("Smokers were less often admitted for COVID-19.", V34) == {
        "19.0": frozenset({"covid"})
    }
    assert name_figures("SARS-CoV-2 and IL-6", V34) == {
        "2.0": frozenset({"cov"}),
        "6.0": frozenset({"il"}),
    }
    # a figure the text also writes alone is a figure; one letter before a hyphen is no name
    assert name_figures("19 patients had COVID-19.", V34) == {}
    assert name_figures("Group A-2 and x-19 and 14-day", V34) == {}


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        (
            "Smokers were less likely to be admitted to hospital for COVID-19.",
            "Smokers were less likely to be admitted to hospital with SARS-CoV-2 infection.",
        ),
        (
            "Singing may contribute to transmission of COVID-19 through aerosols.",
            "The act of singing might have contributed to transmission through aerosols.",
        ),
    ],
)
def test_v34_reads_a_name_s_figure_as_the_name_s(claim: str, span: str) -> None:
    assert_figure_read_as_the_name(claim, span, V33, V34)


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        # the span writes the name with another figure, or the name without the claim's figure
        ("IL-8 levels rose in the patients after surgery.", "IL-6 levels rose in the patients."),
        ("COVID-20 spread in the city.", "COVID-19 spread in the city."),
        ("SARS-CoV-2 was found in bats.", "SARS-CoV was found in bats."),
        # ... or a longer form of the name (the claim's an initialism of it) with another figure
        (
            "Serum IL-8 rose in septic patients within a day of admission.",
            "Serum interleukin-6 rose threefold in patients with sepsis within 24 hours.",
        ),
        # a figure that is not part of a name still trips the gate
        ("COVID-19 killed 12 patients in the ward.", "COVID-19 killed 10 patients in the ward."),
    ],
)
def test_v34_still_gates_a_name_s_figure_the_span_writes_otherwise(claim: str, span: str) -> None:
    assert_figure_gated(claim, span, V34)


def test_v34_reads_a_name_cut_short_as_another_name_not_an_initialism() -> None:
    # "SARS-CoV-2" and "COVID-19" each name the pandemic's virus or disease: "cov" is "covid"
    # cut short, no initialism of it, so neither figure is read against the other
    claim = (
        "Smokers hospitalised with SARS-CoV-2 infection were less likely to need intensive care."
    )
    span = "Current smokers hospitalised for COVID-19 were less likely to need intensive care."
    assert score(claim, spans(span), [0.95], V33)[0].numeric_gated
    assert not score(claim, spans(span), [0.95], V34)[0].numeric_gated
    assert hyphen_names("Serum interleukin-6 and SARS-CoV-2 RNA", V34) == {"interleukin", "cov"}


def test_v34_is_v33_with_name_figures() -> None:
    assert SCORE_MODELS["v34"] is V34 and V34.name_figures and not V33.name_figures
    assert replace(V34, name="v33", name_figures=False) == V33
