"""Score model v77: a negation in one of a sentence's contrasted clauses is kept to that clause
(:func:`spanproof.verify.gates.clause_denials`,
:func:`~spanproof.verify.gates.confine_clause_negations`): it counts against a claim only where
the claim holds a word the clause denies, or joins a contrast of its own."""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.core.models import DEFAULT_SCORE_MODEL, Verdict
from spanproof.verifier import Verifier
from spanproof.verify.gates import (
    clause_denials,
    confine_clause_negations,
    cues,
    parity_against,
    polarity_gate_trips,
    segment_words,
)
from spanproof.verify.scoring import SCORE_MODELS, V76, V77, ScoreModel

TRIAL = (
    "In a randomized trial of 412 adults with type 2 diabetes, adding empagliflozin to standard "
    "care lowered the rate of hospitalization for heart failure compared with placebo (hazard "
    "ratio 0.65), but did not change all-cause mortality."
)


@pytest.mark.parametrize(
    ("text", "confined"),
    [
        (TRIAL, [{"change", "cause", "mortality"}]),
        (
            "Metformin did not reduce body weight, but it improved glycaemic control.",
            [{"reduce", "body", "weight"}],
        ),
        (
            "Symptoms improved in the first week; no difference in relapse was seen at one year.",
            [{"difference", "relapse", "seen", "one", "year"}],
        ),
        # both clauses negated, or neither: one parity, read whole
        ("It did not lower pain, but it did not raise it either.", []),
        ("It lowered pain, but it raised nausea.", []),
        # an ellipsis of the first clause's verb: "…, but not B"
        ("Aspirin lowered the risk in men, but not in women.", []),
        # what is denied stands in the other clause: another subject's finding, read whole
        ("Drug A reduced mortality, but drug B did not reduce mortality.", []),
        # no contrast at all
        ("The drug did not lower the risk of stroke.", []),
        # one sentence of several: the others are read as before
        ("Pain fell. It lowered pain, but it did not change mobility.", [{"change", "mobility"}]),
    ],
)
def test_what_a_contrasted_clause_denies(text: str, confined: list[set[str]]) -> None:
    found = clause_denials(text, more=True, scoped=True)
    assert [set(c.denied) for c in found] == confined


def _cues(text: str, clauses: bool = True):  # type: ignore[no-untyped-def]
    read = cues(segment_words(text), forms=True, more=True, scoped=True, paired=True)
    if not clauses:
        return read
    return confine_clause_negations(read, clause_denials(text, more=True, scoped=True))


def test_a_confined_negation_leaves_the_parity_for_a_group() -> None:
    whole, confined = _cues(TRIAL, clauses=False), _cues(TRIAL)
    assert whole.negation_parity == 1 and whole.groups == ()
    assert confined.negation_parity == 0
    assert [c.denied for c in confined.clauses] == [frozenset({"change", "cause", "mortality"})]
    assert confined.groups == () and confined.contrast
    unchanged = confine_clause_negations(whole, ())
    assert (unchanged.negation_parity, unchanged.clauses) == (1, ())


@pytest.mark.parametrize(
    ("claim", "trips"),
    [
        # the clause that is not negated: no denial of it
        ("Empagliflozin cut hospitalizations for heart failure.", False),
        # a denial of the first clause's finding: the window does not deny it
        ("Empagliflozin had no effect on hospitalization for heart failure.", True),
        # the negated clause's finding, denied or stated
        ("Empagliflozin did not reduce all-cause mortality.", False),
        ("Empagliflozin reduced all-cause mortality.", True),
        # a claim about the clause's own subject, in other words than those it denies
        ("Adding empagliflozin did not change all-cause mortality.", False),
        # a claim that joins a contrast of its own is read against the whole sentence
        ("Empagliflozin cut hospitalizations but did not change heart failure.", False),
    ],
)
def test_the_claim_is_read_against_the_clause_it_names(claim: str, trips: bool) -> None:
    c, w = _cues(claim), _cues(TRIAL)
    assert polarity_gate_trips(c, w) is trips
    assert (parity_against(c, w) != parity_against(w, c)) is trips


