"""Score model v65: general text as answers quote it — a figure's unit, a splice across a
semicolon, a name for what the sentence before calls "it" or "the company", and an opening frame
of context that the evidence states."""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.core.models import ClaimVerdict, Verdict
from spanproof.verifier import Verifier
from spanproof.verify.edits import clause_starts, prepare_text
from spanproof.verify.figure_units import measures, units_differ
from spanproof.verify.scoring import SCORE_MODELS, V64, V65


def _verdicts(model: str, claims: list[str], evidence: str) -> list[ClaimVerdict]:
    return Verifier(score_model=model).score_claims(claims, [{"id": "S1", "text": evidence}])


def _judgements(verdict: ClaimVerdict) -> list[str]:
    return [e.judgement for e in verdict.edits]


@pytest.mark.parametrize(
    ("claim", "span", "figure"),
    [
        ("It waits 30 minutes between attempts.", "It waits 30 seconds between attempts.", "30"),
        ("The river flows 2,850 miles.", "The river flows roughly 2,850 kilometres.", "2850"),
        ("A change costs 45 euros.", "A change costs a fee of 45 dollars.", "45"),
        ("It costs $12 per user per year.", "It costs $12 per user per month.", "12"),
        ("Staff accrue 1.5 days of leave per week.", "Staff accrue 1.5 days per month.", "1.5"),
        ("Passports must be valid for six weeks.", "valid for at least six months", "6"),
        ("The lake is 214 feet deep.", "The deepest point, 214 metres, lies near", "214"),
    ],
)
def test_a_figure_measured_in_another_unit_differs(claim: str, span: str, figure: str) -> None:
    assert units_differ(claim, span) == figure


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        ("Patients took 20 mg daily.", "Patients took 20 mg per day."),  # no rate said: not read
        ("Patients took 20 mg per day.", "Patients took 20 mg daily."),
        ("Patients received 5 mg.", "Patients received 5 mg/kg."),  # its unit is there
        ("It costs £45.", "It costs 45 pounds."),  # the same unit written two ways
        ("The trial ran 12 weeks.", "The 12-week trial."),
        ("At 6 months, pain fell.", "At 6 weeks and at 6 months, pain fell."),  # one place agrees
        ("Revenue rose 12%.", "Revenue rose 12 percentage points."),  # percentages not read
        ("It waits 30 minutes.", "It waits 30 before retrying."),  # no unit there to differ
    ],
)
def test_a_figure_the_span_measures_alike_or_not_at_all_does_not_differ(
    claim: str, span: str
) -> None:
    assert units_differ(claim, span) is None


def test_measures_read_signs_units_and_rates() -> None:
    assert measures("$12 per user per month, or 15 dollars monthly; six-month probation") == (
        ("12", frozenset({"dollar", "per month"})),
        ("15", frozenset({"dollar"})),
        ("6", frozenset({"month"})),
    )


SCHEDULER = (
    "By default, the Kestrel job scheduler retries a failed task three times, waiting 30 "
    "seconds between attempts. Setting max_retries to 0 disables retries entirely."
)


def test_a_figure_with_another_unit_is_refused_from_v65() -> None:
    claim = ["By default, Kestrel waits 30 minutes between attempts when retrying a failed task."]
    assert _verdicts("v64", claim, SCHEDULER)[0].verdict is Verdict.SUPPORTED
    (verdict,) = _verdicts("v65", claim, SCHEDULER)
    assert verdict.verdict is Verdict.UNSUPPORTED and verdict.numeric_gated
    (right,) = _verdicts("v65", ["Kestrel waits 30 seconds between attempts."], SCHEDULER)
    assert right.verdict is Verdict.SUPPORTED


LABEL = "The drug is approved for adults; its safety in children has not been established."


def test_semicolons_outside_brackets_open_clauses() -> None:
    text = prepare_text("Approved for adults; its safety (n = 12; 95% CI) is unknown.")
    words = [t.text for t in text.tokens]
    assert {words[j] for j in clause_starts(text)} == {"its"}


