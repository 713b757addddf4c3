"""A sentence its source states, formatted as chat models format answers: still `supported`?

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_chat_formats.py \\
        [--models v52] [--n 200] [--seed 20261207] [--write docs/quality.md]

Chat models cite and format what they say: "X [1].", "X (Source 1).", "X.¹" with a footnote, a
bold label before it ("**Walking**: X"), a "Sources:" list after it. None of that is a claim.
Each case is a sentence of a SciFact corpus abstract checked against the whole abstract (the
cases of ``probe_attribution_frames.py``, same seed), formatted each way below, decomposed by
the rule-based decomposer and scored; a case is `supported` when it gives at least one claim and
every claim is. ``swap``: the same with one content word swapped for another word of the
abstract (should be refused in every format). The formats are the ones the decomposer's rules
were written for (``rules-v4``), so this measures what the rules do on them, not how many of the
formats real answers use they know. The decomposer's id is printed with the figures; run at an
earlier commit (``PYTHONPATH=<its src>``) it measures that decomposer.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from _report import SECONDS, publish_timed, start_probe
from probe_attribution_frames import DEFAULT_SEED, build_cases, decomposed
from probe_attribution_frames import supported as every_claim_supported
from probe_word_swaps import content_words, corpus_abstracts

from spanproof.core.ports import Embedder
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.scoring import SCORE_MODELS, ScoreModel

BEGIN, END = "<!-- chat-formats:begin -->", "<!-- chat-formats:end -->"
DECOMPOSER = RuleBasedDecomposer()
SOURCES = "\n\n**Sources:**\n- [1] Source document (demo)\n"


def label(sentence: str) -> str:
    """The first content word of four letters or more, capitalised: a label the clause repeats."""
    words = [m.group(0) for m in content_words(sentence)]
    word = next((w for w in words if w.isalpha() and len(w) >= 4), "Finding")
    return word[:1].upper() + word[1:]


#: Each format and how it writes a sentence (without its full stop) as an answer.
FORMATS: dict[str, Callable[[str], str]] = {
    "plain `X.`": lambda s: f"{s}.",
    "numeric marker `X [1].`": lambda s: f"{s} [1].",
    "stacked markers `X [1][2].`": lambda s: f"{s} [1][2].",
    "named source `X (Source 1).`": lambda s: f"{s} (Source 1).",
    "interface marker `X【1】.`": lambda s: f"{s}【1】.",
    "attributed to a marker `According to [1], x.`": lambda s: (
        f"According to [1], {s[:1].lower() + s[1:] if not s[:2].isupper() else s}."
    ),
    "superscript footnote `X.¹` + `¹ …`": lambda s: f"{s}.¹\n\n¹ Source document (demo)\n",
    "bold label `**Label**: X [1].`": lambda s: f"**{label(s)}**: {s} [1].",
    "sources list `X [1].` + `- [1] …`": lambda s: f"{s} [1].{SOURCES}",
    "all of them, in a list item": lambda s: f"1. **{label(s)}**: {s} (Source 1).{SOURCES}",
}


def supported(draft: str, evidence: str, model: ScoreModel, embedder: Embedder) -> bool:
    """Whether ``draft`` gives at least one claim and every one is `supported`."""
    claims = decomposed(draft)
    return bool(claims) and every_claim_supported(claims, evidence, model, embedder)


def main() -> int:
    run = start_probe(__doc__ or "", models=["v52"], n=200, seed=DEFAULT_SEED, examples=0)
    if run is None:
        return 2
    args, started, embedder = run.args, run.started, run.embedder
    cases = build_cases(corpus_abstracts(run.root), args.n, args.seed)
    models = " ".join(args.models)
    lines = [
        BEGIN,
        "",
        f"Measured by `python scripts/probe_chat_formats.py --models {models} --n {args.n} "
        f"--seed {args.seed}` on {time.strftime('%Y-%m-%d')} ({SECONDS} s), decomposer "
        f"`{DECOMPOSER.model_id}`: {len(cases)} sentences of SciFact abstracts, each against "
        "its whole abstract; share `supported` (every claim of the formatted answer), and of "
        "the same with one word swapped.",
        "",
        "| model | format | `supported` | swap `supported` |",
        "|---|---|---:|---:|",
    ]
    for name in args.models:
        model = SCORE_MODELS[name]
        for fmt, write in FORMATS.items():
            kept = sum(supported(write(c.sentence), c.evidence, model, embedder) for c in cases)
            swaps = sum(supported(write(c.swapped), c.evidence, model, embedder) for c in cases)
            lines.append(
                f"| {name} | {fmt} | {100 * kept / len(cases):.1f} % ({kept}) | "
                f"{100 * swaps / len(cases):.1f} % ({swaps}) |"
            )
    publish_timed(lines, started, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
