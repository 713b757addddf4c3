"""A negation that names a group, or one a prefix writes, restated or turned: told apart? (#14)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_paired_negations.py \\
        [--models v75 v76] [--n 200] [--seed 20261210] [--write docs/quality.md]

A generator the paired reading of negations (score model v76) was not written from. Each case
is a sentence of a SciFact corpus abstract (60–300 characters), checked against the whole
abstract. Two families, up to ``--n`` sentences each:

* a negation in a restrictive relative clause ("cells that do not express CD4", "women who were
  not pregnant"; what :func:`spanproof.verify.gates.names_a_group` reads):
  ``copied`` (true), the sentence as it stands; ``group turned`` (false), the sentence with that
  negation taken out ("cells that do express CD4", "who did know"): the claim is about the
  other group, every other word the source's. A negation that ends its clause ("… than those
  who did not.") is left out: without it nothing would name the group;
* a privative word after a copula ("was unclear", "were asymptomatic", "is independent of"),
  whose word without the prefix the corpus writes too: ``privative restated`` (true), the
  prefix written as "not" ("was not clear", "were not symptomatic"); ``privative dropped``
  (false), the prefix taken out ("was clear"); ``privative denied`` (false), the privative word
  denied ("was not unclear"). Words that are negations already ("unchanged", "unlikely") and
  past forms after "in" ("informed", "infused": no privatives) are left out, and "im", "ir"
  and "il" are not read ("improved"); the rest are not checked by hand ("invaluable" is not "not
  valuable"), and the false claims `supported` are listed so that such a case can be read.

v76 reads a group's negation against the other side, and a privative word as a negation where
the other side denies a word of its stem: a turned group and a dropped prefix must stay
refused. Reported per model and kind: how many are `supported` (true claims: higher is better;
false claims: lower), `unsupported` and `contradicted`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from _report import start_probe
from probe_word_swaps import corpus_abstracts, publish_verdicts

from spanproof.text.tokens import lower_chars, segments
from spanproof.verify.gates import NEGATION_SUFFIXES, is_negation, names_a_group

BEGIN, END = "<!-- paired-negations:begin -->", "<!-- paired-negations:end -->"
KINDS = ("copied", "group turned", "privative restated", "privative dropped", "privative denied")
FALSE_KINDS = ("group turned", "privative dropped", "privative denied")
DEFAULT_SEED = 20261210
#: A privative word after a copula: "was unclear", "were asymptomatic", "is non-essential".
_PRIVATIVE = re.compile(
    r"\b(is|are|was|were|be|been|remained|remains|became)\s+(non-|non|un|in|a)([a-z]{5,})\b"
)


@dataclass(frozen=True)
class Case:
    kind: str
    claim: str
    evidence: str


def turned(sentence: str) -> str | None:
    """The sentence with its first negation that names a group taken out ("who were not
    pregnant" → "who were pregnant", "that didn't" → "that did"); None when it has none."""
    words = segments(sentence)
    lowered = [lower_chars(w[0]) for w in words]
    for i, (word, start, end) in enumerate(words):
        if not names_a_group(lowered, i):
            continue
        if i + 1 == len(words) or sentence[end : words[i + 1][1]].strip():
            return None  # "… than those who did not.": taken out, nothing names the group
        for suffix in NEGATION_SUFFIXES:
            if word.lower().endswith(suffix):
                return sentence[: end - len(suffix)] + sentence[end:]
        return sentence[:start] + sentence[end:].lstrip()
    return None


def restated(sentence: str, vocabulary: frozenset[str]) -> tuple[str, str, str] | None:
    """The sentence with its first privative word after a copula written with "not", with its
    prefix taken out, and denied ("was unclear": "was not clear", "was clear", "was not
    unclear"); None when it has none whose word without the prefix is in ``vocabulary``."""
    for m in _PRIVATIVE.finditer(sentence):
        prefix, stem = m.group(2), m.group(3)
        word = prefix + stem
        if is_negation(word, True) or stem not in vocabulary:
            continue
        if prefix == "in" and stem.endswith("ed"):
            continue
        head, tail = sentence[: m.start(2)], sentence[m.end() :]
        return f"{head}not {stem}{tail}", f"{head}{stem}{tail}", f"{head}not {word}{tail}"
    return None


def build_cases(abstracts: Sequence[list[str]], n: int, seed: int) -> dict[str, list[Case]]:
    """Up to ``n`` sentences of each family, seeded: every sentence each can rewrite, in a
    seeded order, both kinds of a family from the same sentences."""
    vocabulary = frozenset(
        w for sentences in abstracts for s in sentences for w in re.findall(r"[a-z]+", s.lower())
    )
    groups: list[tuple[str, ...]] = []
    privatives: list[tuple[str, ...]] = []
    for sentences in abstracts:
        evidence = " ".join(sentences)
        for sentence in sentences:
            if not 60 <= len(sentence) <= 300:
                continue
            other = turned(sentence)
            if other is not None:
                groups.append((sentence, other, evidence))
            rewritten = restated(sentence, vocabulary)
            if rewritten is not None:
                privatives.append((*rewritten, evidence))
    rng = random.Random(seed)
    rng.shuffle(groups)
    rng.shuffle(privatives)
    cases: dict[str, list[Case]] = {}
    for kinds, found in zip((KINDS[:2], KINDS[2:]), (groups[:n], privatives[:n]), strict=True):
        for k, kind in enumerate(kinds):
            cases[kind] = [Case(kind, claims[k], claims[-1]) for claims in found]
    return cases


def main() -> int:
    run = start_probe(__doc__ or "", models=["v75", "v76"], n=200, seed=DEFAULT_SEED, examples=6)
    if run is None:
        return 2
    args = run.args
    cases = build_cases(corpus_abstracts(run.root), args.n, args.seed)
    about = (
        "a SciFact abstract's sentence with a negation in a restrictive relative clause, copied "
        "(true) or with that negation taken out so that it names the other group (false); and "
        'one with a privative word after a copula, its prefix written as "not" (true), taken '
        "out or the word denied (false); the whole abstract as evidence."
    )
    publish_verdicts(
        run,
        (BEGIN, END),
        "probe_paired_negations.py",
        about,
        {kind: cases[kind] for kind in KINDS},
        lambda kind, case: (
            f"* {kind}: {' '.join(case.claim.split())}" if kind in FALSE_KINDS else None
        ),
        "False claims `supported` under {model}:",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
