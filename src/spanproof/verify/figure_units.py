"""The measure a figure is stated in (score model v65): "30 seconds" is not "30 minutes".

The numeric gate asks whether the span states each figure of the claim. A claim that keeps the
figure and changes what it measures passes it: "Kestrel waits 30 minutes between attempts"
against "… waiting 30 seconds between attempts", "the Danube flows roughly 2,850 miles" against
"… roughly 2,850 kilometres", "changing a ticket costs 45 euros" against "… a fee of 45
dollars", "1.5 days of leave per week" against "1.5 days of paid annual leave per month". The
edit check reads a figure's unit where the claim nearly copies its span (score model v11); a
claim in other words was judged by closeness alone.

A figure's *measure* is the set of units written with it: the unit word right after it ("30
seconds", "12-week", "214 metres"), a currency sign right before it ("$12", "£45"), and a
rate, "per", "each", "every" or "/" and a unit of time within :data:`RATE_REACH` words after
it, up to the next comma, semicolon or colon ("1.5 days of paid annual leave per month", "$12
per user per month"). Units are grouped by what they measure (:data:`UNIT_KINDS`: time, length,
mass, volume, money, temperature, and the time a rate is per). :func:`units_differ` is True
when the claim writes a figure with a unit that the span, wherever it writes the same figure,
never writes with it, while writing there another unit of the same kind: the span measures
that figure in something else. A figure the span writes without a unit of that kind somewhere
("20 mg daily" against "20 mg per day", "5 mg" against "5 mg/kg") is not read as changed, and
percentages are left alone ("12%" for "12 percentage points" is a loose but common wording).
"""

from __future__ import annotations

import re
from functools import lru_cache

from spanproof.text.tokens import nfc

_TIME = (
    "second:sec,secs,seconds minute:min,mins,minutes hour:hr,hrs,hours day:days "
    "week:wk,wks,weeks month:months year:yr,yrs,years decade:decades century:centuries"
)
_LENGTH = (
    "mm:millimetre,millimetres,millimeter,millimeters cm:centimetre,centimetres,centimeter,"
    "centimeters metre:metres,meter,meters km:kilometre,kilometres,kilometer,kilometers "
    "mile:miles inch:inches foot:feet,ft yard:yards"
)
_MASS = (
    "mg:milligram,milligrams g:gram,grams kg:kilogram,kilograms,kilo,kilos tonne:tonnes,ton,tons "
    "pound:lb,lbs oz:ounce,ounces"
)
_VOLUME = (
    "ml:millilitre,millilitres,milliliter,milliliters litre:litres,liter,liters,l gallon:gallons"
)
_MONEY = (
    "dollar:dollars,usd,$ euro:euros,eur,€ pound:pounds,gbp,sterling,£ yen:¥,jpy "
    "yuan:rmb,cny franc:francs rupee:rupees krona:kronor,kroner,krone"
)
_TEMPERATURE = "celsius:°c fahrenheit:°f"


def _forms(table: str, kind: str) -> dict[str, tuple[str, str]]:
    return {
        form: (name, kind)
        for entry in table.split()
        for name, _, rest in [entry.partition(":")]
        for form in (name, *filter(None, rest.split(",")))
    }


#: Unit forms (lowercase) → (unit name, kind). "pound" is money or mass: its kind is read from
#: the other side's unit (:func:`_kinds`).
UNIT_KINDS: dict[str, tuple[str, str]] = {
    **_forms(_TIME, "time"),
    **_forms(_LENGTH, "length"),
    **_forms(_MASS, "mass"),
    **_forms(_VOLUME, "volume"),
    **_forms(_MONEY, "money"),
    **_forms(_TEMPERATURE, "temperature"),
}
_TWO_KINDS = {"pound": ("mass", "money")}
#: Words that make a rate of the unit of time after them ("per month", "each week").
_RATE_WORDS = frozenset({"per", "each", "every", "/"})
#: How many words after a figure a rate may stand ("1.5 days of paid annual leave per month").
RATE_REACH = 8
_NUMBER_WORDS = {
    w: str(n)
    for n, w in enumerate(
        ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve")
    )
}  # fmt: skip
_FIGURE = re.compile(
    r"(?P<sign>[$€£¥])?\s?(?<![\w.,])(?P<figure>\d+(?:,\d{3})*(?:\.\d+)?|"
    + "|".join(_NUMBER_WORDS)
    + r")(?![\w])",
    re.IGNORECASE,
)
_WORD = re.compile(r"°[cf]|[a-z]+|[$€£¥/]", re.IGNORECASE)
_STOPS = re.compile(r"[,;:()\[\]]|\.(?!\d)")


