"""One word of a copied sentence swapped for another word of the same abstract: caught? (#14)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_word_swaps.py \\
        [--models v2 v34] [--n 300] [--seed 20261204] [--write docs/quality.md]

A generator the rules were not written from. Each case is a sentence of a SciFact corpus
abstract (60–250 characters) with one content word (five letters or more, not a function word)
replaced by a word that the *same abstract* writes in another sentence and this sentence does
not, checked against the whole abstract as its evidence. So every word of the claim is in the
evidence, the claim is the evidence's own sentence but for one word, and the new word belongs
to the topic — a hallucination that copies its source and gets one term wrong. Two kinds:

* ``random``: the new word is drawn at random from those words;
* ``closest``: the new word is the one closest in meaning to the word it replaces (the bundled
  encoder's cosine of the two words alone; a word sharing the first four letters with the old
  one is skipped, so "questionnaires" is not replaced by "questionnaire"; cases whose closest
  word is below 0.5 are skipped).

Every claim is false of its evidence (the evidence states the sentence with the other word),
bar the rare swap of a synonym; reported per model and kind: how many are `supported` (should be
none), `unsupported`, `contradicted`, and the `supported` ones, listed.
"""

from __future__ import annotations

import argparse
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

import numpy as np
from _report import (
    SECONDS,
    ProbeRun,
    checker_for,
    listed_examples,
    publish_timed,
    start_probe,
    verdict_cells,
)

from spanproof.core.ports import Embedder
from spanproof.evaluation.devdata import scifact_corpus
from spanproof.services.verification import score_all
from spanproof.verifier import to_claims, to_evidence
from spanproof.verify.edits import FUNCTION_WORDS
from spanproof.verify.scoring import SCORE_MODELS, ScoreModel

BEGIN, END = "<!-- word-swaps:begin -->", "<!-- word-swaps:end -->"
KINDS = ("random", "closest")
DEFAULT_SEED = 20261204
_WORD = re.compile(r"[A-Za-z][a-z]{4,}")
#: The least cosine a ``closest`` replacement must have to its word.
CLOSEST_MIN = 0.5


@dataclass(frozen=True)
class Case:
    kind: str
    claim: str
    evidence: str
    old: str
    new: str


def content_words(sentence: str) -> list[re.Match[str]]:
    return [m for m in _WORD.finditer(sentence) if m.group(0).lower() not in FUNCTION_WORDS]


def swap(sentence: str, word: re.Match[str], new: str) -> str:
    return sentence[: word.start()] + new + sentence[word.end() :]


def other_words(sentences: Sequence[str], k: int) -> list[str]:
    """The content words (five letters or more, no function word) the abstract's other sentences
    write and sentence ``k`` does not, sorted: what a swap may put in."""
    own = {m.group(0).lower() for m in _WORD.finditer(sentences[k])}
    written = {
        m.group(0).lower()
        for j, other in enumerate(sentences)
        if j != k
        for m in _WORD.finditer(other)
    }
    return sorted(written - own - FUNCTION_WORDS)


def corpus_abstracts(root: Path) -> list[list[str]]:
    """The SciFact corpus's abstracts, each as its list of sentences, in document-id order."""
    corpus = scifact_corpus(root)
    return [list(corpus[doc]["abstract"]) for doc in sorted(corpus)]


class ClaimCase(Protocol):
    """A generated case: a claim and the evidence (a whole abstract) it is checked against."""

    @property
    def claim(self) -> str: ...

    @property
    def evidence(self) -> str: ...


def verdict_of(case: ClaimCase, model: ScoreModel, embedder: Embedder) -> str:
    """The verdict ``model`` gives the case's claim against its whole abstract (or the
    verification status when none was given)."""
    evidence = to_evidence([{"id": "E1", "text": case.evidence}])
    verdicts, status = score_all(
        to_claims([case.claim]), evidence, embedder, model, checker_for(model)
    )
    return verdicts[0].verdict.value if verdicts else status


