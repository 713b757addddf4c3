"""The `spanproof verify` contract, run through the real CLI and the bundled model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from spanproof.cli.main import cli

pytestmark = pytest.mark.model

EVIDENCE = [
    {
        "id": "S1",
        "text": "In a randomised trial, daily walking for 30 minutes lowered "
        "systolic blood pressure by 5 mmHg after 12 weeks.",
    },
    {
        "id": "S2",
        "text": "Sodium restriction to 1,500 mg per day did not change diastolic blood pressure.",
    },
]
TOP_KEYS = {
    "score_model", "embed_model", "embed_model_hash", "verification", "outcome", "counts",
    "claims", "delivered",
    "checker_model",  # the default score model (v58) reads the judge, and names it
}  # fmt: skip
CLAIM_KEYS = {
    "id", "text", "draft_span", "verdict", "score", "best_span", "candidates_considered",
    "cited_markers", "numeric_gated", "entity_gated", "polarity_gated",
}  # fmt: skip


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def evidence(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "evidence.jsonl", EVIDENCE)


def test_claims_json_has_the_contract_shape_and_verdicts(tmp_path: Path, evidence: Path) -> None:
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {"id": "a", "text": "Daily walking lowered systolic blood pressure by 5 mmHg."},
            {"id": "b", "text": "Daily walking lowered systolic blood pressure by 9 mmHg."},
            {"id": "c", "text": "Sodium restriction changed diastolic blood pressure."},
        ],
    )
    code, out, _ = run("verify", "--claims", str(claims), "--evidence", str(evidence), "--json")
    assert code == 0
    report = json.loads(out)
    assert set(report) == TOP_KEYS
    assert report["score_model"] == "v79"
    assert report["checker_model"].startswith("spanproof-judge@sha256:")
    assert report["verification"] == "verified"
    assert report["embed_model"].startswith("sentence-transformers/all-MiniLM-L6-v2")
    assert len(report["embed_model_hash"]) == 64
    by_id = {c["id"]: c for c in report["claims"]}
    # the default model's edit check adds its edits to each claim it read as a near copy
    assert all(set(c) - {"edits"} == CLAIM_KEYS for c in report["claims"])
    assert {e["judgement"] for e in by_id["b"]["edits"]} >= {"unsupported: different number"}
    assert by_id["a"]["verdict"] == "supported"
    assert by_id["a"]["best_span"]["id"] == "S1"
    assert by_id["b"]["verdict"] == "unsupported" and by_id["b"]["numeric_gated"] is True
    assert by_id["c"]["verdict"] == "contradicted" and by_id["c"]["polarity_gated"] is True
    assert by_id["a"]["draft_span"] is None
    assert report["outcome"] == "contradicted"
    assert report["counts"] == {
        "supported": 1, "partial": 0, "unsupported": 1, "contradicted": 1, "evidence_redacted": 0
    }  # fmt: skip


def test_score_model_v1_is_selectable_and_misses_the_negation(
    tmp_path: Path, evidence: Path
) -> None:
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {
                "id": "c",
                "text": "Sodium restriction to 1,500 mg per day changed diastolic blood pressure.",
            }
        ],
    )
    code, out, _ = run(
        "verify", "--claims", str(claims), "--evidence", str(evidence), "--json",
        "--score-model", "v1",
    )  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert report["score_model"] == "v1"
    assert report["claims"][0]["verdict"] == "supported"  # v1's recorded limitation
    assert report["claims"][0]["polarity_gated"] is False


def by_model(
    claims: Path, evidence: Path, models: tuple[str, ...]
) -> dict[str, dict[str, dict[str, Any]]]:
    """``verify --json`` under each score model: model → claim id → the claim's JSON."""
    reports = {}
    for model in models:
        code, out, _ = run(
            "verify", "--claims", str(claims), "--evidence", str(evidence), "--json",
            "--score-model", model,
        )  # fmt: skip
        assert code == 0
        report = json.loads(out)
        assert report["score_model"] == model
        reports[model] = {c["id"]: c for c in report["claims"]}
    return reports


def test_score_model_v7_reads_the_finding_not_the_aim(tmp_path: Path) -> None:
    aim = "OBJECTIVE To evaluate whether daily walking lowers systolic blood pressure in adults."
    finding = "Daily walking lowered systolic blood pressure by 5 mmHg."
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {"id": "S1", "text": f"{aim} {finding}"},
            {"id": "S2", "text": "OBJECTIVE To evaluate whether metformin reduces HbA1c in "
             "obese teenagers."},
        ],
    )  # fmt: skip
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {"id": "a", "text": "Daily walking lowers systolic blood pressure in adults."},
            {"id": "b", "text": "Metformin reduces HbA1c in obese teenagers."},
        ],
    )
    reports = by_model(claims, evidence, ("v2", "v7"))
    v2, v7 = reports["v2"], reports["v7"]
    assert v2["a"]["best_span"]["start"] == 0  # the aim is the sentence closest to the claim
    assert v7["a"]["best_span"]["start"] == len(aim) + 1  # v7 reads the finding
    assert v7["a"]["verdict"] == "supported"
    assert v2["b"]["verdict"] == "supported" and "finding_gated" not in v2["b"]
    assert v7["b"]["verdict"] == "unsupported" and v7["b"]["finding_gated"] is True
    code, out, _ = run(
        "verify", "--claims", str(claims), "--evidence", str(evidence), "--score-model", "v7"
    )
    assert code == 0 and "no finding" in out


def test_score_model_v8_checks_copies_and_leaves_rewordings_to_v2(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {"id": "S1", "text": "In addition, inducible expression of KLF4 in the HL60 human "
             "acute myeloid leukemia cell line stimulated monocytic differentiation."},
            {"id": "S2", "text": "Budesonide reduced relapse in adults with asthma."},
        ],
    )  # fmt: skip
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {"id": "a", "text": "Klf4 is important for proper myeloid cell differentiation."},
            {"id": "b", "text": "Budesonide reduced relapse in adults with eczema."},
        ],
    )
    reports = by_model(claims, evidence, ("v2", "v6", "v8"))
    v2, v6, v8 = reports["v2"], reports["v6"], reports["v8"]
    # the rewording shares scattered words: v6 reads it as a copy, v8 leaves it to v2
    assert v6["a"]["edits"] and "edits" not in v8["a"]
    assert (v8["a"]["verdict"], v8["a"]["score"]) == (v2["a"]["verdict"], v2["a"]["score"])
    # the copy with one detail changed is caught by both
    for model in (v6, v8):
        assert model["b"]["verdict"] == "unsupported"
        assert [e["claim"]["text"] for e in model["b"]["edits"]] == ["eczema"]
    assert v2["b"]["verdict"] == "supported"


def test_score_model_v9_reads_two_figures_of_the_window_mixed_up(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [{"id": "S1", "text": "TNF induced IL-6 in macrophages, and IL-10 was measured in serum."}],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl", [{"id": "a", "text": "TNF induced IL-10 in macrophages."}]
    )
    reports = by_model(claims, evidence, ("v2", "v8", "v9"))
    # IL-10 is in the evidence, only not where the claim puts it: v2 and v8 support it
    assert reports["v2"]["a"]["verdict"] == reports["v8"]["a"]["verdict"] == "supported"
    v9 = reports["v9"]["a"]
    assert v9["verdict"] == "unsupported"
    assert [
        (e["op"], e["claim"]["text"], e["evidence"]["text"], e["judgement"]) for e in v9["edits"]
    ] == [("substitution", "10", "6", "unsupported: different number")]


def test_score_model_v10_reads_a_later_figure_put_into_a_shortened_copy(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {
                "id": "S1",
                "text": "Systolic blood pressure fell by 5 mmHg after 12 weeks; "
                "8 participants dropped out.",
            }
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [{"id": "a", "text": "Systolic blood pressure fell by 5 mmHg after 8 weeks."}],
    )
    reports = by_model(claims, evidence, ("v2", "v9", "v10"))
    # "8" is in the evidence, later: up to v9 the shortened copy reads as a compression
    assert reports["v2"]["a"]["verdict"] == reports["v9"]["a"]["verdict"] == "supported"
    v10 = reports["v10"]["a"]
    assert v10["verdict"] == "unsupported"
    assert ("deletion", "", "12", "unsupported: different number") in [
        (e["op"], e["claim"]["text"], e["evidence"]["text"], e["judgement"]) for e in v10["edits"]
    ]


