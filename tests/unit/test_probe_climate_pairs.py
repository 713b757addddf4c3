"""The CLIMATE-FEVER pair probe (scripts/probe_climate_pairs.py): every evidence sentence of a
claim is a pair with its own label, and the verdicts of each model are counted by label."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import probe_climate_pairs
from probe_climate_pairs import fever_pairs, main, pairs_of

from spanproof.testing.fakes import FakeChecker, FakeEmbedder
from spanproof.verify.scoring import ScoreModel

LINES = [
    {
        "claim": "Global warming raises sea levels.",
        "evidences": [
            {"evidence": "Sea levels rose with warming.", "evidence_label": "SUPPORTS"},
            {"evidence": "Ice cores hold old air.", "evidence_label": "NOT_ENOUGH_INFO"},
        ],
    },
    {
        "claim": "Arctic ice is growing.",
        "evidences": [{"evidence": "Arctic sea ice has declined.", "evidence_label": "REFUTES"}],
    },
]


def _write(tmp_path: Path) -> Path:
    folder = tmp_path / "climate_fever"
    folder.mkdir()
    path = folder / "climate-fever.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in LINES) + "\n", encoding="utf-8")
    return path


def test_each_evidence_sentence_is_a_pair_with_its_own_label(tmp_path: Path) -> None:
    path = _write(tmp_path)
    assert pairs_of(path, None) == [
        ("Global warming raises sea levels.", "Sea levels rose with warming.", "SUPPORTS"),
        ("Global warming raises sea levels.", "Ice cores hold old air.", "NOT_ENOUGH_INFO"),
        ("Arctic ice is growing.", "Arctic sea ice has declined.", "REFUTES"),
    ]
    assert len(pairs_of(path, 2)) == 2


def test_the_report_counts_each_models_verdicts_by_label(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path)
    (tmp_path / "scifact").mkdir()
    (tmp_path / "scifact" / "corpus.jsonl").write_text("", encoding="utf-8")  # a data folder
    monkeypatch.setenv("SPANPROOF_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(probe_climate_pairs, "build_embedder", lambda _settings: FakeEmbedder())
    monkeypatch.setattr(sys, "argv", ["probe", "--models", "v37", "v40", "--json"])
    assert main() == 0
    report = json.loads(capsys.readouterr().out)
    assert report["pairs"] == 3
    assert report["labels"] == {"SUPPORTS": 1, "NOT_ENOUGH_INFO": 1, "REFUTES": 1}
    for model in ("v37", "v40"):
        assert sum(report["verdicts"][model].values()) == 3
    assert list(report["changes"]) == ["v37 -> v40"]


def test_an_unknown_model_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["probe", "--models", "v2", "v999"])
    with pytest.raises(SystemExit):
        main()


def test_a_model_that_reads_the_judge_is_given_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path)
    (tmp_path / "scifact").mkdir()
    (tmp_path / "scifact" / "corpus.jsonl").write_text("", encoding="utf-8")
    monkeypatch.setenv("SPANPROOF_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(probe_climate_pairs, "build_embedder", lambda _settings: FakeEmbedder())
    doubting = FakeChecker((0.01, 0.01, 0.98))
    given: list[str] = []

    def checker_for(model: ScoreModel) -> FakeChecker | None:
        given.append(model.name)
        return doubting if model.reads_judge else None

    monkeypatch.setattr(probe_climate_pairs, "build_checker_for", checker_for)
    monkeypatch.setattr(sys, "argv", ["probe", "--models", "v56", "v57", "--json"])
    assert main() == 0
    report = json.loads(capsys.readouterr().out)
    assert given == ["v56", "v57"]
    # the reworded SUPPORTS pair v56 supports, the doubting judge read and turned partial
    assert report["verdicts"]["v56"]["SUPPORTS supported"] == 1
    assert report["verdicts"]["v57"] == {
        "NOT_ENOUGH_INFO unsupported": 1, "REFUTES unsupported": 1, "SUPPORTS partial": 1,
    }  # fmt: skip
    pair = ("Global warming raises sea levels.", "Sea levels rose with warming.")
    assert doubting.calls == [[pair]]


def test_fever_pairs_are_the_claim_the_passage_and_the_label(tmp_path: Path) -> None:
    path = tmp_path / "fever_dev_pairs.jsonl"
    rows = [
        {"premise": "Soul Food is a 1997 film.", "hypothesis": "Soul Food is a film.",
         "label": "entailment"},
        {"premise": "Telemundo is a network.", "hypothesis": "Telemundo is a fruit.",
         "label": "not_entailment"},
    ]  # fmt: skip
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    assert fever_pairs(path, None) == [
        ("Soul Food is a film.", "Soul Food is a 1997 film.", "entailment"),
        ("Telemundo is a fruit.", "Telemundo is a network.", "not_entailment"),
    ]
    assert len(fever_pairs(path, 1)) == 1
