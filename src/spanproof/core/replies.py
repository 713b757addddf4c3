"""Reading a model's JSON reply: bare JSON, or JSON in one ```json fence, and nothing else.

The decomposer, the extractor and the record checker all ask a model for JSON; they share this
one reader so a reply is judged the same way everywhere.
"""

from __future__ import annotations

import json
import re
from typing import Any

from spanproof.core.errors import InvalidInputError

_FENCE = re.compile(r"```(?P<lang>[A-Za-z]*)[ \t]*\r?\n?(?P<body>.*?)\s*```", re.DOTALL)
_HOW = "optionally in one ```json fence"


def load_json_reply(raw: str, who: str, expected: str) -> Any:
    """The JSON value of ``raw``, a reply of ``who`` (``"checker reply"``) that should hold
    ``expected`` (``"one JSON object"``).

    Raises:
        InvalidInputError: an empty reply, text outside the fence, a fence of another language,
            or text that is not valid JSON; the message says which, and what was expected.
    """
    text = raw.strip()
    if not text:
        raise InvalidInputError(f"{who} is empty; expected {expected}")
    where = "JSON"
    if text.startswith("```"):
        fence = _FENCE.fullmatch(text)
        if fence is None:
            raise InvalidInputError(
                f"{who} has text outside its code fence (or an unclosed fence); "
                f"expected only {expected}, {_HOW}"
            )
        if fence["lang"] and fence["lang"].lower() != "json":
            raise InvalidInputError(f"{who} is fenced as {fence['lang']!r}, not json")
        text, where = fence["body"], "JSON in the code fence"
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if where == "JSON" and "```" in text:
            raise InvalidInputError(
                f"{who} has text outside its code fence; expected only {expected}, {_HOW}"
            ) from exc
        raise InvalidInputError(
            f"{who} is not valid {where} ({exc.msg} at line {exc.lineno} column "
            f"{exc.colno}); expected only {expected}, {_HOW}"
        ) from exc
