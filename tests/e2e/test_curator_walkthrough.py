"""The README's curator walkthrough runs as written (examples/curator/walkthrough.sh)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_the_walkthrough_script_runs_and_ends_flagged(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "COLUMNS": "200"}  # fmt: skip
    result = subprocess.run(
        ["bash", str(ROOT / "examples" / "curator" / "walkthrough.sh"), str(tmp_path / "c.sqlite")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "requires_expert_review" in out
    assert "verified (approve by Ada)" in out
    assert "approved by Ada" in out
    # The impact table's title wraps where the checkout's path puts it, padded to its width.
    assert "5 flagged" in " ".join(out.split())
    assert "Traceback" not in result.stderr
