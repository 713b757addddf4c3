"""The fuzz harness and text properties of tests/fuzz/ and ``scripts/fuzz.py``.

A :class:`Property` is a Hypothesis strategy plus a check that runs one input and returns an
outcome label (``ok``, ``parsed`` or ``quarantined:<reason>``), raising ``AssertionError`` when an
invariant breaks (the parser properties are in ``parser_kit``). Every input runs under
:func:`hard_limit` (a ``SIGALRM`` guard), so a hang fails instead of stalling the run;
Hypothesis' ``deadline`` bounds the ordinary per-input time.
"""

from __future__ import annotations

import math
import signal
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any

from hypothesis import strategies as st

from spanproof.core.store import MASK, Section
from spanproof.services.spans import SpanAddress, resolve
from spanproof.text.canonical import canonical_text
from spanproof.text.chunks import chunk_ranges
from spanproof.text.measurements import find_measurements
from spanproof.text.numerics import canonical_number, numerics
from spanproof.text.quotes import find_quotation, squash
from spanproof.text.sentences import split_sentences
from spanproof.text.tokens import lower_chars, nfc, segments, token_texts, tokenize

#: Seconds one input may take before the SIGALRM guard fails it (a hang, not slowness).
HARD_LIMIT_S = 30.0


class InputTimeout(BaseException):
    """One input ran past :data:`HARD_LIMIT_S` (a BaseException so no ``except Exception``
    in the code under test can swallow it)."""


