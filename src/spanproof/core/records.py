"""Evidence records (SPEC §2, §5): quotations, fields, verdicts and attempts, as plain values.

A :class:`Record` is a finding extracted from one source version: a statement, the quotations
that support it (each a span into a section's canonical text) and the fields the five checks
read. Every verification :class:`Attempt` is kept; an attempt's :class:`Verdict` carries a label
and one :class:`CheckResult` per check. Values are validated on construction and never change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spanproof.core.errors import check_choice

DIRECTIONS = ("increase", "decrease", "no_effect", "association", "none")
RECORD_STATUSES = ("proposed", "verified", "rejected", "in_review", "quarantined")
CHECK_NAMES = ("negation", "scope", "species", "treatment", "endpoint")
CRITICAL_CHECKS = frozenset({"negation", "species", "endpoint"})
LABELS = ("entailed", "contradicted", "insufficiently_supported", "ambiguous")
STAGES = ("gate", "check")
REQUIRED_FIELDS = ("subject", "endpoint", "direction", "species")


@dataclass(frozen=True, slots=True)
class Quotation:
    """A span inside one section: ``text`` is the section's canonical text at ``[start, end)``."""

    section_key: str
    start: int
    end: int
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "section_key": self.section_key,
            "start": self.start,
            "end": self.end,
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class RecordFields:
    """What the checks compare: ``subject`` (intervention or exposure), ``endpoint`` (what was
    measured), ``direction``, ``species``, ``treatment`` (condition, dose, exposure), ``scope``
    (population, setting, qualifiers)."""

    subject: str
    endpoint: str
    direction: str
    species: str
    treatment: str = ""
    scope: str = ""

    def __post_init__(self) -> None:
        check_choice(self.direction, DIRECTIONS, "direction")

    def to_dict(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "endpoint": self.endpoint,
            "direction": self.direction,
            "species": self.species,
            "treatment": self.treatment,
            "scope": self.scope,
        }


@dataclass(frozen=True, slots=True)
class Record:
    """A finding with its quotations and fields; ``version`` is the source version number."""

    id: str
    source_id: str
    version: int
    statement: str
    quotations: tuple[Quotation, ...]
    fields: RecordFields
    status: str = "proposed"

    def __post_init__(self) -> None:
        check_choice(self.status, RECORD_STATUSES, "record status")

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "source_id": self.source_id,
            "version": self.version,
            "statement": self.statement,
            "quotations": [q.to_dict() for q in self.quotations],
            "fields": self.fields.to_dict(),
            "status": self.status,
        }


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One of the five checks: passed or failed, why, and the passage text it relied on."""

    name: str
    passed: bool
    note: str
    quote: str

    def __post_init__(self) -> None:
        check_choice(self.name, CHECK_NAMES, "check name")

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "passed": self.passed, "note": self.note, "quote": self.quote}


@dataclass(frozen=True, slots=True)
class Verdict:
    """A checker's answer: a label and the five checks, from the model ``model_id``."""

    label: str
    checks: tuple[CheckResult, ...]
    model_id: str

    def __post_init__(self) -> None:
        check_choice(self.label, LABELS, "verdict label")

    def failed(self) -> tuple[str, ...]:
        """Names of the checks that failed, in check order."""
        return tuple(c.name for c in self.checks if not c.passed)

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "checks": [c.to_dict() for c in self.checks],
            "model_id": self.model_id,
        }


@dataclass(frozen=True, slots=True)
class Attempt:
    """One verification attempt, kept on the record whatever its outcome.

    ``stage`` is where it ended (``gate`` when the gate failed and no model was called);
    ``outcome`` is the decision (``quarantined``, ``verified``, ``rejected``, ``retry``,
    ``review``); timestamps are ISO 8601 strings.
    """

    number: int
    stage: str
    outcome: str
    verdict: Verdict | None
    defects: tuple[str, ...]
    model_id: str
    prompt_hash: str
    started_at: str
    finished_at: str

    def __post_init__(self) -> None:
        check_choice(self.stage, STAGES, "attempt stage")

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "stage": self.stage,
            "outcome": self.outcome,
            "verdict": None if self.verdict is None else self.verdict.to_dict(),
            "defects": list(self.defects),
            "model_id": self.model_id,
            "prompt_hash": self.prompt_hash,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
        }
