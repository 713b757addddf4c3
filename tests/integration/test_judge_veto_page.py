"""A claim the judge's veto (score models v57 and v58) turned ``partial``, through the API and
the trace page it serves: the verdict, the judge's record and, in words, why."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from spanproof.api.app import create_app
from spanproof.store.sqlite import SqliteEvidenceStore
from spanproof.testing.apps import app_state
from spanproof.testing.fakes import FakeChecker
from spanproof.verify.scoring import V58

EVIDENCE = [
    {
        "id": "S1",
        "text": "The trial enrolled older adults. Daily walking lowered systolic blood pressure. "
        "Dropout was low.",
    }
]
#: supported by the rules, not a near copy: the judge reads it
REWORDED = "Systolic blood pressure was lowered by daily walking."
#: contradicted by the polarity gate, not by the edit check: v58's judge reads it
TURNED = "Systolic blood pressure rose with daily walking."


def _page(tmp_path: Path, claim: str, row: tuple[float, float, float]) -> tuple[dict, str]:
    store = SqliteEvidenceStore(tmp_path / "store.sqlite")
    try:
        state = app_state(store, score_model=V58, checker=FakeChecker(row, model_id="judge-x"))
        with TestClient(create_app(state)) as http:
            answer = http.post("/v1/verify", json={"claims": [claim], "evidence": EVIDENCE})
            assert answer.status_code == 200
            report = answer.json()
            page = http.get(f"/traces/{report['trace_id']}")
            assert page.status_code == 200
            return report, page.text
    finally:
        store.close()


def test_a_supported_claim_the_judge_doubts_is_partial_and_the_page_says_why(
    tmp_path: Path,
) -> None:
    report, page = _page(tmp_path, REWORDED, (0.04, 0.06, 0.9))
    (claim,) = report["claims"]
    assert report["score_model"] == "v58" and report["checker_model"] == "judge-x"
    assert claim["verdict"] == "partial" and report["outcome"] == "not_all_supported"
    assert claim["judge"]["vetoed"] is True and claim["judge"]["veto"] == 0.1
    assert "judge: entailed 0.04 &lt; 0.1" in page
    assert "the judge doubts that it supports it; a person should look" in page


def test_a_reversal_the_judge_reads_as_stated_is_partial_and_the_page_says_why(
    tmp_path: Path,
) -> None:
    report, page = _page(tmp_path, TURNED, (0.9, 0.05, 0.05))
    (claim,) = report["claims"]
    assert claim["verdict"] == "partial" and claim["polarity_gated"] is True
    assert claim["judge"]["doubts"] == "contradicted" and claim["judge"]["vetoed"] is True
    assert "judge: entailed 0.90 ≥ 0.5" in page
    assert "the judge reads it as stating the claim; a person should look" in page
    # the judge reading the reversal as such leaves it contradicted, and the page unqualified
    report, page = _page(tmp_path, TURNED, (0.05, 0.9, 0.05))
    assert report["claims"][0]["verdict"] == "contradicted" and "judge: entailed" not in page
