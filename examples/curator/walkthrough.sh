#!/usr/bin/env bash
# The evidence curator's walkthrough (README "Curator walkthrough"), offline on the embedded
# default: ingest → extract → verify → faults → assess → (review in the browser) → retract → impact.
# Usage: examples/curator/walkthrough.sh [DB]   (spanproof on PATH, e.g. .venv/bin)
set -euo pipefail
DB=${1:-curator.sqlite}
rm -f "$DB" "$DB-wal" "$DB-shm"
ids() { python3 -c 'import json, sys; [print(x["id"]) for x in json.load(sys.stdin)["items"]]'; }

spanproof ingest examples/demo/corpus --db "$DB" --no-embed
for source in $(spanproof sources --db "$DB" --json | ids); do
  spanproof records extract "$source" --db "$DB" --json > /dev/null
done
spanproof records verify --all --db "$DB"
spanproof faults run --db "$DB"                      # exits 1 if a mutation slips through

WALKING=$(spanproof sources --db "$DB" --json | ids | grep walking.md)
RECORD=$(spanproof records list --status verified --source "$WALKING" --db "$DB" --json | ids | awk "NR == 1")
ASSESSMENT=$(spanproof artifacts assess "Does daily walking lower blood pressure?" -r "$RECORD" \
  --db "$DB" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["artifact"]["id"])')
spanproof artifacts show "$ASSESSMENT" --db "$DB"     # requires_expert_review: one record only
# The record is the assessment's only evidence: it waits for an expert on the review page
# (spanproof serve --db "$DB", then http://127.0.0.1:8000/review). From the shell instead:
spanproof review list --db "$DB"
spanproof review decide "$RECORD" --approve --reviewer "Ada" --reason "The results sentence says so." --db "$DB"
spanproof artifacts approve "$ASSESSMENT" 1 --approver "Ada" --db "$DB"
spanproof retract "$WALKING" --db "$DB"              # a retraction notice; Crossref ones arrive via ingest
spanproof impact "source:$WALKING:v1" --db "$DB"     # every dependent, flagged
spanproof artifacts show "$ASSESSMENT" --db "$DB"     # flagged; approved v1 unchanged
