"""A copied sentence with words of another abstract grafted on: supported? (#14)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_grafts.py \\
        [--models v59 v60] [--n 300] [--seed 20261206] [--write docs/quality.md]

A generator no rule was written from. Each case starts from a sentence of a SciFact corpus
abstract (60–250 characters, five content words or more, ending with a full stop), checked
against the whole abstract, and takes the second half (by words) of a sentence of another
abstract drawn at random (eight words or more):

* ``appended``: the sentence, then ", and " and those words ("… through dipeptide repeat
  proteins, and the cytoplasm during oogenesis, but are largely lost during spermatogenesis.");
* ``run on``: the sentence with those words run on without a joining word;
* ``spliced``: the first half of the sentence (by words; ten words or more) with those words in
  place of its second half.

Every claim of those three kinds states something the abstract does not. A control kind,
``joined`` (drawn apart, with its own seeded walk), appends with ", and " the second half of
another sentence of the *same* abstract: every word of it the evidence states, as an answer
that joins two of its source's statements does, and a rule against grafts should leave it as
it was. Reported per model and kind, two ways:
the claim scored as one claim (``score_all``, as the other generator probes), and the answer as
a user gets it, decomposed into claims by the rules decomposer (``Verifier.verify``): the share
of answers whose every claim is `supported` — an answer `spanproof verify` would pass whole.
A model is a name (v60) or a name with readings switched (``v60+field=value``).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from _report import SECONDS, listed_examples, publish_timed, start_spec_probe
from probe_phrase_swaps import usable
from probe_word_swaps import corpus_abstracts, sentence_picks, verdict_of

from spanproof.verifier import Verifier

BEGIN, END = "<!-- grafts:begin -->", "<!-- grafts:end -->"
KINDS = ("appended", "run on", "spliced")
#: The control: the second half of a sentence of the same abstract appended.
CONTROL = "joined"
DEFAULT_SEED = 20261206


@dataclass(frozen=True)
class Case:
    kind: str
    claim: str
    evidence: str


def second_half(sentence: str) -> list[str] | None:
    """The second half of ``sentence``'s words (no closing full stop), or None for a sentence
    of fewer than eight words."""
    words = sentence.rstrip().rstrip(".").split()
    return words[len(words) // 2 :] if len(words) >= 8 else None


def grafts(sentence: str, tail: Sequence[str]) -> dict[str, str]:
    """The cases ``sentence`` (ending with a full stop) makes with the words ``tail``: each
    kind's claim (``spliced`` only for a sentence of ten words or more)."""
    body = sentence.rstrip()[:-1]
    graft = " ".join(tail)
    out = {"appended": f"{body}, and {graft}.", "run on": f"{body} {graft}."}
    words = body.split()
    if len(words) >= 10:
        out["spliced"] = " ".join([*words[: len(words) // 2], graft]) + "."
    return out


def build_cases(abstracts: Sequence[list[str]], n: int, seed: int) -> list[Case]:
    """Up to ``n`` cases of each kind, seeded; one sentence per abstract, abstracts in a seeded
    order, the other abstract drawn at random for each."""
    rng = random.Random(seed)
    out: dict[str, list[Case]] = {kind: [] for kind in KINDS}
    for index, sentences, k in sentence_picks(abstracts, rng):
        if all(len(cases) >= n for cases in out.values()):
            break
        sentence = sentences[k]
        other = abstracts[rng.choice([j for j in range(len(abstracts)) if j != index])]
        tail = second_half(rng.choice(other)) if other else None
        if not usable(sentence) or not sentence.rstrip().endswith(".") or tail is None:
            continue
        evidence = " ".join(sentences)
        for kind, claim in grafts(sentence, tail).items():
            if len(out[kind]) < n:
                out[kind].append(Case(kind, claim, evidence))
    return [case for kind in KINDS for case in out[kind]] + joined_cases(abstracts, n, seed)


def joined_cases(abstracts: Sequence[list[str]], n: int, seed: int) -> list[Case]:
    """Up to ``n`` control cases: a sentence with ", and " and the second half of another
    sentence of its own abstract (a walk seeded apart, so the other kinds' cases stay as
    they are)."""
    rng = random.Random(seed + 1)
    out: list[Case] = []
    for _index, sentences, k in sentence_picks(abstracts, rng):
        if len(out) >= n:
            break
        sentence = sentences[k]
        tail = second_half(sentences[rng.choice([j for j in range(len(sentences)) if j != k])])
        if not usable(sentence) or not sentence.rstrip().endswith(".") or tail is None:
            continue
        claim = grafts(sentence, tail)["appended"]
        out.append(Case(CONTROL, claim, " ".join(sentences)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    started_probe = start_spec_probe(
        __doc__ or "", argv, models=["v60"], n=300, seed=DEFAULT_SEED, examples=6
    )
    if started_probe is None:
        return 2
    run, models = started_probe
    args, started, embedder = run.args, run.started, run.embedder
    cases = build_cases(corpus_abstracts(run.root), args.n, args.seed)
    lines = [
        BEGIN,
        "",
        f"Measured by `python scripts/probe_grafts.py --models {' '.join(args.models)} "
        f"--n {args.n} --seed {args.seed}` on {time.strftime('%Y-%m-%d')} ({SECONDS} s): a "
        "SciFact abstract's sentence with the second half of another abstract's sentence "
        "appended, run on or put in place of its own second half, the whole abstract as "
        "evidence; every answer of those kinds should be refused. `joined`, the control, "
        "appends the second half of a sentence of the same abstract: its words are all stated.",
        "",
        "| kind | cases | model | `supported` as one claim | every claim `supported` |",
        "|---|---:|---|---:|---:|",
    ]
    listed: list[str] = []
    for kind in (*KINDS, CONTROL):
        cell = [c for c in cases if c.kind == kind]
        for spec, model in zip(args.models, models, strict=True):
            verifier = Verifier(score_model=model)
            counts: Counter[str] = Counter()
            for case in cell:
                counts["one"] += verdict_of(case, model, embedder) == "supported"
                report = verifier.verify(case.claim, [{"id": "E1", "text": case.evidence}])
                passed = bool(report.claims) and all(
                    c.verdict.value == "supported" for c in report.claims
                )
                counts["all"] += passed
                if passed and spec == args.models[-1] and kind != CONTROL:
                    listed.append(f"* {kind}: {' '.join(case.claim.split())}")
            cells = [
                f"{counts[k]} ({100 * counts[k] / len(cell):.1f} %)" if cell else "—"
                for k in ("one", "all")
            ]
            lines.append(f"| {kind} | {len(cell)} | {spec} | " + " | ".join(cells) + " |")
    lines += ["", f"Answers passed whole under {args.models[-1]}:", ""]
    lines += listed_examples(listed, args.examples)
    publish_timed(lines, started, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
