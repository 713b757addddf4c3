"""A copied sentence framed as the sources' ("According to the study, X"): still `supported`?

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_attribution_frames.py \\
        [--models v47] [--n 200] [--seed 20261207] [--write docs/quality.md]

Chat answers attribute what they say to their sources: "According to the study, X", "The
authors found that X", "X, according to the sources". The frame's words are in no source, so a
verifier that reads them as part of the claim refuses a sentence its source states. Each case is
a sentence of a SciFact corpus abstract (60–250 characters, one claim when decomposed on its
own), checked against the whole abstract, in three forms:

* ``plain``: the sentence as it is (should be `supported`);
* ``framed``: the sentence inside one of ten attribution frames, one per case in turn (should
  be `supported`: the frame only says the sources state it); the last four are trailing frames
  that ``rules-v5`` added ("X, the study found.", "X (as shown in [1]).");
* ``framed swap``: the same with one content word swapped for a word another sentence of the
  abstract writes (``probe_word_swaps.py``'s ``random`` kind; should be refused: cutting the
  frame must not let a changed word through).

Each framed case is read two ways: ``frame kept`` scores the framed sentence as one claim (what
the rule-based decomposer ``rules-v2`` gave, and ``rules-v4`` for the last four frames), and
``cut`` decomposes the framed draft with the current decomposer, which cuts the frame, and
scores its claims (a case is `supported` when every claim is). Reported per model: the share
`supported`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from _report import SECONDS, checker_for, publish_timed, start_probe
from probe_word_swaps import content_words, corpus_abstracts, other_words, swap

from spanproof.core.ports import Embedder
from spanproof.services.verification import score_all
from spanproof.verifier import to_claims, to_evidence
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.scoring import SCORE_MODELS, ScoreModel

BEGIN, END = "<!-- attribution-frames:begin -->", "<!-- attribution-frames:end -->"
DEFAULT_SEED = 20261207
#: The frames, ``{}`` the sentence (its first letter lower-cased when the frame leads).
FRAMES = (
    "According to the study, {}.",
    "Based on the provided context, {}.",
    "The authors found that {}.",
    "As reported in the paper [1], {}.",
    "Research shows that {}.",
    "{}, according to the sources.",
    # rules-v5
    "{}, the study found.",
    "{}, which the authors reported.",
    "{} (as shown in [1]).",
    "{}, researchers said.",
)
DECOMPOSER = RuleBasedDecomposer()


@dataclass(frozen=True)
class Case:
    sentence: str  # without its full stop
    swapped: str  # the same with one word swapped
    frame: str
    evidence: str


def framed(frame: str, claim: str) -> str:
    body = claim if frame.startswith("{}") else claim[:1].lower() + claim[1:]
    if frame.startswith("{}") or not claim[:2].isupper():
        return frame.format(body)
    return frame.format(claim)  # an acronym keeps its capitals


def build_cases(abstracts: Sequence[list[str]], n: int, seed: int) -> list[Case]:
    rng = random.Random(seed)
    order = list(range(len(abstracts)))
    rng.shuffle(order)
    cases: list[Case] = []
    for index in order:
        if len(cases) >= n:
            break
        sentences = abstracts[index]
        if len(sentences) < 4:
            continue
        k = rng.randrange(len(sentences))
        sentence = sentences[k].strip()
        if not 60 <= len(sentence) <= 250 or not sentence.endswith("."):
            continue
        sentence = sentence[:-1]
        words = content_words(sentence)
        alone = DECOMPOSER.decompose(sentence + ".")
        if len(words) < 4 or len(alone) != 1 or alone[0].text != sentence:
            continue
        others = other_words(sentences, k)
        if not others:
            continue
        swapped = swap(sentence, rng.choice(words), rng.choice(others))
        frame = FRAMES[len(cases) % len(FRAMES)]
        cases.append(Case(sentence, swapped, frame, " ".join(sentences)))
    return cases


def supported(claims: list[str], evidence: str, model: ScoreModel, embedder: Embedder) -> bool:
    verdicts, _ = score_all(
        to_claims(claims),
        to_evidence([{"id": "E1", "text": evidence}]),
        embedder,
        model,
        checker_for(model),
    )
    return bool(verdicts) and all(v.verdict.value == "supported" for v in verdicts)


def decomposed(draft: str) -> list[str]:
    return [c.text for c in DECOMPOSER.decompose(draft)]


def main() -> int:
    run = start_probe(__doc__ or "", models=["v47"], n=200, seed=DEFAULT_SEED, examples=0)
    if run is None:
        return 2
    args, started, embedder = run.args, run.started, run.embedder
    cases = build_cases(corpus_abstracts(run.root), args.n, args.seed)
    lines = [
        BEGIN,
        "",
        f"Measured by `python scripts/probe_attribution_frames.py --models "
        f"{' '.join(args.models)} --n {args.n} --seed {args.seed}` on "
        f"{time.strftime('%Y-%m-%d')} ({SECONDS} s): {len(cases)} sentences of SciFact "
        "abstracts, each against its whole abstract; share `supported`.",
        "",
        f"| model | plain | framed, frame kept | framed, cut (`{DECOMPOSER.model_id}`) | framed "
        f"swap, frame kept | framed swap, cut (`{DECOMPOSER.model_id}`) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    by_frame: dict[str, list[int]] = {frame: [0, 0, 0, 0, 0, 0] for frame in FRAMES}
    for name in args.models:
        model = SCORE_MODELS[name]
        counts = [0, 0, 0, 0, 0]
        for case in cases:
            true, false = framed(case.frame, case.sentence), framed(case.frame, case.swapped)
            reads = (
                [case.sentence],
                [true.rstrip(".")],
                decomposed(true),
                [false.rstrip(".")],
                decomposed(false),
            )
            row = by_frame[case.frame]
            for column, claims in enumerate(reads):
                hit = supported(claims, case.evidence, model, embedder)
                counts[column] += hit
                if name == args.models[-1]:
                    row[column] += hit
            if name == args.models[-1]:
                row[5] += 1
        total = max(len(cases), 1)
        cells = " | ".join(f"{100 * c / total:.1f} % ({c})" for c in counts)
        lines.append(f"| {name} | {cells} |")
    lines += [
        "",
        f"By frame, under {args.models[-1]} (`supported` of the frame's cases):",
        "",
        "| frame | cases | plain | framed, frame kept | framed, cut | framed swap, frame kept | "
        "framed swap, cut |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for frame, row in by_frame.items():
        shown = frame.replace("{}", "X")
        lines.append(f"| “{shown}” | {row[5]} | " + " | ".join(str(c) for c in row[:5]) + " |")
    publish_timed(lines, started, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
