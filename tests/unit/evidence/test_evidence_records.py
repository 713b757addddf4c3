"""Evidence records: extraction, the gate, the five checks, decisions and faults (SPEC §5)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from spanproof.core.documents import ParsedSection
from spanproof.core.errors import InvalidInputError
from spanproof.core.records import CheckResult, Record, Verdict
from spanproof.evaluation.devdata import data_dir, scifact_corpus
from spanproof.evidence.checker import check
from spanproof.evidence.decision import decide
from spanproof.evidence.extraction import (
    Finding,
    QuotedText,
    build_extraction_messages,
    extract_findings,
    locate,
    parse_findings,
    to_record,
)
from spanproof.evidence.faults import EXPECTED_CATCH, run_faults
from spanproof.evidence.gate import gate

MOUSE = ParsedSection(
    "s3",
    "Results",
    "Adult male mice were fed a high-fat diet for 12 weeks. Metformin (200 mg/kg) significantly "
    "reduced body weight compared with vehicle (p < 0.01). Liver histology was examined by two "
    "pathologists.",
)
HUMAN = ParsedSection(
    "abstract",
    "Abstract",
    "We enrolled 420 participants. In patients with type 2 diabetes, 10 mg of atorvastatin "
    "lowered LDL cholesterol by 35% (95% CI 30-40%). Exercise did not improve insulin "
    "sensitivity compared with usual care (p = 0.41). Follow-up visits took place at clinics.",
)


def _records(section: ParsedSection) -> list[Record]:
    out = []
    for i, finding in enumerate(extract_findings([section])):
        quotes, defects = locate(finding, [section])
        assert defects == []
        out.append(to_record(finding, quotes, record_id=f"r{i}", source_id="src", version=1))
    return out


def _texts(*sections: ParsedSection) -> dict[str, str]:
    return {s.key: s.text for s in sections}


def test_extraction_fills_fields_and_locates_quotations_exactly() -> None:
    [record] = _records(MOUSE)
    fields = record.fields
    assert (fields.endpoint, fields.direction, fields.species) == (
        "body weight",
        "decrease",
        "mice",
    )
    assert "Metformin" in fields.subject and fields.treatment == "200 mg/kg"
    assert "male" in fields.scope
    for q in record.quotations:  # the result sentence, then the sentence naming the species
        assert MOUSE.text[q.start : q.end] == q.text
    assert record.quotations[1].text.startswith("Adult male mice")


def test_extraction_reads_negated_results_as_no_effect() -> None:
    records = _records(HUMAN)
    by_endpoint = {r.fields.endpoint: r.fields for r in records}
    assert by_endpoint["LDL cholesterol"].direction == "decrease"
    assert by_endpoint["LDL cholesterol"].treatment == "10 mg of atorvastatin"
    assert by_endpoint["insulin sensitivity"].direction == "no_effect"
    assert all(r.fields.species for r in records)


def test_a_missing_quotation_is_a_defect_with_the_closest_text() -> None:
    finding = Finding(
        "x",
        (QuotedText("s3", "Metformin (200 mg/kg) significantly increased body weight"),),
        _records(MOUSE)[0].fields,
    )
    quotes, defects = locate(finding, [MOUSE])
    assert quotes == []
    assert len(defects) == 1 and defects[0].startswith("quotation not found in s3")
    closest = defects[0].split("closest: ")[1]
    assert "(200 mg/kg) significantly reduced body weight" in closest


def test_parse_findings_validates_the_schema_and_refuses_offsets() -> None:
    item = (
        '{"statement": "s", "quotations": [{"section": "s3", "text": "t"}], "subject": "a",'
        ' "endpoint": "b", "direction": "increase", "species": "mice"}'
    )
    [finding] = parse_findings(f"```json\n[{item}]\n```", section_keys={"s3"})
    assert finding.quotations == (QuotedText("s3", "t"),) and finding.fields.treatment == ""
    with pytest.raises(InvalidInputError, match="no offsets"):
        parse_findings(item.replace('"text": "t"', '"text": "t", "start": 3').join("[]"))
    with pytest.raises(InvalidInputError, match="direction"):
        parse_findings(item.replace("increase", "up").join("[]"))
    with pytest.raises(InvalidInputError, match="not a section key"):
        parse_findings(item.join("[]"), section_keys={"abstract"})
    messages = build_extraction_messages([MOUSE])
    assert '<section key="s3" title="Results">' in messages[1].content
    assert "Never give offsets" in messages[0].content


def test_gate_passes_resolving_spans_and_reports_each_defect() -> None:
    record = _records(MOUSE)[0]
    assert gate(record, _texts(MOUSE)) == []
    shifted = dataclasses.replace(record.quotations[0], start=record.quotations[0].start + 2)
    broken = dataclasses.replace(
        record,
        quotations=(shifted,),
        fields=dataclasses.replace(record.fields, species=" "),
    )
    defects = gate(broken, _texts(MOUSE))
    assert any("differs from the quotation" in d for d in defects)
    assert "required field species is empty" in defects


def test_gate_refuses_a_quotation_over_erased_text() -> None:
    record = _records(MOUSE)[0]
    q = record.quotations[0]
    texts = _texts(MOUSE)
    text = texts[q.section_key]
    masked = text[: q.start] + "█" * 3 + text[q.start + 3 :]  # the section as served, erased
    defects = gate(record, {**texts, q.section_key: masked})
    assert any("overlaps an erasure" in d for d in defects)
    # the masked text quoted as it is served does not pass either
    served = dataclasses.replace(
        record, quotations=(dataclasses.replace(q, text=masked[q.start : q.end]),)
    )
    assert any("overlaps an erasure" in d for d in gate(served, {**texts, q.section_key: masked}))


def _verdict(record: Record, passages: list[str]) -> dict[str, CheckResult]:
    return {c.name: c for c in check(record, passages).checks}


def test_every_check_passes_on_a_faithful_record_and_the_label_is_entailed() -> None:
    record = _records(MOUSE)[0]
    passages = [q.text for q in record.quotations]
    verdict = check(record, passages)
    assert verdict.label == "entailed" and verdict.failed() == ()
    assert all(c.quote for c in verdict.checks)
    assert decide(verdict, 1, 3).outcome == "verified"


@pytest.mark.parametrize(
    ("change", "passage", "failed"),
    [
        ({"direction": "increase"}, None, "negation"),
        ({}, "Metformin (200 mg/kg) did not reduce body weight in mice.", "negation"),
        ({"species": "rats"}, None, "species"),
        ({}, "Metformin (200 mg/kg) reduced body weight in mice in vitro.", "species"),
        ({"treatment": "100 mg/kg"}, None, "treatment"),
        ({"treatment": "200 mg/kg of aspirin"}, None, "treatment"),
        ({"endpoint": "lipid accumulation"}, None, "endpoint"),
        ({}, "Metformin (200 mg/kg) reduced body weight in some obese mice.", "scope"),
    ],
)
def test_each_check_fails_on_its_defect(
    change: dict[str, str], passage: str | None, failed: str
) -> None:
    record = _records(MOUSE)[0]
    record = dataclasses.replace(record, fields=dataclasses.replace(record.fields, **change))
    passages = [passage] if passage else [q.text for q in record.quotations]
    results = _verdict(record, passages)
    assert not results[failed].passed, results[failed]
    assert results[failed].note and results[failed].quote


def test_labels_contradicted_insufficient_and_ambiguous() -> None:
    record = _records(MOUSE)[0]
    negated = "Metformin (200 mg/kg) failed to reduce body weight in adult male mice."
    assert check(record, [negated]).label == "contradicted"
    assert check(record, ["Liver histology was examined in mice."]).label == (
        "insufficiently_supported"
    )
    hedged = "Metformin (200 mg/kg) may have reduced body weight in adult male mice."
    assert check(record, [hedged]).label == "ambiguous"


def _fake_verdict(label: str, *failed: str) -> Verdict:
    names = ("negation", "scope", "species", "treatment", "endpoint")
    return Verdict(label, tuple(CheckResult(n, n not in failed, "", "") for n in names), "t")


@pytest.mark.parametrize(
    ("label", "failed", "used", "outcome"),
    [
        ("entailed", (), 1, "verified"),
        ("entailed", ("species",), 1, "rejected"),
        ("entailed", ("endpoint",), 1, "rejected"),
        ("contradicted", ("negation",), 1, "rejected"),
        ("entailed", ("scope",), 1, "retry"),
        ("entailed", ("treatment",), 2, "retry"),
        ("entailed", ("treatment",), 3, "review"),
        ("ambiguous", (), 1, "review"),
        ("insufficiently_supported", (), 1, "review"),
    ],
)
def test_decision_table(label: str, failed: tuple[str, ...], used: int, outcome: str) -> None:
    assert decide(_fake_verdict(label, *failed), used, 3).outcome == outcome


def test_decision_refuses_an_empty_budget() -> None:
    with pytest.raises(InvalidInputError, match="at least 1"):
        decide(_fake_verdict("entailed"), 1, 0)


def test_every_fault_is_caught_at_its_expected_check_on_verified_records() -> None:
    verified = []
    for section in (MOUSE, HUMAN):
        for record in _records(section):
            verdict = check(record, [q.text for q in record.quotations])
            if decide(verdict, 1, 1).outcome == "verified":
                verified.append((record, _texts(section)))
    assert len(verified) >= 3
    for record, texts in verified:
        results = run_faults(record, texts)
        assert [r.mutation for r in results] == list(EXPECTED_CATCH)
        assert all(r.ok for r in results), [r for r in results if not r.ok]


@pytest.mark.data
def test_faults_on_scifact_records_are_caught_at_their_expected_check() -> None:
    root = data_dir()
    if root is None:
        pytest.skip("../shared/data is absent (set SPANPROOF_DATA_DIR)")
    docs = list(scifact_corpus(root).values())[:200]
    table: Counter[tuple[str, str]] = Counter()
    for doc in docs:
        section = ParsedSection("abstract", "Abstract", " ".join(doc["abstract"]))
        for record in _records_lenient(section, str(doc["doc_id"])):
            verdict = check(record, [q.text for q in record.quotations])
            if gate(record, _texts(section)) or decide(verdict, 1, 1).outcome != "verified":
                continue
            for r in run_faults(record, _texts(section)):
                table[r.mutation, "n/a" if r.caught_by == ("not_applicable",) else str(r.ok)] += 1
    print("\nmutation              caught  missed  n/a")
    for name in EXPECTED_CATCH:
        row = (table[name, "True"], table[name, "False"], table[name, "n/a"])
        print(f"{name:<22}{row[0]:>6}{row[1]:>8}{row[2]:>5}")
    caught = sum(v for (_, k), v in table.items() if k == "True")
    applied = sum(v for (_, k), v in table.items() if k != "n/a")
    assert applied > 300 and caught / applied >= 0.95


def _records_lenient(section: ParsedSection, source_id: str) -> list[Record]:
    out = []
    for i, finding in enumerate(extract_findings([section])):
        quotes, defects = locate(finding, [section])
        if not defects:
            out.append(
                to_record(finding, quotes, record_id=f"r{i}", source_id=source_id, version=1)
            )
    return out
