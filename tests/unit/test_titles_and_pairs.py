"""Score model v66: a title bound to another name, a score with its sides traded, and a
predicative "non-" read as "not"."""

from __future__ import annotations

import dataclasses

import pytest

from spanproof.core.models import Verdict
from spanproof.verifier import Verifier
from spanproof.verify.bindings import bindings, title_conflict
from spanproof.verify.figure_units import figure_pairs, pair_reversed
from spanproof.verify.scoring import SCORE_MODELS, V65, V66

BANK = (
    "Fenwright Bank said its mortgage lending rose 9% in 2024. Chief executive Anya Borrell will "
    "step down in June and be replaced by finance director Marcus Hale."
)
RACE = (
    "Mira Castell won the women's 10,000 metres at the Eastbridge Games, beating defending "
    "champion Leah Omondi by just over two seconds."
)
FINAL = (
    "In the final at Corbin Park, Hana Leskova defeated top seed Ilse Marten 6-4, 3-6, 7-5 to "
    "claim her first title of the season."
)


def test_bindings_read_a_title_right_before_a_name() -> None:
    assert bindings(BANK) == (
        (("chief", "executive"), ("anya", "borrell")),
        (("finance", "director"), ("marcus", "hale")),
    )
    # a verb's past or -ing form before a name, a stop word, a short word: no title
    assert bindings("Acme visited Paris and is working with Beta in the UK.") == ()


@pytest.mark.parametrize(
    ("claim", "span", "conflict"),
    [
        (
            "Finance director Anya Borrell will take over from chief executive Marcus Hale.",
            BANK,
            (("finance", "director"), ("anya", "borrell")),
        ),
        (
            "Defending champion Mira Castell retained her title.",
            RACE,
            (("defending", "champion"), ("mira", "castell")),
        ),
        ("Top seed Ilse Marten reached the final.", FINAL, None),  # the span binds it so
        ("Top seed Marten reached the final.", FINAL, None),  # a name's part is the name
        ("Striker Tomas Vyle scored twice.", RACE, None),  # a title the span gives no one
    ],
)
def test_a_title_the_span_gives_another_name_conflicts(
    claim: str, span: str, conflict: tuple[tuple[str, ...], tuple[str, ...]] | None
) -> None:
    assert title_conflict(claim, span) == conflict


def test_pairs_of_figures_and_their_order() -> None:
    assert figure_pairs("won 6-4, 6-3 in 2019-2020; COVID-19; CI 1.2-3.4; 10-20%") == {
        ("6", "4"),
        ("6", "3"),
    }
    assert pair_reversed("Leskova won 6-4, 6-3, 7-5.", FINAL) == ("6", "3")
    assert pair_reversed("Leskova won 6-4, 3-6, 7-5.", FINAL) is None
    assert pair_reversed("Rovers won 3-1.", "Rovers beat Ashdown 3-1 and lost 1-3 later.") is None


def _verdict(model: str, claim: str, evidence: str) -> Verdict:
    (verdict,) = Verifier(score_model=model).score_claims([claim], [{"id": "S1", "text": evidence}])
    return verdict.verdict


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Finance director Anya Borrell will take over from chief executive Marcus Hale.", BANK),
        ("Leskova defeated Marten 6-4, 6-3, 7-5 in the Corbin Park final.", FINAL),
    ],
)
def test_a_traded_title_or_score_is_refused_from_v66(claim: str, evidence: str) -> None:
    assert _verdict("v65", claim, evidence) is Verdict.SUPPORTED
    assert _verdict("v66", claim, evidence) is Verdict.UNSUPPORTED


def test_a_predicative_non_is_a_negation_from_v66() -> None:
    evidence = (
        "Tickets on Skyrill Air's Saver fare are non-refundable, but they can be changed up to "
        "24 hours before departure for a fee of 45 dollars plus any fare difference."
    )
    claim = "Skyrill Air Saver tickets cannot be refunded."
    assert _verdict("v65", claim, evidence) is Verdict.CONTRADICTED
    assert _verdict("v66", claim, evidence) is not Verdict.CONTRADICTED
    assert "non" in V66.denials and "non" not in V65.denials


def test_v66_is_v65_with_the_three_readings() -> None:
    readings = {"figure_pairs": True, "title_bindings": True, "predicative_non": True}
    assert SCORE_MODELS["v66"] is V66
    assert not any(getattr(V65, name) for name in readings)
    assert dataclasses.replace(V65, name="v66", **readings) == V66
