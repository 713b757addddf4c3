"""Command-line start-up, whole process: ``spanproof --help`` and a one-claim ``verify``.

    python bench/bench_startup.py [--runs 5] [--baseline SRC] [--write bench/RESULTS.md]

Each command runs ``--runs`` times as a fresh process; the median wall time (and the median CPU
time, user + system, which a busy machine disturbs less) is reported. ``verify`` runs with an
empty embedding cache each time (cold: the model loads and embeds) and with a warm one.
Processes run as an installed command does, with compiled bytecode (``.pyc``) at hand: the
runs write and reuse it under a temporary ``PYTHONPYCACHEPREFIX`` even where
``PYTHONDONTWRITEBYTECODE`` is set. The warm ``verify`` also runs as earlier measurements did
(``verify, warm cache, no .pyc``): ``PYTHONDONTWRITEBYTECODE`` set and no prefix, so the
installed packages use their bytecode but spanproof's own modules, in a source checkout that
never wrote any, compile in every process.
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


def _env(src: str | None, cache: str, pycache: str | None) -> dict[str, str]:
    env = {**os.environ, "SPANPROOF_EMBEDDER__CACHE_DIR": cache}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPYCACHEPREFIX", None)
    if pycache is None:  # bytecode only where the installation wrote it (site-packages)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env["PYTHONPYCACHEPREFIX"] = pycache
    if src:
        env["PYTHONPATH"] = src
    return env


def measure(runs: int, baseline: str | None, work: Path) -> dict[str, dict[str, dict[str, float]]]:
    claims, evidence = work / "claims.jsonl", work / "evidence.jsonl"
    claims.write_text(json.dumps(CLAIM) + "\n", encoding="utf-8")
    evidence.write_text(json.dumps(EVIDENCE) + "\n", encoding="utf-8")
    verify = ["verify", "--claims", str(claims), "--evidence", str(evidence), "--json"]
    cases = {
        "--help": ["--help"],
        "verify, cold cache": verify,
        "verify, warm cache": verify,
        "verify, warm cache, no .pyc": verify,
    }
    trees = {"now": None, **({"baseline": baseline} if baseline else {})}
    samples: dict[str, dict[str, list[tuple[float, float]]]] = {t: {} for t in trees}
    warm = {t: str(work / f"warm-{t}") for t in trees}
    pycache = str(work / "pycache")
    for tree, src in trees.items():  # fill each warm cache (and the bytecode cache) once
        _once(verify, _env(src, warm[tree], pycache))
        _once(["--help"], _env(src, warm[tree], pycache))
    for n in range(runs):
        for tree, src in trees.items():
            for name, args in cases.items():
                cache = warm[tree] if "warm" in name else str(work / f"cold-{tree}-{name}-{n}")
                pyc = None if "no .pyc" in name else pycache
                samples[tree].setdefault(name, []).append(_once(args, _env(src, cache, pyc)))
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


def render(
    result: dict[str, dict[str, dict[str, float]]], runs: int, baseline: bool, started: float
) -> str:
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    load = os.getloadavg()[0]
    lines = [
        "## Command-line start-up (whole process)",
        "",
        f"Measured by `python bench/bench_startup.py --runs {runs}"
        + (" --baseline /tmp/base/src" if baseline else "")
        + f" --write bench/RESULTS.md` on {machine}, {date.today().isoformat()}; median of "
        f"{runs} fresh processes each, the trees alternating; load average {started:.1f} when it "
        f"started and {load:.1f} when it ended (the machine is shared: CPU time, user + system, "
        "is the steadier number). Bytecode is compiled once and reused, as for an installed "
        "command, except in the `no .pyc` row (spanproof's own modules compiled in every "
        "process, as in earlier measurements). Goals: `--help` ≤ 0.3 s, a one-claim `verify` "
        "≤ 0.8 s.",
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
    lines += ["", _goals(result["now"], started, load), "", SKIPPED]
    lines += ["", "```json", json.dumps(result, indent=1), "```"]
    return "\n".join(lines)


#: What a warm one-claim ``verify`` does not load (tests/e2e/test_cli_startup.py checks it).
SKIPPED = (
    "A warm one-claim `verify` loads no onnxruntime session and no tokenizer (evidence of ASCII "
    "text with at most 254 non-space characters is one window without tokenizing: a word piece "
    "covers at least one such character), reads the model's SHA-256 from `model-hashes.json` "
    "beside the embedding cache instead of hashing the 23 MB file, reads its settings without "
    "pydantic-settings (`spanproof.config` reads the environment and `spanproof.toml` itself), "
    "loads the English Snowball stemmer alone and no rich for `--json`. What is left is mostly "
    "the libraries a verify computes with: pydantic for the settings, numpy, regex, click."
)


def _goals(now: dict[str, dict[str, float]], started: float, load: float) -> str:
    """Each goal against the wall time and the CPU time of this run, and the load behind them."""
    parts = []
    for name, goal in (("--help", 0.3), ("verify, warm cache", 0.8)):
        wall, cpu = now[name]["wall_s"], now[name]["cpu_s"]
        parts.append(
            f"`{name}` (goal ≤ {goal} s): wall {wall:.2f} s, "
            + ("met" if wall <= goal else "not met")
            + f"; CPU {cpu:.2f} s, "
            + ("within" if cpu <= goal else "over")
        )
    busy = max(started, load) > (os.cpu_count() or 1)
    return (
        "Goals in this run: "
        + "; ".join(parts)
        + "."
        + (
            f" With the load average ({started:.1f}, {load:.1f}) above the core count, a "
            "process waits for a core and its wall time exceeds its CPU time: re-run on an "
            "idle machine to check the wall-clock goals."
            if busy
            else ""
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", default=None, help="another tree's src folder")
    parser.add_argument("--write", type=Path, default=None)
    args = parser.parse_args()
    started = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        result = measure(args.runs, args.baseline, Path(tmp))
    body = render(result, args.runs, args.baseline is not None, started)
    print(body)
    if args.write:
        write_section(args.write, "startup", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