def test_score_model_v11_reads_a_figure_given_another_unit(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [{"id": "S1", "text": "Systolic blood pressure fell by 5 mmHg after 12 weeks of walking."}],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {"id": "a", "text": "Systolic blood pressure fell by 5% after 12 weeks of walking."},
            {"id": "b", "text": "Systolic blood pressure fell by 5 mm Hg after 12 weeks."},
        ],
    )
    reports = by_model(claims, evidence, ("v2", "v10", "v11"))
    # the tokens carry no "%": up to v10 the unit reads as dropped, a compression
    assert reports["v2"]["a"]["verdict"] == reports["v10"]["a"]["verdict"] == "supported"
    v11 = reports["v11"]
    assert v11["a"]["verdict"] == "unsupported"
    assert ("substitution", "5%", "5 mmHg", "unsupported: different unit") in [
        (e["op"], e["claim"]["text"], e["evidence"]["text"], e["judgement"])
        for e in v11["a"]["edits"]
    ]
    # the same unit written another way stays supported
    assert v11["b"]["verdict"] == "supported"


def test_score_model_v12_reads_a_finding_stated_more_strongly(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {"id": "S1", "text": "Metformin may reduce tumour growth in mice with colon cancer."},
            {
                "id": "S2",
                "text": "Statins were associated with a lower risk of dementia in older adults.",
            },
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {"id": "a", "text": "Metformin reduces tumour growth in mice with colon cancer."},
            {"id": "b", "text": "Statins lowered the risk of dementia in older adults."},
            {"id": "c", "text": "Metformin may reduce tumour growth in mice."},
        ],
    )
    reports = by_model(claims, evidence, ("v2", "v11", "v12"))
    # a hedge dropped and an association stated as an effect read as compressions up to v11
    for claim in ("a", "b"):
        assert reports["v2"][claim]["verdict"] == reports["v11"][claim]["verdict"] == "supported"
    v12 = reports["v12"]
    assert [
        (e["evidence"]["text"], e["judgement"])
        for e in v12["a"]["edits"]
        if not e["judgement"].startswith("allowed")
    ] == [("may", "unsupported: hedge dropped")]
    assert v12["b"]["verdict"] == "unsupported"
    assert "unsupported: association stated as an effect" in [
        e["judgement"] for e in v12["b"]["edits"]
    ]
    # a faithful shortening keeps its hedge and its scope
    assert v12["c"]["verdict"] == "supported"


def test_score_model_v13_reads_what_inverts_the_finding_dropped(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [{"id": "S1", "text": "Lack of exercise increased the risk of falls in older adults."}],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {"id": "a", "text": "Exercise increased the risk of falls in older adults."},
            {"id": "b", "text": "Lack of exercise increased the risk of falls."},
        ],
    )
    reports = by_model(claims, evidence, ("v2", "v12", "v13"))
    # a verbatim copy of the sentence's tail: supported up to v12
    assert reports["v2"]["a"]["verdict"] == reports["v12"]["a"]["verdict"] == "supported"
    v13 = reports["v13"]
    assert v13["a"]["verdict"] == "unsupported"
    assert [(e["op"], e["evidence"]["text"], e["judgement"]) for e in v13["a"]["edits"]] == [
        ("deletion", "Lack of", "unsupported: inverting word dropped")
    ]
    # a faithful shortening keeps its head
    assert v13["b"]["verdict"] == "supported"


def test_score_model_v14_reads_a_claim_the_window_does_not_assert(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [{"id": "S1", "text": "There is no evidence that zinc shortens colds in adults."}],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [{"id": "a", "text": "Zinc shortens colds in adults."}],
    )
    reports = by_model(claims, evidence, ("v13", "v14"))
    # a verbatim copy of the complement: supported up to v13
    assert reports["v13"]["a"]["verdict"] == "supported"
    assert reports["v14"]["a"]["verdict"] == "unsupported"
    assert [(e["evidence"]["text"], e["judgement"]) for e in reports["v14"]["a"]["edits"]] == [
        ("There is no evidence that", "unsupported: not asserted by the window")
    ]


def test_score_model_v15_reads_a_restriction_the_claim_drops(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {
                "id": "S1",
                "text": "Among current smokers, varenicline doubled abstinence at 12 weeks.",
            },
            {"id": "S2", "text": "Relapse was lower in patients with COVID-19 pneumonia."},
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {"id": "a", "text": "Varenicline doubled abstinence at 12 weeks."},
            {"id": "b", "text": "Relapse was lower in COVID-19 pneumonia patients."},
        ],
    )
    reports = by_model(claims, evidence, ("v14", "v15"))
    # the lead-in's population left off: a verbatim copy of the rest, supported up to v14
    assert reports["v14"]["a"]["verdict"] == "supported"
    assert reports["v15"]["a"]["verdict"] == "unsupported"
    assert [(e["evidence"]["text"], e["judgement"]) for e in reports["v15"]["a"]["edits"]] == [
        ("Among current smokers", "unsupported: population dropped")
    ]
    # a noun and its modifier written the other way round: roles swapped up to v14
    assert reports["v14"]["b"]["verdict"] == "unsupported"
    assert reports["v15"]["b"]["verdict"] == "supported"


def test_score_model_v16_reads_a_qualifier_dropped_where_the_claim_keeps_another(
    tmp_path: Path,
) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {
                "id": "S1",
                "text": "Blockade of the integrin reduces podocyte motility in vitro and lowers "
                "proteinuria in mice.",
            },
            {
                "id": "S2",
                "text": "HAND2 methylation could potentially be employed as a biomarker of "
                "endometrial cancer.",
            },
            {
                "id": "S3",
                "text": "In over 50% of adult patients the disease relapsed within a year.",
            },
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {
                "id": "a",
                "text": "Blockade of the integrin reduces podocyte motility in vitro and lowers "
                "proteinuria.",
            },
            {
                "id": "b",
                "text": "HAND2 methylation could be employed as a biomarker of endometrial cancer.",
            },
            {"id": "c", "text": "In 50% of adult patients the disease relapsed within a year."},
        ],
    )
    reports = by_model(claims, evidence, ("v15", "v16"))
    # "in vitro" kept elsewhere in the claim kept the dropped "in mice" up to v15
    assert reports["v15"]["a"]["verdict"] == "supported"
    assert reports["v16"]["a"]["verdict"] == "unsupported"
    assert [(e["evidence"]["text"], e["judgement"]) for e in reports["v16"]["a"]["edits"]] == [
        ("in mice", "unsupported: scope dropped")
    ]
    # a hedge kept beside the dropped one keeps the claim hedged
    assert reports["v15"]["b"]["verdict"] == reports["v16"]["b"]["verdict"] == "supported"
    # a figure's bound dropped: a compression up to v15
    assert reports["v15"]["c"]["verdict"] == "supported"
    assert reports["v16"]["c"]["verdict"] == "unsupported"
    assert [(e["evidence"]["text"], e["judgement"]) for e in reports["v16"]["c"]["edits"]] == [
        ("over", "unsupported: bound dropped")
    ]


def test_score_model_v17_reads_figures_and_contractions_written_another_way(
    tmp_path: Path,
) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {"id": "S1", "text": "Mortality was lower in the treated group (P < .001)."},
            {"id": "S2", "text": "Seventy studies involving 671 945 women were included."},
            {
                "id": "S3",
                "text": "Vitamin D supplementation does not reduce the risk of fractures in "
                "older adults.",
            },
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {"id": "a", "text": "Mortality was lower in the treated group (P < 0.001)."},
            {"id": "b", "text": "Mortality was lower in the treated group (P < .01)."},
            {"id": "c", "text": "Seventy studies involving 945 women were included."},
            {
                "id": "d",
                "text": "Vitamin D supplementation doesn't reduce the risk of fractures in older "
                "adults.",
            },
        ],
    )
    reports = by_model(claims, evidence, ("v16", "v17"))
    # ".001" was read as "001" (the number 1) up to v16: "0.001" tripped the numeric gate ...
    assert reports["v16"]["a"]["verdict"] == "unsupported"
    assert reports["v17"]["a"]["verdict"] == "supported"
    # ... and ".01" quoted it
    assert reports["v16"]["b"]["verdict"] == "supported"
    assert reports["v17"]["b"]["verdict"] == "unsupported"
    # thousands grouped by a space were two numbers: "945 women" quoted "671 945 women"
    assert reports["v16"]["c"]["verdict"] == "supported"
    assert reports["v17"]["c"]["verdict"] == "unsupported"
    assert reports["v17"]["c"]["numeric_gated"] is True
    # a contraction was a phrase of another meaning up to v16
    assert reports["v16"]["d"]["verdict"] == "unsupported"
    assert reports["v17"]["d"]["verdict"] == "supported"


