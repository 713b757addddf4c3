"""The answerability suite (issue 15): questions a store answers, and questions it must not.

Three kinds of question, all turned into questions deterministically from labelled claims:

* ``answerable``: a SciFact train claim with a rationale (SUPPORT or CONTRADICT) in a cited
  abstract, asked of the ingested SciFact corpus, which holds that abstract;
* ``unanswerable``: the same question asked of the same corpus with the claim's cited abstracts
  removed (other abstracts on nearby topics stay, which is what makes these hard);
* ``off_topic``: a CLIMATE-FEVER claim or a FEVER hypothesis (Wikipedia) asked of the corpus.

A claim becomes a question by one of :data:`TEMPLATES` (``What is known about whether <claim>?``),
picked by a hash of the seed and the claim, so the question never depends on sampling order.
Questions are open (``What …``), never yes/no, so they test relevance, not propositions.
Every question belongs to the ``calibration`` or the ``report`` half by a seeded hash of its
group (the SciFact claim, so a claim's answerable and unanswerable forms share a half): the
relevance floor is fitted on the first and reported on the second.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spanproof.evaluation.devdata import scifact_claims

ANSWERABLE = "answerable"
UNANSWERABLE = "unanswerable"
OFF_TOPIC = "off_topic"
KINDS = (ANSWERABLE, UNANSWERABLE, OFF_TOPIC)
CALIBRATION = "calibration"
REPORT = "report"
DEFAULT_SEED = 20261201
#: Open questions around a claim; ``{}`` is the claim as a clause.
TEMPLATES = (
    "What is known about whether {}?",
    "What do studies report on whether {}?",
    "What is the evidence on whether {}?",
)
_FEVER_MARKUP = re.compile(r"-[LR][RSC]B-|``|''")


@dataclass(frozen=True, slots=True)
class Question:
    """One question of the suite.

    Attributes:
        id: ``<kind>:<origin>``, unique in the suite.
        kind: ``answerable``, ``unanswerable`` or ``off_topic``.
        text: the question asked.
        claim: the claim it was made from.
        origin: ``scifact:<claim id>``, ``climate-fever:<claim id>`` or ``fever:<n>``.
        split: ``calibration`` or ``report``.
        cited: the SciFact abstracts the claim cites (removed from the store for
            ``unanswerable``); empty for off-topic questions.
        rationale: SciFact doc id → indices of its rationale sentences.
    """

    id: str
    kind: str
    text: str
    claim: str
    origin: str
    split: str
    cited: tuple[int, ...] = ()
    rationale: dict[int, tuple[int, ...]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "text": self.text,
            "claim": self.claim,
            "origin": self.origin,
            "split": self.split,
            "cited": list(self.cited),
            "rationale": {str(k): list(v) for k, v in self.rationale.items()},
        }


def _digest(seed: int, key: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}:{key}".encode()).digest()[:8], "big")


def split_of(seed: int, group: str) -> str:
    """The half a question group belongs to, by a seeded hash."""
    return CALIBRATION if _digest(seed, f"split:{group}") % 2 == 0 else REPORT


def _lowered(first: str, second: str) -> str:
    """The claim's first word as it reads inside a clause: a capitalised plain word before a
    lowercase one (``Rapamycin delays``) is lowered; names, acronyms, gene names and numbers keep
    their case (``Henri Kontinen``, ``PrP``, ``IL-6``, ``Hebe's``)."""
    plain = first.isalpha() and first[1:].islower() and (not second or second[0].islower())
    return first[0].lower() + first[1:] if plain else first


def as_question(claim: str, template: str) -> str:
    """A claim as an open question: ``Aspirin lowers fever.`` → ``What is known about whether
    aspirin lowers fever?``."""
    clause = " ".join(claim.split()).strip("\"“”'‘’ ").rstrip(" .!?;:")
    words = clause.split(" ")
    if words and words[0]:
        words[0] = _lowered(words[0], words[1] if len(words) > 1 else "")
    return template.format(" ".join(words))


def question_text(seed: int, origin: str, claim: str) -> str:
    """The question made from ``claim``: the template is picked by a hash of seed and origin."""
    return as_question(claim, TEMPLATES[_digest(seed, f"template:{origin}") % len(TEMPLATES)])


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _off_topic_claims(root: Path) -> list[tuple[str, str]]:
    """``(origin, claim)`` of CLIMATE-FEVER claims and FEVER hypotheses, deduplicated."""
    climate = [
        (f"climate-fever:{d['claim_id']}", " ".join(str(d["claim"]).split()))
        for d in _jsonl(root / "climate_fever" / "climate-fever.jsonl")
    ]
    fever: list[tuple[str, str]] = []
    seen: set[str] = set()
    for n, d in enumerate(_jsonl(root / "fever_nli_dev" / "fever_dev_pairs.jsonl")):
        text = " ".join(str(d["hypothesis"]).split())
        if _FEVER_MARKUP.search(text) or text.lower() in seen or len(text.split()) < 4:
            continue
        seen.add(text.lower())
        fever.append((f"fever:{n}", text))
    return climate + fever


def build_suite(
    root: Path, *, seed: int = DEFAULT_SEED, limit: int | None = None
) -> list[Question]:
    """The suite's questions, in a seeded order.

    Args:
        root: the data folder (``../shared/data``).
        seed: picks the claims, the templates and the halves.
        limit: SciFact claims to use (each gives one answerable and one unanswerable question)
            and off-topic questions to add (half CLIMATE-FEVER, half FEVER); None for all.
    """
    rng = random.Random(seed)
    claims = [
        c for c in scifact_claims(root) if c.evidence and c.labels <= {"SUPPORT", "CONTRADICT"}
    ]
    rng.shuffle(claims)
    if limit is not None:
        claims = claims[:limit]
    out: list[Question] = []
    for c in claims:
        origin = f"scifact:{c.id}"
        text = question_text(seed, origin, c.claim)
        rationale = {
            doc: tuple(sorted({i for _, s in sets for i in s})) for doc, sets in c.evidence.items()
        }
        cited = tuple(sorted(set(c.cited_doc_ids) | set(c.evidence)))
        split = split_of(seed, origin)
        for kind in (ANSWERABLE, UNANSWERABLE):
            out.append(
                Question(f"{kind}:{origin}", kind, text, c.claim, origin, split, cited, rationale)
            )
    pool = _off_topic_claims(root)
    climate = [p for p in pool if p[0].startswith("climate-fever:")]
    fever = [p for p in pool if p[0].startswith("fever:")]
    rng.shuffle(climate)
    rng.shuffle(fever)
    if limit is not None:
        climate, fever = climate[: (limit + 1) // 2], fever[: limit // 2]
    for origin, claim in climate + fever:
        text = question_text(seed, origin, claim)
        out.append(
            Question(
                f"{OFF_TOPIC}:{origin}", OFF_TOPIC, text, claim, origin, split_of(seed, origin)
            )
        )
    return out
