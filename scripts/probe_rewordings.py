"""A copied sentence reworded the way a faithful answer rewords it: still `supported`? (#14)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_rewordings.py \\
        [--models v47 v50] [--n 200] [--seed 20261208] [--write docs/quality.md]

Each case is a sentence of a SciFact corpus abstract (60–250 characters), checked against the
whole abstract, with one change. Two kinds keep the sentence true and two make it false:

* ``same direction`` (should be `supported`): a plain verb of change put for another of the
  same direction and form ("reduced" → "lowered", "increases" → "raises");
* ``approximation`` (should be `supported`): "approximately" put before a figure ("by 5 mmHg"
  → "by approximately 5 mmHg");
* ``opposite direction`` (should be refused): the verb put for one of the other direction
  ("reduced" → "increased");
* ``approximation, other figure`` (should be refused): "approximately" and the figure changed
  ("approximately 6 mmHg");
* ``hedge stated as found`` (should be refused), made to defeat v50's "stated as found": a
  hedge put out for "was found to" ("could lower" → "was found to lower").

Reported per model and kind: the share `supported`. The generator draws its words from the
lists below, which are v50's plain words of change: it measures what the reading does on real
sentences, not how many of the words real answers use it knows.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from _report import SECONDS, publish_timed, start_probe
from probe_word_swaps import corpus_abstracts, verdict_of

from spanproof.text.numerics import roundings, rounds_to
from spanproof.verify.scoring import SCORE_MODELS

BEGIN, END = "<!-- rewordings:begin -->", "<!-- rewordings:end -->"
DEFAULT_SEED = 20261208
KINDS = (
    ("same direction", "supported"),
    ("approximation", "supported"),
    ("opposite direction", "refused"),
    ("approximation, other figure", "refused"),
    ("hedge stated as found", "refused"),
)
#: Transitive verbs of change by form, up and down: a word is put for another of its form.
VERBS = {
    "past": (
        ("increased", "elevated", "raised"),
        ("decreased", "reduced", "lowered", "diminished"),
    ),
    "third": (
        ("increases", "elevates", "raises"),
        ("decreases", "reduces", "lowers", "diminishes"),
    ),
    "ing": (("increasing", "elevating", "raising"), ("decreasing", "reducing", "lowering")),
}
_HEDGE = re.compile(r"\b(?:may|might|could) (?=[a-z])")
_FIGURE = re.compile(r"(?<=\s)(\d+(?:\.\d+)?)(?=\s*(?:%|[a-zA-Z]))")


@dataclass(frozen=True)
class Case:
    kind: str
    claim: str
    evidence: str


def reworded(sentence: str, rng: random.Random) -> tuple[str, str] | None:
    """(same direction, opposite direction) of the sentence's first listed verb, or None."""
    for word in re.finditer(r"[A-Za-z]+", sentence):
        text = word.group(0)
        for up, down in VERBS.values():
            for mine, other in ((up, down), (down, up)):
                if text in mine:
                    same = rng.choice([w for w in mine if w != text])
                    opposite = rng.choice(other)
                    a, b = word.span()
                    return sentence[:a] + same + sentence[b:], sentence[:a] + opposite + sentence[
                        b:
                    ]
    return None


def approximated(sentence: str) -> tuple[str, str] | None:
    """(approximately the figure, approximately another figure) of the first figure with a
    unit or a word after it that no bound, sign or "approximately" precedes, or None. The other
    figure is the figure plus one, or plus two where plus one would round it ("approximately
    600" for 599 is the figure, as score model v56 reads it, not another)."""
    for match in _FIGURE.finditer(sentence):
        before = sentence[: match.start()].rstrip().lower()
        if before.endswith(("<", ">", "=", "±", "-", "–", "about", "approximately", "of", "to")):
            continue
        figure = match.group(1)
        other = str(float(figure) + 1) if "." in figure else str(int(figure) + 1)
        [(atom, rounding)] = roundings(["approximately", other]).items() or [("", None)]
        if rounding is not None and rounds_to(float(figure), float(atom), rounding):
            other = str(float(figure) + 2) if "." in figure else str(int(figure) + 2)
        a = match.start()
        rest = sentence[match.end() :]
        return (
            sentence[:a] + "approximately " + figure + rest,
            sentence[:a] + "approximately " + other + rest,
        )
    return None


def build_cases(abstracts: Sequence[list[str]], n: int, seed: int) -> dict[str, list[Case]]:
    rng = random.Random(seed)
    order = list(range(len(abstracts)))
    rng.shuffle(order)
    out: dict[str, list[Case]] = {kind: [] for kind, _ in KINDS}
    for index in order:
        if all(len(cases) >= n for cases in out.values()):
            break
        sentences = abstracts[index]
        if len(sentences) < 4:
            continue
        evidence = " ".join(sentences)
        for raw in sentences:
            sentence = raw.strip()
            if not 60 <= len(sentence) <= 250:
                continue
            pair = reworded(sentence, rng)
            if pair is not None and len(out["same direction"]) < n:
                out["same direction"].append(Case("same direction", pair[0], evidence))
                out["opposite direction"].append(Case("opposite direction", pair[1], evidence))
            hedge = _HEDGE.search(sentence)
            if hedge is not None and len(out["hedge stated as found"]) < n:
                found = sentence[: hedge.start()] + "was found to " + sentence[hedge.end() :]
                out["hedge stated as found"].append(Case("hedge stated as found", found, evidence))
            figures = approximated(sentence)
            if figures is not None and len(out["approximation"]) < n:
                out["approximation"].append(Case("approximation", figures[0], evidence))
                out["approximation, other figure"].append(
                    Case("approximation, other figure", figures[1], evidence)
                )
    return out


def main() -> int:
    run = start_probe(__doc__ or "", models=["v47", "v50"], n=200, seed=DEFAULT_SEED, examples=0)
    if run is None:
        return 2
    args, started, embedder = run.args, run.started, run.embedder
    cases = build_cases(corpus_abstracts(run.root), args.n, args.seed)
    lines = [
        BEGIN,
        "",
        f"Measured by `python scripts/probe_rewordings.py --models {' '.join(args.models)} "
        f"--n {args.n} --seed {args.seed}` on {time.strftime('%Y-%m-%d')} ({SECONDS} s): "
        "sentences of SciFact abstracts with one change, each against its whole abstract.",
        "",
        "| kind | should be | cases | "
        + " | ".join(f"{m} `supported`" for m in args.models)
        + " |",
        "|---|---|---:|" + "---:|" * len(args.models),
    ]
    for kind, should in KINDS:
        row = [kind, should, str(len(cases[kind]))]
        for name in args.models:
            counts: Counter[str] = Counter(
                verdict_of(case, SCORE_MODELS[name], embedder) for case in cases[kind]
            )
            total = max(len(cases[kind]), 1)
            row.append(f"{100 * counts['supported'] / total:.1f} % ({counts['supported']})")
        lines.append("| " + " | ".join(row) + " |")
    publish_timed(lines, started, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