def test_score_model_v18_reads_a_word_written_together_or_with_a_hyphen_as_one(
    tmp_path: Path,
) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {
                "id": "S1",
                "text": "Gefitinib improved progression-free survival in non-small cell lung "
                "cancer.",
            }
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {
                "id": "a",
                "text": "Gefitinib improved progression-free survival in nonsmall cell lung "
                "cancer.",
            },
            {
                "id": "b",
                "text": "Gefitinib improved progression-free survival in small cell lung cancer.",
            },
        ],
    )
    reports = by_model(claims, evidence, ("v17", "v18"))
    # "nonsmall" against "non-small" was an opposite term up to v17
    assert reports["v17"]["a"]["verdict"] == "unsupported"
    assert reports["v18"]["a"]["verdict"] == "supported"
    assert [e["judgement"] for e in reports["v18"]["a"]["edits"]] == [
        "allowed: same words (written together or apart)"
    ]
    # "non-" dropped names the other cancer: a compression up to v17
    assert reports["v17"]["b"]["verdict"] == "supported"
    assert reports["v18"]["b"]["verdict"] == "unsupported"


def test_score_model_v19_reads_a_sign_word_segmentation_drops(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {"id": "S1", "text": "CD4+ T cells were depleted in the lymph nodes of macaques."},
            {"id": "S2", "text": "Systolic pressure changed by \u22122.3 mmHg with walking."},
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {"id": "a", "text": "CD4- T cells were depleted in the lymph nodes of macaques."},
            {"id": "b", "text": "Systolic pressure changed by 2.3 mmHg with walking."},
            {"id": "c", "text": "Systolic pressure changed by -2.3 mmHg with walking."},
        ],
    )
    reports = by_model(claims, evidence, ("v18", "v19"))
    # word segmentation drops both signs: a copy word for word up to v18
    assert reports["v18"]["a"]["verdict"] == reports["v18"]["b"]["verdict"] == "supported"
    assert reports["v19"]["a"]["verdict"] == "unsupported"
    assert [e["judgement"] for e in reports["v19"]["a"]["edits"]] == ["unsupported: different sign"]
    assert reports["v19"]["b"]["verdict"] == "unsupported"
    # the same figure, its minus written with a hyphen
    assert reports["v19"]["c"]["verdict"] == "supported"


def test_score_model_v20_reads_a_plural_or_possessive_name_as_the_name(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {"id": "S1", "text": "G-CSF mobilizes HSPCs through the osteocytic network."},
            {"id": "S2", "text": "Survivors of Hodgkin's lymphoma carried two variants at 6q21."},
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {"id": "a", "text": "G-CSF mobilizes HSPC through the osteocytic network."},
            {"id": "b", "text": "Survivors of Hodgkin lymphoma carried two variants at 6q21."},
            {"id": "c", "text": "G-CSF mobilizes MSCs through the osteocytic network."},
        ],
    )
    reports = by_model(claims, evidence, ("v19", "v20"))
    # up to v19 the plural and the possessive were other entities standing in for the claim's
    assert reports["v19"]["a"]["verdict"] == reports["v19"]["b"]["verdict"] == "unsupported"
    assert reports["v19"]["a"]["entity_gated"] and reports["v19"]["b"]["entity_gated"]
    assert reports["v20"]["a"]["verdict"] == reports["v20"]["b"]["verdict"] == "supported"
    assert [e["judgement"] for e in reports["v20"]["a"]["edits"]] == ["allowed: morphology"]
    # another entity is still another entity
    assert reports["v20"]["c"]["verdict"] == "unsupported"
    assert reports["v20"]["c"]["entity_gated"]


def test_draft_with_redact_policy_removes_unsupported_claims(
    tmp_path: Path, evidence: Path
) -> None:
    draft = tmp_path / "draft.txt"
    draft.write_text(
        "Daily walking lowered systolic blood pressure by 5 mmHg [S1]. "
        "Walking also cured diabetes in 40% of participants.",
        encoding="utf-8",
    )
    code, out, _ = run(
        "verify", "--draft", str(draft), "--evidence", str(evidence), "--policy", "redact", "--json"
    )
    assert code == 0
    report = json.loads(out)
    verdicts = [c["verdict"] for c in report["claims"]]
    assert verdicts == ["supported", "unsupported"]
    assert report["claims"][0]["cited_markers"] == ["S1"]
    assert report["delivered"].startswith("Daily walking lowered")
    assert "[unsupported claim removed]" in report["delivered"]
    assert "diabetes" not in report["delivered"]
    start, end = report["claims"][1]["draft_span"]
    assert draft.read_text()[start:end].startswith("Walking also cured diabetes")


def test_table_output_names_each_verdict_in_text(tmp_path: Path, evidence: Path) -> None:
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [{"id": "a", "text": "Daily walking lowered systolic blood pressure by 5 mmHg."}],
    )
    code, out, _ = run("verify", "--claims", str(claims), "--evidence", str(evidence))
    assert code == 0
    assert "supported" in out and "a: Daily walking" in out
    assert "spanproof verify — ✔ the claim is supported" in out  # the outcome, not "verified"


#: Claims by the verdict they get against EVIDENCE (see the first test).
SUPPORTED = {"id": "a", "text": "Daily walking lowered systolic blood pressure by 5 mmHg."}
UNSUPPORTED = {"id": "b", "text": "Daily walking lowered systolic blood pressure by 9 mmHg."}
CONTRADICTED = {"id": "c", "text": "Sodium restriction changed diastolic blood pressure."}


@pytest.mark.parametrize(
    ("claims", "outcome", "exits"),
    [
        # exit status under --fail-on never, contradicted, unsupported
        ([SUPPORTED], "all_supported", (0, 0, 0)),
        ([SUPPORTED, UNSUPPORTED], "not_all_supported", (0, 0, 1)),
        ([SUPPORTED, CONTRADICTED], "contradicted", (0, 1, 1)),
    ],
)
def test_fail_on_exits_1_when_the_outcome_reaches_it(
    tmp_path: Path,
    evidence: Path,
    claims: list[dict[str, str]],
    outcome: str,
    exits: tuple[int, int, int],
) -> None:
    path = write_jsonl(tmp_path / "claims.jsonl", claims)
    base = ("verify", "--claims", str(path), "--evidence", str(evidence), "--json")
    code, out, _ = run(*base)
    assert code == 0  # the default is --fail-on never
    assert json.loads(out)["outcome"] == outcome
    for level, expected in zip(("never", "contradicted", "unsupported"), exits, strict=True):
        code, out, err = run(*base, "--fail-on", level)
        assert code == expected, (level, err)
        assert json.loads(out)["outcome"] == outcome  # the report is printed either way


def test_fail_on_contradicted_fails_a_draft_and_the_table_says_why(
    tmp_path: Path, evidence: Path
) -> None:
    draft = tmp_path / "draft.txt"
    draft.write_text(
        "Daily walking lowered systolic blood pressure by 5 mmHg [S1]. "
        "Sodium restriction changed diastolic blood pressure [S2]. "
        "Walking also cured diabetes in 40% of participants.",
        encoding="utf-8",
    )
    code, out, _ = run(
        "verify", "--draft", str(draft), "--evidence", str(evidence), "--fail-on", "contradicted"
    )
    assert code == 1
    assert "spanproof verify — ✖ 1 claim contradicted, 1 unsupported, 1 supported" in out
    assert "verification verified" in out  # still said, second
    # flag (the default) marks each claim that is not supported inline.
    assert "[S2]. ⟦contradicted⟧ Walking" in " ".join(out.split())
    assert "participants. ⟦unsupported⟧" in out


def test_fail_on_with_a_batch_fails_when_any_item_reaches_it(tmp_path: Path) -> None:
    items = tmp_path / "items.jsonl"
    good = {"id": "ok", "claims": [SUPPORTED], "evidence": EVIDENCE}
    bad = {"id": "bad", "claims": [SUPPORTED, CONTRADICTED], "evidence": EVIDENCE}
    items.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    code, out, _ = run("verify", "--batch", str(items), "--json", "--fail-on", "contradicted")
    assert code == 1
    assert [json.loads(line)["outcome"] for line in out.splitlines()] == [
        "all_supported",
        "contradicted",
    ]
    items.write_text(json.dumps(good) + "\n", encoding="utf-8")
    assert run("verify", "--batch", str(items), "--json", "--fail-on", "unsupported")[0] == 0


