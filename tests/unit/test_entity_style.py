"""Score model v55: the entity gate reads how a name is written, not only which: capitals that
are a sentence's style ("the short answer is YES", a heading's "AND", a sentence written in
capitals) name nothing, a name the span writes joined to its figures ("COVID19") is the claim's
"COVID-19", and an abbreviation the claim defines in place ("(BIR)") is present where the span
writes out its words."""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.core.models import DEFAULT_SCORE_MODEL, Verdict
from spanproof.text.tokens import segments, token_texts
from spanproof.verifier import Verifier
from spanproof.verify.gates import (
    EMPHASIS_WORDS,
    EntityView,
    alias_spelled,
    entities,
    entity_view,
    shouted,
    written_joined,
)
from spanproof.verify.scoring import SCORE_MODELS, V54, V55

#: The evidence of a HealthVer claim: acronyms that stood in for the claim's "YES".
PETS = (
    "On April 22, CDC and the U.S. Department of Agriculture (USDA) reported cases of two "
    "domestic cats with confirmed infection with SARS-CoV-2, the virus that causes coronavirus "
    "disease 2019 (COVID-19)."
)
VITAMIN_D = (
    "If vitamin D does in fact reduce the severity of COVID-19 in regard to pneumonia/ARDS, "
    "inflammation, inflammatory cytokines and thrombosis, it is our opinion that supplements "
    "would offer a relatively easy option to decrease the impact of the pandemic."
)


def scored(model: str, claim: str, span: str) -> tuple[Verdict, bool]:
    (verdict,) = Verifier(score_model=model).score_claims([claim], [{"id": "S1", "text": span}])
    return verdict.verdict, verdict.entity_gated


def test_a_sentence_in_capitals_is_shouted() -> None:
    assert shouted(segments("VITAMIN D LEVELS MAY IMPACT COVID-19 MORTALITY RATES"))
    assert shouted(segments("DAILY WALKING LOWERED BP"))
    assert not shouted(segments("TNF and IL-6 rose in mice given LPS."))  # acronyms in a sentence
    assert not shouted(segments("The short answer is YES"))
    assert not shouted(segments("NO"))  # too short to tell


def test_emphasis_and_heading_words_are_no_acronyms_under_plain_case() -> None:
    heading = "CONCLUSIONS AND RELEVANCE In this trial, TNF fell."
    assert "and" in entities(heading) and "and" not in entities(heading, plain_case=True)
    assert "tnf" in entities(heading, plain_case=True)
    answer = "Can cats get coronavirus? The short answer is YES"
    assert "yes" in entities(answer) and "yes" not in entities(answer, plain_case=True)
    loud = "VITAMIN D LEVELS MAY IMPACT COVID-19 MORTALITY RATES"
    read = entities(loud, plain_case=True)
    assert not {"levels", "impact", "rates", "may"} & set(read)
    assert "levels" in entities(loud)  # v54 read every such word as an acronym
    # the cost: in a shouted sentence a long acronym is read as a word too; a short one stays
    assert "covid" not in read
    assert "bp" in entities("DAILY WALKING LOWERED SYSTOLIC BP", plain_case=True)


@pytest.mark.parametrize("word", ["no", "all", "who", "us", "or", "are", "go", "can"])
def test_words_that_are_as_often_acronyms_stay_acronyms(word: str) -> None:
    # "NO" is nitric oxide, "ALL" a leukaemia, "GO" the Gene Ontology
    assert word not in EMPHASIS_WORDS
    assert word in entities(f"We measured {word.upper()} in the cells.", plain_case=True)


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        ("Can dogs and cats get coronavirus? The short answer is YES", PETS),
        ("VITAMIN D LEVELS MAY IMPACT COVID-19 MORTALITY RATES", VITAMIN_D),
    ],
)
def test_v55_reads_capitals_of_style_as_no_name(claim: str, span: str) -> None:
    assert scored("v54", claim, span) == (Verdict.UNSUPPORTED, True)
    assert scored("v55", claim, span) == (Verdict.SUPPORTED, False)


def test_v55_still_gates_an_acronym_swapped_in_a_shouted_sentence() -> None:
    span = "In a trial, daily walking lowered systolic BP."
    assert scored("v55", "DAILY WALKING LOWERED SYSTOLIC HR", span) == (Verdict.UNSUPPORTED, True)


def view(text: str) -> EntityView:
    return entity_view(text, token_texts(text))


def test_a_name_written_joined_to_its_figures() -> None:
    assert written_joined("covid", view("COVID-19 deaths rose."), view("COVID19 deaths rose."))
    assert written_joined("sars", view("SARS-CoV-2 spread."), view("SARSCoV2 spread."))
    assert written_joined("cov", view("SARS-CoV-2 spread."), view("SARSCoV2 spread."))
    assert written_joined("il", view("IL 6 rose."), view("IL6 rose."))
    assert not written_joined("il", view("IL-8 rose."), view("IL6 rose."))  # another figure
    assert not written_joined("covid", view("COVID-19 rose."), view("COVID rose."))  # no figure
    assert not written_joined("covid", view("COVID-19 rose."), view("XCOVID19 rose."))


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        (
            "Vitamin D may improve odds of survival from COVID-19.",
            "Vitamin D supplementation improved survival of COVID19 patients admitted to the ICU.",
        ),
        ("SARS-CoV-2 spreads through the air.", "SARSCoV2 spreads through the air, the WHO said."),
    ],
)
def test_v55_reads_a_name_the_span_writes_joined(claim: str, span: str) -> None:
    assert scored("v54", claim, span) == (Verdict.UNSUPPORTED, True)  # "ICU" stood in
    assert scored("v55", claim, span) == (Verdict.SUPPORTED, False)


def test_v55_still_gates_a_name_with_another_figure() -> None:
    span = "IL6 rose in the ICU, CRP fell."
    assert scored("v55", "IL-8 rose in the ICU.", span) == (Verdict.UNSUPPORTED, True)


def test_an_abbreviation_defined_in_place_spelled_by_the_span() -> None:
    assert alias_spelled("bir", view("cells switch to break-induced replication."))
    assert alias_spelled("evs", view("Cells shed extracellular vesicles."))
    assert not alias_spelled("bir", view("cells switch to mitotic DNA synthesis."))


def test_v55_reads_an_abbreviation_the_claim_defines_by_the_spans_words() -> None:
    claim = "RAD52 is involved in break-induced DNA replication (BIR)."
    span = (
        "Fragile sites trigger mitotic DNA synthesis (MiDAS), whereupon cells are proposed to "
        "switch to a RAD52-dependent form of break-induced replication."
    )
    assert scored("v54", claim, span) == (Verdict.UNSUPPORTED, True)  # "MiDAS" stood in
    assert scored("v55", claim, span) == (Verdict.SUPPORTED, False)


def test_v55_is_v54_with_its_three_readings() -> None:
    assert SCORE_MODELS["v55"] is V55 and V55.plain_case and not V54.plain_case
    assert V55.joined_names and not V54.joined_names
    assert V55.alias_initials and not V54.alias_initials
    assert (
        dataclasses.replace(
            V54, name="v55", plain_case=True, joined_names=True, alias_initials=True
        )
        == V55
    )
    assert SCORE_MODELS[DEFAULT_SCORE_MODEL].plain_case
