"""A table row's claim read with its table's header (spanproof.verify.tables)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spanproof.core.models import Claim, Verdict
from spanproof.text.markdown import table_cells, table_headers
from spanproof.verifier import Verifier
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.tables import row_reading, with_table_context

DECOMPOSER = RuleBasedDecomposer()
TABLE = (
    "Here is how they compare:\n\n"
    "| Intervention | Change in systolic BP | Source |\n"
    "|---|---|---|\n"
    "| Daily walking | -5 mmHg | [S1] |\n"
    "| **Sodium restriction** | +3 mmHg | [2] |\n"
    "\n"
    "Walking helped most [S1].\n"
)
EVIDENCE = [
    {
        "id": "S1",
        "text": "In a randomised trial, daily walking for 30 minutes lowered systolic blood "
        "pressure by 5 mmHg after 12 weeks.",
    },
    {"id": "S2", "text": "Sodium restriction lowered systolic blood pressure by 3 mmHg."},
]


@pytest.mark.parametrize(
    ("header", "cells", "reading"),
    [
        # a signed figure under a header that names a change: the sentence it states
        (["Intervention", "Change in SBP", "Source"], ["Walking", "-5 mmHg", "[1]"],
         "Walking decreased SBP by 5 mmHg"),
        (["Drug", "Effect on LDL (%)"], ["Statin", "−30"], "Statin decreased LDL by 30%"),
        (["Drug", "Δ HbA1c"], ["Metformin", "+0.5%"], "Metformin increased HbA1c by 0.5%"),
        (["Drug", "SBP change vs placebo (mmHg)"], ["Statin", "-3"],
         "Statin decreased SBP by 3 mmHg"),
        (["Drug", "Weight, change from baseline"], ["Orlistat", "–2.9 kg"],
         "Orlistat decreased Weight by 2.9 kg"),
        # two changes, and a cell with no change after its header
        (["Drug", "Dose", "SBP change", "DBP change"], ["Statin", "10 mg", "-3", "+1 mmHg"],
         "Statin decreased SBP by 3; Statin increased DBP by 1 mmHg — Dose: 10 mg"),
        # no change named, or no sign: each cell after its header
        (["Drug", "SBP (mmHg)"], ["Statin", "-3"], "Statin — SBP (mmHg): -3"),
        (["Drug", "Change in SBP"], ["Statin", "5 mmHg lower"],
         "Statin — Change in SBP: 5 mmHg lower"),
        (["Drug", "Change from baseline"], ["Statin", "-3"], "Statin — Change from baseline: -3"),
        # a whole finding in the first cell, markers in the other: the finding
        (["Finding", "Source"], ["Walking lowered SBP by 5 mmHg", "[S1]"],
         "Walking lowered SBP by 5 mmHg"),
        # no subject: the cells after their headers
        (["", "Δ HbA1c", "Note"], ["", "-0.5%", "small"], "decreased HbA1c by 0.5% — Note: small"),
        (["", "Note"], ["", "small"], "Note: small"),
    ],
)  # fmt: skip
def test_a_row_is_read_with_its_header(header: list[str], cells: list[str], reading: str) -> None:
    assert row_reading(header, cells) == reading


def test_a_rows_claim_gets_the_reading_and_keeps_its_span() -> None:
    claims = DECOMPOSER.decompose(TABLE)
    read = with_table_context(TABLE, claims)
    assert [c.text for c in read] == [
        "Daily walking decreased systolic BP by 5 mmHg",
        "Sodium restriction increased systolic BP by 3 mmHg",
        "Walking helped most",
    ]
    # spans, ids and markers are the decomposer's: only the text the verifier reads changes
    assert [(c.id, c.draft_span, c.cited_markers) for c in read] == [
        (c.id, c.draft_span, c.cited_markers) for c in claims
    ]
    assert with_table_context(TABLE, claims) == read  # deterministic


def test_a_claim_in_words_of_its_own_and_drafts_without_tables_stay_as_they_are() -> None:
    row = TABLE.index("| Daily walking")
    own = Claim("c1", "Walking lowered blood pressure", (row, row + 20), ("S1",))
    assert with_table_context(TABLE, [own]) == [own]
    prose = "Daily walking lowered it by 5 mmHg [S1]."
    claims = DECOMPOSER.decompose(prose)
    assert with_table_context(prose, claims) == claims


def test_a_row_that_reverses_its_source_is_contradicted_and_a_faithful_one_supported() -> None:
    report = Verifier().verify(TABLE, EVIDENCE)
    verdicts = [c.verdict for c in report.claims]
    # -5 mmHg is what S1 states; +3 mmHg reverses S2's "lowered … by 3 mmHg"
    assert verdicts[:2] == [Verdict.SUPPORTED, Verdict.CONTRADICTED]
    assert report.claims[1].polarity_gated
    assert report.claims[0].text == "Daily walking decreased systolic BP by 5 mmHg"


def test_table_headers_map_each_data_row_to_its_tables_header() -> None:
    draft = (
        "| A | B |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nC | D\n:--|--:\n5 | 6\n\nText | not a row\n"
    )
    headers = table_headers(draft)
    starts = [draft.index("| 1"), draft.index("| 3"), draft.index("5 |")]
    assert headers == {starts[0]: ["A", "B"], starts[1]: ["A", "B"], starts[2]: ["C", "D"]}
    assert table_headers("No table | here.\n") == {}
    assert table_cells("| **a** | b \\| c | |") == ["a", "b \\| c", ""]
    assert table_cells("a | b") == ["a", "b"]


_PIECES = st.sampled_from(
    ["| ", " |", "|---|---|", "\n", "Walking", "Change in SBP", "-5", "+3 %", "−2 mmHg", "[1]",
     "Δ", "(mmHg)", "**", " ", "Effect on", "x", "\n\n", ":--", "|"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_a_tables_reading_changes_only_texts_and_is_deterministic(draft: str) -> None:
    claims = DECOMPOSER.decompose(draft)
    read = with_table_context(draft, claims)
    assert len(read) == len(claims)
    for before, after in zip(claims, read, strict=True):
        assert (after.id, after.draft_span, after.cited_markers) == (
            before.id, before.draft_span, before.cited_markers,
        )  # fmt: skip
        assert after.text.strip()
    assert with_table_context(draft, claims) == read