def test_batch_streams_one_line_per_input_and_survives_bad_lines(tmp_path: Path) -> None:
    items = tmp_path / "items.jsonl"
    good = {
        "id": "item-1",
        "claims": [{"id": "a", "text": "Daily walking lowered systolic blood pressure by 5 mmHg."}],
        "evidence": EVIDENCE,
    }
    items.write_text(
        json.dumps(good) + "\n" + "{not json\n"
        + json.dumps({"id": "item-3", "claims": [], "evidence": []}) + "\n"
        + json.dumps({**good, "id": "item-4"}) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    code, out, err = run("verify", "--batch", str(items), "--json")
    # Every line is answered; then the run exits 2, so a CI step never passes on input it did
    # not check.
    assert code == 2
    assert err.strip() == (
        f"error: 2 batch lines of {items} were bad input and not checked (line 2, 3); "
        "their error objects are in the output"
    )
    lines = [json.loads(line) for line in out.splitlines()]
    assert [x["id"] for x in lines] == ["item-1", None, "item-3", "item-4"]
    assert lines[0]["claims"][0]["verdict"] == "supported"
    assert set(lines[0]) == TOP_KEYS | {"id", "line"}
    assert [lines[0]["line"], lines[3]["line"]] == [1, 4]  # a result names its line too
    assert lines[1]["line"] == 2 and "invalid JSON" in lines[1]["error"]["message"]
    assert lines[2]["line"] == 3 and "evidence" in lines[2]["error"]["message"]
    assert lines[3]["claims"] == lines[0]["claims"]


def test_numeric_markers_cite_evidence_by_position_and_one_past_the_end_is_named(
    tmp_path: Path,
) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {"id": "walking", "text": EVIDENCE[0]["text"]},
            {"id": "sodium", "text": EVIDENCE[1]["text"]},
        ],
    )
    draft = tmp_path / "draft.txt"
    draft.write_text(
        "Daily walking lowered systolic blood pressure by 5 mmHg [1]. "
        "Sodium restriction did not change diastolic blood pressure [2, 3].",
        encoding="utf-8",
    )
    base = ("verify", "--draft", str(draft), "--evidence", str(evidence))
    code, out, _ = run(*base)
    assert code == 0
    flat = " ".join(out.split())
    assert "⚠ c2 cites [S3], which no evidence item has" in flat
    assert "cites [S1]" not in flat and "cites [S2]" not in flat
    claims = json.loads(run(*base, "--json")[1])["claims"]
    assert [c["cited_markers"] for c in claims] == [["S1"], ["S2", "S3"]]
    assert [c["text"] for c in claims] == [
        "Daily walking lowered systolic blood pressure by 5 mmHg",
        "Sodium restriction did not change diastolic blood pressure",
    ]


def test_a_claim_citing_a_marker_no_evidence_item_has_is_named(
    tmp_path: Path, evidence: Path
) -> None:
    draft = tmp_path / "draft.txt"
    draft.write_text(
        "Daily walking lowered systolic blood pressure by 5 mmHg [S1]. "
        "Sodium restriction did not change diastolic blood pressure [S9].",
        encoding="utf-8",
    )
    code, out, _ = run("verify", "--draft", str(draft), "--evidence", str(evidence))
    assert code == 0
    flat = " ".join(out.split())
    assert "⚠ c2 cites [S9], which no evidence item has: a citation to nothing" in flat
    assert "cites [S1]" not in flat
    # JSON keeps the markers as written; the reader compares them with the evidence ids
    data = json.loads(
        run("verify", "--draft", str(draft), "--evidence", str(evidence), "--json")[1]
    )
    assert [c["cited_markers"] for c in data["claims"]] == [["S1"], ["S9"]]


def test_an_input_larger_than_the_api_takes_gets_a_note_and_is_verified(
    tmp_path: Path, evidence: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    claims = write_jsonl(tmp_path / "claims.jsonl", [SUPPORTED])
    base = ("verify", "--claims", str(claims), "--evidence", str(evidence), "--json")
    code, out, err = run(*base)
    assert code == 0 and "note:" not in err
    monkeypatch.setenv("SPANPROOF_LIMITS__MAX_CHARS", "100")
    code, out, err = run(*base)
    assert code == 0 and json.loads(out)["outcome"] == "all_supported"  # it goes on
    assert "more than the API takes in one request (100, SPANPROOF_LIMITS__MAX_CHARS)" in err


def test_a_batch_with_no_items_is_bad_input_before_any_model_loads(tmp_path: Path) -> None:
    items = tmp_path / "items.jsonl"
    items.write_text("\n  \n", encoding="utf-8")
    code, out, err = run("verify", "--batch", str(items), "--json", "--fail-on", "unsupported")
    assert (code, out) == (2, "")
    assert err.strip() == f"error: batch file {items} has no items: give at least one"


def test_a_batch_item_repeating_an_earlier_id_is_bad_input(tmp_path: Path) -> None:
    items = tmp_path / "items.jsonl"
    item = {"id": "a", "claims": [SUPPORTED], "evidence": EVIDENCE}
    items.write_text(json.dumps(item) + "\n" + json.dumps(item) + "\n", encoding="utf-8")
    code, out, err = run("verify", "--batch", str(items), "--json")
    assert code == 2
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["outcome"] == "all_supported"
    assert second["line"] == 2
    assert "duplicate item id 'a' (first on line 1)" in second["error"]["message"]
    assert "(line 2)" in err


def test_a_batch_of_only_bad_lines_fails_even_without_fail_on(tmp_path: Path) -> None:
    items = tmp_path / "items.jsonl"
    items.write_text('garbage\n{"id": "x"}\n', encoding="utf-8")
    code, out, err = run("verify", "--batch", str(items), "--json")
    assert code == 2
    assert [json.loads(line)["line"] for line in out.splitlines()] == [1, 2]
    assert "2 batch lines" in err and "(line 1, 2)" in err


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([{"id": "a", "text": "  "}], "claims.jsonl:1: the claim's text is blank"),
        (
            [{"id": "a", "text": "One."}, {"id": "a", "text": "Two."}],
            "claims.jsonl:2: duplicate claim id 'a' (first on line 1)",
        ),
        ([], "has no claims: give at least one"),
        ([{"id": None, "text": "One."}], "claims.jsonl:1: 'id' must be a string or an integer"),
        ([{"id": " ", "text": "One."}], "claims.jsonl:1: the claim's 'id' is blank"),
    ],
)
def test_bad_claims_files_exit_2_naming_the_line(
    tmp_path: Path, evidence: Path, rows: list[dict[str, object]], message: str
) -> None:
    claims = write_jsonl(tmp_path / "claims.jsonl", rows)
    code, out, err = run("verify", "--claims", str(claims), "--evidence", str(evidence))
    assert (code, out) == (2, "")
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_repeated_evidence_id_names_the_file_and_both_items(tmp_path: Path) -> None:
    claims = write_jsonl(tmp_path / "claims.jsonl", [{"id": "a", "text": "x"}])
    path = write_jsonl(tmp_path / "evidence.jsonl", [EVIDENCE[0], EVIDENCE[1], EVIDENCE[0]])
    code, _, err = run("verify", "--claims", str(claims), "--evidence", str(path))
    assert code == 2
    assert f"{path}: item 3: duplicate evidence id 'S1' (first as item 1)" in err


