"""How fast the engine runs on this machine (``spanproof bench``; ``make bench`` reuses the timing).

Medians of repeated runs, and ratios measured side by side in one run (the two sides
interleaved, so a machine that slows down part way slows both). Pure of adapters: the embedders,
the reference embedding and the checker are passed in (the CLI builds them through
:mod:`spanproof.bootstrap`).

Two measurements:

* **Embedding**: the embedder spanproof uses against a reference that runs the same model with
  nothing of spanproof's (tokenise, sort by length, run, pool, normalise), on the same texts;
  texts per second each, their ratio, and the largest difference between the two vectors of a
  text (the two must compute the same thing for the ratio to mean anything).
* **Verify**: one ``verify`` of ``CLAIMS`` claims against ``SPANS`` evidence spans under a score
  model, with nothing cached (every text embedded) and with the embeddings cached.

Texts come from a store's sections or, without one, from :func:`synthetic_sentences`.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from spanproof.core.checker import EntailmentChecker
from spanproof.core.models import Claim, EvidenceSpan
from spanproof.core.ports import Embedder
from spanproof.core.store import EvidenceStore, iter_sources
from spanproof.services.verification import VERIFIED, score_all
from spanproof.text.sentences import split_sentences
from spanproof.verify.scoring import ScoreModel

#: The verify benchmark's shape: claims × evidence spans (``make bench``'s too).
CLAIMS = 10
SPANS = 64
#: Texts the embedding benchmark embeds, and the texts a benchmark needs in all.
EMBED_TEXTS = 256
TEXTS_NEEDED = 264
#: The seed of :func:`synthetic_sentences`.
SEED = 20261205


def median_time(fn: Callable[[], object], repeats: int) -> tuple[float, list[float]]:
    """The median wall time of ``repeats`` calls of ``fn`` (seconds), and every time."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times), times


def p95(times: Sequence[float]) -> float:
    """The 95th percentile of ``times`` (nearest rank below)."""
    ordered = sorted(times)
    return ordered[int(0.95 * (len(ordered) - 1))]


_POPULATIONS = (
    "adults with mild hypertension", "older women", "children aged 6 to 11 years",
    "patients with type 2 diabetes", "office workers", "smokers", "pregnant women",
    "patients after myocardial infarction", "healthy volunteers", "adolescents with asthma",
)  # fmt: skip
_INTERVENTIONS = (
    "daily walking", "metformin", "a low-sodium diet", "vitamin D supplementation",
    "cognitive behavioural therapy", "aspirin", "a school reading programme", "statin therapy",
    "intermittent fasting", "a smartphone reminder",
)  # fmt: skip
_OUTCOMES = (
    "systolic blood pressure", "HbA1c", "LDL cholesterol", "reading scores", "evening cortisol",
    "hospital admissions", "body weight", "reaction time", "pain scores", "sleep duration",
)  # fmt: skip
_TEMPLATES = (
    "In a randomised trial of {n} {pop}, {iv} lowered {out} by {x} units after {t} weeks "
    "compared with usual care.",
    "{Iv} was associated with a {x}% lower risk of a rise in {out} among {pop} followed for {t} "
    "months (hazard ratio 0.{h}; 95% CI 0.{lo} to 0.{hi}).",
    "We found no significant difference in {out} between {iv} and placebo in {n} {pop} "
    "(p = 0.{p}).",
    "Among {pop}, {out} improved by {x}% with {iv}, while the control group showed no change "
    "over {t} weeks.",
    "The effect of {iv} on {out} was larger in {pop} than in the whole cohort of {n} participants.",
    "{Iv} did not reduce {out} in {pop}, although adherence was high ({x}% of scheduled sessions).",
)


def synthetic_sentences(n: int = TEXTS_NEEDED, seed: int = SEED) -> list[str]:
    """``n`` distinct sentences shaped like findings of clinical abstracts (15–35 words, figures,
    populations), the same for the same ``n`` and ``seed``: texts to time the engine on when no
    store is given. They are made up and say nothing true."""
    rng = random.Random(seed)
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        iv = rng.choice(_INTERVENTIONS)
        text = rng.choice(_TEMPLATES).format(
            n=rng.randint(24, 4800),
            pop=rng.choice(_POPULATIONS),
            iv=iv,
            Iv=iv[0].upper() + iv[1:],
            out=rng.choice(_OUTCOMES),
            x=rng.randint(2, 45),
            t=rng.randint(4, 52),
            h=rng.randint(50, 95),
            lo=rng.randint(30, 49),
            hi=rng.randint(96, 99),
            p=rng.randint(10, 90),
        )
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out


def store_sentences(store: EvidenceStore, n: int = TEXTS_NEEDED) -> list[str]:
    """The first ``n`` distinct sentences of at least five words of the store's sources (in
    source id order, each source's current version, sections in order); fewer when the store
    holds fewer."""
    out: list[str] = []
    seen: set[str] = set()
    for source in iter_sources(store):
        current = store.current_version(source.id)
        if current is None:
            continue
        for section in store.sections(source.id, current.number):
            for sentence in split_sentences(section.text):
                text = " ".join(sentence.text.split())
                if len(text.split()) >= 5 and text not in seen:
                    seen.add(text)
                    out.append(text)
                    if len(out) == n:
                        return out
    return out


