"""A bare "Yes." or "No." to a labelled claim asked as a question: is the wrong answer caught?

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_yes_no.py \\
        [--models v52] [--split dev|train] [--form whether|negative|claim] [--direct]
        [--write docs/quality.md]

RAG test sets and chat answers hold short answers: "Is it true that X?" answered "No.". Without
the question such an answer has no claims (outcome ``no_claims``) and passes every
``--fail-on``. With it (:mod:`spanproof.verify.yes_no`), "Yes." is checked as X and "No." as X
turned round (X supported → the "No." ``contradicted``, X contradicted → ``partial``); with
``--direct``, "No." is scored as X negated (:func:`spanproof.verify.proposition.negation_of`),
the reading that was measured and not shipped. Each labelled claim of the four
scientific sets whose gold label is supported or contradicted (``evaluation.devdata``; each
claim against its own evidence) is asked as "Is it true that X?" and answered twice: rightly
("Yes." when its evidence supports it, "No." when it contradicts it) and wrongly. Reported per
set and answer: how many answers became a claim (a "No." needs a negation the rules can build),
and the verdicts of those claims. A wrong answer `supported` is the failure that matters; a
right answer not `supported` sends a person to look.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter

from _report import SECONDS, checker_for, publish_timed, start_split_probe

from spanproof.evaluation.devdata import DEV_SETS, dev_items
from spanproof.services.verification import score_all
from spanproof.verifier import to_evidence
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.scoring import SCORE_MODELS
from spanproof.verify.yes_no import with_answer_claim

DECOMPOSER = RuleBasedDecomposer()
#: How each claim is asked (``--form``): as "Is it true that X?", as its contracted negative,
#: and as a fact-check prompt whose question points to the claim above it.
FORMS = {
    "whether": "Is it true that {claim}?",
    "negative": "Isn't it true that {claim}?",
    "claim": "Claim: {claim}.\nIs this claim supported by the context? Answer yes or no.",
}
VERDICTS = ("supported", "partial", "unsupported", "contradicted")


def main() -> int:
    run = start_split_probe(
        __doc__,
        direct='score a "No." as its negated sentence instead of its proposition turned round',
        forms=list(FORMS),
    )
    if run is None:
        return 2
    args, root, started, embedder = run.args, run.root, run.started, run.embedder
    other = "" if args.form == "whether" else f"-{args.form}"
    tag = f"{args.split}{'-direct' if args.direct else ''}{other}"
    begin, end = f"<!-- yes-no-answers-{tag}:begin -->", f"<!-- yes-no-answers-{tag}:end -->"
    items = [i for i in dev_items(root, args.split) if i.label in ("supported", "contradicted")]
    how = (
        'each "No." scored as its negated sentence (`--direct`, not what ships)'
        if args.direct
        else 'each "No." scored as its proposition turned round (what ships)'
    )
    models = " ".join(args.models)
    command = f"python scripts/probe_yes_no.py --models {models} --split {args.split}"
    command += f" --form {args.form}" if other else ""
    asked = "“" + FORMS[args.form].format(claim="X").replace("\n", " ") + "”"
    lines = [
        begin,
        f"Measured by `{command}{' --direct' if args.direct else ''}` on "
        f"{time.strftime('%Y-%m-%d')} ({SECONDS} s): each claim whose gold label is supported "
        f"or contradicted, asked as {asked} against its own evidence and answered "
        f'"Yes." or "No.", {how}. Checked: how many answers became a claim; then the verdicts '
        "of those. Without the question every one of these answers has no claims (outcome "
        "`no_claims`).",
        "",
        "| model | set | answer | items | checked | `supported` | `partial` | `unsupported` "
        "| `contradicted` |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name in args.models:
        model = SCORE_MODELS[name]
        for dataset in DEV_SETS:
            subset = [i for i in items if i.dataset == dataset]
            kinds = [(k, w) for k in ("right", "wrong") for w in ("Yes.", "No.")]
            rows: dict[tuple[str, str], Counter[str]] = {kind: Counter() for kind in kinds}
            totals = Counter[tuple[str, str]]()
            for item in subset:
                evidence = to_evidence(
                    [{"id": f"S{k}", "text": t} for k, t in enumerate(item.evidence, start=1)]
                )
                question = FORMS[args.form].format(claim=item.claim.rstrip(".?! "))
                for right in ("right", "wrong"):
                    says_yes = (item.label == "supported") == (right == "right")
                    draft = "Yes." if says_yes else "No."
                    kind = (right, draft)
                    totals[kind] += 1
                    claims = with_answer_claim(question, draft, DECOMPOSER.decompose(draft))
                    if args.direct:  # the negated sentence scored as it is
                        claims = [dataclasses.replace(c, negates="") for c in claims]
                    verdicts, _ = score_all(claims, evidence, embedder, model, checker_for(model))
                    if verdicts:
                        rows[kind][verdicts[0].verdict.value] += 1
            for kind in kinds:
                checked = sum(rows[kind].values())
                cells = [
                    f"{rows[kind][v]} ({100 * rows[kind][v] / checked:.1f} %)" if checked else "—"
                    for v in VERDICTS
                ]
                lines.append(
                    f"| {name} | {dataset} | {kind[0]}: {kind[1]} | {totals[kind]} | {checked} | "
                    + " | ".join(cells)
                    + " |"
                )
    publish_timed(lines, started, args.write, begin, end)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
