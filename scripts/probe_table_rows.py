"""A finding its source states, written as a row of a Markdown table: read right?

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_table_rows.py \\
        [--models v52] [--n 200] [--seed 20261209] [--examples 3] [--write docs/quality.md]

Chat answers that compare things put them in tables, a change written as a signed figure under
a header that says what changed::

    | Finding                | Change in clinical fractures | Source |
    |------------------------|------------------------------|--------|
    | Alendronate            | -36%                         | [1]    |

Cases: every sentence of the labelled passages in the data folder (SciFact abstracts,
Check-COVID, Citation-Integrity and COVID-Fact evidence) that states a change of something by a
figure ("Alendronate reduced clinical fractures by 36% …": a direction verb, its object, "by",
a number and a unit), up to ``--n`` in a seeded order, one per passage. Each becomes a one-row
table — what the sentence says before the verb; a header naming the change of the verb's
object ("Change in <object>", "Effect on <object>", "Δ <object>", "<object>, change from
baseline", in turn); the figure signed by the verb's direction — checked through
``verify_draft`` (the decomposer, the table reading, the score model) against the whole
passage, in three forms:

* ``right``: the sign the sentence states (should be `supported`);
* ``sign flipped``: the opposite sign (should be refused, best `contradicted`);
* ``figure changed``: the right sign, the figure times 1.5 rounded (should be refused).

``cells joined`` scores the row as the rule-based decomposer reads it on its own ("Alendronate;
-36%"), without its header: what was checked before a table row was read with its header
(:mod:`spanproof.verify.tables`). The subjects are cut by a pattern, so some rows are clumsy
("Compared with placebo, orlistat"). The rows are made from sentences of one shape, which the
header reading turns back into nearly the sentence ("Alendronate decreased clinical fractures by
36%"): real tables name their subjects and columns in words their sources need not use, so
the ``right`` form's share is an upper bound on what the reading keeps; the ``sign flipped``
form is the one that measures what it adds.
"""

from __future__ import annotations

import csv
import json
import random
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from _report import SECONDS, checker_for, listed_examples, publish_timed, start_probe, verdict_cells

from spanproof.core.ports import Embedder
from spanproof.services.verification import score_all, verify_draft
from spanproof.text.sentences import split_sentences
from spanproof.verifier import to_claims, to_evidence
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.scoring import SCORE_MODELS, ScoreModel

BEGIN, END = "<!-- table-rows:begin -->", "<!-- table-rows:end -->"
DEFAULT_SEED = 20261209
DECOMPOSER = RuleBasedDecomposer()
_UP = {"increased", "raised", "elevated", "enhanced", "increases", "raises", "improved"}
#: What the sentence says changed, and by how much: "<subject> reduced <object> by 36%".
_CHANGE = re.compile(
    r"^(?P<subject>[A-Z][^;()]{2,80}?)\s+(?:significantly\s+)?"
    r"(?P<verb>increased|decreased|reduced|lowered|raised|elevated|enhanced|improved|"
    r"increases|decreases|reduces|lowers|raises)\s+"
    r"(?P<object>[a-zA-Z][^,;()]{2,60}?)\s+by\s+(?:approximately\s+|about\s+)?"
    r"(?P<number>\d+(?:\.\d+)?)\s?(?P<unit>%|-fold|mmHg|mm Hg|percent|kg)"
)
FORMS = ("right", "sign flipped", "figure changed")
#: The change column's header, one per case in turn; the minus sign alternates "-" and "−".
HEADERS = ("Change in {}", "Effect on {}", "Δ {}", "{}, change from baseline")


@dataclass(frozen=True, slots=True)
class Case:
    """One sentence's change and the passage it is checked against."""

    subject: str
    object: str
    up: bool
    number: str
    unit: str
    passage: str
    sentence: str
    index: int

    def row(self, form: str) -> str:
        """The one-row table of ``form``."""
        up = not self.up if form == "sign flipped" else self.up
        number = self.number
        if form == "figure changed":
            number = f"{round(float(number) * 1.5 + 1)}"
        unit = "%" if self.unit in ("%", "percent") else f" {self.unit.lstrip('-')}"
        value = f"{'+' if up else '−' if self.index % 2 else '-'}{number}{unit}"
        header = HEADERS[self.index % len(HEADERS)].format(self.object)
        return (
            f"| Finding | {header} | Source |\n|---|---|---|\n| {self.subject} | {value} | [1] |\n"
        )