def test_a_draft_holding_nul_characters_is_refused_as_not_text(
    tmp_path: Path, evidence: Path
) -> None:
    draft = tmp_path / "draft.txt"
    draft.write_bytes("Walking lowered blood pressure.".encode("utf-16-le"))  # no byte-order mark
    code, out, err = run("verify", "--draft", str(draft), "--evidence", str(evidence))
    assert (code, out) == (2, "")
    assert f"draft file {draft} holds a NUL character (character 1)" in err
    assert "UTF-16 without a byte-order mark" in err


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("missing", "evidence file not found"),
        ("bad_json", ":2: invalid JSON"),
        ("empty", "has no items"),
        ("not_utf8", "not valid UTF-8"),
        ("no_text", "missing field 'text'"),
    ],
)
def test_bad_evidence_exits_non_zero_with_one_clear_message(
    tmp_path: Path, setup: str, message: str
) -> None:
    claims = write_jsonl(tmp_path / "claims.jsonl", [{"id": "a", "text": "x"}])
    path = tmp_path / "evidence.jsonl"
    if setup == "bad_json":
        path.write_text(json.dumps(EVIDENCE[0]) + "\n{oops\n", encoding="utf-8")
    elif setup == "empty":
        path.write_text("\n", encoding="utf-8")
    elif setup == "not_utf8":
        path.write_bytes(b'{"id": "S1", "text": "caf\xe9"}\n')
    elif setup == "no_text":
        path.write_text(json.dumps({"id": "S1"}) + "\n", encoding="utf-8")
    code, out, err = run("verify", "--claims", str(claims), "--evidence", str(path), "--json")
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_exactly_one_input_mode_is_required(tmp_path: Path, evidence: Path) -> None:
    code, _, err = run("verify", "--evidence", str(evidence))
    assert code == 2 and "exactly one of --claims, --draft or --batch" in err


def test_console_script_runs_as_a_subprocess(tmp_path: Path, evidence: Path) -> None:
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [{"id": "a", "text": "Daily walking lowered systolic blood pressure by 5 mmHg."}],
    )
    exe = Path(sys.executable).with_name("spanproof")
    proc = subprocess.run(
        [str(exe), "verify", "--claims", str(claims), "--evidence", str(evidence), "--json"],
        capture_output=True, text=True, timeout=120, env=os.environ.copy(), check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["claims"][0]["verdict"] == "supported"


def test_score_model_v21_reads_a_name_written_apart_and_lets_no_span_rescue_a_copy(
    tmp_path: Path,
) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {
                "id": "S1",
                "text": "C2 acts synergistically with the drug A769662 to activate AMPK complexes.",
            },
            {
                "id": "S2",
                "text": (
                    "Here we report a novel role of an alternatively spliced hypervariable "
                    "immunoglobulin domain-encoding gene, Dscam, in generating a broad range of "
                    "PRRs implicated in immune defense in the malaria vector Anopheles gambiae."
                ),
            },
            {
                "id": "S3",
                "text": "AgDscam is a hypervariable PRR of the A. gambiae innate immune system.",
            },
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {
                "id": "a",
                "text": "C2 works synergistically with A-769662 to activate AMPK complexes.",
            },
            {
                "id": "b",
                "text": "HuR is a hypervariable PRR of the A. gambiae innate immune system.",
            },
        ],
    )
    reports = by_model(claims, evidence, ("v20", "v21"))
    # "A-769662" segments as "A" and the figure 769662, which S1 does not state alone
    assert reports["v20"]["a"]["verdict"] == "unsupported"
    assert reports["v20"]["a"]["numeric_gated"]
    assert reports["v21"]["a"]["verdict"] == "supported"
    # the claim copies S3 with its name changed; under v20 S2, close enough, rescued it
    assert reports["v20"]["b"]["verdict"] == "supported"
    assert reports["v21"]["b"]["verdict"] == "unsupported"
    assert reports["v21"]["b"]["best_span"]["id"] == "S3"
    assert [e["judgement"] for e in reports["v21"]["b"]["edits"]] == [
        "unsupported: different entity"
    ]


def test_score_model_v22_reads_more_direction_words_against_the_span(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {
                "id": "S1",
                "text": (
                    "We found that TG2-specific plasma cells are markedly expanded within the "
                    "duodenal mucosa in individuals with active coeliac disease."
                ),
            },
            {
                "id": "S2",
                "text": (
                    "In a randomised trial, the new vaccine was ineffective in adults older than "
                    "65 years."
                ),
            },
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {
                "id": "a",
                "text": (
                    "Plasma cells specific for TG2 are scarce in the duodenal mucosa of people "
                    "with active coeliac disease."
                ),
            },
            {"id": "b", "text": "Older people saw no benefit from the new vaccine."},
        ],
    )
    reports = by_model(claims, evidence, ("v21", "v22"))
    # "scarce" against "expanded": no direction word to v21, opposed directions to v22
    assert reports["v21"]["a"]["verdict"] == "supported"
    assert reports["v22"]["a"]["verdict"] == "contradicted"
    assert reports["v22"]["a"]["polarity_gated"]
    # "ineffective" is a negation to v22, so "no benefit" agrees with it (a claim that
    # nearly copies its span is read word by word by the edit check instead, as under v21)
    assert reports["v21"]["b"]["polarity_gated"]
    assert not reports["v22"]["b"]["polarity_gated"]
    assert "edits" not in reports["v22"]["b"]


def test_score_model_v23_reads_a_result_an_aim_sentence_hides(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {
                "id": "S1",
                "text": (
                    "We examined the effects of chenodeoxycholic acid on brown fat activity in "
                    "healthy women. Treatment of twelve women with chenodeoxycholic acid for two "
                    "days resulted in increased brown fat activity."
                ),
            },
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {
                "id": "a",
                "text": "In women, brown fat activity is reduced by chenodeoxycholic acid.",
            },
            {
                "id": "b",
                "text": "In women, brown fat activity is increased by chenodeoxycholic acid.",
            },
        ],
    )
    reports = by_model(claims, evidence, ("v22", "v23"))
    # the aim sentence covers claim a best and states no direction: v22 reads only it
    assert reports["v22"]["a"]["verdict"] == "supported"
    assert not reports["v22"]["a"]["polarity_gated"]
    # v23 also reads the result, which covers it nearly as well and states the opposite
    assert reports["v23"]["a"]["verdict"] == "contradicted"
    assert reports["v23"]["a"]["polarity_gated"]
    # a claim the result states is supported under both
    assert reports["v22"]["b"]["verdict"] == reports["v23"]["b"]["verdict"] == "supported"


def test_score_model_v24_lets_no_span_without_a_direction_rescue_a_reversed_claim(
    tmp_path: Path,
) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {
                "id": "S1",
                "text": (
                    "We examined diastolic blood pressure and abdominal aortic aneurysm in a "
                    "large cohort."
                ),
            },
            {
                "id": "S2",
                "text": (
                    "Higher diastolic blood pressure was associated with abdominal aortic aneurysm."
                ),
            },
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {
                "id": "a",
                "text": (
                    "Lower diastolic blood pressure is associated with abdominal aortic aneurysm."
                ),
            },
            {
                "id": "b",
                "text": (
                    "Higher diastolic blood pressure is associated with abdominal aortic aneurysm."
                ),
            },
        ],
    )
    reports = by_model(claims, evidence, ("v23", "v24"))
    # S2 states the opposite; S1, close enough, names the two and no direction: v23 lets it
    # support the claim, v24 does not
    assert reports["v23"]["a"]["verdict"] == "supported"
    assert reports["v23"]["a"]["best_span"]["id"] == "S1"
    assert reports["v24"]["a"]["verdict"] == "contradicted"
    assert reports["v24"]["a"]["best_span"]["id"] == "S2"
    # the claim S2 states is supported under both
    assert reports["v23"]["b"]["verdict"] == reports["v24"]["b"]["verdict"] == "supported"


def test_score_model_v25_reads_a_name_written_within_a_longer_one(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {
                "id": "S1",
                "text": (
                    "In mouse models, MEK inhibitors combined with PI3K inhibitors effectively "
                    "treated KRAS mutated lung cancers."
                ),
            },
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {
                "id": "a",
                "text": "MEK inhibitors are effective treatments in RAS-driven mouse models of "
                "lung cancer.",
            },
            {
                "id": "b",
                "text": "MEK inhibitors are effective treatments in HRAS-driven mouse models of "
                "lung cancer.",
            },
        ],
    )
    reports = by_model(claims, evidence, ("v23", "v25", "v26"))
    # "RAS" is written within "KRAS": v23's entity gate reads it as another name, v25 and v26
    # do not
    assert reports["v23"]["a"]["verdict"] == "unsupported"
    assert reports["v25"]["a"]["verdict"] == reports["v26"]["a"]["verdict"] == "supported"
    # "HRAS" holds no name of the span and "KRAS" none of it: another gene under all three
    assert {reports[m]["b"]["verdict"] for m in ("v23", "v25", "v26")} == {"unsupported"}


