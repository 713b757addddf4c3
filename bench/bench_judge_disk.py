"""Score model v5 across processes: ``spanproof verify`` run again on the same claims.

    python bench/bench_judge_disk.py [--runs 5] [--write bench/RESULTS.md]

The 10 claims × 64 spans of ``make bench`` (``bench/run.py``: SciFact sentences, or the demo's
evidence when ``../shared/data`` is absent), verified with ``--score-model v5 --json`` by a
fresh ``spanproof`` process each time, in three states of the cache folder:

* **cold**: an empty cache folder (every sentence embedded, every judge batch run);
* **embeddings cached**: the embedding cache filled by an earlier run, the judge's outputs not
  (``judge-outputs.sqlite`` removed before each run): the judge runs, as before the judge's
  outputs were kept on disk;
* **all cached**: both filled: the judge reads its batch outputs from ``judge-outputs.sqlite``
  and runs no model.

Each state runs ``--runs`` times, the three alternating so they see the same machine load; the
median wall time is reported. The verdicts of the three states are compared byte for byte.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _results import write_section  # noqa: E402
from run import sentences  # noqa: E402

LAUNCH = "import sys; from spanproof.cli.main import main; sys.argv[0] = 'spanproof'; main()"
STATES = ("cold", "embeddings cached", "all cached")


def _verify(args: list[str], cache: Path) -> tuple[float, str]:
    env = {**os.environ, "SPANPROOF_EMBEDDER__CACHE_DIR": str(cache)}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", LAUNCH, *args], env=env, capture_output=True, check=False
    )
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"verify failed: {done.stderr.decode()[-500:]}")
    report = json.loads(done.stdout)
    return wall, json.dumps(report["claims"], sort_keys=True)


def measure(runs: int, work: Path) -> dict[str, object]:
    texts = sentences(264)
    claims, evidence = work / "claims.jsonl", work / "evidence.jsonl"
    claims.write_text(
        "".join(json.dumps({"id": f"c{i}", "text": texts[200 + 6 * i]}) + "\n" for i in range(10))
    )
    evidence.write_text(
        "".join(
            json.dumps({"id": f"S{i + 1}", "text": t}) + "\n" for i, t in enumerate(texts[200:264])
        )
    )
    args = ["verify", "--claims", str(claims), "--evidence", str(evidence)]
    args += ["--score-model", "v5", "--json"]
    warm = work / "warm"
    _verify(args, warm)  # fills both caches
    samples: dict[str, list[float]] = {s: [] for s in STATES}
    outputs: dict[str, set[str]] = {s: set() for s in STATES}
    for n in range(runs):
        for state in STATES:
            if state == "cold":
                cache = work / f"cold-{n}"
            elif state == "embeddings cached":
                cache = work / "embeddings-only"
                if not cache.exists():
                    shutil.copytree(warm, cache)
                for suffix in ("", "-wal", "-shm"):  # the database and its WAL files
                    (cache / f"judge-outputs.sqlite{suffix}").unlink(missing_ok=True)
            else:
                cache = warm
            wall, claims_json = _verify(args, cache)
            samples[state].append(wall)
            outputs[state].add(claims_json)
    same = len(set().union(*outputs.values())) == 1
    return {
        "median_s": {s: round(statistics.median(v), 3) for s, v in samples.items()},
        "identical_verdicts": same,
        "cached_file_bytes": (warm / "judge-outputs.sqlite").stat().st_size,
    }


def render(result: dict[str, object], runs: int, seconds: float) -> str:
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    median = result["median_s"]
    assert isinstance(median, dict)
    lines = [
        "## Score model v5 across processes: the judge's outputs on disk",
        "",
        f"`python bench/bench_judge_disk.py --runs {runs} --write bench/RESULTS.md` on {machine}, "
        f"{date.today().isoformat()} ({seconds:.0f} s, load {os.getloadavg()[0]:.1f} at the "
        f"end): `spanproof verify --score-model v5 --json` on the 10 claims × 64 spans of `make "
        "bench`, a fresh process per run, median of "
        f"{runs} runs per state, the states alternating.",
        "",
        "| cache folder | median wall time |",
        "|---|---:|",
    ]
    for state in STATES:
        lines.append(f"| {state} | {median[state]:.3f} s |")
    ratio = median["all cached"] / median["embeddings cached"]
    lines += [
        "",
        f"All cached / embeddings cached: {ratio:.2f}. Verdicts, scores and judge records of "
        f"the three states identical: {'yes' if result['identical_verdicts'] else 'NO'}. "
        f"`judge-outputs.sqlite` after the runs: {result['cached_file_bytes']:,} bytes.",
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--write", type=Path, help="write the section into bench/RESULTS.md")
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        result = measure(args.runs, Path(tmp))
    text = render(result, args.runs, time.perf_counter() - started)
    print(text)
    if args.write:
        write_section(args.write, "judge-disk", text)
    return 0 if result["identical_verdicts"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