Case_ = TypeVar("Case_", bound=ClaimCase)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def verdict_block(
    script: str,
    args: argparse.Namespace,
    about: str,
    cases: Mapping[str, Sequence[Case_]],
    embedder: Embedder,
    listing: Callable[[str, Case_], str | None],
    listed_title: str,
) -> list[str]:
    """The generator probes' report: how it was measured (``about`` after the command and the
    date), a row (kind, cases, model, `supported`, `unsupported`, `contradicted`) for every
    kind of ``cases``, in order, under every model, and, under ``listed_title``, what
    ``listing`` makes of each case the last model supports (None: not listed)."""
    last = args.models[-1]
    lines = [
        f"Measured by `python scripts/{script} --models {' '.join(args.models)} --n {args.n} "
        f"--seed {args.seed}` on {time.strftime('%Y-%m-%d')} ({SECONDS} s): {about}",
        "",
        "| kind | cases | model | `supported` | `unsupported` | `contradicted` |",
        "|---|---:|---|---:|---:|---:|",
    ]
    listed: list[str] = []
    for kind, of_kind in cases.items():
        for name in args.models:
            model = SCORE_MODELS[name]
            counts: Counter[str] = Counter()
            for case in of_kind:
                verdict = verdict_of(case, model, embedder)
                counts[verdict] += 1
                if verdict == "supported" and name == last and (item := listing(kind, case)):
                    listed.append(item)
            cells = verdict_cells(counts, len(of_kind))
            lines.append(f"| {kind} | {len(of_kind)} | {name} | " + " | ".join(cells) + " |")
    title = listed_title.format(model=last)
    return [*lines, "", title, "", *listed_examples(listed, args.examples)]


def publish_verdicts(
    run: ProbeRun,
    markers: tuple[str, str],
    script: str,
    about: str,
    cases: Mapping[str, Sequence[Case_]],
    listing: Callable[[str, Case_], str | None],
    listed_title: str,
) -> None:
    """Publish a generator probe's :func:`verdict_block` between ``markers`` (begin, end),
    with the seconds since the run started: the close every such probe shares."""
    begin, end = markers
    block = verdict_block(script, run.args, about, cases, run.embedder, listing, listed_title)
    publish_timed([begin, "", *block], run.started, run.args.write, begin, end)


def sentence_picks(
    abstracts: Sequence[list[str]], rng: random.Random
) -> Iterator[tuple[int, list[str], int]]:
    """The abstracts of four sentences or more in an order ``rng`` shuffles, each with one of its
    sentences drawn by ``rng``: (abstract index, its sentences, the drawn sentence's index). The
    generator probes' walk over the corpus; a caller stops it when its cases are made."""
    order = list(range(len(abstracts)))
    rng.shuffle(order)
    for index in order:
        sentences = abstracts[index]
        if len(sentences) >= 4:
            yield index, sentences, rng.randrange(len(sentences))


def build_cases(
    abstracts: Sequence[list[str]], n: int, seed: int, embedder: Embedder
) -> dict[str, list[Case]]:
    """Up to ``n`` cases of each kind, seeded; one sentence per abstract, abstracts in a seeded
    order (the same abstracts for both kinds where both can be made)."""
    rng = random.Random(seed)
    out: dict[str, list[Case]] = {kind: [] for kind in KINDS}
    for _index, sentences, k in sentence_picks(abstracts, rng):
        if all(len(cases) >= n for cases in out.values()):
            break
        sentence = sentences[k]
        words = content_words(sentence)
        if not 60 <= len(sentence) <= 250 or len(words) < 4:
            continue
        others = other_words(sentences, k)
        if not others:
            continue
        word = rng.choice(words)
        evidence = " ".join(sentences)
        choice = rng.choice(others)
        if len(out["random"]) < n:
            out["random"].append(
                Case("random", swap(sentence, word, choice), evidence, word.group(0), choice)
            )
        old = word.group(0).lower()
        near = [w for w in others if w[:4] != old[:4]]
        if len(out["closest"]) >= n or not near:
            continue
        vectors = np.asarray(embedder.embed([old, *near]), dtype=np.float64)
        cosines = vectors[1:] @ vectors[0]
        best = int(np.argmax(cosines))
        if cosines[best] >= CLOSEST_MIN:
            new = near[best]
            out["closest"].append(
                Case("closest", swap(sentence, word, new), evidence, word.group(0), new)
            )
    return out


def main() -> int:
    run = start_probe(__doc__ or "", models=["v2", "v34"], n=300, seed=DEFAULT_SEED, examples=6)
    if run is None:
        return 2
    args = run.args
    cases = build_cases(corpus_abstracts(run.root), args.n, args.seed, run.embedder)
    about = (
        "one word of a SciFact abstract's sentence swapped for a word of another sentence of the "
        "same abstract, the whole abstract as evidence; every claim should be refused."
    )
    publish_verdicts(
        run,
        (BEGIN, END),
        "probe_word_swaps.py",
        about,
        {kind: cases[kind] for kind in KINDS},
        lambda kind, case: f"* {kind}: “{case.old}” → “{case.new}”: {_one_line(case.claim)}",
        "`supported` under {model}:",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
