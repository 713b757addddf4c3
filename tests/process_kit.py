"""Real child processes for crash tests: run one, SIGKILL it at a marker line, and a corpus."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Sequence
from pathlib import Path


def run_child(
    args: Sequence[str],
    *,
    kill_after: str | None = None,
    count: int = 1,
    timeout: float = 300,
    paced: bool = False,
) -> list[str]:
    """Run ``args``; with ``kill_after``, SIGKILL the process at the ``count``-th stdout line
    equal to it. Returns the lines read. A run left alone must exit 0; a killed one must have
    been killed (not finished first).

    ``paced``: the child reads a line from its stdin before each unit of work, and the parent
    writes one after each ``kill_after`` line it reads (one before the first), so a child can
    never run more than one unit ahead of the parent however slowly the parent reads: the kill
    lands during the unit after the ``count``-th (or just after it), never after the child has
    finished. A child left alone is given every line it asks for (stdin stays open)."""
    proc = subprocess.Popen(
        list(args),
        stdout=subprocess.PIPE,
        stdin=subprocess.PIPE if paced else None,
        text=True,
        env=os.environ.copy(),
    )
    assert proc.stdout is not None

    def go() -> None:
        if paced and proc.stdin is not None:
            with contextlib.suppress(BrokenPipeError):  # the child has finished
                proc.stdin.write("go\n")
                proc.stdin.flush()

    go()
    seen, lines = 0, []
    for line in proc.stdout:
        lines.append(line.strip())
        if line.strip() == kill_after or (paced and kill_after is None and line.strip()):
            seen += 1
            go()  # the next unit of work starts
            if kill_after is not None and seen >= count:
                os.kill(proc.pid, signal.SIGKILL)
                break
    proc.wait(timeout=timeout)
    proc.stdout.close()
    if proc.stdin is not None:
        with contextlib.suppress(BrokenPipeError):  # a "go" the finished child never read
            proc.stdin.close()
    if kill_after is None:
        assert proc.returncode == 0, lines[-5:]
    else:
        assert proc.returncode == -signal.SIGKILL, f"not killed mid-work: {lines[-5:]}"
    return lines


def text_corpus(folder: Path, n: int) -> Path:
    """``n`` small plain-text studies in ``folder`` (two sentences each, with numbers)."""
    folder.mkdir(parents=True)
    for i in range(n):
        (folder / f"doc{i:04d}.txt").write_text(
            f"Study {i}\n\nIn cohort {i}, treatment {i % 7} lowered marker {i % 13} by {i % 50} "
            f"mg/dL over {i % 9 + 1} weeks. A second sentence about cohort {i} follows here.\n",
            encoding="utf-8",
        )
    return folder
