"""The judge-signal probe (scripts/probe_judge_signal.py): its windows cover the evidence, and its
section lands after fit_combiner.py's and is replaced in place on a second run."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from _report import put_block
from fit_combiner import BEGIN as COMBINER_BEGIN
from fit_combiner import END as COMBINER_END
from probe_judge_signal import BEGIN, END, windows


def _sentences(n: int) -> str:
    return " ".join(f"Sentence number {k} says thing {k}." for k in range(n))


def test_short_passages_are_one_window_and_long_ones_overlap() -> None:
    assert windows([_sentences(3)]) == [_sentences(3)]
    long = windows([_sentences(7)])
    # stride 2 over 7 sentences: starts 0, 2, 4 (the last window holds the tail)
    assert len(long) == 3
    assert long[0].startswith("Sentence number 0") and "number 2" in long[0]
    assert long[-1].startswith("Sentence number 4") and long[-1].endswith("thing 6.")
    covered = " ".join(long)
    assert all(f"number {k} " in covered for k in range(7))
    assert windows(["", _sentences(1)]) == [_sentences(1)]


def test_the_block_goes_after_the_combiner_section_then_is_replaced(tmp_path: Path) -> None:
    doc = tmp_path / "quality.md"
    doc.write_text(f"# Q\n\n{COMBINER_BEGIN}\ncombiner\n{COMBINER_END}\n\n## Next\n")
    put_block(doc, f"{BEGIN}\nfirst\n{END}\n", BEGIN, END, after=COMBINER_END)
    text = doc.read_text()
    assert text.index(COMBINER_END) < text.index("first") < text.index("## Next")
    put_block(doc, f"{BEGIN}\nsecond\n{END}\n", BEGIN, END, after=COMBINER_END)
    text = doc.read_text()
    assert "first" not in text and text.count(BEGIN) == 1
    assert text.index(COMBINER_END) < text.index("second") < text.index("## Next")
