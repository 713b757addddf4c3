"""Claims about general text, as an answer writes them: does the verdict follow support?

    python scripts/probe_general_text.py [--models v64 v65] [--set written|held-out] \\
        [--examples 10] [--write docs/quality.md]

The project's labelled sets are biomedical, Wikipedia and climate text; an answer engine is
also asked about software documentation, policies, rulings, timetables, prices, sport and news.
``tests/fixtures/general_claims.jsonl`` is a hand-written set of 50 such passages (one to three
sentences, invented but realistic), each with four claims written as an assistant would write
them: two that the passage supports (``paraphrase``: reworded; ``compression``: a part of it,
often copied closely) and two that it does not, the mistakes a model makes when it summarises
(``entity_swap``, ``number_swap``, ``negation``, ``direction``, ``splice``: two clauses' parts
joined, ``scope``: a condition dropped, ``invented_detail``, ``role_swap``, ``unit_swap``),
labelled `contradicted` or `unsupported`. The set was written without reference to the rules
of any score model, by a writer that had not seen them; it is small (200 claims), so a
difference of one or two claims in a kind is within what its writing decides.

Score models v65 and v66 were written from the failures this set showed, so their figures on
it are not held out. ``--set held-out`` reads ``tests/fixtures/general_claims_heldout.jsonl``
instead: 50 more passages and 200 more claims, of the same kinds and other domains (insurance
terms, release notes, HR handbooks, planning decisions, manuals, course catalogues, elections,
match reports, weather reports, nutrition labels …), written the same way after v65 and v66
were, and read by no rule's author before their figures were taken.

Each claim is checked against its own passage (one evidence item). Reported per kind and model:
how many claims are read as expected (`supported` for the two supported kinds, anything else
for the rest) and the verdicts; then, per model, how many claims are `supported`, the share of
those the passage supports (precision), the share of supported claims `supported` (coverage)
and balanced accuracy. Needs no data folder: the set is in the repository.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from _report import SECONDS, checker_for, model_spec, publish_timed, score_model_of

from spanproof.bootstrap import build_embedder
from spanproof.config import load_settings
from spanproof.core.models import ClaimVerdict
from spanproof.core.ports import Embedder
from spanproof.services.verification import score_all
from spanproof.verifier import to_claims, to_evidence
from spanproof.verify.scoring import ScoreModel

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"
SETS = {
    "written": FIXTURES / "general_claims.jsonl",
    "held-out": FIXTURES / "general_claims_heldout.jsonl",
}
SET = SETS["written"]
MARKERS = {
    "written": ("<!-- general-text:begin -->", "<!-- general-text:end -->"),
    "held-out": ("<!-- general-text-heldout:begin -->", "<!-- general-text-heldout:end -->"),
}
SUPPORTED_KINDS = ("paraphrase", "compression")
VERDICTS = ("supported", "partial", "unsupported", "contradicted")


@dataclass(frozen=True)
class Case:
    passage: int
    domain: str
    evidence: str
    claim: str
    label: str
    kind: str


def load_cases(path: Path = SET) -> list[Case]:
    """The set's claims, each with its passage joined into one evidence text."""
    cases = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            row = json.loads(line)
            if row["label"] not in ("supported", "unsupported", "contradicted"):
                raise ValueError(f"{path}:{n}: unknown label {row['label']!r}")
            cases.append(
                Case(
                    row["passage"],
                    row["domain"],
                    " ".join(row["evidence"]),
                    row["claim"],
                    row["label"],
                    row["kind"],
                )
            )
    return cases


def verdicts(cases: list[Case], model: ScoreModel, embedder: Embedder) -> list[ClaimVerdict]:
    out = []
    checker = checker_for(model)
    for case in cases:
        claims = to_claims([case.claim])
        evidence = to_evidence([{"id": "E1", "text": case.evidence}])
        scored, status = score_all(claims, evidence, embedder, model, checker)
        if status != "verified":
            raise SystemExit(f"passage {case.passage}: {status}")
        out.append(scored[0])
    return out


