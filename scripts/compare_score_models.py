"""Score models side by side on the four scientific sets: `supported` precision, coverage, BA.

    SPANPROOF_DATA_DIR=../shared/data python scripts/compare_score_models.py \\
        [--models v2 v7] [--split dev|train] [--write docs/quality.md]

Every item is one claim against its own evidence (:func:`spanproof.evaluation.devdata.dev_items`;
SciFact: each cited abstract), scored by each model (one that reads the judge, v57, with the
bundled judge; v3's cross-encoder is not compared). Reported per set and model, on the set's
headline labels (SciFact SUPPORT vs CONTRADICT and HealthVer Supports vs Refutes, their neutral
items left out; Citation-Integrity and Check-COVID entailment vs the rest): how many items, how
many are judged `supported`, the share of those whose gold label is supported (precision, goal
≥ 95 %), the share of gold-supported items judged `supported` (coverage), balanced accuracy,
supported vs not, and how many are judged `contradicted` with the share of those whose gold
label is not supported (what ``--fail-on contradicted`` stops a build on). ``--split train``
reads the sets' training items instead (no model here is fitted on them; the judge v57 reads
was trained on them). ``--write`` puts the table between this script's markers, one block per
split.

``--veto T [T ...]`` adds, per set, v2 (or ``--veto-model``) with the trained judge as a veto: a
claim that model judges `supported` stays `supported` only when the judge (reading score model
v5's window for it) gives the evidence an entailment probability of at least ``T`` (score model
v57 is v56 with such a veto at 0.1, but for the faithful near copies the edit check reads). The
judge was trained on the sets' training items, so a veto row on ``--split train`` is not a
held-out figure.

``--contradiction-veto T [T ...]`` adds, per set and per compared model that reads the judge
(v57, v58), that model with a second veto: a claim it judges `supported` stays `supported` only
when the judge's probability that its window contradicts the claim is below ``T``; the value
``over-entailed`` vetoes where that probability exceeds the entailment probability. Read off the
judgements the model records (a faithful near copy, which the judge does not read, is never
vetoed). Measured and not adopted (docs/quality.md, "Score model v58").

``--variant FIELD=VALUE [...]`` adds, after the models, the last of them with those
:class:`~spanproof.verify.scoring.ScoreModel` fields changed (``true``/``false``, numbers), to
measure a reading on or off without a new score model: ``--models v58 --variant
window_polarity=true`` is v58 whose polarity gate also reads the window it quotes (v30's reading).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

from _report import data_root, publish, with_fields
from fit_combiner import headline, score, strict_ba

from spanproof.bootstrap import build_checker_for, build_embedder, build_judge
from spanproof.config import load_settings
from spanproof.core.models import ClaimVerdict
from spanproof.evaluation.devdata import DEV_SETS, DevItem, dev_items
from spanproof.verify.scoring import SCORE_MODELS, ScoreModel


def row(name: str, model: str, items: Sequence[DevItem], supported: Sequence[bool]) -> str:
    gold = [it.label == "supported" for it in items]
    said = sum(supported)
    right = sum(g and s for g, s in zip(gold, supported, strict=True))
    precision = f"{100 * right / said:.1f}" if said else "—"
    coverage = f"{100 * right / sum(gold):.1f}" if any(gold) else "—"
    ba = strict_ba(items, supported)
    return (
        f"| {name} | {model} | {len(items)} | {said} | {precision} | {coverage} | {100 * ba:.1f} |"
    )


def variant_of(
    model: ScoreModel, changes: Sequence[str], parser: argparse.ArgumentParser
) -> ScoreModel:
    """``model`` with the ``FIELD=VALUE`` changes (:func:`_report.with_fields`), named
    ``<model>+<changes>``; a bad change is a usage error."""
    try:
        return with_fields(model, changes)
    except ValueError as exc:
        parser.error(f"--variant: {exc}")


def _floor(value: str, parser: argparse.ArgumentParser) -> float | None:
    """A ``--contradiction-veto`` value: a probability, or None for ``over-entailed``."""
    if value == "over-entailed":
        return None
    try:
        floor = float(value)
    except ValueError:
        parser.error(f"--contradiction-veto takes probabilities or 'over-entailed', not {value!r}")
    if not 0.0 <= floor <= 1.0:
        parser.error(f"--contradiction-veto: {value} is not a probability")
    return floor


def _floor_text(floor: float | None) -> str:
    return "P(contradicted) > P(entailed)" if floor is None else f"P(contradicted) ≥ {floor:g}"


def _doubted(verdict: ClaimVerdict, floor: float | None) -> bool:
    """Whether the judge, as ``verdict`` records it, reads its window as contradicting the
    claim at ``floor`` (:func:`_floor`); False where the judge did not read the claim."""
    if verdict.judge is None:
        return False
    entailed, contradicted = verdict.judge.probabilities[0], verdict.judge.probabilities[1]
    return contradicted > entailed if floor is None else contradicted >= floor


def refuted_cells(items: Sequence[DevItem], contradicted: Sequence[bool] | None) -> str:
    """The `contradicted` count and the share of them whose gold label is not supported, as
    two more cells of a :func:`row` ("—" for a veto row, which judges supported or not)."""
    if contradicted is None:
        return " — | — |"
    said = sum(contradicted)
    wrong = sum(c and it.label == "supported" for it, c in zip(items, contradicted, strict=True))
    right = f"{100 * (said - wrong) / said:.1f}" if said else "—"
    return f" {said} | {right} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", default=["v2", "v7"], choices=list(SCORE_MODELS))
    parser.add_argument("--split", choices=("dev", "train"), default="dev")
    parser.add_argument("--write", type=Path, help="put the table into this markdown file")
    parser.add_argument(
        "--veto",
        nargs="+",
        type=float,
        default=[],
        metavar="T",
        help="add v2 (or --veto-model) with the judge's veto at each entailment probability T",
    )
    parser.add_argument(
        "--veto-model",
        default="v2",
        choices=[m for m, model in SCORE_MODELS.items() if not model.uses_checker],
        help="the model the --veto rows veto (default: v2)",
    )
    parser.add_argument(
        "--contradiction-veto",
        nargs="+",
        default=[],
        metavar="T",
        help="add each judge-reading model with a veto where the judge's P(contradicted) ≥ T "
        "(or, for 'over-entailed', exceeds P(entailed))",
    )
    parser.add_argument(
        "--variant",
        nargs="+",
        default=[],
        metavar="FIELD=VALUE",
        help="add the last model with these score-model fields changed",
    )
    args = parser.parse_args()
    floors = [_floor(t, parser) for t in args.contradiction_veto]
    root = data_root()
    if root is None:
        return 2
    models = [SCORE_MODELS[m] for m in args.models]
    if args.variant:
        models.append(variant_of(models[-1], args.variant, parser))
    if any(m.uses_checker and not m.reads_judge for m in models):
        parser.error("compare models that need no cross-encoder (not v3)")
    embedder = build_embedder(load_settings())
    judge = build_judge() if args.veto else None
    checkers = {m.name: build_checker_for(m) for m in models}
    items = [it for it in dev_items(root, args.split) if headline(it)]
    started = time.perf_counter()
    lines = []
    for name in DEV_SETS:
        subset = [it for it in items if it.dataset == name]
        said: dict[str, list[bool]] = {}
        for model in models:
            verdicts = score(subset, model, checkers[model.name], embedder)
            said[model.name] = [v.verdict.value == "supported" for v in verdicts]
            refuted = [v.verdict.value == "contradicted" for v in verdicts]
            lines.append(
                row(name, model.name, subset, said[model.name]) + refuted_cells(subset, refuted)
            )
            if model.reads_judge:
                for floor in floors:
                    kept = [
                        s and not _doubted(v, floor)
                        for s, v in zip(said[model.name], verdicts, strict=True)
                    ]
                    label = f"{model.name} + contradiction veto ({_floor_text(floor)})"
                    lines.append(row(name, label, subset, kept) + refuted_cells(subset, None))
        if judge is not None:
            base = args.veto_model
            if base not in said:
                verdicts = score(subset, SCORE_MODELS[base], None, embedder)
                said[base] = [v.verdict.value == "supported" for v in verdicts]
            read = score(subset, SCORE_MODELS["v5"], judge, embedder)
            entailed = [v.judge.probabilities[0] if v.judge else 0.0 for v in read]
            for t in args.veto:
                kept = [s and p >= t for s, p in zip(said[base], entailed, strict=True)]
                vetoed = row(name, f"{base} + judge veto (P(entailed) ≥ {t:g})", subset, kept)
                lines.append(vetoed + refuted_cells(subset, None))
    begin = f"<!-- score-models-{args.split}:begin -->"
    end = f"<!-- score-models-{args.split}:end -->"
    command = (
        f"python scripts/compare_score_models.py --models {' '.join(args.models)} "
        f"--split {args.split}"
        + (f" --veto {' '.join(f'{t:g}' for t in args.veto)}" if args.veto else "")
        + (f" --veto-model {args.veto_model}" if args.veto and args.veto_model != "v2" else "")
        + (
            f" --contradiction-veto {' '.join(args.contradiction_veto)}"
            if args.contradiction_veto
            else ""
        )
        + (f" --variant {' '.join(args.variant)}" if args.variant else "")
    )
    block = "\n".join(
        [
            begin,
            f"Measured by `{command}` on {time.strftime('%Y-%m-%d')} "
            f"({time.perf_counter() - started:.0f} s): the {args.split} items of each set, each "
            "claim against its own evidence, headline labels (see the script's docstring).",
            "",
            "| set | model | items | `supported` | precision % | coverage % | BA % "
            "| `contradicted` | `contradicted` right % |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
            *lines,
            end,
        ]
    )
    publish(block, args.write, begin, end)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
