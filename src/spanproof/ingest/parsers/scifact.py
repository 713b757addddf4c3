"""SciFact corpus JSONL (``{"doc_id", "title", "abstract": [sentences], "structured"}``).

Each line is one document: the title, and one section ``abstract`` whose canonical text is the
sentences joined with a single space. ``metadata["sentence_spans"]`` holds, per input sentence,
``[start, end]`` code-point offsets of that sentence in the section's canonical text (``None``
for a sentence with no text), so SciFact's sentence-indexed evidence maps onto spans. External
id: ``scifact`` = the ``doc_id`` as a string. :func:`iter_documents` reads a whole corpus file,
one result or failure per non-blank line; :func:`parse` takes a single-document file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from spanproof.core.documents import ParsedDocument, ParseFailure
from spanproof.ingest.parsers._common import MAX_BYTES, Sections, check_size, decode
from spanproof.text.canonical import canonical_text

FORMAT = "scifact"


def parse_line(line: str) -> ParsedDocument:
    """Parse one JSONL line.

    Raises:
        ParseFailure: ``malformed`` (not JSON, missing or mistyped fields, nesting too deep),
            ``no_text``.
    """
    try:
        obj: Any = json.loads(line)
    except RecursionError as exc:
        raise ParseFailure("malformed", "JSON nested too deeply") from exc
    except ValueError as exc:  # JSONDecodeError, and integers too long to convert
        raise ParseFailure("malformed", f"not a JSON line: {exc}") from exc
    if not isinstance(obj, dict):
        raise ParseFailure("malformed", "a SciFact line must be a JSON object")
    doc_id, title, sentences = obj.get("doc_id"), obj.get("title", ""), obj.get("abstract")
    if isinstance(doc_id, bool) or not isinstance(doc_id, int | str) or str(doc_id) == "":
        raise ParseFailure("malformed", "'doc_id' must be a non-empty integer or string")
    if not isinstance(title, str):
        raise ParseFailure("malformed", f"doc {doc_id}: 'title' must be a string")
    if not isinstance(sentences, list) or not all(isinstance(s, str) for s in sentences):
        raise ParseFailure("malformed", f"doc {doc_id}: 'abstract' must be a list of strings")
    sections = Sections(keep_empty=False)
    sections.add("abstract", "Abstract", " ".join(sentences))
    document = sections.document(
        title=title,
        format=FORMAT,
        external_ids={"scifact": str(doc_id)},
        metadata={"structured": bool(obj.get("structured", False))},
    )
    spans = _sentence_spans(document.sections[0].text, sentences)
    return replace(document, metadata={**document.metadata, "sentence_spans": spans})


def _sentence_spans(text: str, sentences: list[str]) -> list[list[int] | None]:
    """Where each sentence lies in the joined canonical text (found in order, never re-normalised).

    Canonical text is NFC plus whitespace collapsing, which never crosses the single space that
    joins two sentences, so each sentence's own canonical form occurs in order.
    """
    spans: list[list[int] | None] = []
    position = 0
    for sentence in sentences:
        piece = canonical_text(sentence)
        start = text.find(piece, position) if piece else -1
        if start < 0:
            spans.append(None)
            continue
        position = start + len(piece)
        spans.append([start, position])
    return spans


def parse(raw: bytes) -> ParsedDocument:
    """Parse a file holding exactly one SciFact JSON line.

    Raises:
        ParseFailure: as :func:`parse_line`, ``too_large``, ``invalid_utf8``; ``malformed`` when
            the file holds more than one line (use :func:`iter_documents`).
    """
    check_size(raw)
    lines = [line for line in raw.splitlines() if line.strip()]
    if len(lines) != 1:
        raise ParseFailure(
            "malformed" if lines else "no_text",
            f"{len(lines)} JSON lines; parse expects one (use scifact.iter_documents)",
        )
    return parse_line(decode(lines[0].removeprefix(b"\xef\xbb\xbf")))


def iter_documents(raw: bytes) -> Iterator[ParsedDocument | ParseFailure]:
    """One document or failure per non-blank line of a corpus file, in order.

    Each line is decoded and checked on its own (over :data:`MAX_BYTES` → ``too_large``), so one
    bad line does not stop the rest.
    """
    for number, line in enumerate(raw.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            check_size(line, MAX_BYTES)
            yield parse_line(decode(line.removeprefix(b"\xef\xbb\xbf") if number == 1 else line))
        except ParseFailure as failure:
            yield ParseFailure(failure.reason, f"line {number}: {failure.detail}")