KESTREL = (
    "Setting max_retries to 0 disables retries entirely, while tasks marked idempotent: false "
    "are never retried regardless of this setting."
)


@pytest.mark.parametrize(
    ("claim", "trips"),
    [
        # the claim names the negated clause's own subject: about that clause
        ("Kestrel retries tasks marked idempotent: false as many times as it can.", True),
        ("Tasks marked idempotent: false are not retried by Kestrel.", False),
        # the claim names the other clause's words: about that one
        ("Setting max_retries to 0 turns retries off entirely.", False),
    ],
)
def test_a_claim_about_the_negated_clause_s_subject(claim: str, trips: bool) -> None:
    assert polarity_gate_trips(_cues(claim), _cues(KESTREL)) is trips


BERLIN = (
    "It was opened on the night of 9 November 1989, but official demolition did not start "
    "until June 1990."
)


@pytest.mark.parametrize(
    ("claim", "trips"),
    [
        # two of the negated clause's own words name it, though the other clause's date is
        # named more: a splice of the two, which the negation still refuses
        ("Official demolition of the Berlin Wall began on the night of 9 November 1989.", True),
        # one word the two share by chance does not
        ("The wall was opened on the night of 9 November 1989 to official visitors.", False),
    ],
)
def test_two_own_words_name_the_negated_clause(claim: str, trips: bool) -> None:
    assert polarity_gate_trips(_cues(claim), _cues(BERLIN)) is trips


def _verdict(model: ScoreModel, claim: str, evidence: str) -> Verdict:
    (verdict,) = Verifier(score_model=model).score_claims([claim], [{"id": "S1", "text": evidence}])
    return verdict.verdict


def test_v77_supports_the_finding_v76_read_as_denied() -> None:
    claim = "Empagliflozin cut heart failure hospitalizations in adults with type 2 diabetes."
    assert _verdict(V76, claim, TRIAL) is Verdict.CONTRADICTED
    assert _verdict(V77, claim, TRIAL) is Verdict.SUPPORTED


def test_v77_contradicts_a_denial_v76_supported() -> None:
    claim = "Empagliflozin had no effect on heart failure hospitalizations in diabetic adults."
    assert _verdict(V76, claim, TRIAL) is Verdict.SUPPORTED
    assert _verdict(V77, claim, TRIAL) is Verdict.CONTRADICTED


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("Empagliflozin reduced deaths from any cause in adults with type 2 diabetes.", "c"),
        ("Empagliflozin did not reduce all-cause mortality in adults with type 2 diabetes.", "s"),
    ],
)
def test_v77_still_reads_the_negated_clause(claim: str, verdict: str) -> None:
    expected = Verdict.CONTRADICTED if verdict == "c" else Verdict.SUPPORTED
    assert _verdict(V76, claim, TRIAL) is expected
    assert _verdict(V77, claim, TRIAL) is expected


def test_a_claim_with_a_contrast_of_its_own_keeps_the_parity() -> None:
    claim = "Cats can be infected by the novel coronavirus but are unlikely to get sick."
    evidence = (
        "These studies confirm that cats are susceptible to productive SARS-CoV-2 infection, "
        "but are unlikely to develop clinical disease."
    )
    assert _cues(claim).contrast and not _cues("Cats can be infected.").contrast
    assert not polarity_gate_trips(_cues(claim), _cues(evidence))
    assert _verdict(V77, claim, evidence) is _verdict(V76, claim, evidence)


def test_v77_is_v76_with_clause_negations() -> None:
    assert SCORE_MODELS["v77"] is V77
    assert DEFAULT_SCORE_MODEL != "v77"
    assert dataclasses.replace(V76, name="v77", clause_negations=True) == V77
    assert V77.clause_negations and not V76.clause_negations
    assert V77.paired_negations
