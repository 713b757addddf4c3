"""The LLM record checker's prompt and strict reply parser (SPEC §5.3–§5.4)."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from typing import Any

import pytest

from spanproof.core.errors import InvalidInputError
from spanproof.core.records import CHECK_NAMES, LABELS, Quotation, Record, RecordFields
from spanproof.evidence.check_prompt import (
    CHECK_DEFINITIONS,
    RECORD_CHECK_SYSTEM_PROMPT,
    VERDICT_SCHEMA,
    build_check_messages,
    is_unusable,
    parse_verdict,
    prompt_hash,
    unusable_verdict,
)
from spanproof.evidence.checker import check

PASSAGES = [
    "Metformin at 250 mg/kg significantly reduced hepatic triglyceride content in mice "
    "compared with vehicle (p < 0.01).",
    "Treatment with metformin did not change body weight in mice (p = 0.4).",
]
RECORD = Record(
    id="rec-1",
    source_id="paper-1",
    version=1,
    statement="Metformin reduced hepatic triglyceride content in mice.",
    quotations=(Quotation("s1", 0, len(PASSAGES[0]), PASSAGES[0]),),
    fields=RecordFields(
        subject="metformin",
        endpoint="hepatic triglyceride content",
        direction="decrease",
        species="mice",
        treatment="250 mg/kg",
    ),
)
QUOTE = "significantly reduced hepatic triglyceride content in mice"


def _reply(label: str = "entailed", **changes: Any) -> dict[str, Any]:
    checks = [
        {"name": name, "passed": True, "note": f"{name} ok", "quote": QUOTE} for name in CHECK_NAMES
    ]
    payload: dict[str, Any] = {"label": label, "checks": checks}
    payload.update(changes)
    return payload


def _parse(payload: Any) -> Any:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return parse_verdict(text, PASSAGES, "m")


# --------------------------------------------------------------------------- the prompt


def test_same_record_and_passages_give_the_same_prompt_and_hash_bit_for_bit() -> None:
    first = build_check_messages(RECORD, PASSAGES)
    second = build_check_messages(copy.deepcopy(RECORD), list(PASSAGES))
    assert first == second
    assert prompt_hash(first) == prompt_hash(second)
    assert len(prompt_hash(first)) == 64


def test_prompt_hash_changes_with_the_record_or_the_passages() -> None:
    base = prompt_hash(build_check_messages(RECORD, PASSAGES))
    assert prompt_hash(build_check_messages(RECORD, PASSAGES[:1])) != base
    other = dataclasses.replace(RECORD, statement="Metformin raised it.")
    assert prompt_hash(build_check_messages(other, PASSAGES)) != base


def test_prompt_shows_the_record_fields_beside_numbered_passages() -> None:
    system, user = build_check_messages(RECORD, PASSAGES)
    assert system.role == "system" and system.content == RECORD_CHECK_SYSTEM_PROMPT
    assert user.role == "user"
    assert "statement: Metformin reduced hepatic triglyceride content in mice." in user.content
    for line in ("subject: metformin", "species: mice", "treatment: 250 mg/kg", "scope: (none)"):
        assert line in user.content
    assert "[P1] Metformin at 250 mg/kg" in user.content
    assert "[P2] Treatment with metformin did not change" in user.content


def test_system_prompt_defines_the_five_checks_labels_and_schema() -> None:
    for name in CHECK_NAMES:
        assert f"- {name}: {CHECK_DEFINITIONS[name]}." in RECORD_CHECK_SYSTEM_PROMPT
    for label in LABELS:
        assert f"- {label}:" in RECORD_CHECK_SYSTEM_PROMPT
    assert json.dumps(VERDICT_SCHEMA, indent=2, sort_keys=True) in RECORD_CHECK_SYSTEM_PROMPT
    assert VERDICT_SCHEMA["properties"]["label"]["enum"] == list(LABELS)
    items = VERDICT_SCHEMA["properties"]["checks"]["items"]
    assert items["properties"]["name"]["enum"] == list(CHECK_NAMES)


# --------------------------------------------------------------------------- parser: accepted


def test_a_valid_reply_parses_into_a_verdict_in_check_order() -> None:
    payload = _reply()
    payload["checks"].reverse()
    verdict = _parse(payload)
    assert verdict.label == "entailed" and verdict.model_id == "m"
    assert tuple(c.name for c in verdict.checks) == CHECK_NAMES
    assert all(c.passed and c.quote == QUOTE for c in verdict.checks)


def test_the_parsed_verdict_has_the_deterministic_checkers_structure() -> None:
    mine, theirs = _parse(_reply()), check(RECORD, PASSAGES)
    assert mine.to_dict().keys() == theirs.to_dict().keys()
    assert [set(c) for c in mine.to_dict()["checks"]] == [
        set(c) for c in theirs.to_dict()["checks"]
    ]


def test_a_json_fence_is_tolerated() -> None:
    fenced = "```json\n" + json.dumps(_reply()) + "\n```"
    assert _parse(fenced).label == "entailed"
    assert _parse("  ```\n" + json.dumps(_reply()) + "```  ").label == "entailed"


def test_quotes_match_without_whitespace_and_store_the_passage_text() -> None:
    payload = _reply("contradicted")
    payload["checks"][0] = {
        "name": "negation",
        "passed": False,
        "note": "the passage says no change",
        "quote": "did not\n  change body   weight",
    }
    verdict = _parse(payload)
    assert verdict.checks[0].quote == "did not change body weight"
    assert verdict.failed() == ("negation",)


def test_an_empty_quote_is_allowed_for_a_passed_check() -> None:
    payload = _reply()
    payload["checks"][3]["quote"] = "  "
    assert _parse(payload).checks[3].quote == ""


@pytest.mark.parametrize("label", ["contradicted", "insufficiently_supported", "ambiguous"])
def test_non_entailed_labels_may_carry_failed_checks(label: str) -> None:
    payload = _reply(label)
    payload["checks"][1]["passed"] = False
    assert _parse(payload).failed() == ("scope",)


# --------------------------------------------------------------------------- parser: rejected


def _without(index: int) -> dict[str, Any]:
    payload = _reply()
    del payload["checks"][index]
    return payload


def _with_item(index: int, **changes: Any) -> dict[str, Any]:
    payload = _reply()
    payload["checks"][index].update(changes)
    return payload


def _item_without(index: int, key: str) -> dict[str, Any]:
    payload = _reply()
    del payload["checks"][index][key]
    return payload


def _extra_check() -> dict[str, Any]:
    payload = _reply()
    payload["checks"].append({"name": "dose", "passed": True, "note": "", "quote": ""})
    return payload


def _duplicate_check() -> dict[str, Any]:
    payload = _reply()
    payload["checks"][4] = dict(payload["checks"][0])
    return payload


def _sixth_duplicate() -> dict[str, Any]:
    payload = _reply()
    payload["checks"].append(dict(payload["checks"][2]))
    return payload


def _failed_with_empty_quote() -> dict[str, Any]:
    payload = _reply("contradicted")
    payload["checks"][0].update(passed=False, quote="")
    return payload


def _entailed_with_a_failed_check() -> dict[str, Any]:
    payload = _reply("entailed")
    payload["checks"][3]["passed"] = False
    return payload


REJECTED: dict[str, tuple[Any, str]] = {
    "empty reply": ("   ", "empty"),
    "not json": ("the record is fine", "not valid JSON"),
    "prose around a fence": ("Sure:\n```json\n{}\n```", "outside its code fence"),
    "unclosed fence": ("```json\n" + json.dumps(_reply()), "outside its code fence"),
    "fence in another language": ("```python\n{}\n```", "not json"),
    "array, not object": ([_reply()], "must be a JSON object"),
    "missing label": ({"checks": _reply()["checks"]}, "exactly the keys"),
    "missing checks": ({"label": "entailed"}, "exactly the keys"),
    "extra top-level key": (_reply(reasoning="..."), "exactly the keys"),
    "unknown label": (_reply("supported"), "label must be one of"),
    "label not a string": (_reply(label=1), "label must be one of"),
    "checks not an array": (_reply(checks={"negation": True}), "checks must be an array"),
    "missing check": (_without(2), "missing species"),
    "no checks": (_reply(checks=[]), "missing negation, scope, species, treatment, endpoint"),
    "extra unknown check": (_extra_check(), "name must be one of"),
    "duplicate check": (_duplicate_check(), "duplicate check 'negation'"),
    "six checks, one twice": (_sixth_duplicate(), "duplicate check 'species'"),
    "check not an object": (_reply(checks=["negation"] * 5), "must be an object"),
    "check without note": (_item_without(0, "note"), "exactly the keys"),
    "check with extra key": (_with_item(0, score=1), "exactly the keys"),
    "passed as a string": (_with_item(1, passed="true"), "passed must be true or false"),
    "passed as a number": (_with_item(1, passed=1), "passed must be true or false"),
    "note not a string": (_with_item(2, note=None), "note must be a string"),
    "quote not a string": (_with_item(2, quote=["a"]), "quote must be a string"),
    "name not a string": (_with_item(2, name=3), "name must be one of"),
    "quote not in the passages": (_with_item(4, quote="reduced body weight"), "not in any"),
    "quote across two passages": (_with_item(4, quote="(p < 0.01). Treatment"), "not in any"),
    "failed check with empty quote": (_failed_with_empty_quote(), "must quote a passage"),
    "entailed with a failed check": (_entailed_with_a_failed_check(), "forbids entailed"),
}


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_malformed_replies_are_rejected_with_a_named_reason(case: str) -> None:
    payload, message = REJECTED[case]
    with pytest.raises(InvalidInputError, match=re.escape(message)):
        _parse(payload)


# --------------------------------------------------------------------------- unusable verdicts


def test_the_unusable_verdict_is_ambiguous_with_every_check_failed() -> None:
    verdict = unusable_verdict("m", "invalid reply: empty")
    assert verdict.label == "ambiguous" and verdict.model_id == "m"
    assert verdict.failed() == CHECK_NAMES
    assert all("model output was unusable" in c.note for c in verdict.checks)
    assert is_unusable(verdict)


def test_ordinary_verdicts_are_not_unusable() -> None:
    payload = _reply("ambiguous")
    for item in payload["checks"]:
        item["passed"] = False
    assert not is_unusable(_parse(payload))
    assert not is_unusable(check(RECORD, PASSAGES))
