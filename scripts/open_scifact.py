"""SciFact's open task through ``spanproof ask``: find the evidence in the whole corpus, then label
the claim; write docs/quality.md's section.

    python scripts/open_scifact.py --db scifact.sqlite --limit 200 --json \\
        --write docs/quality.md

Each SciFact train claim with a label (SUPPORT or CONTRADICT; the claims without evidence have
no label to score) is asked, as a statement, of a store holding the whole SciFact corpus
(5,183 abstracts) through the same engine as ``spanproof ask`` (the configured score model, the
bundled embedder, the extractive generator; no traces are written into the store). Measured:

* **label accuracy**: the proposition's verdict equals the gold label (``supported`` for
  SUPPORT, ``contradicted`` for CONTRADICT; ``unsupported`` is wrong for both);
* **gold abstract among the evidence**: an abstract the claim's rationales come from has a span
  in the plan (the evidence the verdict is drawn from); reported beside it, how often one is
  shown at all: in the plan, or among the closest sources an abstention lists instead of a plan;
* the gold abstract holds the proposition's best span; how often the question is recognised as a
  proposition; ``ask`` latency.

``--limit N`` takes a seeded sample of N labelled claims (seed 20261201). When ``--db`` does not
exist the corpus is ingested and embedded into it first, and the build time is reported.
``--subset K`` builds a smaller store instead (in a temporary folder; ``--db`` is not used): the
gold abstracts of the sampled claims plus K other abstracts drawn with the same seed, for
machines where embedding all 12,326 chunks of the corpus takes too long; the report says so.
``--split dev`` keeps the claims of the claim-level development split only (the ~15 % of SciFact
train claims the judge of score model v5 was not trained on; ``evaluation.devdata``).
``--no-relevance`` plans without the relevance floor (to tell retrieval misses from spans the
floor dropped); ``--no-gate`` answers without the answerability gate (whose abstentions empty
the plan).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

SEED = 20261201
BEGIN, END = "<!-- open-scifact:begin -->", "<!-- open-scifact:end -->"
GOLD = {"SUPPORT": "supported", "CONTRADICT": "contradicted"}


def build_store(db: Path, corpus: Path) -> dict[str, float]:
    """Ingest and embed the SciFact corpus into ``db``; the seconds each step took."""
    from spanproof.bootstrap import build_embedder, build_parser, build_store
    from spanproof.config import load_settings
    from spanproof.ingest.files import iter_path
    from spanproof.services.ingestion import embed_pending, ingest

    settings = load_settings()
    store = build_store(settings, str(db))
    try:
        parse = build_parser()
        started = time.perf_counter()
        for source_id, fetched in iter_path(corpus):
            ingest(store, fetched, source_id, parse)
        ingested = time.perf_counter() - started
        embedder = build_embedder(settings)
        assert embedder is not None
        started = time.perf_counter()
        embed_pending(store, embedder)
        embedded = time.perf_counter() - started
    finally:
        store.close()
    return {"ingest_s": round(ingested, 1), "embed_s": round(embedded, 1)}


def write_subset(
    root: Path, claims: list[tuple[int, str, str, set[str]]], k: int, out: Path
) -> int:
    """A corpus JSONL of the claims' gold abstracts and ``k`` seeded others; how many abstracts."""
    gold = {int(s.split(":", 1)[1]) for *_, docs in claims for s in docs}
    lines = (root / "scifact" / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    ids = [int(json.loads(line)["doc_id"]) for line in lines if line.strip()]
    others = random.Random(SEED).sample(sorted(set(ids) - gold), k)
    keep = gold | set(others)
    chosen = [line for line, doc in zip(lines, ids, strict=True) if doc in keep]
    out.write_text("\n".join(chosen) + "\n", encoding="utf-8")
    return len(chosen)


def sample(
    root: Path, limit: int | None, split: str = "all"
) -> list[tuple[int, str, str, set[str]]]:
    """(id, claim, gold label, gold source ids) of the labelled claims, seeded sample."""
    from spanproof.evaluation.devdata import is_dev_group, scifact_claims

    labelled = []
    for claim in scifact_claims(root):
        if split == "dev" and not is_dev_group(f"scifact:{claim.id}"):
            continue
        labels = claim.labels
        if len(labels) != 1:
            continue  # no evidence (no label) or, rarely, mixed labels
        gold = {f"scifact:{doc}" for doc in claim.evidence}
        labelled.append((claim.id, claim.claim, next(iter(labels)), gold))
    if limit is not None and limit < len(labelled):
        labelled = sorted(random.Random(SEED).sample(labelled, limit))
    return labelled


def evaluate(
    db: Path,
    claims: list[tuple[int, str, str, set[str]]],
    *,
    relevance: bool = True,
    gate: bool = True,
    read_sources: int | None = None,
) -> dict[str, Any]:
    from spanproof.bootstrap import build_engine
    from spanproof.config import load_settings

    engine = build_engine(load_settings(), str(db))
    engine.traces = None  # measure without growing the cached store's trace chain
    if read_sources is not None:
        engine.read_sources = read_sources
    if not relevance and hasattr(engine.planner, "relevance"):
        engine.planner.relevance = None
    if not gate:
        engine.answerability = None
    rows: list[dict[str, Any]] = []
    try:
        for n, (ident, text, label, gold) in enumerate(claims, start=1):
            started = time.perf_counter()
            answer = engine.ask(text)
            seconds = time.perf_counter() - started
            check = answer.proposition
            planned = {s.source.get("source_id") for s in answer.plan.spans}
            closest = {s.source.get("source_id") for s in answer.plan.closest}
            best_source = (check.source or {}).get("source_id") if check else None
            # An answer that leads with "Supported by [S1]: …" or "Contradicted by [S1]: …".
            verdict = check.verdict.value if check is not None and check.verdict else None
            lead = verdict in ("supported", "contradicted") and check is not None and check.marker
            rows.append(
                {
                    "id": ident,
                    "label": label,
                    "proposition": check is not None,
                    "verdict": verdict,
                    "score": check.result.score if check and check.result else None,
                    "gold_in_plan": bool(gold & planned),
                    "gold_shown": bool(gold & (planned | closest)),
                    "best_in_gold": best_source in gold,
                    "lead": bool(lead),
                    "lead_no_finding": bool(lead)
                    and check is not None
                    and not check.states_finding,
                    "seconds": seconds,
                }
            )
            if n % 25 == 0:
                print(f"{n}/{len(claims)}", file=sys.stderr, flush=True)
        models = dict(answer.models) if claims else {}
    finally:
        engine.store.close()
    return summarise(rows, models)


def summarise(rows: list[dict[str, Any]], models: dict[str, str]) -> dict[str, Any]:
    def share(items: list[dict[str, Any]], key: str) -> float:
        return round(sum(bool(r[key]) for r in items) / len(items), 3) if items else 0.0

    by_label: dict[str, Any] = {}
    for label, verdict in GOLD.items():
        items = [r for r in rows if r["label"] == label]
        by_label[label] = {
            "claims": len(items),
            "verdicts": dict(
                Counter(r["verdict"] or "not recognised" for r in items).most_common()
            ),
            "accuracy": round(sum(r["verdict"] == verdict for r in items) / len(items), 3)
            if items
            else 0.0,
            "gold_in_plan": share(items, "gold_in_plan"),
        }
    in_plan = [r for r in rows if r["gold_in_plan"]]
    times = [r["seconds"] for r in rows]
    return {
        "date": time.strftime("%Y-%m-%d"),
        "claims": len(rows),
        "score_model": models.get("score_model", ""),
        "models": models,
        "recognised_as_proposition": share(rows, "proposition"),
        "label_accuracy": round(sum(r["verdict"] == GOLD[r["label"]] for r in rows) / len(rows), 3)
        if rows
        else 0.0,
        "label_accuracy_when_gold_in_plan": round(
            sum(r["verdict"] == GOLD[r["label"]] for r in in_plan) / len(in_plan), 3
        )
        if in_plan
        else 0.0,
        "gold_in_plan": share(rows, "gold_in_plan"),
        "gold_shown": share(rows, "gold_shown"),
        "best_span_in_gold": share(rows, "best_in_gold"),
        "leads": sum(bool(r.get("lead")) for r in rows),
        "leads_no_finding": sum(bool(r.get("lead_no_finding")) for r in rows),
        # how often each kind of lead is right (its verdict is the gold label)
        "leads_no_finding_right": sum(
            bool(r.get("lead_no_finding")) and r["verdict"] == GOLD[r["label"]] for r in rows
        ),
        "leads_finding_right": sum(
            bool(r.get("lead"))
            and not r.get("lead_no_finding")
            and r["verdict"] == GOLD[r["label"]]
            for r in rows
        ),
        "by_label": by_label,
        "ask_median_s": round(statistics.median(times), 3) if times else 0.0,
        "ask_p95_s": round(sorted(times)[int(0.95 * (len(times) - 1))], 3) if times else 0.0,
    }


def render(r: dict[str, Any], command: str, build: dict[str, float] | None) -> str:
    pct = lambda x: f"{100 * x:.1f} %"  # noqa: E731
    s, c = r["by_label"]["SUPPORT"], r["by_label"]["CONTRADICT"]
    store = (
        "the whole SciFact corpus (5,183 abstracts)"
        if r["abstracts"] >= 5183
        else f"{r['abstracts']:,} SciFact abstracts (the sampled claims' gold abstracts and a "
        f"seeded sample of the others; not the whole corpus of 5,183, so retrieval here is "
        "easier than the goal's)"
    )
    lines = [
        BEGIN,
        "## Open SciFact: propositions checked against the whole store (issue 15, item 4)",
        "",
        f"Measured by `{command}` on {r['date']}: {r['claims']} SciFact train claims with a "
        f"label (SUPPORT {s['claims']}, CONTRADICT {c['claims']}; a seeded sample, seed {SEED}, "
        "when `--limit` is below the 505 labelled claims), each asked as a statement through "
        f"the `spanproof ask` engine of a SQLite store holding {store}, score model "
        f"{r['score_model']}, bundled MiniLM embedder, extractive "
        "generator. The verdict is the proposition's (`supported` | `contradicted` | "
        "`unsupported`) against the plan, and for a reversal the plan misses against the whole "
        "text of its three most relevant sources; `unsupported` counts as wrong for both "
        "labels."
        + (
            " Claims: the development split only (held out from the judge's training)."
            if r["split"] == "dev"
            else ""
        )
        + ("" if r["relevance_floor"] else " Planned without the relevance floor.")
        + ("" if r.get("answerability_gate", True) else " Without the answerability gate."),
        "",
        "| measure | value | goal |",
        "|---|---:|---:|",
        f"| gold abstract among the evidence (a span of it in the plan) | "
        f"{pct(r['gold_in_plan'])} | ≥ 90 % |",
        f"| gold abstract shown: in the plan, or among the closest sources an abstention lists | "
        f"{pct(r['gold_shown'])} | |",
        f"| label accuracy (verdict = gold label) | {r['label_accuracy']:.3f} | ≥ 0.80 |",
        f"| label accuracy where the gold abstract is in the plan | "
        f"{r['label_accuracy_when_gold_in_plan']:.3f} | |",
        f"| SUPPORT claims judged `supported` | {s['accuracy']:.3f} | |",
        f"| CONTRADICT claims judged `contradicted` | {c['accuracy']:.3f} | |",
        f"| best span from a gold abstract | {pct(r['best_span_in_gold'])} | |",
        f"| claims recognised as propositions | {pct(r['recognised_as_proposition'])} | |",
        f"| leads (“Supported by” / “Contradicted by”) quoting a sentence that states no finding "
        f"(an aim, a method; the lead says so) | {r['leads_no_finding']} of {r['leads']} | |",
        f"| leads right (verdict = gold label): quoting no finding / quoting a finding | "
        f"{r.get('leads_no_finding_right', 0)} of {r['leads_no_finding']} / "
        f"{r.get('leads_finding_right', 0)} of {r['leads'] - r['leads_no_finding']} | |",
        f"| `ask` latency, median / p95 | {r['ask_median_s']} s / {r['ask_p95_s']} s | |",
        "",
        f"Verdicts of SUPPORT claims: {s['verdicts']}; of CONTRADICT claims: {c['verdicts']}.",
    ]
    if build is not None:
        lines += [
            "",
            f"Building the store (ingest {build['ingest_s']} s, embedding {build['embed_s']} s) "
            "is not part of the run above.",
        ]
    lines += ["", END]
    return "\n".join(lines) + "\n"


def write_section(path: Path, text: str) -> None:
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if BEGIN in old and END in old:
        before, rest = old.split(BEGIN, 1)
        after = rest.split(END, 1)[1].lstrip("\n")
        new = before + text + ("\n" + after if after else "")
    else:
        new = old.rstrip("\n") + "\n\n" + text
    path.write_text(new, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--db",
        type=Path,
        default=Path("scifact.sqlite"),
        help="the SciFact store (built if absent)",
    )
    parser.add_argument("--limit", type=int, default=None, help="a seeded sample of N claims")
    parser.add_argument(
        "--subset", type=int, default=None, help="a store of the gold abstracts + K others"
    )
    parser.add_argument("--split", choices=("all", "dev"), default="all")
    parser.add_argument("--no-relevance", action="store_true", help="plan without the floor")
    parser.add_argument("--no-gate", action="store_true", help="without the answerability gate")
    parser.add_argument("--score-model", default=None, help="e.g. v5 (default: the configured)")
    parser.add_argument(
        "--read-sources",
        type=int,
        default=None,
        metavar="K",
        help="read a proposition against its plan's K most relevant sources in full, for a "
        "reversal (default: the engine's, 3; 0: the plan's spans alone)",
    )
    parser.add_argument("--json", action="store_true", help="print the raw results as JSON")
    parser.add_argument("--write", type=Path, help="write the section into this markdown file")
    args = parser.parse_args()
    from spanproof.evaluation.devdata import data_dir

    root = data_dir()
    if root is None:
        print("error: ../shared/data not found (set SPANPROOF_DATA_DIR)", file=sys.stderr)
        return 2
    if args.score_model:
        os.environ["SPANPROOF_VERIFY__SCORE_MODEL"] = args.score_model
    build = None
    claims = sample(root, args.limit, args.split)
    relevance = not args.no_relevance
    if args.subset is not None:
        with tempfile.TemporaryDirectory() as tmp:
            corpus, db = Path(tmp) / "corpus.jsonl", Path(tmp) / "subset.sqlite"
            abstracts = write_subset(root, claims, args.subset, corpus)
            build = build_store(db, corpus)
            result = evaluate(
                db,
                claims,
                relevance=relevance,
                gate=not args.no_gate,
                read_sources=args.read_sources,
            )
    else:
        abstracts = 5183
        if not args.db.exists():
            build = build_store(args.db, root / "scifact" / "corpus.jsonl")
        result = evaluate(
            args.db,
            claims,
            relevance=relevance,
            gate=not args.no_gate,
            read_sources=args.read_sources,
        )
    result["abstracts"] = abstracts
    result["split"] = args.split
    result["relevance_floor"] = relevance
    result["answerability_gate"] = not args.no_gate
    result["read_sources"] = args.read_sources
    if build is not None:
        result["build"] = build
    command = (
        "python scripts/open_scifact.py --db <store>"
        + "".join(
            f" {flag} {value}"
            for flag, value in (
                ("--limit", args.limit),
                ("--subset", args.subset),
                ("--split", args.split if args.split != "all" else None),
                ("--score-model", args.score_model),
            )
            if value
        )
        + (f" --read-sources {args.read_sources}" if args.read_sources is not None else "")
        + (" --no-relevance" if args.no_relevance else "")
        + (" --no-gate" if args.no_gate else "")
    )
    text = render(result, command, build)
    print(json.dumps(result, indent=1) if args.json else text)
    if args.write:
        write_section(args.write, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
