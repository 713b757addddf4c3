"""Faults (SPEC §5.6): six named mutations of a record, and where each is caught.

Each mutation is a pure function ``(record, section_texts) -> Record | None`` (None when it does
not apply to this record, e.g. no unrelated sentence to point at). :func:`run_faults` applies the
gate and then the checker to every mutated record, as a re-proposal would, and reports which
checks caught it (``gate``, a check name, or ``label`` when the label is not ``entailed``) and
whether the expected one did, with the decision never ``verified``.

* ``swap_endpoint`` — the endpoint becomes one the passage never measures.
* ``flip_negation`` — "did not reduce" ↔ "reduced": negation added or removed, direction flipped.
* ``drop_species`` — the species qualifier is dropped: a non-human or in-vitro finding reads as
  one in humans; a human finding as one in animals generally (zebrafish when the passages name
  both humans and animals).
* ``failure_as_success`` — a failed result claims its effect; an effect claims the opposite one.
* ``break_span`` — the first quotation's offsets shift by one character.
* ``unsupported_passage`` — every quotation points at a sentence of the source that covers
  neither the subject nor the endpoint.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from spanproof.core.records import Quotation, Record
from spanproof.evidence.checker import (
    IN_VITRO,
    check,
    content_stems,
    coverage,
    species_classes,
)
from spanproof.evidence.decision import decide
from spanproof.evidence.gate import gate
from spanproof.text.sentences import split_sentences

EXPECTED_CATCH = {
    "swap_endpoint": "endpoint",
    "flip_negation": "negation",
    "drop_species": "species",
    "failure_as_success": "negation",
    "break_span": "gate",
    "unsupported_passage": "label",
}

_ALTERNATIVE_ENDPOINTS = (
    "lipid accumulation",
    "cell proliferation",
    "bone mineral density",
    "hair pigmentation",
    "renal clearance",
)
_REVERSE = {"increase": "decrease", "decrease": "increase"}
_NEGATED = re.compile(r"\b(?:did not|does not|do not|failed to|was not|were not|not|no)\s+", re.I)

Mutation = Callable[[Record, Mapping[str, str]], "Record | None"]


def _with(record: Record, statement: str | None = None, **fields: str) -> Record:
    new_fields = dataclasses.replace(record.fields, **fields)
    return dataclasses.replace(
        record, statement=statement or record.statement, fields=new_fields, status="proposed"
    )


def _passages(record: Record, section_texts: Mapping[str, str]) -> list[str]:
    return [section_texts.get(q.section_key, "")[q.start : q.end] for q in record.quotations]


def swap_endpoint(record: Record, section_texts: Mapping[str, str]) -> Record | None:
    pool = {s for p in _passages(record, section_texts) for s in content_stems(p)}
    for endpoint in _ALTERNATIVE_ENDPOINTS:
        if not pool & set(content_stems(endpoint)):
            old = record.fields.endpoint
            statement = record.statement.replace(old, endpoint) if old else record.statement
            return _with(record, statement, endpoint=endpoint)
    return None


def flip_negation(record: Record, section_texts: Mapping[str, str]) -> Record | None:
    direction = record.fields.direction
    if direction == "no_effect":
        verb = _NEGATED.sub("", record.statement, count=1)
        return _with(record, verb, direction="increase")
    if direction in ("increase", "decrease", "association"):
        return _with(record, f"It is not the case that {record.statement}", direction="no_effect")
    return None


def drop_species(record: Record, section_texts: Mapping[str, str]) -> Record | None:
    classes = species_classes(record.fields.species)
    present = species_classes(" ".join(_passages(record, section_texts)))
    if not classes:
        return None
    if IN_VITRO in present and "human" in present:
        return _with(record, species="humans")  # "in human cells" → "in humans"
    for broader in ("humans", "animals", "zebrafish"):
        if not species_classes(broader) <= present:
            return _with(record, species=broader)
    return None


def failure_as_success(record: Record, section_texts: Mapping[str, str]) -> Record | None:
    direction = record.fields.direction
    if direction == "no_effect":
        statement = _NEGATED.sub("successfully ", record.statement, count=1)
        return _with(record, statement, direction="decrease")
    if direction in _REVERSE:
        return _with(record, direction=_REVERSE[direction])
    if direction == "association":
        return _with(record, direction="decrease")
    return None


def break_span(record: Record, section_texts: Mapping[str, str]) -> Record | None:
    if not record.quotations:
        return None
    first = record.quotations[0]
    moved = dataclasses.replace(first, start=first.start + 1, end=first.end + 1)
    return dataclasses.replace(record, quotations=(moved, *record.quotations[1:]))


def unsupported_passage(record: Record, section_texts: Mapping[str, str]) -> Record | None:
    subject = content_stems(record.fields.subject)
    endpoint = content_stems(record.fields.endpoint)
    for key, text in section_texts.items():
        for sentence in split_sentences(text):
            pool = content_stems(sentence.text)
            if coverage(subject, pool) < 0.5 and coverage(endpoint, pool) < 0.5:
                quote = Quotation(key, sentence.start, sentence.end, sentence.text)
                return dataclasses.replace(record, quotations=(quote,), status="proposed")
    return None


MUTATIONS: dict[str, Mutation] = {
    "swap_endpoint": swap_endpoint,
    "flip_negation": flip_negation,
    "drop_species": drop_species,
    "failure_as_success": failure_as_success,
    "break_span": break_span,
    "unsupported_passage": unsupported_passage,
}


@dataclass(frozen=True, slots=True)
class FaultResult:
    """One mutation's fate: the checks that caught it (empty: none), and whether as expected.

    ``caught_by`` is ``("not_applicable",)`` when the mutation does not apply to the record.
    """

    mutation: str
    caught_by: tuple[str, ...]
    expected: str
    ok: bool


def catch(record: Record, section_texts: Mapping[str, str]) -> tuple[tuple[str, ...], bool]:
    """What catches a (re-)proposed record: gate defects, failed checks, a non-entailed label;
    and whether it would become evidence (verified)."""
    if gate(record, section_texts):
        return ("gate",), False
    verdict = check(record, _passages(record, section_texts))
    caught = verdict.failed() + (("label",) if verdict.label != "entailed" else ())
    return caught, decide(verdict, 1, 1).outcome == "verified"


def run_faults(record: Record, section_texts: Mapping[str, str]) -> list[FaultResult]:
    """Apply all six mutations to ``record`` and report where each was caught."""
    out: list[FaultResult] = []
    for name, mutate in MUTATIONS.items():
        expected = EXPECTED_CATCH[name]
        mutated = mutate(record, section_texts)
        if mutated is None:
            out.append(FaultResult(name, ("not_applicable",), expected, False))
            continue
        caught, verified = catch(mutated, section_texts)
        out.append(FaultResult(name, caught, expected, expected in caught and not verified))
    return out
