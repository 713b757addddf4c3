"""Geometric fusion of cosine and lexical coverage, the numeric cap and the bands (SPEC §4.4)."""

from __future__ import annotations

import math

BETA = 0.65
GATE_CAP = 0.2
PARTIAL_MIN = 0.50


def clamp01(x: float) -> float:
    """Clamp to [0, 1]; NaN becomes 0 so a broken vector can never read as support."""
    if math.isnan(x):
        return 0.0
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def fuse(cos: float, lex: float, beta: float = BETA) -> float:
    """``clamp01(cos)^β · clamp01(lex)^(1−β)``; β ∈ {0, 1} short-circuit before any power."""
    beta = clamp01(beta)
    cos = clamp01(cos)
    lex = clamp01(lex)
    if beta == 0.0:
        return lex
    if beta == 1.0:
        return cos
    return float(cos**beta * lex ** (1.0 - beta))


def pair_score(cos: float, lex: float, beta: float, numeric_gate_tripped: bool) -> float:
    """The fused score, capped at ``GATE_CAP`` when the numeric gate trips (whole score)."""
    fused = fuse(cos, lex, beta)
    return min(fused, GATE_CAP) if numeric_gate_tripped else fused
