"""Command-line start-up, whole process: ``spanproof --help`` and a one-claim ``verify``.

    python bench/bench_startup.py [--runs 5] [--baseline SRC] [--write bench/RESULTS.md]

Each command runs ``--runs`` times as a fresh process; the median wall time (and the median CPU
time, user + system, which a busy machine disturbs less) is reported. ``verify`` runs with an
empty embedding cache each time (cold: the model loads and embeds) and with a warm one.
``--baseline SRC`` also times the same commands with another source tree first on the path
(for example ``git archive HEAD src | tar -x -C /tmp/base`` gives ``/tmp/base/src``), run
alternately with the current tree so both see the same machine load.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
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

CLAIM = {"id": "c1", "text": "Daily walking lowered blood pressure."}
EVIDENCE = {"id": "e1", "text": "In the trial, daily walking lowered systolic blood pressure by 5."}
LAUNCH = "import sys; from spanproof.cli.main import main; sys.argv[0] = 'spanproof'; main()"


def _once(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    command = [sys.executable, "-c", LAUNCH, *args]
    done = subprocess.run(command, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{args} failed: {done.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _env(src: str | None, cache: str) -> dict[str, str]:
    env = {**os.environ, "SPANPROOF_EMBEDDER__CACHE_DIR": cache}
    if src:
        env["PYTHONPATH"] = src
    return env


def measure(runs: int, baseline: str | None, work: Path) -> dict[str, dict[str, dict[str, float]]]:
    claims, evidence = work / "claims.jsonl", work / "evidence.jsonl"
    claims.write_text(json.dumps(CLAIM) + "\n", encoding="utf-8")
    evidence.write_text(json.dumps(EVIDENCE) + "\n", encoding="utf-8")
    verify = ["verify", "--claims", str(claims), "--evidence", str(evidence), "--json"]
    cases = {"--help": ["--help"], "verify, cold cache": verify, "verify, warm cache": verify}
    trees = {"now": None, **({"baseline": baseline} if baseline else {})}
    samples: dict[str, dict[str, list[tuple[float, float]]]] = {t: {} for t in trees}
    warm = {t: str(work / f"warm-{t}") for t in trees}
    for tree, src in trees.items():  # fill each warm cache once
        _once(verify, _env(src, warm[tree]))
    for n in range(runs):
        for tree, src in trees.items():
            for name, args in cases.items():
                cache = warm[tree] if "warm" in name else str(work / f"cold-{tree}-{name}-{n}")
                samples[tree].setdefault(name, []).append(_once(args, _env(src, cache)))
    return {
        tree: {
            name: {
                "wall_s": round(statistics.median(w for w, _ in got), 3),
                "cpu_s": round(statistics.median(c for _, c in got), 3),
            }
            for name, got in by_case.items()
        }
        for tree, by_case in samples.items()
    }


def render(result: dict[str, dict[str, dict[str, float]]], runs: int, baseline: bool) -> str:
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    load = os.getloadavg()[0]
    lines = [
        "## Command-line start-up (whole process)",
        "",
        f"Measured by `python bench/bench_startup.py --runs {runs}"
        + (" --baseline /tmp/base/src" if baseline else "")
        + f" --write bench/RESULTS.md` on {machine}, {date.today().isoformat()}; median of "
        f"{runs} fresh processes each; load average {load:.1f} when it ended (the machine is "
        "shared: CPU time, user + system, is the steadier number). Goals: `--help` ≤ 0.3 s, a "
        "one-claim `verify` ≤ 0.8 s.",
        "",
        "| command | wall, now | CPU, now |"
        + (" wall, before | CPU, before |" if baseline else ""),
        "|---|---:|---:|" + ("---:|---:|" if baseline else ""),
    ]
    for name, now in result["now"].items():
        row = f"| `spanproof {name}` | {now['wall_s']:.2f} s | {now['cpu_s']:.2f} s |"
        if baseline:
            before = result["baseline"][name]
            row += f" {before['wall_s']:.2f} s | {before['cpu_s']:.2f} s |"
        lines.append(row)
    lines += ["", "```json", json.dumps(result, indent=1), "```"]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", default=None, help="another tree's src folder")
    parser.add_argument("--write", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = measure(args.runs, args.baseline, Path(tmp))
    body = render(result, args.runs, args.baseline is not None)
    print(body)
    if args.write:
        write_section(args.write, "startup", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