def passages(root: Path) -> Iterator[str]:
    """The labelled passages of the data folder, each once."""
    seen: set[str] = set()

    def once(text: str) -> Iterator[str]:
        if text and text not in seen:
            seen.add(text)
            yield text

    with (root / "scifact" / "corpus.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            yield from once(" ".join(json.loads(line)["abstract"]))
    for name in ("check_covid", "citation_integrity"):
        for split in ("train", "dev"):
            with (root / name / f"{split}.jsonl").open(encoding="utf-8") as lines:
                for line in lines:
                    yield from once(json.loads(line)["premise"])
    with (root / "covidfact" / "COVIDFACT_dataset.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            yield from once(" ".join(json.loads(line)["evidence"]))
    healthver = root / "healthver" / "healthver_dev.csv"
    if healthver.exists():
        with healthver.open(encoding="utf-8", newline="") as handle:
            for record in csv.DictReader(handle):
                yield from once(record.get("evidence", ""))


def build_cases(root: Path, n: int, seed: int) -> list[Case]:
    """Up to ``n`` cases, one per passage, passages in a seeded order."""
    found: list[Case] = []
    for passage in passages(root):
        for sentence in split_sentences(passage):
            text = passage[sentence.start : sentence.end].strip()
            match = _CHANGE.match(text)
            if match is None:
                continue
            subject = match["subject"].removeprefix("RESULTS ").strip()
            up = match["verb"] in _UP
            case = Case(
                subject,
                match["object"].strip(),
                up,
                match["number"],
                match["unit"],
                passage,
                text,
                0,
            )
            found.append(case)
            break
    random.Random(seed).shuffle(found)
    return [replace(case, index=k) for k, case in enumerate(found[:n])]


def through_tables(case: Case, form: str, model: ScoreModel, embedder: Embedder) -> str:
    """The verdict ``verify_draft`` gives the row (the worst of its claims)."""
    evidence = to_evidence([{"id": "S1", "text": case.passage}])
    report = verify_draft(
        case.row(form), evidence, decomposer=DECOMPOSER, embedder=embedder, model=model
    )
    return worst([c.verdict.value for c in report.claims], report.verification)


def cells_joined(case: Case, form: str, model: ScoreModel, embedder: Embedder) -> str:
    """The verdict of the row's claims as the decomposer reads them on their own."""
    texts = [c.text for c in DECOMPOSER.decompose(case.row(form))]
    evidence = to_evidence([{"id": "S1", "text": case.passage}])
    verdicts, status = score_all(to_claims(texts), evidence, embedder, model, checker_for(model))
    return worst([v.verdict.value for v in verdicts], status)


def worst(verdicts: list[str], status: str) -> str:
    """The case's verdict: `contradicted` if any claim is, `supported` if every one is."""
    if not verdicts:
        return "no claims" if status == "verified" else status
    if "contradicted" in verdicts:
        return "contradicted"
    return "supported" if all(v == "supported" for v in verdicts) else "unsupported"


def _row_text(case: Case) -> str:
    """The right form's header and row, for a listed example."""
    header, _, row = case.row("right").splitlines()
    return f"`{header}` / `{row}`"


READINGS = (("with its header", through_tables), ("cells joined", cells_joined))


def main() -> int:
    run = start_probe(__doc__ or "", models=["v52"], n=200, seed=DEFAULT_SEED, examples=3)
    if run is None:
        return 2
    args, started, embedder = run.args, run.started, run.embedder
    cases = build_cases(run.root, args.n, args.seed)
    models = " ".join(args.models)
    lines = [
        BEGIN,
        "",
        f"Measured by `python scripts/probe_table_rows.py --models {models} --n {args.n} "
        f"--seed {args.seed}` on {time.strftime('%Y-%m-%d')} ({SECONDS} s): {len(cases)} "
        "sentences of the labelled passages that state a change by a figure, each written as "
        "a one-row table and checked against its passage; counts and shares of the verdicts "
        "(a row is `contradicted` if a claim of it is, `supported` if every claim is).",
        "",
        "| model | form | reading | `supported` | `unsupported` | `contradicted` |",
        "|---|---|---|---:|---:|---:|",
    ]
    examples: list[str] = []
    for name in args.models:
        model = SCORE_MODELS[name]
        for form in FORMS:
            for reading, judge in READINGS:
                counts = Counter(judge(case, form, model, embedder) for case in cases)
                cells = verdict_cells(counts, len(cases))
                lines.append(f"| {name} | {form} | {reading} | {' | '.join(cells)} |")
                if name == args.models[0] and reading == "with its header" and form == "right":
                    examples = [f"* `{c.sentence[:140]}` → {_row_text(c)}" for c in cases]
    lines += ["", "Rows made (the first cases, the right form):", ""]
    lines += listed_examples(examples, args.examples)
    publish_timed(lines, started, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
