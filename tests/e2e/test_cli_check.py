"""The `spanproof check` contract, run through the real CLI and the bundled model."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from spanproof.cli.main import EXIT_CLOSED_PIPE, cli

WALKING = (
    "In a randomised trial, daily walking for 30 minutes lowered systolic blood "
    "pressure by 5 mmHg after 12 weeks."
)
SODIUM = "Sodium restriction to 1,500 mg per day did not change diastolic blood pressure."
SLEEP = "Adults who slept fewer than 6 hours had higher evening cortisol."
CONTEXTS = [WALKING, SODIUM, SLEEP]

#: id → (answer, verdicts it gets against CONTEXTS)
GROUNDED = {
    "id": "grounded",
    "question": "What did walking do?",
    "answer": "Daily walking lowered systolic blood pressure by 5 mmHg.",
    "contexts": CONTEXTS,
}
UNSUPPORTED = {
    "id": "unsupported",
    "question": "What did walking do?",
    "answer": "Daily walking lowered systolic blood pressure by 5 mmHg. "
    "Walking also cured diabetes in 40% of participants.",
    "contexts": CONTEXTS,
}
CONTRADICTED = {
    "id": "contradicted",
    "question": "What did sodium restriction do?",
    "answer": "Daily walking lowered systolic blood pressure by 5 mmHg. "
    "Sodium restriction changed diastolic blood pressure.",
    "contexts": CONTEXTS,
}
TOP_KEYS = {"score_model", "embed_model", "fail_on", "min_supported", "summary", "answers"}
SUMMARY_KEYS = {
    "answers", "failed", "unavailable", "claims", "supported", "supported_share",
    "contradicted_answers", "outcomes", "worst",
}  # fmt: skip
ANSWER_KEYS = {
    "id", "line", "question", "verification", "outcome", "counts", "supported_share", "failed",
    "reasons", "claims",
}  # fmt: skip


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["check", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def answers(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "answers.jsonl", [GROUNDED, UNSUPPORTED, CONTRADICTED])


@pytest.mark.model
def test_json_reports_each_answer_and_the_summary(answers: Path) -> None:
    code, out, _ = run(str(answers), "--json")
    assert code == 0  # no gate: the outcome alone never fails the run
    doc = json.loads(out)
    assert set(doc) == TOP_KEYS
    assert doc["score_model"] == "v79" and doc["fail_on"] == "never"
    assert set(doc["summary"]) == SUMMARY_KEYS
    assert [a["id"] for a in doc["answers"]] == ["grounded", "unsupported", "contradicted"]
    assert all(set(a) == ANSWER_KEYS for a in doc["answers"])
    by_id = {a["id"]: a for a in doc["answers"]}
    assert by_id["grounded"]["outcome"] == "all_supported"
    assert by_id["grounded"]["supported_share"] == 1.0
    assert by_id["unsupported"]["outcome"] == "not_all_supported"
    assert by_id["unsupported"]["supported_share"] == 0.5
    assert by_id["contradicted"]["outcome"] == "contradicted"
    assert by_id["contradicted"]["line"] == 3
    bad = by_id["contradicted"]["claims"][1]
    assert bad["verdict"] == "contradicted"
    assert bad["closest_text"] == SODIUM  # the text of its best span, S2
    assert bad["best_span"]["id"] == "S2"
    summary = doc["summary"]
    assert (summary["answers"], summary["claims"], summary["supported"]) == (3, 5, 3)
    assert summary["supported_share"] == 0.6
    assert summary["contradicted_answers"] == 1
    assert summary["failed"] == 0
    # Worst first: both at 50 %, the contradicted one ahead; the grounded one is no offender.
    assert summary["worst"] == ["contradicted", "unsupported"]
    assert summary["outcomes"]["all_supported"] == 1


@pytest.mark.model
@pytest.mark.parametrize(
    ("gate", "code", "failed"),
    [
        ((), 0, []),
        (("--fail-on", "contradicted"), 1, ["contradicted"]),
        (("--fail-on", "unsupported"), 1, ["unsupported", "contradicted"]),
        (("--min-supported", "0.5"), 0, []),
        (("--min-supported", "0.9"), 1, ["unsupported", "contradicted"]),
        (("--fail-on", "never", "--min-supported", "0"), 0, []),
    ],
)
def test_fail_on_and_min_supported_set_the_exit_status(
    answers: Path, gate: tuple[str, ...], code: int, failed: list[str]
) -> None:
    status, out, _ = run(str(answers), "--json", *gate)
    assert status == code
    doc = json.loads(out)  # the report is printed either way
    assert [a["id"] for a in doc["answers"] if a["failed"]] == failed
    assert doc["summary"]["failed"] == len(failed)


@pytest.mark.model
def test_a_passing_set_exits_0_under_the_strictest_gate(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "ok.jsonl", [GROUNDED])
    code, _, _ = run(str(path), "--fail-on", "unsupported", "--min-supported", "1")
    assert code == 0


@pytest.mark.model
def test_junit_has_one_test_case_per_answer_and_failures_name_the_claims(
    answers: Path, tmp_path: Path
) -> None:
    report = tmp_path / "out" / "junit.xml"
    report.parent.mkdir()
    code, _, _ = run(str(answers), "--fail-on", "contradicted", "--junit", str(report))
    assert code == 1
    root = ET.parse(report).getroot()
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "1", "0")
    cases = {case.get("name"): case for case in suite.findall("testcase")}
    assert list(cases) == ["grounded", "unsupported", "contradicted"]
    assert cases["grounded"].find("failure") is None
    assert cases["unsupported"].find("failure") is None  # not contradicted: passes this gate
    failure = cases["contradicted"].find("failure")
    assert failure is not None
    assert failure.get("type") == "contradicted"
    assert "reaches fail-on contradicted" in (failure.get("message") or "")
    assert "contradicted: Sodium restriction changed diastolic blood pressure" in (
        failure.text or ""
    )
    assert f"closest (S2): {SODIUM}" in (failure.text or "")
    out = cases["contradicted"].find("system-out")
    assert out is not None and "1 claim contradicted" in (out.text or "")


@pytest.mark.model
def test_junit_stays_well_formed_xml_when_the_text_holds_control_characters(
    tmp_path: Path,
) -> None:
    # A form feed or vertical tab (text extracted from a PDF) is not allowed in XML 1.0;
    # written as it was, the JUnit reader refused the whole file.
    row = {
        "id": "pdf\x0b1",
        "answer": "Walking also cured diabetes\x0c in 40% of participants.",
        "contexts": [WALKING + "\x0bPage 2\x01"],
    }
    path = write_jsonl(tmp_path / "answers.jsonl", [row])
    report = tmp_path / "junit.xml"
    code, _, _ = run(str(path), "--fail-on", "unsupported", "--junit", str(report))
    assert code == 1
    (case,) = ET.parse(report).getroot().iter("testcase")
    assert case.get("name") == "pdf\ufffd1"
    failure = case.find("failure")
    assert failure is not None and "unsupported: Walking also cured diabetes" in (
        failure.text or ""
    )


@pytest.mark.model
def test_junit_min_supported_failure_says_the_share(answers: Path, tmp_path: Path) -> None:
    report = tmp_path / "junit.xml"
    code, _, _ = run(str(answers), "--min-supported", "0.9", "--junit", str(report), "--json")
    assert code == 1
    cases = {c.get("name"): c for c in ET.parse(report).getroot().iter("testcase")}
    failure = cases["unsupported"].find("failure")
    assert failure is not None
    assert failure.get("message") == "50% of claims supported, under the minimum 90%"
    assert "unsupported: Walking also cured diabetes" in (failure.text or "")


@pytest.mark.model
def test_table_output_lists_answers_summary_and_worst_offenders(answers: Path) -> None:
    code, out, _ = run(str(answers), "--fail-on", "contradicted")
    assert code == 1
    flat = " ".join(out.split())
    assert "✔ the claim is supported grounded" in flat
    assert "✖ 1 claim contradicted, 1 supported contradicted FAIL" in flat
    assert "3 answers · 5 claims · 60.0% of claims supported · 1 with a contradicted claim" in flat
    assert "worst offenders" in flat
    assert "contradicted: Sodium restriction changed diastolic blood pressure" in flat
    assert f"closest (S2): “{SODIUM}”" in flat


@pytest.mark.model
def test_the_text_report_keeps_one_line_an_item_in_a_log_and_prints_text_as_written(
    tmp_path: Path,
) -> None:
    # No terminal (a CI log, a file): rich would wrap at 80 columns and split an item's line.
    long_id = "case-" + "x" * 90
    trailing = {
        **UNSUPPORTED,
        "id": long_id,
        "answer": "Daily walking lowered systolic blood pressure by 5 mmHg. "
        "Walking also cured diabetes in 40% of participants \\",
    }
    code, out, _ = run(
        str(write_jsonl(tmp_path / "a.jsonl", [trailing])), "--fail-on", "unsupported"
    )
    assert code == 1
    lines = out.splitlines()
    assert any(line.endswith(f"{long_id} FAIL") for line in lines), lines
    summary = next(line for line in lines if line.startswith("1 answer · "))
    assert summary.endswith("1 failed (--fail-on unsupported)"), summary
    claim = next(line for line in lines if "unsupported: Walking also cured" in line)
    assert claim.endswith("participants \\"), claim  # one backslash, not two


@pytest.mark.model
def test_a_reader_that_stops_early_is_no_failed_check(tmp_path: Path) -> None:
    # `spanproof check … | head -1`: the closed pipe ends the run with the status a shell gives
    # a process SIGPIPE ended (141), never 1 (a failed check), and prints no traceback.
    path = write_jsonl(tmp_path / "many.jsonl", [{**GROUNDED, "id": f"a{n}"} for n in range(400)])
    child = subprocess.Popen(
        [sys.executable, "-m", "spanproof.cli.main", "check", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    assert "the claim is supported" in child.stdout.readline().decode()
    child.stdout.close()
    with child.stderr:
        err = child.stderr.read().decode()
    assert child.wait(timeout=300) == EXIT_CLOSED_PIPE, err
    assert "Traceback" not in err


@pytest.mark.model
def test_one_answer_with_one_claim_is_counted_in_the_singular(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "one.jsonl", [GROUNDED])
    code, out, _ = run(str(path))
    assert code == 0
    flat = " ".join(out.split())
    assert "1 answer · 1 claim · 100.0% of claims supported" in flat
    assert "answers" not in flat and "1 claims" not in flat


@pytest.mark.model
def test_ragas_and_deepeval_field_names_are_read(tmp_path: Path) -> None:
    ragas = {
        "user_input": "q",
        "response": CONTRADICTED["answer"],
        "retrieved_contexts": CONTEXTS,
    }
    deepeval = {"input": "q", "actual_output": GROUNDED["answer"], "retrieval_context": CONTEXTS}
    path = write_jsonl(tmp_path / "mixed.jsonl", [ragas, deepeval])
    code, out, _ = run(str(path), "--json")
    assert code == 0
    doc = json.loads(out)
    assert [(a["id"], a["outcome"]) for a in doc["answers"]] == [
        ("line 1", "contradicted"),
        ("line 2", "all_supported"),
    ]


# Bad input: exit 2 before any model loads, each bad line named.


def test_malformed_json_line_exits_2_and_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "answers.jsonl"
    path.write_text(
        json.dumps(GROUNDED) + "\n\n" + '{"id": "x", "answer": "oops"\n', encoding="utf-8"
    )
    code, out, err = run(str(path), "--json")
    assert code == 2
    assert out == ""
    assert f"error: {path}:3: invalid JSON" in err


def test_every_bad_line_is_named_at_once(tmp_path: Path) -> None:
    path = tmp_path / "answers.jsonl"
    rows = [
        json.dumps(GROUNDED),
        "[1, 2]",
        json.dumps({"id": "no-contexts", "answer": "a"}),
        json.dumps({**GROUNDED, "contexts": [3]}),
        json.dumps(GROUNDED),
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, _, err = run(str(path))
    assert code == 2
    assert f"{path}:2: expected a JSON object, got list" in err
    assert f"{path}:3: needs a list 'contexts'" in err
    assert f"{path}:4: context 1 must be a string" in err
    assert f"{path}:5: id 'grounded' repeats line 1" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "has no answers"),
        (b'{"id": "\xc3\x28"}\n', "is not valid UTF-8"),
    ],
)
def test_empty_or_undecodable_file_exits_2(
    tmp_path: Path, content: str | bytes, message: str
) -> None:
    path = tmp_path / "answers.jsonl"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    code, _, err = run(str(path))
    assert code == 2
    assert message in err


def test_a_lone_surrogate_escape_exits_2_before_any_model_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # It used to reach the model's tokenizer: a traceback and exit 1, read by CI as a gate.
    checked: list[int] = []
    monkeypatch.setattr(
        "spanproof.cli.check_commands._run", lambda cases, *a: checked.append(len(cases)) or []
    )
    path = tmp_path / "answers.jsonl"
    path.write_text(
        json.dumps(GROUNDED) + "\n" + json.dumps({**GROUNDED, "id": "b", "answer": "x \ud800"}),
        encoding="utf-8",
    )
    code, out, err = run(str(path), "--json")
    assert code == 2, err
    assert f"{path}:2: holds a lone UTF-16 surrogate escape" in err
    assert checked == [] and out == ""


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("no-such-dir/x.xml", "the folder {tmp}/no-such-dir does not exist"),
        ("a-file/x.xml", "the folder {tmp}/a-file is not a folder"),
        ("a-dir", "is a directory"),  # click's own check of a folder given as the file
    ],
)
def test_an_unwritable_junit_path_exits_2_before_any_model_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, message: str
) -> None:
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    (tmp_path / "a-dir").mkdir()
    checked: list[int] = []
    monkeypatch.setattr(
        "spanproof.cli.check_commands._run", lambda cases, *a: checked.append(len(cases)) or []
    )
    path = write_jsonl(tmp_path / "answers.jsonl", [GROUNDED])
    code, out, err = run(str(path), "--junit", str(tmp_path / where))
    assert code == 2, err
    assert message.format(tmp=tmp_path) in err
    assert checked == [] and out == ""  # no answer checked, nothing reported


def test_missing_file_and_out_of_range_min_supported_exit_2(tmp_path: Path) -> None:
    code, _, err = run(str(tmp_path / "absent.jsonl"))
    assert code == 2 and "answers file not found" in err
    path = write_jsonl(tmp_path / "answers.jsonl", [GROUNDED])
    code, _, err = run(str(path), "--min-supported", "90")
    assert code == 2 and "--min-supported" in err


def test_a_min_supported_that_is_not_a_number_exits_2_before_any_model_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # click's FloatRange lets "nan" through (every comparison with NaN is false): the gate
    # then failed nothing and --json printed "min_supported": NaN, which is not JSON.
    checked: list[int] = []
    monkeypatch.setattr(
        "spanproof.cli.check_commands._run", lambda cases, *a: checked.append(len(cases)) or []
    )
    path = write_jsonl(tmp_path / "answers.jsonl", [GROUNDED])
    code, out, err = run(str(path), "--min-supported", "nan", "--json")
    assert code == 2, err
    assert "--min-supported must be a number from 0 to 1, got nan" in err
    assert checked == [] and out == ""


@pytest.mark.model
def test_worker_processes_give_the_same_report_in_the_same_order(
    answers: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spanproof.cli import check_commands

    _, one, _ = run(str(answers), "--json", "--workers", "1")
    monkeypatch.setattr(check_commands, "_CHUNK", 1)  # three tasks over two processes
    code, two, _ = run(str(answers), "--json", "--workers", "2")
    assert code == 0
    assert two == one


@pytest.mark.model
def test_answers_larger_than_the_api_takes_get_one_note_naming_them_and_are_checked(
    answers: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(str(answers), "--json")
    assert code == 0 and "note:" not in err
    # the three answers with their contexts hold 308, 360 and 361 characters
    monkeypatch.setenv("SPANPROOF_LIMITS__MAX_CHARS", "330")
    code, out, err = run(str(answers), "--json")
    assert code == 0 and len(json.loads(out)["answers"]) == 3  # each is checked all the same
    assert "note: 2 answers (unsupported, contradicted) with their contexts hold more" in err
    assert "(330, SPANPROOF_LIMITS__MAX_CHARS)" in err
    monkeypatch.setenv("SPANPROOF_LIMITS__MAX_CHARS", "100")
    assert "note: 3 answers (grounded, unsupported, contradicted) with" in run(str(answers))[2]


@pytest.mark.model
def test_a_bare_yes_or_no_is_checked_as_what_it_answers(tmp_path: Path) -> None:
    """RAG test sets hold short answers: "No." to a yes/no question states the question's
    proposition negated, and fails the gate when the contexts say otherwise."""
    question = "Did daily walking lower systolic blood pressure in the trial?"
    items = [
        {"id": "no", "question": question, "answer": "No.", "contexts": CONTEXTS},
        {"id": "off", "question": "What did walking do?", "answer": "No.", "contexts": CONTEXTS},
    ]
    path = write_jsonl(tmp_path / "answers.jsonl", items)
    code, out, err = run(str(path), "--json", "--fail-on", "contradicted")
    assert code == 1, err
    answers = {a["id"]: a for a in json.loads(out)["answers"]}
    assert [(c["text"], c["verdict"]) for c in answers["no"]["claims"]] == [
        ("Daily walking did not lower systolic blood pressure in the trial.", "contradicted")
    ]
    assert answers["no"]["failed"] is True
    # a question that is no proposition: "No." states nothing
    assert answers["off"]["outcome"] == "no_claims" and answers["off"]["failed"] is False
