"""Run the fuzz properties of tests/fuzz/ long, with counts: inputs, outcomes, slowest input.

    .venv/bin/python scripts/fuzz.py --examples 20000            # text and parser properties
    .venv/bin/python scripts/fuzz.py --examples 2000 --only parser:jats
    .venv/bin/python scripts/fuzz.py --api --api-examples 200    # schemathesis, every route
    .venv/bin/python scripts/fuzz.py --memory-mib 4              # peak memory on large inputs

Inputs are random (not derandomized) unless ``--derandomize``. Each property prints how many
inputs ran, the outcomes (``parsed``, ``quarantined:<reason>``, ``ok``…), and the
slowest input. Exit status 1 when any property or API check failed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "fuzz"))

from api_kit import fuzz_api, fuzz_app
from fuzz_kit import TEXT_PROPERTIES
from fuzz_run import count_property
from parser_kit import (
    MEMORY_FACTOR,
    MEMORY_SLACK,
    SECRET,
    large_inputs,
    memory_peak,
    parser_properties,
)


def run_properties(examples: int, only: list[str], derandomize: bool, folder: Path) -> bool:
    secret = folder / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    ok = True
    for prop in [*TEXT_PROPERTIES, *parser_properties(str(secret))]:
        if only and not any(prop.name.startswith(o) for o in only):
            continue
        started = time.perf_counter()
        tally = count_property(prop, examples, derandomize=derandomize)
        outcomes = ", ".join(f"{k}={v}" for k, v in sorted(tally.outcomes.items()))
        print(
            f"{prop.name:28} inputs={tally.runs:6d} slowest={tally.slowest_s * 1000:8.1f} ms "
            f"total={time.perf_counter() - started:6.1f} s  {outcomes}",
            flush=True,
        )
        if tally.failure:
            ok = False
            print(f"  FAILED: {tally.failure}", flush=True)
    return ok


def run_api(examples: int, derandomize: bool, folder: Path) -> bool:
    started = time.perf_counter()
    with fuzz_app(folder) as app:
        tally = fuzz_api(app, examples, derandomize=derandomize)
    for label in sorted(tally.cases):
        statuses = {
            k.rsplit(" ", 1)[1]: v
            for k, v in tally.statuses.items()
            if k.rsplit(" ", 1)[0] == label
        }
        print(f"{label:62} cases={tally.cases[label]:5d} statuses={dict(sorted(statuses.items()))}")
    for label in tally.unsatisfiable:
        print(f"{label:62} (no schema-invalid case exists)")
    operations = len({label.rsplit(" [", 1)[0] for label in tally.cases})
    print(
        f"API: {operations} operations, {sum(tally.cases.values())} cases, "
        f"{len(tally.failures)} failures, {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    for label, failure in tally.failures.items():
        print(f"  FAILED {label}: {failure}")
    return not tally.failures


def run_memory(mib: float) -> bool:
    size = int(mib * 1024 * 1024)
    ok = True
    for name, (parse, raw) in large_inputs(size).items():
        outcome, peak, seconds = memory_peak(parse, raw)
        within = peak <= MEMORY_FACTOR * len(raw) + MEMORY_SLACK
        ok &= within
        print(
            f"memory:{name:22} {len(raw) / 2**20:5.1f} MiB in, peak {peak / 2**20:7.1f} MiB "
            f"({peak / len(raw):4.1f}x) {seconds:6.1f} s  {outcome}{'' if within else '  OVER'}",
            flush=True,
        )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--examples", type=int, default=0, help="inputs per text/parser property")
    parser.add_argument("--only", action="append", default=[], help="property name prefix")
    parser.add_argument("--api", action="store_true", help="run schemathesis over every route")
    parser.add_argument("--api-examples", type=int, default=200, help="cases per operation+mode")
    parser.add_argument("--memory-mib", type=float, default=0, help="large-input size in MiB")
    parser.add_argument("--derandomize", action="store_true", help="the CI's fixed inputs")
    args = parser.parse_args(argv)
    if not (args.examples or args.api or args.memory_mib):
        parser.error("give --examples N, --api and/or --memory-mib M")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.examples:
            ok &= run_properties(args.examples, args.only, args.derandomize, folder)
        if args.api:
            ok &= run_api(args.api_examples, args.derandomize, folder)
        if args.memory_mib:
            ok &= run_memory(args.memory_mib)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