@contextmanager
def hard_limit(seconds: float = HARD_LIMIT_S) -> Iterator[None]:
    """Raise :class:`InputTimeout` in the main thread after ``seconds`` of wall-clock time."""

    def on_alarm(_signum: int, _frame: FrameType | None) -> None:
        raise InputTimeout(f"one input ran for over {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Property:
    """A fuzz property: inputs, a check returning an outcome label, and its CI example count."""

    name: str
    strategy: st.SearchStrategy[Any]
    check: Callable[[Any], str]
    examples: int = 150


# --- strategies: hostile Unicode ------------------------------------------------------------

_HOSTILE_PIECES = [
    "\u0301",  # combining acute
    "\u0308\u0323\u036f",  # a stack of combining marks
    "\u05e9\u05dc\u05d5\u05dd",  # Hebrew
    "\u0627\u0644\u0639\u0631\u0628\u064a\u0629",  # Arabic
    "\u200f",  # RLM
    "\u202e",  # RLO
    "\u2066\u2069",  # isolates
    "\u200b",  # zero-width space
    "\u200d",  # ZWJ
    "\ufeff",  # BOM / ZWNBSP
    "\x00",
    "e\x00\u0301",  # a control between a base and its combining mark
    "\x07",
    "\x7f",
    "\x1c\x1d\x1e\x1f",  # separators Python counts as whitespace
    "\x85",  # NEL
    "\u2028\u2029",
    "\u00a0",
    "\u3000",
    "\t",
    "\r\n",
    "\n\n",
    " ",
    "\ud800",  # lone surrogates
    "\udfff",
    "\U0001f600",
    "\U0001f44d\U0001f3fd",
    "\U0001f1eb\U0001f1f7",
    "\u0130",  # İ (lowercases to two code points)
    "\u00df",
    "\u1e9e",
    "\u03a3",
    "\ufb01",  # ﬁ ligature (NFKC would change it; NFC does not)
    "\u212b",  # Å angstrom sign (NFC changes it)
    "\u0958",  # a composition exclusion
    "\u1100\u1161\u11a8",  # conjoining jamo → one syllable under NFC
    "e.g.",
    "et al.",
    "Fig.",
    "3.5",
    "1,500",
    "10mg",
    "12.5 mg/kg",
    "37 °C",
    "-0.0",
    "1e308",
    "1e309",
    "May 2020",
    "2020-05-17",
    "5:30",
    "\u0661\u0662\u0663",  # Arabic-Indic digits
    "\uff11\uff12",  # fullwidth digits
    "U.S.A.",
    "don't",
    ".",
    "?!",
    '"',
    ")",
    "Aspirin",
    "lowered",
    "A",
    "x" * 300,  # a very long token
    "9" * 400,  # a very long number
]

_PIECE = st.one_of(
    st.sampled_from(_HOSTILE_PIECES),
    st.text(min_size=1, max_size=8),
    st.characters(codec=None, exclude_categories=()),  # any code point, surrogates included
)

#: Arbitrary Unicode biased towards what breaks text code: combining marks, RTL, controls,
#: NUL, lone surrogates, odd whitespace, very long tokens.
hostile_text: st.SearchStrategy[str] = st.one_of(
    st.lists(_PIECE, max_size=40).map("".join),
    st.text(max_size=200),
    st.builds(
        lambda c, n: c * n,
        st.sampled_from(["a", "é", "\u0301", ". ", "1", "\u05e9"]),
        st.integers(1, 3000),
    ),
)


#: Canonical text (what sections hold), built from hostile text.
canonical_strings = hostile_text.map(canonical_text)


# --- text properties ------------------------------------------------------------------------


def check_tokens(value: str) -> str:
    normal = nfc(value)
    tokens = tokenize(value)
    previous = 0
    for token in tokens:
        assert previous <= token.start < token.end <= len(normal), token
        assert lower_chars(normal[token.start : token.end]) == token.text
        assert any(ch.isalnum() for ch in token.text)
        previous = token.end
    assert token_texts(value) == [t.text for t in tokens]
    return "ok" if tokens else "ok:no-tokens"


def check_numerics(value: str) -> str:
    words = token_texts(value)
    found = []
    for flags in ((False, False), (True, True)):
        found = numerics(words, months_need_digits=flags[0], number_parts=flags[1])
        for atom in found:
            number = float(atom)
            assert math.isfinite(number), atom
            assert repr(number) == atom, atom
    for part in value.split():
        atom = canonical_number(part)
        assert atom is None or repr(float(atom)) == atom
    return "ok:numbers" if found else "ok"


def check_sentences(value: str) -> str:
    out = split_sentences(value)
    previous = 0
    for sentence in out:
        assert previous <= sentence.start < sentence.end <= len(value)
        assert value[sentence.start : sentence.end] == sentence.text
        assert sentence.text == sentence.text.strip()
        previous = sentence.end
    covered = "".join(s.text for s in out)
    assert "".join(value.split()) == "".join(covered.split())
    return "ok"


def check_canonical(value: str) -> str:
    """Canonical text is NFC, single-spaced, trimmed, free of controls, and idempotent."""
    once = canonical_text(value)
    assert once == once.strip()
    assert "  " not in once
    assert not any(ch.isspace() and ch != " " for ch in once), ascii(once)
    assert not any(ch < " " or ch == "\x7f" for ch in once), ascii(once)
    assert unicodedata.is_normalized("NFC", once), ascii(once)
    assert canonical_text(once) == once, ascii(once)
    return "ok"


def check_chunks(args: tuple[str, int]) -> str:
    value, bound = args
    ranges = chunk_ranges(value, max_tokens=bound)
    previous = 0
    for start, end in ranges:
        assert previous <= start < end <= len(value), (start, end)
        previous = end
    for _, start, end in segments(value):
        assert any(s <= start and end <= e for s, e in ranges), (start, end)
    return "ok"


def check_measurements(value: str) -> str:
    found = find_measurements(value)
    previous = 0
    for m in found:
        assert previous <= m.start < m.end <= len(value)
        assert value[m.start : m.end].endswith(m.unit)
        assert not math.isnan(m.value) and m.canonical_unit
        previous = m.end
    return "ok:found" if found else "ok"


@st.composite
def quotation_cases(draw: st.DrawFn) -> tuple[str, str]:
    """A section text and a quotation: often a slice of it with whitespace changed."""
    section = draw(canonical_strings)
    if section and draw(st.booleans()):
        start = draw(st.integers(0, len(section) - 1))
        end = draw(st.integers(start + 1, len(section)))
        piece = section[start:end]
        spaced = draw(st.sampled_from(["", " ", "\n", "\t  ", "\u00a0"]))
        return section, spaced.join(piece.split(" ")) if spaced else piece
    return section, draw(hostile_text)


def check_quotation(args: tuple[str, str]) -> str:
    section, quotation = args
    match = find_quotation(section, quotation)
    needle = squash(quotation)
    if match.found:
        assert 0 <= match.start < match.end <= len(section)
        assert squash(section[match.start : match.end]) == needle
        return "found"
    assert needle not in squash(section) or not needle
    assert 0.0 <= match.similarity <= 1.0
    assert match.closest in section
    return "not-found"


class _OneSection:
    """The one store method ``resolve`` reads."""

    def __init__(self, value: str) -> None:
        self._section = Section("src:1", 1, "s1", "", value, 0)

    def section(self, source_id: str, version: int, key: str) -> Section | None:
        ok = (source_id, version, key) == ("src:1", 1, "s1")
        return self._section if ok else None


@st.composite
def span_cases(draw: st.DrawFn) -> tuple[str, int, int, str]:
    section = draw(canonical_strings)
    start = draw(st.integers(-2, len(section) + 2))
    end = draw(st.integers(-2, len(section) + 2))
    quotation = draw(st.one_of(st.just(section[max(start, 0) : max(end, 0)]), hostile_text))
    return section, start, end, quotation


def check_span(args: tuple[str, int, int, str]) -> str:
    section, start, end, quotation = args
    store: Any = _OneSection(section)
    result = resolve(store, SpanAddress("src:1", 1, "s1", start, end, quotation))
    if result.ok:
        assert 0 <= start < end <= len(section)
        assert result.text == section[start:end]
        assert squash(result.text) == squash(quotation) and MASK not in result.text
        outcome = "resolved"
    else:
        assert result.reason
        outcome = "refused"
    match = find_quotation(section, quotation)
    if match.found:  # what find_quotation locates always resolves back to the quotation
        located = resolve(store, SpanAddress("src:1", 1, "s1", match.start, match.end, quotation))
        assert located.ok or MASK in section, located
        assert located.text == section[match.start : match.end] or not located.ok
    return outcome


TEXT_PROPERTIES = [
    Property("tokens", hostile_text, check_tokens, 300),
    Property("numerics", hostile_text, check_numerics, 300),
    Property("sentences", hostile_text, check_sentences, 300),
    Property("canonical", hostile_text, check_canonical, 300),
    Property("chunks", st.tuples(canonical_strings, st.integers(1, 40)), check_chunks, 200),
    Property("measurements", hostile_text, check_measurements, 150),
    Property("quotation", quotation_cases(), check_quotation, 200),
    Property("spans", span_cases(), check_span, 200),
]
