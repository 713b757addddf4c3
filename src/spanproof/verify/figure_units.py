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

Score model v69 reads more (``more``): a percentage against an amount of money ("a 2%
surcharge" against "a £2 supplement"), units of electric power, energy and charge ("65 Wh"
against "65 W", :data:`ELECTRIC`), and a rate written as a span of time ("three tablets in any
24-hour period" is three a day, "in a week" is per week, :data:`_PERIOD`).
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
#: v69: units of electric power, energy and charge, one kind: a figure of watts is not one of
#: watt-hours.
ELECTRIC = "w:watt,watts kw:kilowatt,kilowatts mw:megawatt,megawatts wh kwh mwh mah"
#: v69: the unit tables with :data:`ELECTRIC`, and a percentage, which stands against money
#: ("2%" against "£2"; :func:`_kinds`).
MORE_UNIT_KINDS: dict[str, tuple[str, str]] = {
    **UNIT_KINDS,
    **_forms(ELECTRIC, "electric"),
    "%": ("percent", "money"),
    "percent": ("percent", "money"),
}
#: v69: a rate written as a span of time after the figure: "in any 24-hour period", "in a
#: week", "within a single day". A span of 24 hours is a day, of 7 days a week, of 12 months a
#: year; another length is no rate of one unit and is not read.
_PERIOD = re.compile(
    r"\b(?:in|within|over)\s+(?:any|a|one|each|a\s+single)\s+(?:(\d+)[-\s])?"
    r"(hour|day|week|month|year)s?\b",
    re.IGNORECASE,
)
_WHOLE = {("24", "hour"): "day", ("7", "day"): "week", ("12", "month"): "year"}
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


def _period(clause: str) -> str | None:
    """The unit of time a rate written as a span of time in ``clause`` is per (v69), or None."""
    found = _PERIOD.search(clause)
    if found is None:
        return None
    count, unit = found.group(1), found.group(2).lower()
    if count is None or count == "1":
        return unit
    return _WHOLE.get((count, unit))


@lru_cache(maxsize=1 << 14)
def measures(text: str, more: bool = False) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each figure of ``text`` (digits, or a number word from "zero" to "twelve") with the units
    written with it: ``("30", {"second"})``, ``("12", {"dollar", "per month"})``; ``more``
    (v69): :data:`MORE_UNIT_KINDS` and :data:`_PERIOD` too."""
    kinds = MORE_UNIT_KINDS if more else UNIT_KINDS
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
        if words and rest[:1] in (" ", "-", "\u00a0", "°") and words[0] in kinds:
            units.add(kinds[words[0]][0])
        if more and (rest[:1] == "%" or (words and words[0] == "percent")):
            units.add("percent")
        for k, w in enumerate(words[:-1]):
            after = words[k + 1]
            if w in _RATE_WORDS and kinds.get(after, ("", ""))[1] == "time":
                units.add("per " + kinds[after][0])
        if more and (per := _period(clause)) is not None:
            units.add("per " + per)
        out.append((_value(m.group("figure")), frozenset(units)))
    return tuple(out)


def _kinds(unit: str) -> tuple[str, ...]:
    if unit.startswith("per "):
        return ("rate",)
    return _TWO_KINDS.get(unit) or (next(k for n, k in MORE_UNIT_KINDS.values() if n == unit),)


def _conflicts(ours: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether ``theirs`` writes, for a unit of ``ours`` it lacks, another unit of its kind."""
    return any(
        unit not in theirs
        and any(set(_kinds(unit)) & set(_kinds(other)) for other in theirs if other != unit)
        for unit in ours
    )


@lru_cache(maxsize=1 << 14)
def units_differ(claim: str, span: str, more: bool = False) -> str | None:
    """The first figure the claim writes with a unit that the span, at every place it writes
    that figure, replaces with another unit of the same kind ("30" for "30 minutes" against "30
    seconds"); None if there is none (see the module docstring). ``more``: v69's reading."""
    theirs: dict[str, list[frozenset[str]]] = {}
    for value, units in measures(span, more):
        theirs.setdefault(value, []).append(units)
    for value, units in measures(claim, more):
        found = theirs.get(value)
        if units and found and all(_conflicts(units, other) for other in found):
            return value
    return None


#: v70: units that convert exactly, each with its measure and its size in that measure's base
#: unit. Days and months do not convert exactly, so time is two measures.
_SIZES: dict[str, tuple[str, float]] = {
    **{u: ("time", s) for u, s in (("second", 1), ("minute", 60), ("hour", 3600),
                                   ("day", 86400), ("week", 604800))},
    **{u: ("calendar", s) for u, s in (("month", 1), ("year", 12), ("decade", 120),
                                       ("century", 1200))},
    **{u: ("length", s) for u, s in (("mm", 0.001), ("cm", 0.01), ("metre", 1), ("km", 1000))},
    **{u: ("mass", s) for u, s in (("mg", 0.001), ("g", 1), ("kg", 1000), ("tonne", 1e6))},
    **{u: ("volume", s) for u, s in (("ml", 0.001), ("litre", 1))},
}  # fmt: skip


def _quantities(text: str) -> set[tuple[str, float, str, float]]:
    """Each figure of ``text`` with a unit of :data:`_SIZES`: (measure, size in the base unit,
    the unit, the figure)."""
    return {
        (measure, round(float(value) * size, 9), unit, float(value))
        for value, units in measures(text)
        for unit in units
        if unit in _SIZES
        for measure, size in [_SIZES[unit]]
    }


@lru_cache(maxsize=1 << 14)
def converted(claim: str, span: str) -> frozenset[float]:
    """The claim's figures that the span states as the same quantity in another unit ("two
    days" for "48 hours", "three decades" for "30 years", "1.5 km" for "1,500 metres"; score
    model v70): the numeric gate does not miss them. The same figure in the same unit is the
    gate's own to read, not a conversion."""
    stated = {(measure, size, unit) for measure, size, unit, _ in _quantities(span)}
    return frozenset(
        value
        for measure, size, unit, value in _quantities(claim)
        if any(m == measure and s == size and u != unit for m, s, u in stated)
    )


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