def test_score_model_v27_counts_only_the_negations_that_deny(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {
                "id": "S1",
                "text": (
                    "In this cohort of COVID-19 patients, ibuprofen use was not associated "
                    "with worse clinical outcomes, compared with paracetamol or no antipyretic."
                ),
            },
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {"id": "a", "text": "Ibuprofen use led to worse outcomes in COVID-19."},
            {"id": "b", "text": "Ibuprofen use did not lead to worse outcomes in COVID-19."},
        ],
    )
    reports = by_model(claims, evidence, ("v25", "v27"))
    # "not … or no antipyretic": v25 counts two negations, an even count, and reads the span
    # as affirming what claim a says; v27 reads "no antipyretic" as a comparison group
    assert reports["v25"]["a"]["verdict"] == "supported"
    assert reports["v27"]["a"]["verdict"] == "contradicted"
    assert reports["v27"]["a"]["polarity_gated"] is True
    # the claim the span states: v25 reads it as a flip, v27 as what the span says
    assert reports["v25"]["b"]["verdict"] == "contradicted"
    assert reports["v27"]["b"]["verdict"] == "supported"


def test_score_model_v28_reads_opposed_clauses_one_by_one(tmp_path: Path) -> None:
    evidence = write_jsonl(
        tmp_path / "evidence.jsonl",
        [
            {
                "id": "S1",
                "text": (
                    "Drug A increased the risk of relapse in the first year; drug B decreased "
                    "the risk of relapse in the second year."
                ),
            },
        ],
    )
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [{"id": "a", "text": "Drug B was found to increase relapse risk during the second year."}],
    )
    reports = by_model(claims, evidence, ("v27", "v28"))
    # a rewording, so the gates decide (a near copy goes to the edit check): the sentence
    # states both directions, v27 finds none unshared, v28 reads the B clause
    assert reports["v27"]["a"]["verdict"] == "supported"
    assert reports["v28"]["a"]["verdict"] == "contradicted"


def test_score_models_v29_and_v30_read_a_reversing_sentence_that_covers_the_claim_less(
    tmp_path: Path,
) -> None:
    text = (
        "Hydroxychloroquine, alone or in combination with azithromycin, is being widely used in "
        "Covid-19 therapy based on anecdotal and limited observational evidence. An association "
        "of increased overall mortality was identified in patients treated with "
        "hydroxychloroquine alone."
    )
    evidence = write_jsonl(tmp_path / "evidence.jsonl", [{"id": "S1", "text": text}])
    claims = write_jsonl(
        tmp_path / "claims.jsonl",
        [
            {
                "id": "a",
                "text": "As a COVID-19 treatment on its own, hydroxychloroquine is associated "
                "with decreased overall mortality.",
            }
        ],
    )
    reports = by_model(claims, evidence, ("v28", "v29", "v30"))
    quoted = text.index("An association")
    # every model quotes the second sentence; v28's gate read only the first (it covers the
    # claim best and states no direction), v29 and v30 also read the one that reverses it
    for model in ("v28", "v29", "v30"):
        assert reports[model]["a"]["best_span"]["start"] == quoted
    assert reports["v28"]["a"]["verdict"] == "supported"
    for model in ("v29", "v30"):
        assert reports[model]["a"]["verdict"] == "contradicted"
        assert reports[model]["a"]["polarity_gated"] is True


def one_passage(
    tmp_path: Path, text: str, claims: dict[str, str], models: tuple[str, ...]
) -> dict[str, dict[str, dict[str, Any]]]:
    """Each claim (by id) verified against one passage ``S1`` under each of ``models``."""
    evidence = write_jsonl(tmp_path / "evidence.jsonl", [{"id": "S1", "text": text}])
    rows = [{"id": k, "text": v} for k, v in claims.items()]
    return by_model(write_jsonl(tmp_path / "claims.jsonl", rows), evidence, models)


def test_score_model_v31_reads_a_subject_taken_from_the_opposed_clause(tmp_path: Path) -> None:
    text = (
        "Blood group A was associated with a higher risk of infection, whereas blood group O "
        "was associated with a lower risk of infection."
    )
    claims = {
        "mixed": "Blood group O was associated with a higher risk of infection.",
        "copied": "Blood group O was associated with a lower risk of infection.",
    }
    reports = one_passage(tmp_path, text, claims, ("v29", "v31"))
    # a near copy goes to the edit check, which replaces the polarity gate: v29 read the "O"
    # taken from the second clause as a word moved, v31 as a finding changed, and names it
    assert reports["v29"]["mixed"]["verdict"] == "supported"
    assert reports["v31"]["mixed"]["verdict"] == "unsupported"
    named = [e["judgement"] for e in reports["v31"]["mixed"]["edits"]]
    assert "unsupported: words from another clause" in named
    for model in ("v29", "v31"):
        assert reports[model]["copied"]["verdict"] == "supported"


def test_score_model_v32_reads_a_comparison_with_its_sides_traded(tmp_path: Path) -> None:
    text = (
        "Both masks significantly reduced the number of microorganisms expelled by volunteers, "
        "although the surgical mask was 3 times more effective in blocking transmission than "
        "the homemade mask."
    )
    claims = {
        "traded": "Homemade cloth masks are more effective than proper surgical ones in "
        "blocking viral aerosols.",
        "same": "Surgical masks are more effective than homemade masks.",
    }
    reports = one_passage(tmp_path, text, claims, ("v31", "v32"))
    # a rewording, so the gates decide: both say "more", v32 also reads which side is which
    assert reports["v31"]["traded"]["verdict"] == "supported"
    assert reports["v32"]["traded"]["verdict"] == "contradicted"
    assert reports["v32"]["traded"]["polarity_gated"] is True
    for model in ("v31", "v32"):
        assert reports[model]["same"]["verdict"] == "supported"


def test_score_model_v33_reads_what_a_deletion_carries_on(tmp_path: Path) -> None:
    text = (
        "The cohort included adults between the ages of 18 years and 65 years and older. "
        "Insulin doses were similar in the first year versus the second year of follow-up."
    )
    claims = {
        "bound": "The cohort included adults between the ages of 18 years and older.",
        "compared": "Insulin doses were similar in the first year of follow-up.",
        "kept": "The cohort included adults between the ages of 18 years and 65 years.",
    }
    reports = one_passage(tmp_path, text, claims, ("v32", "v33"))
    assert reports["v32"]["bound"]["verdict"] == "supported"
    assert reports["v32"]["compared"]["verdict"] == "supported"
    for cid, why in (("bound", "bound carried on"), ("compared", "comparison dropped")):
        claim = reports["v33"][cid]
        assert claim["verdict"] == "unsupported"
        assert f"unsupported: {why}" in [e["judgement"] for e in claim["edits"]]
    # the later figure's own bound dropped is v19's "bound dropped" under both, not a carry
    for model in ("v32", "v33"):
        edits = [e["judgement"] for e in reports[model]["kept"]["edits"]]
        assert reports[model]["kept"]["verdict"] == "unsupported"
        assert "unsupported: bound dropped" in edits
        assert "unsupported: bound carried on" not in edits


def test_score_model_v34_reads_a_name_s_figure_as_part_of_the_name(tmp_path: Path) -> None:
    text = (
        "In a cohort of 420 adults hospitalised with SARS-CoV-2 infection, current smokers "
        "were less likely to need intensive care."
    )
    claims = {
        "named": "Smokers hospitalised for COVID-19 were less likely to need intensive care.",
        "reversed": "Smokers hospitalised for COVID-19 were more likely to need intensive care.",
        "figure": "In a cohort of 240 adults hospitalised for COVID-19, smokers were less "
        "likely to need intensive care.",
    }
    reports = one_passage(tmp_path, text, claims, ("v33", "v34"))
    # "19" of "COVID-19" is no figure the passage lacks under v34: the name is the entity
    # gate's, so the claim's words decide, and the reversed one is caught by what it says
    for cid in ("named", "reversed"):
        assert reports["v33"][cid]["verdict"] == "unsupported"
        assert reports["v33"][cid]["numeric_gated"] is True
        assert reports["v34"][cid]["numeric_gated"] is False
    assert reports["v34"]["named"]["verdict"] == "supported"
    assert reports["v34"]["reversed"]["verdict"] == "contradicted"
    # a figure that is no part of a name still trips the gate
    for model in ("v33", "v34"):
        assert reports[model]["figure"]["numeric_gated"] is True
        assert reports[model]["figure"]["verdict"] == "unsupported"


