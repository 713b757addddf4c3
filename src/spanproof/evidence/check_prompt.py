"""The LLM record checker's prompt and reply parser (SPEC §5.3), the twin of the rules checker.

:func:`build_check_messages` shows a record (statement and fields) beside its numbered passages
and asks for one JSON object: a label from :data:`~spanproof.core.records.LABELS` and exactly the
five checks, each ``{"name", "passed", "note", "quote"}`` (:data:`VERDICT_SCHEMA`). The same
record and passages give byte-identical messages, so :func:`prompt_hash` pins what was asked.
Whitespace runs in fields and passages are shown as single spaces; quotes are compared without
whitespace, so this changes nothing a quote can match.

:func:`parse_verdict` is strict: the reply is the object alone (optionally in one ```` ```json ````
fence), with no missing, extra or duplicate checks, a known label, the right types, and every
non-empty quote found in one passage (whitespace-insensitive, :func:`find_quotation`); an empty
quote is allowed only for a passed check. ``entailed`` with a failed check is refused (SPEC §5.4:
any failed check forbids ``entailed``). A stored quote is the passage's own text, not the model's.

When no reply parses, the checker answers :func:`unusable_verdict` (``ambiguous``, every check
failed with :data:`UNUSABLE_NOTE`); :func:`is_unusable` recognises it so the service sends the
record to review rather than rejecting it for checks that were never made.

Pure: no I/O, no model call.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from spanproof.core.errors import InvalidInputError
from spanproof.core.ports import ChatMessage
from spanproof.core.records import CHECK_NAMES, LABELS, CheckResult, Record, Verdict
from spanproof.core.replies import load_json_reply
from spanproof.core.trace import canonical_json, sha256_hex
from spanproof.text.quotes import find_quotation, squash

__all__ = [
    "CHECK_DEFINITIONS",
    "RECORD_CHECK_SYSTEM_PROMPT",
    "UNUSABLE_NOTE",
    "VERDICT_SCHEMA",
    "build_check_messages",
    "is_unusable",
    "parse_verdict",
    "prompt_hash",
    "unusable_verdict",
]

#: What each of the five checks asks (SPEC §5.3), in :data:`CHECK_NAMES` order.
CHECK_DEFINITIONS: dict[str, str] = {
    "negation": (
        'the record keeps the passage\'s polarity and direction: a "did not increase" is not '
        "recorded as an increase, a failure is not recorded as a success, no effect is not "
        "recorded as an effect"
    ),
    "scope": (
        "the record is not stated more broadly than the passage: it keeps the passage's hedges "
        '("may", "suggests"), quantifiers ("some", "a subgroup") and population or setting'
    ),
    "species": (
        "the record names the passage's species or model system and keeps its qualifiers "
        "(mice are not humans; in vitro or cell-line results are not whole organisms)"
    ),
    "treatment": (
        "the record's condition, dose and exposure are the passage's (same intervention, same "
        "numbers, same schedule)"
    ),
    "endpoint": "the record's endpoint is what the passage measured, not a different outcome",
}

#: JSON Schema (draft 2020-12) of the reply. Names must also be unique and cover all five
#: checks, which the schema cannot say; :func:`parse_verdict` enforces it.
VERDICT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["label", "checks"],
    "properties": {
        "label": {"enum": list(LABELS)},
        "checks": {
            "type": "array",
            "minItems": len(CHECK_NAMES),
            "maxItems": len(CHECK_NAMES),
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["name", "passed", "note", "quote"],
                "properties": {
                    "name": {"enum": list(CHECK_NAMES)},
                    "passed": {"type": "boolean"},
                    "note": {"type": "string"},
                    "quote": {"type": "string"},
                },
            },
        },
    },
}

_DEFINITION_LINES = "\n".join(f"- {name}: {CHECK_DEFINITIONS[name]}." for name in CHECK_NAMES)

RECORD_CHECK_SYSTEM_PROMPT = f"""\
You check an evidence record against the passages it was extracted from.

A record states one finding (a statement) and its fields: subject (intervention or exposure), \
endpoint (what was measured), direction, species, treatment (condition, dose, exposure) and \
scope (population, setting, qualifiers). Judge the record only against the numbered passages, \
never from memory.

Answer a label:
- entailed: the passages state the record's finding, as recorded.
- contradicted: the passages state the opposite or a different finding.
- insufficiently_supported: the passages do not cover the record's subject or endpoint.
- ambiguous: the passages are hedged or unclear about the finding.

And run all five checks; each passes or fails:
{_DEFINITION_LINES}

For each check give a short note saying why, and a quote: text copied exactly from one passage \
that the check relied on (without the [P1] marker). A failed check must quote the passage; a \
passed check may use "" when no passage text bears on it. If any check fails, the label must \
not be entailed.