def as_expected(case: Case, verdict: ClaimVerdict) -> bool:
    return (verdict.verdict.value == "supported") == (case.label == "supported")


def summary(cases: list[Case], said: list[ClaimVerdict]) -> tuple[int, str, str, str]:
    """`supported` count, precision, coverage and balanced accuracy (as table cells)."""
    gold = [c.label == "supported" for c in cases]
    sup = [v.verdict.value == "supported" for v in said]
    right = sum(g and s for g, s in zip(gold, sup, strict=True))
    kept = sum(not g and not s for g, s in zip(gold, sup, strict=True))
    positives, negatives = sum(gold), len(gold) - sum(gold)
    precision = f"{100 * right / sum(sup):.1f} %" if any(sup) else "—"
    coverage = 100 * right / positives
    ba = 50 * (right / positives + kept / negatives)
    return sum(sup), precision, f"{coverage:.1f} %", f"{ba:.1f} %"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    parser.add_argument("--models", nargs="+", type=model_spec, default=["v64", "v65"])
    parser.add_argument("--set", choices=list(SETS), default="written", help="which claims")
    parser.add_argument("--examples", type=int, default=10, help="misread claims listed")
    parser.add_argument("--write", type=Path, help="put the section into this markdown file")
    args = parser.parse_args()
    started = time.perf_counter()
    cases = load_cases(SETS[args.set])
    begin, end = MARKERS[args.set]
    embedder = build_embedder(load_settings())
    models = [score_model_of(spec) for spec in args.models]
    read = {m.name: verdicts(cases, m, embedder) for m in models}
    kinds = list(dict.fromkeys(c.kind for c in cases))
    command = "python scripts/probe_general_text.py --models " + " ".join(args.models)
    if args.set != "written":
        command += f" --set {args.set}"
    lines = [
        begin,
        f"Measured by `{command}` on {time.strftime('%Y-%m-%d')} ({SECONDS} s): "
        f"{len(cases)} claims about {len({c.passage for c in cases})} passages of general "
        f"text ({len({c.domain for c in cases})} kinds of source), each against its passage.",
        "",
        "| kind | expected | claims | model | as expected | "
        + " | ".join(f"`{v}`" for v in VERDICTS)
        + " |",
        "|---|---|---:|---|---:|" + "---:|" * len(VERDICTS),
    ]
    for kind in kinds:
        idx = [k for k, c in enumerate(cases) if c.kind == kind]
        expected = "supported" if kind in SUPPORTED_KINDS else "not supported"
        for m in models:
            said = [read[m.name][k] for k in idx]
            ok = sum(as_expected(cases[k], v) for k, v in zip(idx, said, strict=True))
            counts = Counter(v.verdict.value for v in said)
            cells = " | ".join(str(counts.get(v, 0)) for v in VERDICTS)
            lines.append(
                f"| {kind} | {expected} | {len(idx)} | {m.name} | {ok} ({100 * ok / len(idx):.0f} "
                f"%) | {cells} |"
            )
    lines += [
        "",
        "| model | `supported` | right (precision) | supported claims `supported` (coverage) "
        "| balanced accuracy |",
        "|---|---:|---:|---:|---:|",
    ]
    for m in models:
        said_n, precision, coverage, ba = summary(cases, read[m.name])
        lines.append(f"| {m.name} | {said_n} | {precision} | {coverage} | {ba} |")
    last = models[-1].name
    misread = [(c, v) for c, v in zip(cases, read[last], strict=True) if not as_expected(c, v)]
    if args.examples and misread:
        lines += ["", f"Misread under {last} ({len(misread)}; the first {args.examples}):", ""]
        for c, v in misread[: args.examples]:
            lines.append(f"* {c.kind}, `{v.verdict.value}` ({v.score:.2f}): {c.claim}")
    publish_timed(lines, started, args.write, begin, end)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