def test_score_model_v35_reads_a_dropped_word_of_extent(tmp_path: Path) -> None:
    text = (
        "In the randomised trial, the new inhibitor partially restored insulin secretion in "
        "some patients with type 2 diabetes. Fasting glucose decreased slightly over the "
        "first year of treatment."
    )
    claims = {
        "whole": "In the randomised trial, the new inhibitor restored insulin secretion in some "
        "patients with type 2 diabetes.",
        "all": "In the randomised trial, the new inhibitor partially restored insulin secretion "
        "in patients with type 2 diabetes.",
        "size": "Fasting glucose decreased over the first year of treatment.",
    }
    reports = one_passage(tmp_path, text, claims, ("v34", "v35"))
    # under v34 each copy was a compression; v35 names the word of extent it dropped
    for cid in ("whole", "all"):
        assert reports["v34"][cid]["verdict"] == "supported"
        assert reports["v35"][cid]["verdict"] == "unsupported"
    named = {
        cid: [e["judgement"] for e in reports["v35"][cid]["edits"]] for cid in ("whole", "all")
    }
    assert "unsupported: extent dropped" in named["whole"]
    assert "unsupported: part stated as the whole" in named["all"]
    # a word of size alone dropped still says what the passage says
    for model in ("v34", "v35"):
        assert reports[model]["size"]["verdict"] == "supported"


def test_score_model_v36_reads_a_supposition_stated_as_a_finding(tmp_path: Path) -> None:
    text = (
        "It has been proposed that the new inhibitor restores insulin secretion in patients "
        "with type 2 diabetes. Fasting glucose is thought to fall within the first year of "
        "treatment. We found that body weight did not change over the first year."
    )
    claims = {
        "proposed": "The new inhibitor restores insulin secretion in patients with type 2 "
        "diabetes.",
        "thought": "Fasting glucose falls within the first year of treatment.",
        "found": "Body weight did not change over the first year.",
    }
    reports = one_passage(tmp_path, text, claims, ("v35", "v36"))
    # under v35 each copy was supported; v36 reads what the passage only supposes
    for cid in ("proposed", "thought"):
        assert reports["v35"][cid]["verdict"] == "supported"
        assert reports["v36"][cid]["verdict"] == "unsupported"
        judgements = [e["judgement"] for e in reports["v36"][cid]["edits"]]
        assert "unsupported: not asserted by the window" in judgements
    # what the authors found is asserted under both
    for model in ("v35", "v36"):
        assert reports[model]["found"]["verdict"] == "supported"


def test_score_model_v37_reads_what_says_a_finding_was_not_significant(tmp_path: Path) -> None:
    text = (
        "Although the exercise group had lower systolic blood pressure at 12 weeks, the "
        "difference did not reach statistical significance. Resting heart rate fell in both "
        "groups (P < 0.001)."
    )
    claims = {
        "dropped": "The exercise group had lower systolic blood pressure at 12 weeks.",
        "reversed": "The exercise group had significantly lower systolic blood pressure at 12 "
        "weeks.",
        "other": "Resting heart rate fell in both groups.",
    }
    reports = one_passage(tmp_path, text, claims, ("v36", "v37"))
    # under v36 both copies were supported; v37 reads the clause that takes the finding back
    for cid in ("dropped", "reversed"):
        assert reports["v36"][cid]["verdict"] == "supported"
    assert reports["v37"]["dropped"]["verdict"] == "unsupported"
    assert "unsupported: caveat dropped" in [
        e["judgement"] for e in reports["v37"]["dropped"]["edits"]
    ]
    assert reports["v37"]["reversed"]["verdict"] == "contradicted"
    assert "contradicted: significance reversed" in [
        e["judgement"] for e in reports["v37"]["reversed"]["edits"]
    ]
    # a finding no caveat speaks of is supported under both
    for model in ("v36", "v37"):
        assert reports[model]["other"]["verdict"] == "supported"


#: (model, the model before it, passage, the claim it refuses, that claim's verdict and edit
#: judgement, a claim the passage states, supported under both)
ONE_READING_MORE = [
    (
        "v38",
        "v37",
        "Dexamethasone use was associated with postoperative bleeding in children. "
        "Tranexamic acid reduced blood loss in the same children.",
        "Dexamethasone increases the risk of postoperative bleeding in children.",
        "unsupported",
        "unsupported: association stated as an effect",
        "Tranexamic acid reduced blood loss in the same children.",
    ),
    (
        "v39",
        "v38",
        "CONCLUSION The Polymeal promises to be an effective, non-pharmacological, safe, cheap, "
        "and tasty alternative to reduce cardiovascular morbidity and increase life expectancy "
        "in the general population.",
        "Polymeal nutrition increases cardiovascular mortality.",
        "contradicted",
        "contradicted: direction flip",
        "The Polymeal increases life expectancy in the general population.",
    ),
    (
        "v40",
        "v39",
        "CONCLUSION The use of IV vitamin C in patients with moderate to severe COVID-19 "
        "disease may be feasible.",
        "Vitamin C cures COVID-19",
        "unsupported",
        "unsupported: cure not stated",
        "IV vitamin C may be feasible in patients with severe COVID-19.",
    ),
]


@pytest.mark.parametrize(
    ("model", "before", "text", "refused", "verdict", "judgement", "stated"),
    ONE_READING_MORE,
    ids=["v38-association-as-effect", "v39-direction-on-its-thing", "v40-cure-not-stated"],
)
def test_a_score_model_refuses_what_the_one_before_supported(
    tmp_path: Path,
    model: str,
    before: str,
    text: str,
    refused: str,
    verdict: str,
    judgement: str,
    stated: str,
) -> None:
    claims = {"refused": refused, "stated": stated}
    reports = one_passage(tmp_path, text, claims, (before, model))
    assert reports[before]["refused"]["verdict"] == "supported"
    assert reports[model]["refused"]["verdict"] == verdict
    assert [e["judgement"] for e in reports[model]["refused"]["edits"]] == [judgement]
    # what the passage states is supported under both
    for name in (before, model):
        assert reports[name]["stated"]["verdict"] == "supported"


def test_v39_names_the_direction_word_and_the_passages_opposite(tmp_path: Path) -> None:
    _model, _before, text, refused, _verdict, _judgement, _stated = ONE_READING_MORE[1]
    (edit,) = one_passage(tmp_path, text, {"c": refused}, ("v39",))["v39"]["c"]["edits"]
    assert (edit["claim"]["text"], edit["evidence"]["text"]) == ("increases", "reduce")


def test_v41_reads_a_comparison_restated_as_agreeing_and_one_traded_by_figures_as_reversed(
    tmp_path: Path,
) -> None:
    text = "Participants who slept fewer than 6 hours had higher evening cortisol than those who "
    text += "slept 8 hours."
    claims = {
        "restated": "Those who slept 8 hours had lower cortisol than those who slept fewer than "
        "6 hours.",
        "traded": "Those who slept 8 hours had higher cortisol than those who slept fewer than "
        "6 hours.",
        "copy": "Those who slept fewer than 6 hours had higher evening cortisol.",
    }
    reports = one_passage(tmp_path, text, claims, ("v40", "v41"))
    assert [reports["v40"][k]["verdict"] for k in claims] == [
        "contradicted",  # "lower" against "higher", read as a reversal
        "supported",  # the sides traded, which only their figures tell apart
        "supported",
    ]
    assert [reports["v41"][k]["verdict"] for k in claims] == [
        "supported",
        "contradicted",
        "supported",
    ]


def test_v42_reads_a_negation_dropped_past_a_comma_that_v41_passed(tmp_path: Path) -> None:
    text = (
        "RESULTS Among young and middle-aged adults, current use of ADHD medications, compared "
        "with nonuse or remote use, was not associated with an increased risk of serious "
        "cardiovascular events."
    )
    claims = {
        "dropped": "Among young and middle-aged adults, current use of ADHD medications, compared "
        "with nonuse or remote use, increased the risk of serious cardiovascular events.",
        "stated": "Current use of ADHD medications was not associated with an increased risk of "
        "serious cardiovascular events.",
    }
    reports = one_passage(tmp_path, text, claims, ("v41", "v42"))
    assert reports["v41"]["dropped"]["verdict"] == "supported"
    assert reports["v42"]["dropped"]["verdict"] == "contradicted"
    assert "contradicted: negation dropped" in [
        e["judgement"] for e in reports["v42"]["dropped"]["edits"]
    ]
    for name in ("v41", "v42"):
        assert reports[name]["stated"]["verdict"] == "supported"