Return ONLY one JSON object, with no text before or after it, in this shape:
{{"label": "<label>", "checks": [{{"name": "negation", "passed": true, "note": "...", \
"quote": "..."}}, ...]}}
with exactly one entry for each of {", ".join(CHECK_NAMES)}. Its JSON Schema:
{json.dumps(VERDICT_SCHEMA, indent=2, sort_keys=True)}
"""

UNUSABLE_NOTE = "not checked: the model output was unusable"

_ITEM_KEYS = frozenset({"name", "passed", "note", "quote"})


def _flat(text: str) -> str:
    return " ".join(text.split())


def build_check_messages(record: Record, passages: Sequence[str]) -> list[ChatMessage]:
    """The fixed system prompt and a user message showing ``record`` beside ``passages``."""
    lines = ["Record:", f"statement: {_flat(record.statement)}"]
    for name, value in record.fields.to_dict().items():
        lines.append(f"{name}: {_flat(value) or '(none)'}")
    lines += ["", "Passages:"]
    lines.extend(f"[P{i}] {_flat(p)}" for i, p in enumerate(passages, start=1))
    if not passages:
        lines.append("(none)")
    lines += ["", "Check the record against the passages and answer with the JSON object only."]
    return [
        ChatMessage("system", RECORD_CHECK_SYSTEM_PROMPT),
        ChatMessage("user", "\n".join(lines)),
    ]


def prompt_hash(messages: Sequence[ChatMessage]) -> str:
    """SHA-256 of the canonical JSON of ``messages`` (``[{"content", "role"}, ...]``)."""
    return sha256_hex(canonical_json([{"content": m.content, "role": m.role} for m in messages]))


def parse_verdict(text: str, passages: Sequence[str], model_id: str) -> Verdict:
    """The verdict in a checker reply, validated against ``passages``.

    Checks come back in :data:`CHECK_NAMES` order whatever order the reply used.

    Raises:
        InvalidInputError: the reply is not one such JSON object, or breaks a rule of the module
            docstring; the message names the field.
    """
    payload = load_json_reply(text, "checker reply", "one JSON object")
    if not isinstance(payload, dict):
        raise InvalidInputError(f"checker reply must be a JSON object, got {_json_type(payload)}")
    if set(payload) != {"label", "checks"}:
        raise InvalidInputError(
            f"checker reply must have exactly the keys 'checks' and 'label', got {sorted(payload)}"
        )
    label = payload["label"]
    if not isinstance(label, str) or label not in LABELS:
        raise InvalidInputError(
            f"label must be one of {', '.join(LABELS)}; got {json.dumps(label, ensure_ascii=False)}"
        )
    items = payload["checks"]
    if not isinstance(items, list):
        raise InvalidInputError(f"checks must be an array, got {_json_type(items)}")
    found: dict[str, CheckResult] = {}
    for index, item in enumerate(items):
        result = _check_from_item(index, item, passages)
        if result.name in found:
            raise InvalidInputError(f"checks[{index}]: duplicate check {result.name!r}")
        found[result.name] = result
    missing = [name for name in CHECK_NAMES if name not in found]
    if missing:
        raise InvalidInputError(f"checks is missing {', '.join(missing)}")
    checks = tuple(found[name] for name in CHECK_NAMES)
    failed = [c.name for c in checks if not c.passed]
    if label == "entailed" and failed:
        raise InvalidInputError(
            f"label entailed with failed checks ({', '.join(failed)}): any failed check "
            "forbids entailed"
        )
    return Verdict(label, checks, model_id)


def unusable_verdict(model_id: str, reason: str) -> Verdict:
    """``ambiguous`` with every check failed: what a checker answers when no reply parsed."""
    note = f"{UNUSABLE_NOTE}: {reason}" if reason else UNUSABLE_NOTE
    return Verdict(
        "ambiguous", tuple(CheckResult(name, False, note, "") for name in CHECK_NAMES), model_id
    )


def is_unusable(verdict: Verdict) -> bool:
    """Whether ``verdict`` is an :func:`unusable_verdict` (no check was actually made)."""
    return (
        verdict.label == "ambiguous"
        and bool(verdict.checks)
        and all(not c.passed and c.note.startswith(UNUSABLE_NOTE) for c in verdict.checks)
    )


def _json_type(value: Any) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}
    return names.get(type(value), "number")


def _check_from_item(index: int, item: Any, passages: Sequence[str]) -> CheckResult:
    where = f"checks[{index}]"
    if not isinstance(item, dict):
        raise InvalidInputError(f"{where} must be an object, got {_json_type(item)}")
    if set(item) != _ITEM_KEYS:
        raise InvalidInputError(
            f"{where} must have exactly the keys {', '.join(sorted(_ITEM_KEYS))}; "
            f"got {', '.join(sorted(item)) or 'none'}"
        )
    name, passed, note, quote = item["name"], item["passed"], item["note"], item["quote"]
    if not isinstance(name, str) or name not in CHECK_NAMES:
        shown = json.dumps(name, ensure_ascii=False)
        raise InvalidInputError(
            f"{where}.name must be one of {', '.join(CHECK_NAMES)}; got {shown}"
        )
    where = f"{where} ({name})"
    if not isinstance(passed, bool):
        raise InvalidInputError(f"{where}.passed must be true or false, got {_json_type(passed)}")
    for field, value in (("note", note), ("quote", quote)):
        if not isinstance(value, str):
            raise InvalidInputError(f"{where}.{field} must be a string, got {_json_type(value)}")
    return CheckResult(name, passed, note, _passage_quote(where, quote, passed, passages))


def _passage_quote(where: str, quote: str, passed: bool, passages: Sequence[str]) -> str:
    """The passage text ``quote`` matches; "" for an empty quote on a passed check."""
    if not squash(quote):
        if passed:
            return ""
        raise InvalidInputError(f"{where}.quote is empty; a failed check must quote a passage")
    for passage in passages:
        match = find_quotation(passage, quote)
        if match.found:
            return passage[match.start : match.end]
    shown = quote if len(quote) <= 80 else quote[:77] + "..."
    raise InvalidInputError(f"{where}.quote is not in any passage: {shown!r}")
