"""One phrase of a copied sentence swapped for a phrase of one to five words: caught? (#14)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_phrase_swaps.py \\
        [--models v59 v59+edit_long_run=4] [--n 120] [--seed 20261206] [--write docs/quality.md]

A generator the rules were not written from, and one that does not fix the length of what it
swaps in. Each case is a sentence of a SciFact corpus abstract (60–250 characters, five content
words or more) with one *phrase* — a run of one to five words between function words or
punctuation, none of them a function word — replaced by a phrase of the same shape written
elsewhere, checked against the whole abstract as its evidence. So the claim is the evidence's
own sentence but for one phrase: a hallucination that copies its source and gets one thing
wrong, whatever the length of the thing. Two sources of the phrase put in:

* ``same``: a phrase another sentence of the *same* abstract writes (on topic; its words are in
  the evidence, put where they do not belong);
* ``other``: a phrase of a sentence of another abstract, drawn at random (its words are mostly
  not in the evidence).

Cases are grouped by how many words the phrase put in has (1, 2, 3, 4–5): ``--n`` cases of
each source and length, one per abstract, abstracts in a seeded order. A phrase whose words the
sentence already holds, or which shares a word with the phrase it replaces, is not used, so the
swap always changes what the sentence says (bar the rare synonym). Every claim should be
refused; reported per model, source and length: how many are `supported`, `unsupported`,
`contradicted`, and the `supported` ones of the last model, listed. A model is a name (v59) or a
name with readings switched (``v59+edit_long_run=4``: :func:`_report.with_fields`).
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from _report import SECONDS, listed_examples, publish_timed, start_spec_probe, verdict_cells
from probe_word_swaps import corpus_abstracts, sentence_picks, verdict_of

from spanproof.verify.edits import FUNCTION_WORDS

BEGIN, END = "<!-- phrase-swaps:begin -->", "<!-- phrase-swaps:end -->"
SOURCES = ("same", "other")
#: The length buckets, by words in the phrase put in: (label, fewest, most).
LENGTHS = (("1", 1, 1), ("2", 2, 2), ("3", 3, 3), ("4–5", 4, 5))
DEFAULT_SEED = 20261206
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9+\-/']*")
_BREAK = re.compile(r"[,.;:()\[\]]")


@dataclass(frozen=True)
class Phrase:
    """A run of consecutive words, none a function word, with no punctuation between them."""

    start: int
    end: int
    words: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join(self.words)


@dataclass(frozen=True)
class Case:
    source: str
    length: str
    claim: str
    evidence: str
    old: str
    new: str


def phrases(sentence: str, most: int = 5) -> list[Phrase]:
    """The sentence's phrases of one to ``most`` words: each maximal run of words none of which
    is a function word, broken by punctuation (a longer run is not a phrase here)."""
    out: list[Phrase] = []
    run: list[re.Match[str]] = []

    def close() -> None:
        if 1 <= len(run) <= most:
            words = tuple(m.group(0) for m in run)
            out.append(Phrase(run[0].start(), run[-1].end(), words))
        run.clear()

    previous_end = 0
    for m in _WORD.finditer(sentence):
        if _BREAK.search(sentence[previous_end : m.start()]) or m.group(0).lower() in (
            FUNCTION_WORDS
        ):
            close()
        if m.group(0).lower() not in FUNCTION_WORDS:
            run.append(m)
        previous_end = m.end()
    close()
    return out


def swap(sentence: str, old: Phrase, new: Phrase) -> str:
    """``sentence`` with ``old`` replaced by ``new`` (capitalised where it opens the sentence,
    lower-cased where a capital only opened its own sentence)."""
    text = new.text
    if old.start == 0:
        text = text[0].upper() + text[1:]
    elif new.start == 0 and text[:1].isupper() and text[1:2].islower():
        text = text[0].lower() + text[1:]
    return sentence[: old.start] + text + sentence[old.end :]


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def _fits(sentence: str, old: Phrase, new: Phrase) -> bool:
    """Whether putting ``new`` for ``old`` changes what the sentence says: none of ``new``'s
    words is in the sentence, and the two share no word."""
    return not (_words(new.text) & _words(sentence)) and not (_words(new.text) & _words(old.text))


def usable(sentence: str) -> bool:
    return 60 <= len(sentence) <= 250 and sum(len(p.words) for p in phrases(sentence, 99)) >= 5


def build_cases(abstracts: Sequence[list[str]], n: int, seed: int) -> list[Case]:
    """Up to ``n`` cases of each source and length, seeded; one case per abstract and cell."""
    rng = random.Random(seed)
    cells: dict[tuple[str, str], list[Case]] = {
        (s, label): [] for s in SOURCES for label, _, _ in LENGTHS
    }
    for index, sentences, k in sentence_picks(abstracts, rng):
        if all(len(cases) >= n for cases in cells.values()):
            break
        sentence = sentences[k]
        own = phrases(sentence)
        if not usable(sentence) or not own:
            continue
        old = rng.choice(own)
        evidence = " ".join(sentences)
        other = abstracts[rng.choice([j for j in range(len(abstracts)) if j != index])]
        pools = {
            "same": [p for j, s in enumerate(sentences) if j != k for p in phrases(s)],
            "other": [p for s in other for p in phrases(s)],
        }
        for source in SOURCES:
            for label, fewest, most in LENGTHS:
                cell = cells[(source, label)]
                if len(cell) >= n:
                    continue
                pool = [
                    p
                    for p in pools[source]
                    if fewest <= len(p.words) <= most and _fits(sentence, old, p)
                ]
                if not pool:
                    continue
                new = rng.choice(pool)
                claim = swap(sentence, old, new)
                cell.append(Case(source, label, claim, evidence, old.text, new.text))
    return [case for cases in cells.values() for case in cases]


def main(argv: Sequence[str] | None = None) -> int:
    started_probe = start_spec_probe(
        __doc__ or "", argv, models=["v59"], n=120, seed=DEFAULT_SEED, examples=6,
        n_help="cases of each source and length",
    )  # fmt: skip
    if started_probe is None:
        return 2
    run, models = started_probe
    args, started, embedder = run.args, run.started, run.embedder
    cases = build_cases(corpus_abstracts(run.root), args.n, args.seed)
    lines = [
        BEGIN,
        "",
        f"Measured by `python scripts/probe_phrase_swaps.py --models {' '.join(args.models)} "
        f"--n {args.n} --seed {args.seed}` on {time.strftime('%Y-%m-%d')} ({SECONDS} s): one "
        "phrase of a SciFact abstract's sentence swapped for a phrase of one to five words "
        "written in another sentence of the same abstract (`same`) or of another abstract "
        "(`other`), the whole abstract as evidence; every claim should be refused.",
        "",
        "| source | words put in | cases | model | `supported` | `unsupported` | `contradicted` |",
        "|---|---|---:|---|---:|---:|---:|",
    ]
    listed: list[str] = []
    for source in SOURCES:
        for label, _, _ in LENGTHS:
            cell = [c for c in cases if c.source == source and c.length == label]
            for spec, model in zip(args.models, models, strict=True):
                counts: Counter[str] = Counter()
                for case in cell:
                    verdict = verdict_of(case, model, embedder)
                    counts[verdict] += 1
                    if verdict == "supported" and spec == args.models[-1]:
                        claim = " ".join(case.claim.split())
                        listed.append(f"* {source}, {label}: “{case.old}” → “{case.new}”: {claim}")
                cells = verdict_cells(counts, len(cell))
                row = f"| {source} | {label} | {len(cell)} | {spec} | "
                lines.append(row + " | ".join(cells) + " |")
    lines += ["", f"`supported` under {args.models[-1]}:", ""]
    lines += listed_examples(listed, args.examples)
    publish_timed(lines, started, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