def test_a_deletion_across_a_semicolon_splices_two_statements_from_v65() -> None:
    claims = ["The drug is approved for children.", "The drug is approved for adults."]
    assert [v.verdict for v in _verdicts("v64", claims, LABEL)] == [Verdict.SUPPORTED] * 2
    spliced, kept = _verdicts("v65", claims, LABEL)
    assert spliced.verdict is Verdict.UNSUPPORTED
    assert "unsupported: joins two clauses' parts" in _judgements(spliced)
    assert kept.verdict is Verdict.SUPPORTED


PLAN = (
    "The Team plan of Quillstack costs $12 per user per month when billed annually. It "
    "includes 100 GB of shared storage, and teams with more than 50 users must contact sales."
)
BAKERY = (
    "Before founding the bakery chain Crumb & Co in 2009, Samir Haddad worked for eleven years "
    "as an accountant in Leeds. The company now has 64 shops, all in northern England."
)


def test_the_company_is_what_the_sentence_before_names_first() -> None:
    named, other = _verdicts(
        "v65",
        ["Crumb & Co now has 64 shops, all in northern England.",
         "Samir Haddad now has 64 shops, all in northern England."],
        BAKERY,
    )  # fmt: skip
    assert named.verdict is Verdict.SUPPORTED
    assert other.verdict is not Verdict.SUPPORTED


@pytest.mark.parametrize(
    ("claim", "evidence", "judgement"),
    [
        (  # the clause after the semicolon goes on about the subject: no splice
            "Polar bears depend on the ocean.",
            "Because of their dependence on the sea ice, polar bears are classified as marine "
            "mammals; an alternative basis for classification is that they depend on the ocean "
            "as their main food source.",
            "unsupported: joins two clauses' parts",
        ),
        (  # semicolons in brackets separate the items of a statistics list
            "Only ritonavir and a CD4 cell count increase were associated with hepatotoxicity.",
            "Only ritonavir (adjusted odds ratio [AOR], 8.6; 95% CI, 3.0-24.6) and a CD4 cell "
            "count increase (AOR, 3.6; 95% CI, 1.0-12.9) were associated with severe "
            "hepatotoxicity.",
            "unsupported: joins two clauses' parts",
        ),
        (  # "the motor" is a part of what the sentence before names, not a name for it
            "The Vantor X5 is not covered by the two-year warranty if it is used commercially.",
            "The Vantor X5 cordless vacuum weighs 2.6 kg. Its battery charges in 4 hours, but the "
            "motor is not covered by the two-year warranty if the device is used commercially.",
            "allowed: named in the evidence before",
        ),
    ],
)
def test_what_v65_does_not_read_as_its_readings(claim: str, evidence: str, judgement: str) -> None:
    (verdict,) = _verdicts("v65", [claim], evidence)
    assert judgement not in _judgements(verdict)


RULES = (
    "Students at Pellham University may switch majors during their first two years. Switching "
    "into engineering requires a grade of C or better, and any change of major after the second "
    "year needs approval from the dean."
)


@pytest.mark.parametrize(
    ("claim", "evidence", "judgement"),
    [
        (
            "Quillstack's Team plan includes 100 GB of shared storage.",
            PLAN,
            "allowed: named in the evidence before",
        ),
        (
            "At Pellham, any change of major after the second year needs approval from the dean.",
            RULES,
            "allowed: context stated in the evidence",
        ),
    ],
)
def test_a_faithful_answer_v64_refused_is_supported_from_v65(
    claim: str, evidence: str, judgement: str
) -> None:
    assert _verdicts("v64", [claim], evidence)[0].verdict is Verdict.UNSUPPORTED
    (verdict,) = _verdicts("v65", [claim], evidence)
    assert verdict.verdict is Verdict.SUPPORTED
    assert judgement in _judgements(verdict)


def test_a_frame_is_no_context_where_the_window_names_another_subject() -> None:
    evidence = "Acme's revenue rose 5% in 2024. Beta Inc's revenue fell 3% in 2024."
    (verdict,) = _verdicts("v65", ["At Acme, revenue fell 3% in 2024."], evidence)
    assert verdict.verdict is not Verdict.SUPPORTED


def test_v65_is_v64_with_the_four_readings() -> None:
    readings = {
        "edit_clause_splices": True,
        "figure_units": True,
        "edit_named_within": True,
        "edit_stated_frames": True,
    }
    assert SCORE_MODELS["v65"] is V65
    assert not any(getattr(V64, name) for name in readings)
    assert dataclasses.replace(V64, name="v65", **readings) == V65
