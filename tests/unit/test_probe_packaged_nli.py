"""The packaged-model probe (scripts/probe_packaged_nli.py): what it reads of long evidence, and
how a veto row counts `supported` precision, coverage and balanced accuracy."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from compare_score_models import row
from probe_packaged_nli import PACKAGE, package_folder, windows

from spanproof.evaluation.devdata import DevItem


def _item(label: str) -> DevItem:
    return DevItem("check_covid", "g", "claim", ("evidence",), label, label)


def test_evidence_that_fits_is_read_whole() -> None:
    text = "First finding. Second finding. Third finding."
    assert windows(text, fits=True) == [text]


def test_long_evidence_is_read_two_adjacent_sentences_at_a_time() -> None:
    text = "Alpha rose. Beta fell. Gamma held."
    assert windows(text, fits=False) == [
        "Alpha rose. Beta fell.",
        "Beta fell. Gamma held.",
        "Gamma held.",
    ]


def test_a_veto_row_counts_precision_coverage_and_balanced_accuracy() -> None:
    items = [_item("supported"), _item("supported"), _item("contradicted"), _item("neutral")]
    # One true claim kept, one false claim kept: precision 50 %, coverage 50 %,
    # recall not supported 50 %, so BA 50 %.
    line = row("check_covid", "v2", items, [True, False, True, False])
    assert line == "| check_covid | v2 | 4 | 2 | 50.0 | 50.0 | 50.0 |"


def test_no_supported_verdict_has_no_precision() -> None:
    line = row("check_covid", "vetoed", [_item("supported"), _item("neutral")], [False, False])
    assert line == "| check_covid | vetoed | 2 | 0 | — | 0.0 | 50.0 |"


def test_the_package_folder_is_found_only_when_installed() -> None:
    import importlib.util

    folder = package_folder()
    assert (folder is None) == (importlib.util.find_spec(PACKAGE) is None)
