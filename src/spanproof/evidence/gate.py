"""The deterministic gate (SPEC §5.2): spans resolve and the required fields are present.

A failure quarantines the attempt without calling a model. Quotations compare with the section
text ignoring whitespace, as span resolution does (SPEC §2).

Quotations are compared with :func:`spanproof.text.quotes.squash`, the rule span resolution uses.
"""

from __future__ import annotations

from collections.abc import Mapping

from spanproof.core.records import REQUIRED_FIELDS, Record
from spanproof.core.store import MASK
from spanproof.text.quotes import squash


def gate(record: Record, section_texts: Mapping[str, str]) -> list[str]:
    """Defects of ``record``: unresolved quotations and missing fields; empty means pass.

    Args:
        record: the proposed record.
        section_texts: canonical text of each section of the record's source version, by key.
    """
    defects: list[str] = []
    if not record.quotations:
        defects.append("record has no quotations")
    for index, q in enumerate(record.quotations):
        where = f"quotations[{index}] ({q.section_key} [{q.start}, {q.end}))"
        text = section_texts.get(q.section_key)
        if text is None:
            defects.append(f"{where}: no section {q.section_key!r} in this version")
        elif not 0 <= q.start < q.end <= len(text):
            defects.append(f"{where}: offsets outside 0..{len(text)}")
        elif MASK in text[q.start : q.end]:
            defects.append(f"{where}: the range overlaps an erasure")
        elif squash(text[q.start : q.end]) != squash(q.text):
            defects.append(f"{where}: the text at these offsets differs from the quotation")
    values = record.fields.to_dict()
    defects.extend(
        f"required field {name} is empty"
        for name in REQUIRED_FIELDS
        if not str(values[name]).strip()
    )
    return defects
