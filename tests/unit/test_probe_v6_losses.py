"""The v6 losses probe (scripts/probe_v6_losses.py): the reasons it reads off a verdict, and its
table."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_v6_losses import BEGIN, END, reasons, render

from spanproof.core.models import ClaimVerdict, Edit, Verdict


def _edit(judgement: str) -> Edit:
    return Edit("substitution", 0, 1, "a", "E1", 0, 1, "b", judgement)


def _verdict(*judgements: str) -> ClaimVerdict:
    return ClaimVerdict(
        id="c1", text="a", draft_span=None, verdict=Verdict.UNSUPPORTED, score=0.2,
        best_span=None, candidates_considered=1, cited_markers=(), numeric_gated=False,
        edits=tuple(_edit(j) for j in judgements),
    )  # fmt: skip


def test_reasons_are_the_distinct_edits_not_allowed_without_their_figures() -> None:
    verdict = _verdict(
        "unsupported: different meaning (similarity 0.38 < 0.86)",
        "allowed: morphology",
        "unsupported: different meaning (similarity 0.12 < 0.86)",
        "contradicted: negation flip",
    )
    assert reasons(verdict) == ["contradicted: negation flip", "unsupported: different meaning"]
    assert reasons(_verdict("allowed: compression")) == ["no edit"]


def test_the_table_lists_each_class_and_half_with_its_reasons() -> None:
    table = {
        ("held", "seed:paraphrase"): {
            "v2_supported": 10,
            "turned": 2,
            "reasons": Counter({"unsupported: roles swapped": 2, "no edit": 1}),
        },
        ("cal", "seed:verbatim"): {"v2_supported": 5, "turned": 0, "reasons": Counter()},
    }
    text = render(table, 3.0)
    assert text.startswith(BEGIN) and text.rstrip().endswith(END)
    assert "| seed:paraphrase | held | 10 | 2 | unsupported: roles swapped 2, no edit 1 |" in text
    assert "| seed:verbatim | cal | 5 | 0 | — |" in text
