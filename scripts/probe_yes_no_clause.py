"""A "Yes," or "No," followed by the sentence of the source it rests on: is the wrong one caught?

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_yes_no_clause.py \\
        [--models v52] [--split dev|train] [--write docs/quality.md]

A chat model asked "Is it true that X?" often answers with the word and the finding it rests on:
"No, <the abstract's sentence>." The sentence is the source's own, so it is supported whatever
the word says; what can be wrong is the word. Each SciFact claim of the split whose cited
abstract supports or contradicts it (``evaluation.devdata``; the claim against that abstract) is
asked as "Is it true that X?" and answered twice with the abstract's first rationale sentence
after the word: rightly ("Yes, …" when the abstract supports X, "No, …" when it contradicts
it) and wrongly. Reported per answer: the answers' outcomes — ``all_supported`` (what
``--fail-on unsupported`` passes), ``contradicted`` (what ``--fail-on contradicted`` stops) and
the rest — and how many answers had the word read as a claim (``spanproof.verify.yes_no``).
Only SciFact marks the sentences a label rests on, so only SciFact is read.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

from _report import SECONDS, checker_for, publish_timed, start_split_probe

from spanproof.core.models import outcome_of
from spanproof.evaluation.devdata import is_dev_group, scifact_claims, scifact_corpus
from spanproof.services.verification import score_all
from spanproof.verifier import to_evidence
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.scoring import SCORE_MODELS
from spanproof.verify.yes_no import with_answer_claim

DECOMPOSER = RuleBasedDecomposer()
LABELS = {"SUPPORT": True, "CONTRADICT": False}


def _clause(sentence: str) -> str:
    """``sentence`` as it follows "Yes, ": its first letter in lower case unless the first
    word is a name or an acronym ("We found" → "we found", "IL-6 rose" stays)."""
    text = " ".join(sentence.split()).rstrip(". ")
    first = text.split(" ", 1)[0]
    if first[:1].isupper() and first[1:].islower() and first.isalpha():
        text = text[0].lower() + text[1:]
    return f"{text}."


def cases(root: Path, split: str) -> list[tuple[str, str, str, bool]]:
    """(claim, rationale sentence, abstract, whether the abstract supports the claim) for the
    split's SciFact claims with a SUPPORT or CONTRADICT rationale, one per claim and cited
    abstract."""
    corpus = scifact_corpus(root)
    out = []
    for claim in scifact_claims(root):
        if is_dev_group(f"scifact:{claim.id}") != (split == "dev"):
            continue
        for doc_id in sorted(claim.evidence):
            label, sentences = claim.evidence[doc_id][0]
            abstract = corpus.get(doc_id, {}).get("abstract", [])
            if label in LABELS and sentences and abstract:
                text = " ".join(" ".join(abstract).split())
                claim_text = " ".join(claim.claim.split())
                out.append((claim_text, abstract[sentences[0]], text, LABELS[label]))
    return out


def main() -> int:
    run = start_split_probe(__doc__)
    if run is None:
        return 2
    args, root, started, embedder = run.args, run.root, run.started, run.embedder
    begin = f"<!-- yes-no-clause-{args.split}:begin -->"
    end = f"<!-- yes-no-clause-{args.split}:end -->"
    found = cases(root, args.split)
    models = " ".join(args.models)
    lines = [
        begin,
        f"Measured by `python scripts/probe_yes_no_clause.py --models {models} --split "
        f"{args.split}` on {time.strftime('%Y-%m-%d')} ({SECONDS} s): SciFact claims of the "
        f'{args.split} split asked as "Is it true that X?" of the abstract they cite (the whole '
        'abstract the evidence) and answered "Yes, <the abstract\'s first rationale sentence>." '
        'or "No, <…>.", each claim once rightly and once wrongly. Word read: answers whose word '
        "became a claim.",
        "",
        "| model | answer | answers | word read | `all_supported` | `contradicted` | other |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for name in args.models:
        model = SCORE_MODELS[name]
        read: Counter[tuple[str, str]] = Counter()
        outcomes: dict[tuple[str, str], Counter[str]] = {}
        for claim, sentence, abstract, supports in found:
            evidence = to_evidence([{"id": "S1", "text": abstract}])
            question = f"Is it true that {claim.rstrip('.?! ')}?"
            for right in ("right", "wrong"):
                says_yes = supports == (right == "right")
                kind = (right, "Yes, …" if says_yes else "No, …")
                draft = f"{'Yes' if says_yes else 'No'}, {_clause(sentence)}"
                claims = with_answer_claim(question, draft, DECOMPOSER.decompose(draft))
                read[kind] += sum(1 for c in claims if c.draft_span and c.draft_span[0] == 0)
                verdicts, _ = score_all(claims, evidence, embedder, model, checker_for(model))
                outcome = outcome_of("verified", [v.verdict.value for v in verdicts]).value
                outcomes.setdefault(kind, Counter())[outcome] += 1
        for kind in sorted(outcomes):
            n = sum(outcomes[kind].values())
            counts = outcomes[kind]
            other = n - counts["all_supported"] - counts["contradicted"]
            lines.append(
                f"| {name} | {kind[0]}: {kind[1]} | {n} | {read[kind]} | "
                + " | ".join(
                    f"{k} ({100 * k / n:.1f} %)"
                    for k in (counts["all_supported"], counts["contradicted"], other)
                )
                + " |"
            )
    publish_timed(lines, started, args.write, begin, end)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
