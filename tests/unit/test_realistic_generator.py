"""The realistic adversarial generator (issue 13): each edit does what its kind promises on
hand-written sentences, and on the development data every kind is built, labelled, split by
abstract and reproducible (those tests skip when ../shared/data is absent)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from spanproof.evaluation.devdata import data_dir, scifact_corpus
from spanproof.evaluation.realistic import (
    CALIBRATION,
    HELDOUT,
    KINDS,
    LABELS,
    EditCase,
    clean_sentence,
    generate,
    nearest_documents,
    sample,
    split_of,
)
from spanproof.evaluation.rewrite import (
    carry_number,
    change_scope,
    compress,
    contract,
    cut_entity_mixup,
    cut_number_mixup,
    drop_bound,
    drop_bound_after,
    drop_eponym_possessive,
    drop_inverter,
    drop_restriction,
    first_clause,
    flip_polarity,
    flip_sign,
    invert_modifier,
    lift_from_frame,
    mix_up_number,
    overstate,
    reattribute_number,
    recompound,
    respell,
    rewrite_number_format,
    shift_decimal,
    swap_number,
    swap_quantifier,
    swap_roles,
    swap_unit,
    write_bound_after,
    write_fold,
)
from spanproof.evaluation.substitution import (
    EntityContexts,
    PhrasePool,
    PhraseVocabulary,
    mix_up_entity,
    noun_phrases,
    substitute_entity,
    substitute_phrase,
    words,
)
from spanproof.text.numerics import numerics
from spanproof.text.sentences import split_sentences
from spanproof.text.tokens import token_texts


def lower_words(text: str) -> set[str]:
    return {w.core.lower() for w in words(text)}


# --------------------------------------------------------------------------- pure edits

VOCAB = PhraseVocabulary.build(
    {
        ("regulatory", "t", "cells"): 5,
        ("natural", "killer", "cells"): 5,
        ("dendritic", "cells"): 5,
        ("tumour", "growth"): 5,
        ("tumor", "growth"): 5,
    },
    {},
    1000,
)
SENTENCE = "The effect was mediated by regulatory T cells in the spleen."


def test_phrase_substitution_keeps_the_head_noun_and_brings_only_new_words() -> None:
    pool = PhrasePool.of(["natural killer cells"])
    edit = substitute_phrase(SENTENCE, SENTENCE, pool, VOCAB)
    assert edit is not None
    assert edit.claim == "The effect was mediated by natural killer cells in the spleen."
    assert edit.detail == "regulatory T cells -> natural killer cells"
    assert not (lower_words(edit.claim) - lower_words(SENTENCE)) & lower_words(SENTENCE)


def test_phrase_substitution_never_brings_a_word_the_window_states() -> None:
    window = SENTENCE + " Natural killer activity was unchanged."
    pool = PhrasePool.of(["natural killer cells", "dendritic cells"])
    edit = substitute_phrase(SENTENCE, window, pool, VOCAB)
    assert edit is not None
    assert "dendritic cells" in edit.claim
    new = lower_words(edit.claim) - lower_words(SENTENCE)
    assert new == {"dendritic"} and not new & lower_words(window)
    assert (
        substitute_phrase(SENTENCE, window, PhrasePool.of(["natural killer cells"]), VOCAB) is None
    )


def test_phrase_substitution_refuses_a_spelling_variant() -> None:
    sentence = "Loss of the receptor accelerated tumour growth in the liver."
    assert substitute_phrase(sentence, sentence, PhrasePool.of(["tumor growth"]), VOCAB) is None


def test_noun_phrases_are_whole_runs_without_trailing_participles() -> None:
    text = "Budesonide reduced relapse in adults with allergic asthma."
    assert [" ".join(w.core for w in words(text)[i:j]) for i, j in noun_phrases(text)] == [
        "allergic asthma"
    ]
    assert noun_phrases("Obese diabetic patients treated with insulin gained weight.") == [(0, 3)]
    assert noun_phrases("Serum LDL cholesterol levels were higher in the cohort.") == []


def test_words_keep_offsets_into_the_text() -> None:
    text = '(TNF) induces IL-6, in "mice"; see Fig. 2).'
    got = words(text)
    assert [w.core for w in got] == ["TNF", "induces", "IL-6", "in", "mice", "see", "Fig", "2"]
    assert all(text[w.start : w.end] == w.core for w in got)


def test_entity_substitution_uses_a_same_shaped_entity_the_window_lacks() -> None:
    sentence = "TNF induces IL-6 in macrophages."
    pool = [("IL-10", "identifier"), ("CRP", "acronym"), ("IL-6", "identifier")]
    edit = substitute_entity(sentence, sentence, pool)
    assert edit is not None
    assert edit.claim in {"CRP induces IL-6 in macrophages.", "TNF induces IL-10 in macrophages."}
    window = sentence + " CRP and IL-10 were not measured."
    assert substitute_entity(sentence, window, pool) is None


def test_entity_substitution_prefers_the_same_prefix_and_skips_aliases() -> None:
    sentence = "Serum IL-6 rose in COVID-19 patients."
    pool = [("SARS-CoV-2", "identifier"), ("CD4", "identifier"), ("IL-8", "identifier")]
    claims = set()
    for key in map(str, range(30)):
        edit = substitute_entity(sentence, sentence, pool, key=key)
        assert edit is not None
        claims.add(edit.claim)
    assert "Serum IL-8 rose in COVID-19 patients." in claims  # IL-6 only ever becomes IL-8
    assert "Serum CD4 rose in COVID-19 patients." not in claims
    assert not any("SARS-CoV-2" in c for c in claims)  # COVID-19 and SARS-CoV-2: one thing


def test_entity_mixup_brings_an_entity_the_window_names_elsewhere() -> None:
    sentence = "TNF induces IL-6 in macrophages."
    window = "IL-10 was measured in serum. " + sentence + " CRP was unchanged."
    claims = {mix_up_entity(sentence, window, key=str(k)) for k in range(30)}
    got = {e.claim for e in claims if e is not None}
    # IL-6 becomes IL-10 (same prefix first), TNF becomes CRP; never a word the window lacks.
    assert got == {"TNF induces IL-10 in macrophages.", "CRP induces IL-6 in macrophages."}
    assert all(e is not None and "both in the window" in e.detail for e in claims)
    assert mix_up_entity(sentence, sentence) is None  # the window names no other entity


def test_entity_mixup_never_swaps_two_names_of_one_thing() -> None:
    sentence = "Interruption of IL18 action reduces atherosclerosis in mice."
    window = "Human interleukin-18 (IL18) is a cytokine. " + sentence
    assert mix_up_entity(sentence, window) is None  # interleukin-18 is IL18
    window = "We solved the structure of C8orf32 (Ntaq1). " + sentence.replace("IL18", "C8orf32")
    assert mix_up_entity(sentence.replace("IL18", "C8orf32"), window) is None


def test_entity_substitution_needs_similar_contexts_when_asked() -> None:
    contexts = EntityContexts()
    for text in ("Levels of IL-6 rose.", "Levels of IL-8 rose.", "Patients with HCV died."):
        contexts.add(text, words(text))
    assert contexts.similarity("IL-6", "IL-8") == pytest.approx(1.0)
    assert contexts.similarity("IL-6", "HCV") == 0.0
    sentence = "Levels of IL-6 rose in the cohort."
    pool = [("HCV", "acronym"), ("IL-8", "identifier")]
    edit = substitute_entity(
        sentence, sentence, pool, similarity=contexts.similarity, min_similarity=0.5
    )
    assert edit is not None and edit.claim == "Levels of IL-8 rose in the cohort."


@pytest.mark.parametrize(
    ("sentence", "claim"),
    [
        ("TNF induces IL-6 in macrophages.", "IL-6 induces TNF in macrophages."),
        (
            "The activation of STAT3 by JAK2 was rapid.",
            "The activation of JAK2 by STAT3 was rapid.",
        ),
        (
            "Mortality was higher in men than in women.",
            "Mortality was higher in women than in men.",
        ),
    ],
)
def test_role_swap_exchanges_the_two_roles(sentence: str, claim: str) -> None:
    edit = swap_roles(sentence)
    assert edit is not None and edit.claim == claim
    assert Counter(lower_words(edit.claim)) == Counter(lower_words(sentence))


@pytest.mark.parametrize(
    "sentence",
    [
        "TNF and IL-6 were measured in macrophages.",  # no verb between them
        "TNF binds IL-6 in macrophages.",  # a symmetric relation
        "DNA damage activates ATM in these cells.",  # "DNA" is a modifier, not the subject
        "Mortality was higher in men rather than in women.",
    ],
)
def test_role_swap_leaves_symmetric_or_unclear_sentences_alone(sentence: str) -> None:
    assert swap_roles(sentence) is None


def test_scope_change_replaces_a_population_the_window_does_not_name() -> None:
    sentence = "Budesonide reduced relapse in adults with asthma."
    edit = change_scope(sentence, sentence)
    assert edit is not None and edit.claim == "Budesonide reduced relapse in children with asthma."
    window = sentence + " Children were excluded."
    assert change_scope(sentence, window) is None  # children named, and a population is given


def test_scope_change_adds_a_qualifier_to_a_finding_about_people() -> None:
    sentence = "Statins lowered LDL cholesterol in the treatment arm of the trial."
    edit = change_scope(sentence, sentence)
    assert edit is not None
    assert edit.claim.startswith(sentence[:-1] + " in ") and edit.detail.startswith("added")
    assert change_scope("The samples were stored at the central laboratory.", "") is None


def test_scope_change_keeps_names_and_pinned_qualifiers() -> None:
    sentence = "Severe acute respiratory syndrome coronavirus 2 spread in pregnant women."
    assert change_scope(sentence, sentence) is None


def test_number_swap_changes_a_free_standing_number_only() -> None:
    sentence = "Mortality fell by 12% in 240 adults."
    edit = swap_number(sentence, sentence)
    assert edit is not None
    before = Counter(numerics(token_texts(sentence)))
    after = Counter(numerics(token_texts(edit.claim)))
    assert sum((before - after).values()) == 1 and sum((after - before).values()) == 1
    assert swap_number("Serum IL-6 was elevated in all patients.", "") is None


def test_number_mixup_brings_a_figure_of_the_same_shape_from_the_window() -> None:
    sentence = "Walking lowered pressure by 5 mmHg and 30% stopped at 12 weeks."
    window = "Of 240 adults, 15% dropped out and 2.5 kg were lost. " + sentence
    got = {e.claim for k in range(40) if (e := mix_up_number(sentence, window, str(k)))}
    # A count for a count, a percentage for a percentage; never a value the window lacks.
    assert got == {
        "Walking lowered pressure by 240 mmHg and 30% stopped at 12 weeks.",
        "Walking lowered pressure by 5 mmHg and 15% stopped at 12 weeks.",
        "Walking lowered pressure by 5 mmHg and 30% stopped at 240 weeks.",
    }
    assert mix_up_number(sentence, sentence) is None  # the window states no other figure
    assert mix_up_number("IL-6 and T2 rose.", "IL-8 and T3 rose. IL-6 and T2 rose.") is None


@pytest.mark.parametrize("marker", ["[1]", "[2-6]", "(Conti et al., 2020)"])
def test_number_kinds_never_change_a_citation_marker(marker: str) -> None:
    """A citation marker's number names a reference, not a figure of the finding: changing it
    makes no number swap or mixup (score models from v11 read no marker as the claim's)."""
    sentence = f"Compartments are a conserved strategy of development {marker}."
    assert swap_number(sentence, sentence) is None
    window = f"Signals cross boundaries [7]. {sentence}"
    assert mix_up_number(sentence, window) is None
    # A figure outside the marker is still changed (when the seeded pick falls on it), and
    # mixed up with the window's figures only.
    counted = [f"Compartments formed in {n} of 14 embryos {marker}." for n in range(2, 12)]
    swapped = [e.claim for c in counted if (e := swap_number(c, c)) is not None]
    assert swapped and all(claim.endswith(f"{marker}.") for claim in swapped)
    window = f"9 died [8]. {counted[0]}"
    got = {e.claim for k in range(20) if (e := mix_up_number(counted[0], window, str(k)))}
    assert got == {  # never the 8 of the window's marker
        f"Compartments formed in 9 of 14 embryos {marker}.",
        f"Compartments formed in 2 of 9 embryos {marker}.",
    }


def test_cut_number_mixup_puts_a_later_figure_into_a_shortened_copy() -> None:
    sentence = "Systolic pressure was 5 mmHg lower after 12 weeks; 8 participants dropped out."
    got = {e.claim for k in range(40) if (e := cut_number_mixup(sentence, str(k)))}
    # Cut at the clause mark after a number; that number replaced by one stated after the cut.
    assert got == {
        "Systolic pressure was 8 mmHg lower after 12 weeks.",
        "Systolic pressure was 5 mmHg lower after 8 weeks.",
    }
    # No figure after a clause mark; a lead-in phrase (the cut would leave a fragment).
    assert cut_number_mixup("Pressure was 5 mmHg lower after 12 weeks in all groups.") is None
    assert cut_number_mixup("Of the 120 patients enrolled, 45 responded and 30 relapsed.") is None


def test_cut_entity_mixup_puts_a_later_name_into_a_shortened_copy() -> None:
    edit = cut_entity_mixup("TNF induced IL-6 expression in human macrophages, whereas IL-10 fell.")
    assert edit is not None
    assert edit.claim == "TNF induced IL-10 expression in human macrophages."
    # Never a name the sentence gives as the same thing, nor one named before the cut.
    assert (
        cut_entity_mixup("Serum IL18 rose in all of the patients, and interleukin-18 (IL18) fell.")
        is None
    )
    assert cut_entity_mixup("TNF and IL-6 rose in all of the patients, whereas IL-6 fell.") is None


def test_reattribute_number_gives_a_later_figure_to_an_earlier_noun() -> None:
    edit = reattribute_number("Statins lowered LDL by 30% and triglycerides by 15% in the trial.")
    assert edit is not None
    assert edit.claim == "Statins lowered LDL by 15% in the trial."
    # Left alone: a list ("3 and 6 months" → "6 months" stays true), a noun after its figure
    # ("0.8 for men and 0.9 for women"), two figures in separate clauses.
    assert reattribute_number("Follow-up visits were done at 3 and 6 months after surgery.") is None
    assert reattribute_number("The HR was 0.8 for men and 0.9 for women in the cohort.") is None
    assert reattribute_number("LDL fell by 30% in the trial, and triglycerides by 15%.") is None


def test_carry_number_carries_an_earlier_figure_on_to_a_later_noun() -> None:
    edit = carry_number("The hazard ratio was 0.8 for men and 0.9 for women in the cohort.")
    assert edit is not None
    assert edit.claim == "The hazard ratio was 0.8 for women in the cohort."
    # Left alone: a list (no noun of the first figure's own), a noun *before* each figure
    # ("30% and triglycerides by 15%": dropping it would leave a true claim).
    assert carry_number("Follow-up visits were done at 3 and 12 months after surgery.") is None
    assert carry_number("Statins lowered LDL by 30% and triglycerides by 15% in the trial.") is None


def test_swap_unit_changes_a_figures_unit_and_keeps_its_number() -> None:
    # A unit another figure of the window carries is preferred: the percentage becomes mg.
    sentence = "LDL cholesterol fell by 30% at 6 weeks in the trial."
    window = "Patients took 40 mg of atorvastatin daily. " + sentence
    edit = swap_unit(sentence, window, "k")
    assert edit is not None
    assert edit.claim in {
        "LDL cholesterol fell by 30 mg at 6 weeks in the trial.",
        "LDL cholesterol fell by 30% at 6 days in the trial.",
        "LDL cholesterol fell by 30% at 6 months in the trial.",
        "LDL cholesterol fell by 30% at 6 years in the trial.",
    }
    # Every seed changes one figure's unit and nothing else; the same key, the same edit.
    claims = {swap_unit(sentence, window, str(k)).claim for k in range(40)}  # type: ignore[union-attr]
    assert "LDL cholesterol fell by 30 mg at 6 weeks in the trial." in claims
    assert len(claims) > 1 and swap_unit(sentence, window, "k") == edit
    # An absolute change may become a percentage; a hyphenated unit stays singular.
    mmhg = swap_unit("Systolic pressure fell by 5 mmHg in the group.", "", "k")
    assert mmhg is not None and mmhg.claim == "Systolic pressure fell by 5% in the group."
    week = swap_unit("Weight fell in the 12-week trial.", "", "k")
    assert week is not None and re.fullmatch(
        r"Weight fell in the 12-(day|month|year) trial\.", week.claim
    )
    # Left alone: a percentage whose window gives no absolute unit (a duration is none), a
    # figure without a unit, a decimal written with a middle dot ("5·2 years" is no "2 years").
    timed = swap_unit("Mortality was 12% after 6 months.", "Mortality was 12% after 6 months.", "k")
    assert timed is not None and timed.claim.startswith("Mortality was 12% after 6 ")
    assert swap_unit("Mortality was 12% in the drug group.", "", "k") is None
    assert swap_unit("The trial enrolled 120 patients.", "", "k") is None
    assert swap_unit("Follow-up lasted 5·2 years.", "", "k") is None


def test_overstate_states_the_finding_more_strongly() -> None:
    scope = overstate("Metformin reduced tumour growth in mice with colorectal cancer.", "k")
    assert scope is not None
    assert scope.claim == "Metformin reduced tumour growth with colorectal cancer."
    cause = overstate("Statins were associated with a lower risk of dementia in older adults.", "k")
    assert cause is not None
    assert cause.claim == "Statins lowered the risk of dementia in older adults."
    hedge = overstate("These changes may be useful markers of early kidney disease.", "k")
    assert (
        hedge is not None
        and hedge.claim == "These changes are useful markers of early kidney disease."
    )
    adverb = overstate("The drug potentially reduces the spread of the virus in hospitals.", "k")
    assert (
        adverb is not None
        and adverb.claim == "The drug reduces the spread of the virus in hospitals."
    )
    # Left alone: one of a pair ("in vitro and in vivo"), a sentence that states none.
    assert (
        overstate("The compound blocked viral entry in vitro and in vivo in two models.", "k")
        is None
    )
    assert overstate("The trial enrolled 120 patients with heart failure.", "k") is None


def test_polarity_edits_are_sorted_into_negation_and_direction() -> None:
    direction = flip_polarity("Metformin increased insulin sensitivity in obese adults.")
    assert direction is not None
    assert direction[0] == "direction_flip"
    assert direction[1].claim == "Metformin decreased insulin sensitivity in obese adults."
    negation = flip_polarity("Patients were treated with the drug for two weeks.")
    assert negation is not None and negation[0] == "negation_flip"
    assert negation[1].claim == "Patients were not treated with the drug for two weeks."


def test_direction_flip_keeps_the_article_in_agreement() -> None:
    flipped = flip_polarity("Metformin caused a decrease in glucose output in mice.")
    assert flipped is not None and flipped[0] == "direction_flip"
    assert flipped[1].claim == "Metformin caused an increase in glucose output in mice."


def test_negation_is_never_doubled() -> None:
    assert flip_polarity("No differences were observed between the two groups of mice.") is None


def test_first_clause_is_a_prefix_of_the_sentence_that_stands_alone() -> None:
    sentence = (
        "Metformin reduced hepatic glucose output in obese mice, which was associated with "
        "lower fasting glucose."
    )
    edit = first_clause(sentence)
    assert edit is not None
    assert edit.claim == "Metformin reduced hepatic glucose output in obese mice."
    assert sentence.startswith(edit.claim[:-1])


@pytest.mark.parametrize(
    "sentence",
    [
        "Although metformin reduced hepatic glucose output, fasting glucose was unchanged in mice.",
        "Insulin, glucagon and leptin were measured, and all were elevated in obese mice.",
        "Loss of the receptor promotes not only the clearance of dead cells, but also repair.",
    ],
)
def test_first_clause_refuses_subordinate_clauses_lists_and_correlatives(sentence: str) -> None:
    assert first_clause(sentence) is None


def test_compression_drops_a_parenthetical_but_never_a_hedge() -> None:
    edit = compress("Metformin (a biguanide) reduced hepatic glucose output in mice.")
    assert edit is not None
    assert edit.claim == "Metformin reduced hepatic glucose output in mice."
    assert compress("Metformin reduced hepatic glucose output (not significant) in mice.") is None


def test_compression_drops_a_lead_in_and_keeps_an_entity_lowercase() -> None:
    edit = compress("Here, we show that p53 binds the promoter of the gene in vivo.")
    assert edit is not None and edit.claim == "p53 binds the promoter of the gene in vivo."


def test_clean_sentence_removes_structured_abstract_headings() -> None:
    assert clean_sentence("METHODS AND RESULTS In 30 obese subjects, x rose.") == (
        "In 30 obese subjects, x rose."
    )
    assert (
        clean_sentence("Conclusions and Relevance Among women, x fell.") == "Among women, x fell."
    )
    assert clean_sentence("CIMT was measured  by ultrasound.") == "CIMT was measured by ultrasound."


def test_nearest_documents_rank_by_shared_rare_terms_and_skip_the_own_group() -> None:
    terms = [
        Counter({"asthma": 3, "budesonide": 2, "children": 1}),
        Counter({"asthma": 2, "budesonide": 1, "adults": 1}),
        Counter({"eczema": 2, "children": 1, "asthma": 1}),
        Counter({"asthma": 1, "budesonide": 1}),
        Counter({"malaria": 2, "children": 1}),
        *(Counter({f"filler{n}": 1, "study": 1}) for n in range(5)),
    ]
    groups = ["a", "b", "c", "a", "d", *"efghi"]
    near = nearest_documents(terms, groups, [0], k=3)
    assert near[0][:2] == [1, 2]  # budesonide and asthma, then asthma and children
    assert 3 not in near[0]  # same group as the query
    assert all(d < 5 for d in near[0])  # nothing shared, never a neighbour


def test_split_is_a_stable_function_of_the_abstract() -> None:
    assert split_of("4983") == split_of("4983")
    assert {split_of(str(n)) for n in range(40)} == {CALIBRATION, HELDOUT}


# --------------------------------------------------------------------------- the data


def swapped_back_in(claim: str, first: str, second: str, evidence: str) -> bool:
    """Some mention of ``second`` before some mention of ``first`` in ``claim``, exchanged, gives
    text that the evidence states (a role swap undone)."""
    for i in (m.start() for m in re.finditer(re.escape(second), claim)):
        for j in (m.start() for m in re.finditer(re.escape(first), claim)):
            if i + len(second) <= j:
                undone = (
                    claim[:i]
                    + first
                    + claim[i + len(second) : j]
                    + second
                    + claim[j + len(first) :]
                )
                if undone in evidence:
                    return True
    return False


ROOT = data_dir()
needs_data = pytest.mark.skipif(
    ROOT is None, reason="../shared/data not found (SPANPROOF_DATA_DIR)"
)


@pytest.fixture(scope="module")
def cases() -> list[EditCase]:
    assert ROOT is not None
    return generate(Path(ROOT))


@pytest.mark.data
@needs_data
def test_every_kind_is_built_with_its_label(cases: list[EditCase]) -> None:
    kinds = Counter(c.kind for c in cases)
    assert set(kinds) == set(KINDS)
    # Rare shapes: carried_number needs two figures each before its own noun in one clause (85
    # sentences of the cited abstracts have them), dropped_inverter a head such as "Lack of" at
    # a clause's start (53), unasserted_frame a head such as "no evidence that" or "whether"
    # (80), dropped_restriction a co-intervention, a dose or a lead-in's population (49),
    # decimal_shift a decimal written without its leading zero (83), dropped_bound_after a bound
    # written after its figure (42), bound_after a bound before one as a sign or "at least" (27),
    # fold_written a whole fold change (11), eponym_written an eponym with a possessive before
    # "disease", "syndrome" or the like (15), every other kind has over 100.
    fewest = {
        "eponym_written": 12,
        "decimal_shift": 80,
        "dropped_bound_after": 40,
        "bound_after": 25,
        "fold_written": 10,
        "carried_number": 80,
        "dropped_inverter": 50,
        "unasserted_frame": 80,
        "dropped_restriction": 45,
    }
    assert all(kinds[k] >= fewest.get(k, 100) for k in KINDS), kinds
    assert all(c.label == LABELS[c.kind] for c in cases)
    assert [c.kind for c in cases] == sorted((c.kind for c in cases), key=KINDS.index)


@pytest.mark.data
@needs_data
def test_no_abstract_is_in_both_halves(cases: list[EditCase]) -> None:
    halves: dict[str, set[str]] = {}
    for c in cases:
        halves.setdefault(c.doc_id, set()).add(c.split)
        assert c.split == split_of(c.doc_id)
    assert all(len(h) == 1 for h in halves.values())
    share = sum(c.split == HELDOUT for c in cases) / len(cases)
    assert 0.4 < share < 0.6


@pytest.mark.data
@needs_data
def test_windows_are_one_to_three_adjacent_sentences_of_the_abstract(
    cases: list[EditCase],
) -> None:
    assert ROOT is not None
    corpus = scifact_corpus(Path(ROOT))
    windows: dict[str, set[str]] = {}
    for c in cases:
        if c.doc_id.startswith("healthver:"):
            continue
        if c.doc_id not in windows:
            sentences = [clean_sentence(s) for s in corpus[int(c.doc_id)]["abstract"]]
            windows[c.doc_id] = {
                " ".join(s for s in sentences[i : i + n] if s)
                for i in range(len(sentences))
                for n in (1, 2, 3)
            }
        assert c.evidence in windows[c.doc_id], c
    assert len(windows) > 300


@pytest.mark.data
@needs_data
def test_claims_are_near_copies_that_differ_where_they_should(cases: list[EditCase]) -> None:
    for c in cases:
        if c.kind == "verbatim":
            assert c.claim in c.evidence
        elif c.kind == "first_clause":
            assert c.claim.endswith(".") and c.claim[:-1] in c.evidence
            assert len(c.claim) < len(c.evidence)
        elif LABELS[c.kind] != "supported":
            assert c.claim not in c.evidence, c


@pytest.mark.data
@needs_data
def test_substitutions_bring_words_the_window_lacks(cases: list[EditCase]) -> None:
    for c in cases:
        if c.kind in ("phrase_substitution", "entity_substitution"):
            new = lower_words(c.claim) - lower_words(c.evidence)
            assert new, c
            old, _, replacement = c.detail.partition(" -> ")
            assert replacement in c.claim and old in c.evidence
        if c.kind == "role_swap":
            assert swapped_back_in(c.claim, *c.detail.split(" <-> "), c.evidence), c
        if c.kind == "number_mixup":  # the new figure is the window's, only not this sentence's
            old, _, replacement = c.detail.removesuffix(" (both in the window)").partition(" -> ")
            assert replacement in c.claim and replacement in c.evidence and old in c.evidence, c
        if c.kind == "entity_mixup":  # the new entity is the window's, only not this sentence's
            old, _, replacement = c.detail.removesuffix(" (both in the window)").partition(" -> ")
            assert replacement in c.claim and replacement in c.evidence and old in c.evidence, c
            assert old not in {w.core for w in words(c.claim)}, c  # every mention replaced


@pytest.mark.data
@needs_data
def test_generation_is_deterministic_and_the_limit_is_a_seeded_sample(
    cases: list[EditCase],
) -> None:
    assert ROOT is not None
    again = generate(Path(ROOT), limit_per_kind=30)  # a second, independent build
    full = Counter(c.kind for c in cases)
    assert Counter(c.kind for c in again) == {k: min(30, full[k]) for k in KINDS}
    assert again == sample(cases, 0, 30)
    order = {c: n for n, c in enumerate(cases)}
    assert [order[c] for c in again] == sorted(order[c] for c in again)
    assert sample(cases, 1, 30) != again  # the seed draws another sample


@pytest.mark.data
@needs_data
def test_two_details_make_two_changes_each_present_in_the_claim(cases: list[EditCase]) -> None:
    mine = [c for c in cases if c.kind == "two_details"]
    assert len(mine) >= 100
    for c in mine:
        assert c.claim not in c.evidence and lower_words(c.claim) - lower_words(c.evidence), c
        details = c.detail.split("; ")
        assert len(details) == 2, c
        for detail in details:
            old, arrow, new = detail.partition(" -> ")
            if arrow:  # a replacement: the old words are the evidence's, the new the claim's
                assert new in c.claim and old in c.evidence, c
            else:  # a qualifier added ("added 'in women'")
                assert detail.startswith("added '") and detail[7:-1] in c.claim, c


@pytest.mark.data
@needs_data
def test_clause_substitutions_swap_a_phrase_in_a_shortened_copy(cases: list[EditCase]) -> None:
    mine = [c for c in cases if c.kind == "clause_substitution"]
    assert len(mine) >= 100
    for c in mine:
        shortened, _, swap = c.detail.rpartition("; ")
        old, arrow, new = swap.partition(" -> ")
        # (a compression that dropped a lead-in capitalises the phrase after it)
        assert arrow and new in c.claim and old.lower() in c.evidence.lower(), c
        assert lower_words(c.claim) - lower_words(c.evidence), c  # the swap brings new words
        # With the old phrase back, the claim is shorter than the sentence it was cut from.
        restored = c.claim.replace(new, old, 1).lower()
        source = max(
            (s.text.lower() for s in split_sentences(c.evidence)),
            key=lambda text: len(lower_words(text) & lower_words(restored)),
        )
        assert len(words(restored)) < len(words(source)), c
        assert shortened, c


@pytest.mark.data
@needs_data
def test_reworded_substitutions_change_a_detail_of_an_expert_paraphrase(
    cases: list[EditCase],
) -> None:
    mine = [c for c in cases if c.kind == "reworded_substitution"]
    assert len(mine) >= 100
    paraphrases = {(c.detail, c.evidence): c.claim for c in cases if c.kind == "paraphrase"}
    for c in mine:
        assert c.label == LABELS[c.kind] == "not_supported"
        source, _, swap = c.detail.partition(": ")
        old, arrow, new = swap.partition(" -> ")
        assert source.startswith("SciFact claim ") and arrow, c
        original = paraphrases[(source, c.evidence)]  # the paraphrase it was made from
        assert old in original and new in c.claim and c.claim != original, c
        assert lower_words(new) - lower_words(c.evidence), c  # the new words are not the window's


def test_swap_quantifier_puts_an_opposite_or_stronger_word() -> None:
    some = swap_quantifier(
        "Some patients with sepsis developed kidney injury within 48 hours.", "k"
    )
    assert some is not None
    assert some.claim in {
        "All patients with sepsis developed kidney injury within 48 hours.",
        "Most patients with sepsis developed kidney injury within 48 hours.",
    }
    rarely = swap_quantifier("Adverse events were rarely reported in the treatment arm.", "k")
    assert rarely is not None and rarely.claim in {
        "Adverse events were often reported in the treatment arm.",
        "Adverse events were frequently reported in the treatment arm.",
    }
    few = swap_quantifier("A few participants reported headache after the second dose.", "k")
    assert few is not None and few.claim.split()[0] in {"Many", "Most"}
    # Same seed, same sentence, same edit.
    assert (
        swap_quantifier("Adverse events were rarely reported in the treatment arm.", "k") == rarely
    )
    # Left alone: a superlative "most", a word in a compound, a sentence with none.
    assert (
        swap_quantifier("Asthma was the most common diagnosis in the cohort of children.", "k")
        is None
    )
    assert (
        swap_quantifier("The long-sustained-release tablet was given to 40 adults daily.", "k")
        is None
    )
    assert swap_quantifier("The trial enrolled 120 patients with heart failure.", "k") is None


def test_drop_inverter_says_the_opposite_while_quoting() -> None:
    head = drop_inverter("Lack of exercise increased the risk of falls in older adults.", "k")
    assert head is not None
    assert head.claim == "Exercise increased the risk of falls in older adults."
    gerund = drop_inverter("Blocking TNF reduced joint inflammation in patients with arthritis.")
    assert gerund is not None
    assert gerund.claim == "TNF reduced joint inflammation in patients with arthritis."
    neither = drop_inverter("Neither aspirin nor heparin reduced the rate of stroke in the trial.")
    assert neither is not None
    assert neither.claim == "Aspirin and heparin reduced the rate of stroke in the trial."
    after_that = drop_inverter("We found that loss of BRCA1 impaired repair in epithelial cells.")
    assert after_that is not None
    assert after_that.claim == "We found that BRCA1 impaired repair in epithelial cells."
    # Left alone: a head inside a phrase ("by inhibition of"), one of a pair, none at all.
    assert drop_inverter("The drug acted by inhibition of mTOR in the tumour cells.") is None
    assert drop_inverter("Data were missing or inadequate for 40 of the patients.") is None
    assert drop_inverter("The trial enrolled 120 patients with heart failure.") is None


def test_lift_from_frame_quotes_what_the_sentence_does_not_assert() -> None:
    denied = lift_from_frame("There is no evidence that vitamin C prevents the common cold.", "k")
    assert denied is not None
    assert denied.claim == "Vitamin C prevents the common cold."
    asked = lift_from_frame("It remains unclear whether aspirin reduces the risk of cancer.")
    assert asked is not None and asked.claim == "Aspirin reduces the risk of cancer."
    aim = lift_from_frame(
        "To test whether zinc shortens the duration of colds, we enrolled adults."
    )
    assert aim is not None and aim.claim == "Zinc shortens the duration of colds."
    # Left alone: an asserting head, a backed hypothesis, "regardless of whether", a whether
    # clause that is the subject.
    assert lift_from_frame("We found that vitamin C prevents the common cold in adults.") is None
    assert (
        lift_from_frame("Our data support the hypothesis that vitamin C prevents the cold.") is None
    )
    assert lift_from_frame("Risk rose regardless of whether patients took the drug daily.") is None
    assert lift_from_frame("Whether zinc shortens the duration of colds remains unknown.") is None


def test_drop_bound_drops_what_bounds_a_figure() -> None:
    less = drop_bound("Adverse events occurred in less than 5% of patients receiving the drug.")
    assert less is not None and less.detail == "-less than"
    assert less.claim == "Adverse events occurred in 5% of patients receiving the drug."
    lead = drop_bound("Over 50% of adult patients with ALL relapse within five years.")
    assert lead is not None and lead.claim.startswith("50% of adult patients")
    sign = drop_bound("Adverse events occurred in a small group (<5%) of patients on the drug.")
    assert sign is not None and sign.claim.endswith("small group (5%) of patients on the drug.")
    p_value = drop_bound(
        "The difference between the two arms was significant (p<0.05) at one year."
    )
    assert p_value is not None and "(p = 0.05)" in p_value.claim
    # "over" a span of time is no bound; nor a bound before no figure.
    assert drop_bound("Weight fell by 5 kg over 12 weeks in the treated group.") is None
    assert drop_bound("Patients were followed for over a year after the surgery.") is None


def test_rewrite_number_format_writes_one_figure_in_the_common_format() -> None:
    p_value = rewrite_number_format(
        "Mortality was lower in the treated group (P < .001) at one year."
    )
    assert p_value is not None and p_value.detail == ".001 -> 0.001"
    assert p_value.claim == "Mortality was lower in the treated group (P < 0.001) at one year."
    lancet = rewrite_number_format("Life expectancy rose by 2\u00b79 years between 2005 and 2015.")
    assert lancet is not None and "by 2.9 years" in lancet.claim
    spaced = rewrite_number_format("Seventy studies involving 671 945 women were included here.")
    assert spaced is not None and "671,945 women" in spaced.claim
    # no figure written apart: a decimal after a letter or a footnote after a bracket
    assert rewrite_number_format("The cells.5 were counted twice (OMIM 608612).12 These.") is None
    assert rewrite_number_format("Mortality was lower in the treated group (P < 0.001).") is None


def test_contract_writes_a_verb_and_not_as_one_word() -> None:
    did = contract("Mortality did not differ between the two groups at one year of follow-up.")
    assert did is not None and did.detail == "did not -> didn't"
    assert did.claim == "Mortality didn't differ between the two groups at one year of follow-up."
    cannot = contract("The drug cannot prevent relapse in most adult patients with asthma.")
    assert cannot is not None and "drug can't prevent" in cannot.claim
    will = contract("The drug will not reduce relapse in adults with severe asthma.")
    assert will is not None and "drug won't reduce" in will.claim
    assert contract("There was no difference in mortality between the two groups.") is None


def test_respell_writes_one_british_spelling_the_american_way() -> None:
    blood = respell("Intracerebral haemorrhage was more common in the treated older adults.")
    assert blood is not None and blood.detail == "haemorrhage -> hemorrhage"
    assert blood.claim == "Intracerebral hemorrhage was more common in the treated older adults."
    greek = respell("Activation of NF-\u03baB was seen in most of the samples examined here.")
    assert greek is not None and "NF-kappaB was seen" in greek.claim
    # a name keeps its spelling: a genus, a capitalised word inside the sentence
    assert respell("Children were given a vaccine against Haemophilus influenzae type b.") is None
    assert respell("Patients were seen at the Medical Research Centre in the first year.") is None
    # an "-ise" word is left alone: "exercise" is no British spelling
    assert respell("Patients were randomised to exercise or to usual care for a year.") is None
    assert respell("Patients were assigned to exercise or to usual care for a year.") is None


def test_recompound_writes_one_hyphened_word_as_one_word_where_the_corpus_does() -> None:
    attested = {"nonsmall", "overexpression"}.__contains__
    cancer = recompound(
        "Gefitinib improved progression-free survival in non-small cell lung cancer.", attested
    )
    assert cancer is not None and cancer.detail == "non-small -> nonsmall"
    assert (
        cancer.claim == "Gefitinib improved progression-free survival in nonsmall cell lung cancer."
    )
    start = recompound("Over-expression of the gene extended the lifespan of the worms.", attested)
    assert start is not None and start.claim.startswith("Overexpression of the gene")
    # a closed form the corpus does not use, and a name, keep their hyphens
    assert (
        recompound("The effect was dose-dependent in all of the mice we studied.", attested) is None
    )
    assert (
        recompound("IL-6 and K-ras were measured in all of the samples we studied.", attested)
        is None
    )


def test_flip_sign_drops_a_figure_s_minus_or_flips_a_name_s_sign() -> None:
    dropped = flip_sign("Systolic pressure changed by \u22122.3 mmHg in the walking group.")
    assert dropped is not None and dropped.detail == "\u22122.3 -> 2.3"
    assert dropped.claim == "Systolic pressure changed by 2.3 mmHg in the walking group."
    marker = flip_sign("CD4+ T cells were depleted in the lymph nodes of infected macaques.")
    assert marker is not None and marker.claim.startswith("CD4- T cells")
    genotype = flip_sign("Lesions were larger in Apoe\u2212/\u2212 mice fed a western diet.")
    assert genotype is not None and "Apoe+/+ mice" in genotype.claim
    # no sign: a hyphen in a name or a range, a figure's "+" (a bound)
    assert flip_sign("IL-6 levels rose in 5-10% of the patients aged over 60 years.") is None
    assert flip_sign("Patients treated for 10+ years had fewer relapses than the others.") is None


def test_write_bound_after_and_drop_bound_after_move_or_drop_a_figure_s_bound() -> None:
    aged = write_bound_after("Falls were common in patients aged \u226565 years in the cohort.")
    assert aged is not None and aged.detail == "\u226565 years -> 65 years or older"
    least = write_bound_after("Women who took at least 5 tablets a day had fewer fractures.")
    assert least is not None and "took 5 tablets or more a day" in least.claim
    # a figure with a decimal middle dot is one figure; "and" is no unit
    dot = write_bound_after("The association was not significant (p value \u22650\u00b705) here.")
    assert dot is not None and "(p value 0\u00b705 or more)" in dot.claim
    dropped = drop_bound_after(
        "Falls were common in patients aged 65 years or older in the cohort."
    )
    assert dropped is not None and dropped.claim.endswith("aged 65 years in the cohort.")
    assert (
        drop_bound_after("Falls were common in patients aged 65 to 70 years in the cohort.") is None
    )


def test_write_fold_writes_a_fold_change_in_words() -> None:
    fold = write_fold("Expression rose 2-fold in the treated cells after stimulation.")
    assert fold is not None and fold.claim.startswith("Expression rose twofold in")
    words = write_fold("Expression rose threefold in the treated cells after stimulation.")
    assert words is not None and words.claim.startswith("Expression rose 3-fold in")
    assert write_fold("Expression rose 1.5-fold in the treated cells after stimulation.") is None


def test_drop_eponym_possessive_writes_an_eponym_without_its_possessive() -> None:
    ad = drop_eponym_possessive("Amyloid plaques are a hallmark of Alzheimer's disease in humans.")
    assert (
        ad is not None
        and ad.claim == "Amyloid plaques are a hallmark of Alzheimer disease in humans."
    )
    assert ad.detail == "Alzheimer's -> Alzheimer"
    curly = drop_eponym_possessive("Survivors of Hodgkin\u2019s lymphoma had more second cancers.")
    assert curly is not None and "of Hodgkin lymphoma had" in curly.claim
    # a possessive before anything else is no eponym
    assert drop_eponym_possessive("The Institute's report described the cohort in detail.") is None
    assert drop_eponym_possessive("We measured the patient's disease activity each year.") is None


def test_shift_decimal_misreports_a_decimal_without_its_leading_zero_tenfold() -> None:
    fewer = shift_decimal("Mortality was lower in the treated group (P < .001) at one year.")
    assert fewer is not None and fewer.detail == ".001 -> .01"
    assert fewer.claim == "Mortality was lower in the treated group (P < .01) at one year."
    more = shift_decimal("The correlation between the two scores was .45 in adults.")
    assert more is not None and more.claim.endswith("scores was .045 in adults.")
    assert shift_decimal("Mortality was lower in the treated group (P < 0.001).") is None


def test_drop_restriction_drops_what_restricts_the_finding() -> None:
    combo = drop_restriction(
        "Metformin in combination with insulin reduced HbA1c in teens with diabetes."
    )
    assert combo is not None and combo.claim == "Metformin reduced HbA1c in teens with diabetes."
    dose = drop_restriction("High-dose vitamin D reduced the rate of falls in older women.")
    assert dose is not None and dose.claim == "Vitamin D reduced the rate of falls in older women."
    lead = drop_restriction("Among smokers, the intervention reduced lung cancer incidence by 20%.")
    assert (
        lead is not None and lead.claim == "The intervention reduced lung cancer incidence by 20%."
    )
    sub = drop_restriction("The drug lowered blood pressure in a subgroup of patients on dialysis.")
    assert (
        sub is not None and sub.claim == "The drug lowered blood pressure in patients on dialysis."
    )
    # Left alone: a lead-in that restricts nothing, a sentence with no restriction.
    assert (
        drop_restriction("In all participants, walking improved lung function for a day.") is None
    )
    assert drop_restriction("The trial enrolled 120 patients with heart failure.") is None


def test_invert_modifier_writes_an_of_phrase_as_a_compound() -> None:
    lead = invert_modifier(
        "Expression of IL-6 was higher in patients with sepsis than in controls."
    )
    assert lead is not None
    assert lead.claim == "IL-6 expression was higher in patients with sepsis than in controls."
    inner = invert_modifier("The risk of cancer rose in women who smoked heavily for years.")
    assert (
        inner is not None
        and inner.claim == "The cancer risk rose in women who smoked heavily for years."
    )
    # Left alone: a part or a share, the first of a list, a noun that a modifier follows.
    assert (
        invert_modifier("The number of patients was low in the treated arm of the trial.") is None
    )
    assert (
        invert_modifier("Levels of IL-6 and TNF were higher in the treated group of mice.") is None
    )
    assert (
        invert_modifier("Cells from the liver of fasted mice were collected for analysis.") is None
    )