@dataclass(frozen=True, slots=True)
class EmbeddingBench:
    """The embedding benchmark's result (texts per second are medians)."""

    texts: int
    spanproof_per_s: float
    reference_per_s: float | None
    ratio: float | None  # reference time / spanproof time: 1.0 means no overhead
    largest_difference: float | None  # between the two vectors of one text

    def to_dict(self) -> dict[str, Any]:
        return {
            "texts": self.texts,
            "spanproof_per_s": self.spanproof_per_s,
            "reference_per_s": self.reference_per_s,
            "ratio": self.ratio,
            "largest_difference": self.largest_difference,
        }


def bench_embedding(
    texts: Sequence[str],
    embed: Callable[[Sequence[str]], Any],
    reference: Callable[[Sequence[str]], Any] | None,
    repeats: int,
) -> EmbeddingBench:
    """Texts per second of ``embed`` and, side by side (interleaved), of ``reference``; both are
    run once first (model load, warm-up) and their vectors compared."""
    texts = list(texts)
    mine = np.asarray(embed(texts), dtype=np.float64)
    if reference is None:
        med, _ = median_time(lambda: embed(texts), repeats)
        return EmbeddingBench(len(texts), round(len(texts) / med, 1), None, None, None)
    theirs = np.asarray(reference(texts), dtype=np.float64)
    difference = float(np.max(np.abs(mine - theirs))) if mine.shape == theirs.shape else None
    mine_times, their_times = [], []
    for _ in range(repeats):
        mine_times.append(median_time(lambda: embed(texts), 1)[0])
        their_times.append(median_time(lambda: reference(texts), 1)[0])
    a, b = statistics.median(mine_times), statistics.median(their_times)
    return EmbeddingBench(
        texts=len(texts),
        spanproof_per_s=round(len(texts) / a, 1),
        reference_per_s=round(len(texts) / b, 1),
        ratio=round(b / a, 3),
        largest_difference=difference,
    )


@dataclass(frozen=True, slots=True)
class VerifyBench:
    """The verify benchmark's result (milliseconds)."""

    score_model: str
    claims: int
    spans: int
    uncached_median_ms: float
    cached_median_ms: float
    cached_p95_ms: float
    verdicts: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "score_model": self.score_model,
            "claims": self.claims,
            "spans": self.spans,
            "uncached_median_ms": self.uncached_median_ms,
            "cached_median_ms": self.cached_median_ms,
            "cached_p95_ms": self.cached_p95_ms,
            "verdicts": self.verdicts,
        }


def verify_case(texts: Sequence[str]) -> tuple[list[Claim], list[EvidenceSpan]]:
    """The verify benchmark's claims and spans from ``texts`` (at least :data:`TEXTS_NEEDED`):
    the spans are texts 200–263, each claim copies every sixth of them (``make bench``'s case)."""
    if len(texts) < TEXTS_NEEDED:
        raise ValueError(f"the benchmark needs {TEXTS_NEEDED} texts; got {len(texts)}")
    spans = [EvidenceSpan(id=f"S{i + 1}", text=t) for i, t in enumerate(texts[200:264])]
    claims = [Claim(id=f"c{i}", text=texts[200 + 6 * i]) for i in range(CLAIMS)]
    return claims, spans


def bench_verify(
    texts: Sequence[str],
    cached: Embedder,
    uncached: Embedder,
    model: ScoreModel,
    checker: EntailmentChecker | None,
    repeats: int,
    uncached_repeats: int,
) -> VerifyBench:
    """One verify of :func:`verify_case` under ``model``: ``uncached_repeats`` times with
    ``uncached`` (every text embedded each time), then ``repeats`` times with ``cached`` after
    one call that fills its cache. Raises RuntimeError when verification is unavailable (a
    benchmark of a failure would time the failure)."""
    claims, spans = verify_case(texts)

    def run(embedder: Embedder) -> Any:
        verdicts, status = score_all(claims, spans, embedder, model, checker)
        if status != VERIFIED:
            raise RuntimeError(f"verification was {status}")
        return verdicts

    med_u, _ = median_time(lambda: run(uncached), uncached_repeats)
    verdicts = run(cached)  # fills the cache
    med_c, times_c = median_time(lambda: run(cached), repeats)
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v.verdict.value] = counts.get(v.verdict.value, 0) + 1
    return VerifyBench(
        score_model=model.name,
        claims=len(claims),
        spans=len(spans),
        uncached_median_ms=round(1000 * med_u, 1),
        cached_median_ms=round(1000 * med_c, 1),
        cached_p95_ms=round(1000 * p95(times_c), 1),
        verdicts=dict(sorted(counts.items())),
    )