def test_v44_reads_a_population_dropped_that_v42_kept_by_another_mention(tmp_path: Path) -> None:
    text = (
        "Men and women presented equally often with chest pain; however, jaw pain and nausea "
        "were more frequent among women."
    )
    claims = {
        "dropped": "Men and women presented equally often with chest pain; however, jaw pain "
        "and nausea were more frequent.",
        "stated": "Among women, jaw pain and nausea were more frequent.",
    }
    reports = one_passage(tmp_path, text, claims, ("v42", "v44"))
    assert reports["v42"]["dropped"]["verdict"] == "supported"
    assert reports["v44"]["dropped"]["verdict"] == "unsupported"
    assert "unsupported: population dropped" in [
        e["judgement"] for e in reports["v44"]["dropped"]["edits"]
    ]
    for name in ("v42", "v44"):
        assert reports[name]["stated"]["verdict"] == "supported"


def test_v45_reads_a_comparison_restated_whose_sides_share_a_word(tmp_path: Path) -> None:
    text = (
        "Participants who slept fewer than 6 hours had higher evening cortisol than those who "
        "slept 8 hours."
    )
    claims = {
        "restated": "Participants who slept 8 hours had lower evening cortisol than those who "
        "slept fewer than 6 hours.",
        "reversed": "People sleeping 8 hours had higher evening cortisol than people sleeping "
        "under 6 hours.",
    }
    reports = one_passage(tmp_path, text, claims, ("v44", "v45"))
    assert reports["v44"]["restated"]["verdict"] == "contradicted"
    assert reports["v45"]["restated"]["verdict"] == "supported"
    for name in ("v44", "v45"):
        assert reports[name]["reversed"]["verdict"] == "contradicted"


DEMO = Path(__file__).resolve().parents[2] / "examples" / "demo"


def test_the_default_model_names_what_a_shortened_copy_dropped() -> None:
    # the demo draft copies S1 without its population, "adults with mild hypertension": the
    # default model (v56, with v25's edit check) reads it as a finding stated of more than the
    # source and says why in the table; v2 read the same copy as supported
    draft, evidence = str(DEMO / "draft.txt"), str(DEMO / "evidence.jsonl")
    code, out, _ = run("verify", "--draft", draft, "--evidence", evidence, "--json")
    assert code == 0
    report = json.loads(out)
    assert report["score_model"] == "v79"
    first = report["claims"][0]
    assert (
        first["text"].startswith("Daily walking for 30 minutes")
        and first["verdict"] == "unsupported"
    )
    assert [e["judgement"] for e in first["edits"] if e["op"] == "deletion"][-1] == (
        "unsupported: population dropped"
    )
    _, table, _ = run("verify", "--draft", draft, "--evidence", evidence)
    assert "edit: population dropped" in " ".join(table.split())
    code, out, _ = run(
        "verify", "--draft", draft, "--evidence", evidence, "--json", "--score-model", "v2"
    )
    assert json.loads(out)["claims"][0]["verdict"] == "supported"


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"id": None, "text": "x"}, "evidence item 1: 'id' must be a string or an integer"),
        ({"id": "S1", "text": "x", "erased": True}, "evidence item 1: 'erased' must be a list"),
        ({"id": "", "text": "x"}, "evidence item 1: 'id' is blank"),
    ],
)
def test_evidence_the_library_refuses_exits_2_naming_the_file_before_the_model_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, item: dict[str, object], message: str
) -> None:
    # These were found only once the model had loaded, in messages that named no file.
    monkeypatch.setattr(
        "spanproof.cli.verify_commands.build_verifier",
        lambda *a: pytest.fail("the model loaded before the evidence was checked"),
    )
    claims = write_jsonl(tmp_path / "claims.jsonl", [{"id": "a", "text": "x"}])
    path = write_jsonl(tmp_path / "evidence.jsonl", [item])
    code, out, err = run("verify", "--claims", str(claims), "--evidence", str(path))
    assert (code, out) == (2, "")
    assert f"{path}: {message}" in err


@pytest.mark.parametrize("text", ["", "  \n\t\n"])
def test_an_empty_draft_file_is_bad_input_as_the_api_says(
    tmp_path: Path, evidence: Path, text: str
) -> None:
    # It printed a "verified" report with outcome no_claims and exit 0: a CI step passed on a
    # model answer that never reached the file.
    draft = tmp_path / "draft.txt"
    draft.write_text(text, encoding="utf-8")
    code, out, err = run("verify", "--draft", str(draft), "--evidence", str(evidence), "--json")
    assert (code, out) == (2, "")
    assert err.strip() == f"error: draft file {draft} is empty: give the text to verify"


def test_a_batch_item_with_no_claims_is_a_bad_line(tmp_path: Path) -> None:
    items = write_jsonl(
        tmp_path / "items.jsonl",
        [
            {"id": "a", "claims": [SUPPORTED], "evidence": EVIDENCE},
            {"id": "b", "claims": [], "evidence": EVIDENCE},
        ],
    )
    code, out, err = run("verify", "--batch", str(items), "--json")
    assert code == 2
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["outcome"] == "all_supported"
    assert second["line"] == 2 and "'claims' is empty" in second["error"]["message"]
    assert "(line 2)" in err


def test_a_missing_draft_is_named_before_a_missing_evidence_file(tmp_path: Path) -> None:
    # both missing: the message names the text to verify, the argument a user gives first
    draft, evidence = tmp_path / "nope.txt", tmp_path / "nope.jsonl"
    code, out, err = run("verify", "--draft", str(draft), "--evidence", str(evidence))
    assert (code, out) == (2, "") and "draft file not found" in err
    code, out, err = run("verify", "--claims", str(draft), "--evidence", str(evidence))
    assert (code, out) == (2, "") and "claims file not found" in err


@pytest.mark.parametrize(
    ("answer", "claim", "verdict", "code"),
    [
        ("Yes.", "Sodium restriction changed diastolic blood pressure.", "contradicted", 1),
        # a denial is read as its proposition turned round: contradicted by the evidence, so
        # "No." may be right, and a person should look (partial), which passes the gate
        ("No, it did not [S2].", "Sodium restriction did not change diastolic blood pressure.",
         "partial", 0),
    ],
)  # fmt: skip
def test_a_bare_yes_or_no_is_checked_against_the_question(
    tmp_path: Path, evidence: Path, answer: str, claim: str, verdict: str, code: int
) -> None:
    draft = tmp_path / "answer.txt"
    draft.write_text(answer, encoding="utf-8")
    question = "Did sodium restriction change diastolic blood pressure?"
    base = ("verify", "--draft", str(draft), "--evidence", str(evidence), "--json")
    # without the question the answer states nothing: no claims, and no gate can fail it
    status, out, _ = run(*base, "--fail-on", "contradicted")
    assert (status, json.loads(out)["outcome"]) == (0, "no_claims")
    status, out, err = run(*base, "--question", question, "--fail-on", "contradicted")
    assert status == code, err
    report = json.loads(out)
    assert [(c["text"], c["verdict"], c["draft_span"]) for c in report["claims"]] == [
        (claim, verdict, [0, len(answer)])
    ]
    negates = report["claims"][0].get("negates")
    assert negates == (
        None if answer.startswith("Yes") else "Sodium restriction changed diastolic blood pressure."
    )


def test_the_table_says_a_bare_no_was_read_as_its_proposition_turned_round(
    tmp_path: Path, evidence: Path
) -> None:
    draft = tmp_path / "answer.txt"
    draft.write_text("No.", encoding="utf-8")
    question = "Did sodium restriction change diastolic blood pressure?"
    args = ["verify", "--draft", str(draft), "--evidence", str(evidence), "--question", question]
    result = CliRunner().invoke(cli, args, env={"COLUMNS": "400"}, catch_exceptions=False)
    code, out, err = result.exit_code, result.stdout, result.stderr
    assert code == 0, err
    flat = " ".join(out.replace("│", " ").split())
    assert "c1: Sodium restriction did not change diastolic blood pressure." in flat
    assert "Sodium restriction changed diastolic blood pressure.” checked, its verdict" in flat
    assert "No. ⟦partial⟧" in out


def test_question_goes_with_a_draft_only(tmp_path: Path, evidence: Path) -> None:
    claims = write_jsonl(tmp_path / "claims.jsonl", [{"id": "c1", "text": "Walking helps."}])
    code, _, err = run(
        "verify", "--claims", str(claims), "--evidence", str(evidence), "--question", "Does it?"
    )
    assert code == 2
    assert "--question goes with --draft" in err