def _value(figure: str) -> str:
    word = _NUMBER_WORDS.get(figure.lower())
    return word if word is not None else figure.replace(",", "")


def measures(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each figure of ``text`` (digits, or a number word from "zero" to "twelve") with the units
    written with it: ``("30", {"second"})``, ``("12", {"dollar", "per month"})``."""
    body = nfc(text)
    out = []
    for m in _FIGURE.finditer(body):
        units: set[str] = set()
        if m.group("sign"):
            units.add(UNIT_KINDS[m.group("sign")][0])
        rest = body[m.end() :]
        stop = _STOPS.search(rest)
        clause = rest[: stop.start()] if stop else rest
        words = [w.group().lower() for w in _WORD.finditer(clause)][: RATE_REACH + 1]
        if words and rest[:1] in (" ", "-", "\u00a0", "°") and words[0] in UNIT_KINDS:
            units.add(UNIT_KINDS[words[0]][0])
        for k, w in enumerate(words[:-1]):
            after = words[k + 1]
            if w in _RATE_WORDS and UNIT_KINDS.get(after, ("", ""))[1] == "time":
                units.add("per " + UNIT_KINDS[after][0])
        out.append((_value(m.group("figure")), frozenset(units)))
    return tuple(out)


def _kinds(unit: str) -> tuple[str, ...]:
    if unit.startswith("per "):
        return ("rate",)
    return _TWO_KINDS.get(unit) or (next(k for n, k in UNIT_KINDS.values() if n == unit),)


def _conflicts(ours: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether ``theirs`` writes, for a unit of ``ours`` it lacks, another unit of its kind."""
    return any(
        unit not in theirs
        and any(set(_kinds(unit)) & set(_kinds(other)) for other in theirs if other != unit)
        for unit in ours
    )


@lru_cache(maxsize=1 << 14)
def units_differ(claim: str, span: str) -> str | None:
    """The first figure the claim writes with a unit that the span, at every place it writes
    that figure, replaces with another unit of the same kind ("30" for "30 minutes" against "30
    seconds"); None if there is none (see the module docstring)."""
    theirs: dict[str, list[frozenset[str]]] = {}
    for value, units in measures(span):
        theirs.setdefault(value, []).append(units)
    for value, units in measures(claim):
        found = theirs.get(value)
        if units and found and all(_conflicts(units, other) for other in found):
            return value
    return None


#: Two figures joined by a hyphen or a dash, not inside a longer figure or name ("6-3", "3–1";
#: not "1.2-3.4" halves, "COVID-19", "2019-nCoV").
_PAIR = re.compile(r"(?<![\w.\-–])(?<!\d,)(\d{1,3})\s?[-–]\s?(\d{1,3})(?!\w|[.,]\d|\s?%|[\-–]\d)")


def figure_pairs(text: str) -> frozenset[tuple[str, str]]:
    """The ordered pairs of figures ``text`` joins with a hyphen or a dash ("6-3" → ("6", "3"))."""
    return frozenset((m.group(1), m.group(2)) for m in _PAIR.finditer(nfc(text)))


@lru_cache(maxsize=1 << 14)
def pair_reversed(claim: str, span: str) -> tuple[str, str] | None:
    """Score model v66: the first pair of figures the claim joins ("won 6-3") that the span joins
    the other way round ("3-6") and never the claim's way: a score, a set or a tally with its
    sides traded; None if there is none. A range's ends are written low to high on both sides,
    so a range is never read as reversed."""
    theirs = figure_pairs(span)
    for a, b in sorted(figure_pairs(claim)):
        if a != b and (b, a) in theirs and (a, b) not in theirs:
            return a, b
    return None
