"""A numeric citation read as the evidence item whose id is that number."""

from __future__ import annotations

from spanproof.cli.render import uncited_markers
from spanproof.core.models import Claim
from spanproof.verifier import Verifier
from spanproof.verify.decompose import RuleBasedDecomposer, markers_as_ids

DECOMPOSER = RuleBasedDecomposer()
#: Evidence whose ids are numbers out of their order: a pipeline that showed "[2] …", "[1] …".
EVIDENCE = [
    {"id": "2", "text": "Sodium restriction had no effect on heart rate."},
    {"id": "1", "text": "Daily walking lowered systolic blood pressure by 5 mmHg."},
]
DRAFT = (
    "Walking lowered systolic blood pressure by 5 mmHg [1]. Sodium did not change heart rate [2]."
)


def test_a_number_cited_names_the_item_with_that_id_wherever_it_stands() -> None:
    claims = DECOMPOSER.decompose(DRAFT)
    assert [c.cited_markers for c in claims] == [("S1",), ("S2",)]  # the decomposer's reading
    read = markers_as_ids(DRAFT, claims, {"2", "1"})
    assert [c.cited_markers for c in read] == [("1",), ("2",)]
    assert [(c.id, c.text, c.draft_span) for c in read] == [
        (c.id, c.text, c.draft_span) for c in claims
    ]


def test_spanproofs_own_labels_and_ids_that_are_no_such_number_stay_positions() -> None:
    labelled = DRAFT.replace("[1]", "[S1]").replace("[2]", "[S2]")
    claims = DECOMPOSER.decompose(labelled)
    assert markers_as_ids(labelled, claims, {"2", "1"}) == claims  # "[S1]": the first item
    claims = DECOMPOSER.decompose(DRAFT)
    assert markers_as_ids(DRAFT, claims, {"17", "4"}) == claims  # no id "1": the first item
    assert markers_as_ids(DRAFT, claims, {"a", "b"}) == claims
    # an id that is the marker itself wins, and a claim citing twice cites once
    both = [Claim("c1", "x", (0, 1), ("S1", "S2", "S1"))]
    assert markers_as_ids("x [1][2]", both, {"S1", "2"})[0].cited_markers == ("S1", "2")


def test_verify_reports_the_ids_cited_and_the_cli_does_not_warn_about_them() -> None:
    report = Verifier().verify(DRAFT, EVIDENCE)
    assert [c.cited_markers for c in report.claims] == [("1",), ("2",)]
    assert [c.best_span.id for c in report.claims if c.best_span] == ["1", "2"]
    evidence = {"5": "Walking lowered blood pressure.", "9": "Sodium did not."}
    cited = Verifier().verify("Walking lowered blood pressure [9].", [
        {"id": k, "text": v} for k, v in evidence.items()
    ])  # fmt: skip
    assert cited.claims[0].cited_markers == ("9",)
    assert uncited_markers(cited, evidence) == []  # was "cites [S9], which no item has"
