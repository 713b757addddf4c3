"""Reading JSON Lines input with precise, line-numbered errors."""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from spanproof.core.errors import LONE_SURROGATE, InvalidInputError

#: Byte-order marks and the encodings they announce (UTF-32 first: its LE mark starts with
#: UTF-16's).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def read_text(path: Path, what: str) -> str:
    """The text of ``path``: UTF-8, or UTF-16/32 when a byte-order mark says so (the mark is
    dropped); a clear error when missing or not decodable."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InvalidInputError(f"{what} file not found: {path}") from None
    except IsADirectoryError:
        raise InvalidInputError(f"{what} path is a directory, not a file: {path}") from None
    except OSError as exc:
        raise InvalidInputError(f"cannot read {what} file {path}: {exc.strerror}") from None
    encoding = next((enc for bom, enc in _BOMS if data.startswith(bom)), "utf-8")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        name = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8"}.get(encoding, encoding.upper())
        raise InvalidInputError(
            f"{what} file {path} is not valid {name} (byte offset {exc.start})"
        ) from None
    nul = text.find("\x00")
    if nul >= 0:
        raise InvalidInputError(
            f"{what} file {path} holds a NUL character (character {nul}): not a text file, or "
            "UTF-16 without a byte-order mark (save it as UTF-8)"
        )
    return text


def parse_line(line: str, where: str) -> dict[str, Any]:
    """One JSON object from one line; ``where`` is ``file:line`` for the message."""
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(
            f"{where}: invalid JSON ({exc.msg} at column {exc.colno})"
        ) from None
    if not isinstance(value, dict):
        raise InvalidInputError(f"{where}: expected a JSON object, got {type(value).__name__}")
    if "\\u" in line and _holds_surrogate(value):
        raise InvalidInputError(
            f"{where}: holds a lone UTF-16 surrogate escape (\\ud800-\\udfff without its "
            "pair): not text"
        )
    return value


def _holds_surrogate(value: Any) -> bool:
    """Whether a decoded JSON value holds a lone surrogate in any string, keys included."""
    if isinstance(value, str):
        return LONE_SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_holds_surrogate(k) or _holds_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_surrogate(v) for v in value)
    return False


#: What ends a line of JSON Lines: LF, CRLF or a lone CR. Not ``str.splitlines``, which also
#: splits at U+2028, U+2029, U+0085 and other characters a JSON string may hold as they are
#: (``json.dumps(..., ensure_ascii=False)`` writes them so).
_LINE_END = re.compile(r"\r\n|\r|\n")


def iter_lines(text: str) -> Iterator[tuple[int, str]]:
    """Non-blank lines with their 1-based numbers."""
    for number, line in enumerate(_LINE_END.split(text), start=1):
        if line.strip():
            yield number, line


def read_jsonl(path: Path, what: str) -> list[dict[str, Any]]:
    """Every object of a JSONL file; the first bad line raises with its line number."""
    text = read_text(path, what)
    return [parse_line(line, f"{path}:{n}") for n, line in iter_lines(text)]


def first_seen(seen: dict[str, int], key: str, at: int) -> int | None:
    """Where ``key`` was first seen (a line or item number) if it was, else None, recording
    ``at`` as its place: for the "duplicate id … (first on line N)" messages."""
    if key in seen:
        return seen[key]
    seen[key] = at
    return None


def require_fields(obj: dict[str, Any], fields: tuple[str, ...], where: str) -> None:
    for name in fields:
        if name not in obj:
            raise InvalidInputError(f"{where}: missing field {name!r}")
    if "text" in fields and not isinstance(obj["text"], str):
        raise InvalidInputError(f"{where}: field 'text' must be a string")
