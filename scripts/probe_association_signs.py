"""An association restated with its sign, or with its sign turned: told apart? (#14)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_association_signs.py \\
        [--models v73 v74] [--n 200] [--seed 20261209] [--write docs/quality.md]

A generator the sign reading (score model v74) was not written from. Each case is a sentence
of a SciFact corpus abstract (60–300 characters, no negation) that states an association with
a sign, rewritten in the other way of stating that sign, checked against the whole abstract:

* ``same sign`` (true): "associated with increased X" → "positively associated with X",
  "associated with lower X" → "inversely associated with X", "positively correlated with X" →
  "correlated with higher X", "negatively associated with X" → "associated with lower X";
* ``sign turned`` (false): the same sentence with the other sign ("associated with increased X"
  → "inversely associated with X", "negatively associated with X" → "associated with higher
  X"): every other word is the source's, and no word of change faces an opposite one.

Reported per model and kind: how many are `supported` (true claims: higher is better; false
claims: lower), `unsupported` and `contradicted`, and the turned claims `supported`, listed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from _report import start_probe
from probe_word_swaps import corpus_abstracts, publish_verdicts

from spanproof.text.tokens import lower_chars, segments
from spanproof.verify.gates import is_negation

BEGIN, END = "<!-- association-signs:begin -->", "<!-- association-signs:end -->"
KINDS = ("same sign", "sign turned")
DEFAULT_SEED = 20261209
_VERB = r"(associated|correlated|linked)"
#: An association led by a word of change, and its sign.
_LED = (
    (re.compile(rf"\b{_VERB} with (?:an? |the )?(?:increased|higher|greater|elevated) "), 1),
    (re.compile(rf"\b{_VERB} with (?:an? |the )?(?:decreased|lower|reduced) "), -1),
)
#: An association stated with its sign by an adverb.
_SIGNED = re.compile(rf"\b(positively|negatively|inversely) {_VERB} with ")
_ADVERB = {1: "positively", -1: "inversely"}
_LEVEL = {1: "higher", -1: "lower"}


@dataclass(frozen=True)
class Case:
    kind: str
    claim: str
    evidence: str


def rewritten(sentence: str) -> tuple[str, str] | None:
    """The sentence with its first signed association stated the other way with the same sign,
    and with the other sign; None when it states none."""
    for pattern, sign in _LED:
        m = pattern.search(sentence)
        if m:
            head, tail = sentence[: m.start()], sentence[m.end() :]
            same = f"{head}{_ADVERB[sign]} {m.group(1)} with {tail}"
            turned = f"{head}{_ADVERB[-sign]} {m.group(1)} with {tail}"
            return same, turned
    m = _SIGNED.search(sentence)
    if m is None:
        return None
    sign = 1 if m.group(1) == "positively" else -1
    head, tail = sentence[: m.start()], sentence[m.end() :]
    same = f"{head}{m.group(2)} with {_LEVEL[sign]} {tail}"
    turned = f"{head}{m.group(2)} with {_LEVEL[-sign]} {tail}"
    return same, turned


def _denies(sentence: str) -> bool:
    return any(is_negation(lower_chars(w[0]), True) for w in segments(sentence))


def build_cases(abstracts: Sequence[list[str]], n: int, seed: int) -> dict[str, list[Case]]:
    """Up to ``n`` cases of each kind, seeded: every sentence that can be rewritten, in a seeded
    order, both kinds from the same sentences."""
    found: list[tuple[str, str, str]] = []
    for sentences in abstracts:
        evidence = " ".join(sentences)
        for sentence in sentences:
            if not 60 <= len(sentence) <= 300 or _denies(sentence):
                continue
            pair = rewritten(sentence)
            if pair is not None:
                found.append((pair[0], pair[1], evidence))
    random.Random(seed).shuffle(found)
    found = found[:n]
    return {
        KINDS[0]: [Case(KINDS[0], same, evidence) for same, _, evidence in found],
        KINDS[1]: [Case(KINDS[1], turned, evidence) for _, turned, evidence in found],
    }


def main() -> int:
    run = start_probe(__doc__ or "", models=["v73", "v74"], n=200, seed=DEFAULT_SEED, examples=6)
    if run is None:
        return 2
    args = run.args
    cases = build_cases(corpus_abstracts(run.root), args.n, args.seed)
    about = (
        "a SciFact abstract's sentence stating an association with a sign, restated with the "
        "same sign in other words (true) or with the other sign (false), the whole abstract as "
        "evidence."
    )
    publish_verdicts(
        run,
        (BEGIN, END),
        "probe_association_signs.py",
        about,
        {kind: cases[kind] for kind in KINDS},
        lambda kind, case: f"* {' '.join(case.claim.split())}" if kind == KINDS[1] else None,
        "Turned claims `supported` under {model}:",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
