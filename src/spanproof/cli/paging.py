"""Lists on the command line: one ``--json`` document shape and an "N of M" footer.

Every ``--json`` prints exactly one JSON document. A list is an object::

    {"items": [...], "count": N, "total": M, "offset": O, "limit": L, "next_offset": O2 | null}

``total`` counts every item the filters match (``total_is_lower_bound`` is true when counting
stopped early on a very large store); ``next_offset`` is what ``--offset`` takes for the next
page, null on the last one. A list that is not paged has ``offset`` 0 and ``limit`` null.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from typing import Any

import click


def page_document(
    items: Sequence[Any],
    *,
    total: int,
    offset: int = 0,
    limit: int | None = None,
    lower_bound: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    """The JSON object of one page of a list (see the module docstring)."""
    last = offset + len(items)
    document: dict[str, Any] = {
        **extra,
        "items": list(items),
        "count": len(items),
        "total": total,
        "offset": offset,
        "limit": limit,
        "next_offset": last if limit is not None and last < total else None,
    }
    if lower_bound:
        document["total_is_lower_bound"] = True
    return document


def echo_json(document: Any) -> None:
    """Print one JSON document on stdout."""
    click.echo(json.dumps(document, ensure_ascii=False))


def page_footer(
    noun: str,
    *,
    shown: int,
    total: int,
    offset: int = 0,
    limit: int | None = None,
    command: str = "",
    lower_bound: bool = False,
) -> str:
    """``showing 1–50 of 55 sources; next page: spanproof sources --limit 50 --offset 50`` (plain
    text: the next page's command keeps this one's ``--limit``).

    ``command`` is the command line that shows this list, with its filters (no ``--offset``).
    """
    of = f"at least {total}" if lower_bound else str(total)
    if not shown:
        head = f"no {noun} shown of {of}" if total else f"no {noun}"
    else:
        head = f"showing {offset + 1}–{offset + shown} of {of} {noun}"
    if limit is not None and offset + shown < total and command:
        head += f"; next page: {command} --limit {limit} --offset {offset + shown}"
    elif offset and not shown and command:
        head += f"; the list ends before --offset {offset}"
    return head


def command_line(*parts: str, **options: object) -> str:
    """``spanproof sources --status active``: the parts, then each option that is set."""
    words = ["spanproof", *parts]
    for name, value in options.items():
        if value is None or value is False or value == "":
            continue
        flag = "--" + name.replace("_", "-")
        words.append(flag if value is True else f"{flag} {shlex.quote(str(value))}")
    return " ".join(words)
