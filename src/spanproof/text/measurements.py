"""Measurements (SPEC §2): a value with its unit, found in text, unit validated, never converted.

A number (``12.5``, ``1,500``, ``0.05``) followed by a unit expression (``mg/kg``, ``°C``,
``mmHg``, ``μg/mL``, ``%``) is a measurement when the units library (pint) knows the unit.
Common words that the library also reads as units (``in`` = inch, ``a`` = year) are excluded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import pint

_PATTERN = re.compile(
    r"(?<![\w.])(?P<value>[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?)\s?"
    r"(?P<unit>%|°\s?[CF]|[A-Za-zµμ][A-Za-zµμ0-9/·^\-]*(?:\s?Hg)?)"
)
_NOT_UNITS = frozenset(
    (
        "a", "an", "and", "are", "as", "at", "be", "bar", "by", "d", "each", "for", "from",
        "g", "h", "in", "is", "it", "l", "m", "min", "no", "of", "on", "or", "per", "s", "t",
        "than", "that", "the", "this", "to", "was", "were", "with", "year", "years", "patients",
    )
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class FoundMeasurement:
    start: int
    end: int
    value: float
    unit: str  # as written
    canonical_unit: str  # the units library's name for it (for display; values are not converted)


@lru_cache(maxsize=1)
def _registry() -> pint.UnitRegistry[float]:
    return pint.UnitRegistry()


@lru_cache(maxsize=4096)
def canonical_unit(unit: str) -> str | None:
    """The library's name for ``unit``, or None when it is not a unit."""
    cleaned = unit.replace(" ", "").replace("μ", "u").replace("µ", "u").rstrip("-/")
    if not cleaned or cleaned.lower() in _NOT_UNITS:
        return None
    if cleaned == "%":
        return "percent"
    try:
        parsed = _registry().parse_units(cleaned)
    except Exception:  # pint raises many error types for non-units
        return None
    return str(parsed)


def find_measurements(text: str) -> list[FoundMeasurement]:
    """Every measurement in ``text`` with its offsets, in order."""
    out: list[FoundMeasurement] = []
    for match in _PATTERN.finditer(text):
        unit = match.group("unit")
        canonical = canonical_unit(unit)
        if canonical is None:
            continue
        value = float(match.group("value").replace(",", ""))
        out.append(FoundMeasurement(match.start(), match.end(), value, unit, canonical))
    return out
