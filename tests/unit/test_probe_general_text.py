"""The general-text probe (scripts/probe_general_text.py) and its three hand-written sets
(tests/fixtures/general_claims.jsonl, general_claims_second.jsonl and
general_claims_heldout.jsonl): 50 passages each, four claims a passage, two of them supported."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_general_text import SET, SETS, SUPPORTED_KINDS, Case, load_cases, summary

from spanproof.core.models import Verdict

KINDS = {
    "paraphrase", "compression", "entity_swap", "number_swap", "negation", "direction", "splice",
    "scope", "invented_detail", "role_swap", "unit_swap",
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SETS))
def test_each_set_has_four_claims_a_passage_two_of_them_supported(name: str) -> None:
    cases = load_cases(SETS[name])
    assert len(cases) == 200
    by_passage: dict[int, list[Case]] = {}
    for case in cases:
        by_passage.setdefault(case.passage, []).append(case)
    assert sorted(by_passage) == list(range(1, 51))
    for passage in by_passage.values():
        assert len(passage) == 4
        assert len({c.evidence for c in passage}) == 1
        assert sorted(c.kind for c in passage if c.label == "supported") == sorted(SUPPORTED_KINDS)
    assert {c.kind for c in cases} == KINDS
    assert Counter(c.label for c in cases)["supported"] == 100


def test_the_three_sets_share_no_passage() -> None:
    written = {c.evidence for c in load_cases(SETS["written"])}
    second = {c.evidence for c in load_cases(SETS["second"])}
    held = {c.evidence for c in load_cases(SETS["held-out"])}
    assert len(second) == 50
    assert not written & held and not written & second and not second & held


def test_a_row_with_an_unknown_label_is_refused(tmp_path: Path) -> None:
    row = json.loads(SET.read_text(encoding="utf-8").splitlines()[0])
    row["label"] = "true"
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.jsonl:1: unknown label 'true'"):
        load_cases(path)


def test_summary_counts_precision_coverage_and_balanced_accuracy() -> None:
    def case(label: str) -> Case:
        return Case(1, "d", "e", "c", label, "paraphrase")

    cases = [case("supported"), case("supported"), case("unsupported"), case("contradicted")]
    said = ["supported", "unsupported", "supported", "none"]
    assert summary(cases, said) == (2, "50.0 %", "50.0 %", "50.0 %")


def test_the_open_reading_asks_each_claim_of_a_store_of_the_passages(tmp_path: Path) -> None:
    from probe_general_text import ask_all, build_passages_store

    cases = load_cases()[:4]  # one passage, its four claims
    db = build_passages_store(tmp_path, cases)
    asked = ask_all(db, cases, "v67")
    assert len(asked) == 4 and all(a.planned for a in asked)
    assert {a.verdict for a in asked} <= {v.value for v in Verdict} | {"none"}


def test_the_store_names_its_passages_whatever_folder_holds_them(tmp_path: Path) -> None:
    from probe_general_text import build_passages_store, stable_source_id

    assert stable_source_id("file:/tmp/tmpab12/passages/017.txt") == "file:general-text/017.txt"
    cases = load_cases()[:4]
    ids = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        db = build_passages_store(tmp_path / name, cases)
        with sqlite3.connect(db) as conn:
            ids.append(sorted(r[0] for r in conn.execute("SELECT id FROM chunks")))
    assert ids[0] == ids[1] and ids[0]
