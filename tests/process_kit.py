"""Real child processes for crash tests: run one, SIGKILL it at a marker line, and a corpus."""

from __future__ import annotations

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
) -> list[str]:
    """Run ``args``; with ``kill_after``, SIGKILL the process at the ``count``-th stdout line
    equal to it. Returns the lines read. A run left alone must exit 0; a killed one must have
    been killed (not finished first)."""
    proc = subprocess.Popen(list(args), stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    assert proc.stdout is not None
    seen, lines = 0, []
    for line in proc.stdout:
        lines.append(line.strip())
        if kill_after is not None and line.strip() == kill_after:
            seen += 1
            if seen >= count:
                os.kill(proc.pid, signal.SIGKILL)
                break
    proc.wait(timeout=timeout)
    proc.stdout.close()
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
