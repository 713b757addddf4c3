"""The generation prompt (SPEC §4.2), built deterministically from a plan's evidence.

The same evidence and question give byte-identical messages, so :func:`prompt_hash` pins what
the model was asked. Truth-class spans are listed as ``[S1] text (title)`` in plan order; cache-
class spans (derived summaries) are listed apart as background that must never be cited. Span
text is shown with its whitespace runs collapsed to single spaces (the scorer's tokens do not
change). Pure: no I/O, no model call.
"""

from __future__ import annotations

from collections.abc import Sequence

from spanproof.core.models import EvidenceSpan
from spanproof.core.ports import ChatMessage
from spanproof.verify.decompose import prompt_hash

__all__ = ["GENERATE_SYSTEM_PROMPT", "PROMPT_MODEL", "build_generation_messages", "prompt_hash"]

PROMPT_MODEL = "prompt-v1"

GENERATE_SYSTEM_PROMPT = """\
You answer a question using only the numbered evidence you are given.

Rules:
1. Use only the statements listed under "Evidence". Do not add facts from memory or from the \
background notes.
2. End every sentence that states a fact with the marker of the evidence it rests on, in square \
brackets: [S1], or [S1, S3] when it rests on several.
3. Cite only markers listed under "Evidence". Background notes are never evidence and are never \
cited.
4. Copy numbers, units, names and the direction of effects exactly as the evidence states them.
5. Write one short paragraph of plain prose: no headings, no lists, no questions.
6. If the evidence does not answer the question, say so in one sentence and cite nothing.
"""


def _flat(text: str) -> str:
    return " ".join(text.split())


def _evidence_line(span: EvidenceSpan) -> str:
    title = _flat(str(span.source.get("title", "") or ""))
    suffix = f" ({title})" if title else ""
    return f"[{span.id}] {_flat(span.text)}{suffix}"


def build_generation_messages(question: str, evidence: Sequence[EvidenceSpan]) -> list[ChatMessage]:
    """The system prompt and one user message listing the evidence; byte-stable per input."""
    truth = [s for s in evidence if s.truth_class]
    background = [s for s in evidence if not s.truth_class]
    lines = [f"Question: {_flat(question)}", "", "Evidence:"]
    lines.extend(_evidence_line(s) for s in truth)
    if not truth:
        lines.append("(none)")
    if background:
        lines += ["", "Background notes (derived summaries: not evidence, never cite):"]
        lines.extend(f"- {_flat(s.text)}" for s in background)
    lines += [
        "",
        "Answer the question from the evidence only, citing a marker after every factual sentence.",
    ]
    return [ChatMessage("system", GENERATE_SYSTEM_PROMPT), ChatMessage("user", "\n".join(lines))]
