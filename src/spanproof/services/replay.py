"""Replay: recompute a trace's deterministic scoring from the trace alone (SPEC §4.7).

A trace stores what scoring read: the plan's spans (``plan``), the claims, the score model's
name, and every vector the embedder returned (``embeddings``: one per claim, and one per window
of every truth-class span, with the window's character range). :func:`replay` rebuilds the
spans and claims, serves the stored vectors through :class:`ReplayEmbedder`, runs the same
:func:`~spanproof.services.verification.score_all` again and compares each claim's verdict dict
with the stored one exactly: verdict, score bit for bit, best span, gate flags.

Writers call :func:`trace_embeddings` to fill ``Trace.embeddings``. Wrap the embedder that
scores in a :class:`RecordingEmbedder` so the vectors recorded are the very ones scoring used
(no second embedding call, and exact even for an embedder that is not bit-for-bit repeatable).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spanproof.core.checker import CHECKER_LABELS, EntailmentChecker
from spanproof.core.errors import ProviderError, SpanproofError
from spanproof.core.judgement import RecordedJudge
from spanproof.core.models import Claim, ClaimVerdict, ErasedRange, EvidenceSpan
from spanproof.core.parser import ReadingChecker, SentenceParser
from spanproof.core.ports import Embedder, FloatMatrix
from spanproof.core.trace import Trace, canonical_json, decode_vector, encode_vector, plan_hash
from spanproof.services.verification import (
    VERIFIED,
    edit_phrases,
    evidence_as_read,
    score_all,
    span_cosines,
    window_ranges,
)
from spanproof.text.sentences import Sentence, split_sentences
from spanproof.text.visible import INVISIBLE
from spanproof.verify.judging import window_text
from spanproof.verify.scoring import ScoreModel, prepare_plan, score_model

#: Plan entry keys that are not source metadata.
_SPAN_KEYS = frozenset({"marker", "id", "text", "truth_class", "erased"})


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """The outcome of replaying one trace.

    Attributes:
        ok: True when the replay reproduced every stored claim exactly.
        differences: one line per difference (empty when ``ok``).
        claims_checked: how many claims were re-scored.
        skipped: why the trace was not replayed (an erasure masked text it read), else "".
    """

    ok: bool
    differences: list[str] = field(default_factory=list)
    claims_checked: int = 0
    skipped: str = ""


class RecordingEmbedder:
    """An embedder that remembers its last call, so a trace can store the exact vectors used.

    One instance per verification (it keeps only the last call and is not meant to be shared
    between threads).
    """

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        # Every call, oldest first: score model v4 embeds its edit phrases in a second call.
        self._calls: list[tuple[list[str], FloatMatrix]] = []

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def model_hash(self) -> str:
        return self.inner.model_hash

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        vectors = self.inner.embed(texts)
        self._calls.append((list(texts), vectors))
        return vectors

    def window_ranges(self, text: str) -> list[tuple[int, int]]:
        return self.inner.window_ranges(text)

    def recorded(self, texts: Sequence[str]) -> FloatMatrix | None:
        """The vectors of the latest call that embedded exactly ``texts``, else None."""
        wanted = list(texts)
        for asked, vectors in reversed(self._calls):
            if asked == wanted:
                return vectors
        return None


class ReplayEmbedder:
    """The ``Embedder`` port over a trace's stored vectors.

    ``embed`` answers only the exact texts, in the exact order, that scoring embedded when the
    trace was written (the claims, then every stored window), or phrases the trace stores a
    vector for (score model v4's edit check); anything else is a
    :class:`ProviderError`, which replay reports as a difference. ``window_ranges`` answers
    the stored windows of a span's text (or of a sentence's, under sentence windows).
    """

    def __init__(
        self,
        *,
        model_id: str,
        model_hash: str,
        texts: Sequence[str],
        vectors: Sequence[FloatMatrix],
        ranges: dict[str, list[tuple[int, int]]],
        phrases: dict[str, FloatMatrix] | None = None,
        claims: int = 0,
    ) -> None:
        self._model_id = model_id
        self._model_hash = model_hash
        self._texts = list(texts)
        self._vectors = list(vectors)
        self._ranges = ranges
        self._phrases = phrases or {}
        self._claims = claims  # how many of the texts, first, are claims

    @classmethod
    def from_trace(
        cls, trace: Trace, spans: Sequence[EvidenceSpan], claims: Sequence[Claim], model: ScoreModel
    ) -> ReplayEmbedder:
        stored = trace.embeddings
        claim_vectors = [decode_vector(v) for v in stored.get("claims", [])]
        if claim_vectors and len(claim_vectors) != len(claims):
            raise ValueError(
                f"the trace holds {len(claim_vectors)} claim vectors for {len(claims)}"
            )
        windows = [
            (int(w["span"]), int(w["start"]), int(w["end"]), decode_vector(w["vector"]))
            for w in stored.get("windows", [])
        ]
        texts = [c.scored_text for c in claims] if claim_vectors else []
        texts += [spans[i].text[start:end] for i, start, end, _ in windows]
        return cls(
            model_id=trace.models.get("embed", ""),
            model_hash=trace.models.get("embed_hash", ""),
            texts=texts,
            vectors=claim_vectors + [w[3] for w in windows],
            ranges=_ranges_by_text(spans, [w[:3] for w in windows], model.sentence_windows),
            phrases={str(p["text"]): decode_vector(p["vector"]) for p in stored.get("phrases", [])},
            claims=len(claim_vectors),
        )

    def for_claims(self, start: int, size: int) -> ReplayEmbedder:
        """The same vectors answering for claims ``[start, start + size)`` and every window:
        what scoring embedded when those claims were scored on their own (a streamed piece)."""
        if not self._claims:
            return self
        keep = [*range(start, start + size), *range(self._claims, len(self._texts))]
        return ReplayEmbedder(
            model_id=self._model_id,
            model_hash=self._model_hash,
            texts=[self._texts[i] for i in keep],
            vectors=[self._vectors[i] for i in keep],
            ranges=self._ranges,
            phrases=self._phrases,
            claims=size,
        )

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def model_hash(self) -> str:
        return self._model_hash

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        if not self._texts:
            raise ProviderError("the trace holds no vectors to replay")
        asked = list(texts)
        if asked != self._texts and self._phrases and all(t in self._phrases for t in asked):
            return np.stack([self._phrases[t] for t in asked]).astype(np.float32)
        if asked != self._texts:
            where = next(
                (i for i, (a, b) in enumerate(zip(asked, self._texts, strict=False)) if a != b),
                min(len(asked), len(self._texts)),
            )
            raise ProviderError(
                f"scoring asked for {len(asked)} vectors, the trace holds {len(self._texts)}; "
                f"they first differ at text {where}"
            )
        return np.stack(self._vectors).astype(np.float32)

    def window_ranges(self, text: str) -> list[tuple[int, int]]:
        # A text the trace has no windows for gets one whole window: its text then differs from
        # what the trace recorded, and embed() reports it.
        return list(self._ranges.get(text, [(0, len(text))]))


class _Served:
    """Vectors already embedded, served again (window ranges come from the real embedder)."""

    def __init__(self, texts: list[str], vectors: FloatMatrix, embedder: Embedder) -> None:
        self._texts, self._vectors, self._embedder = texts, vectors, embedder

    @property
    def model_id(self) -> str:
        return self._embedder.model_id

    @property
    def model_hash(self) -> str:
        return self._embedder.model_hash

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        if list(texts) != self._texts:
            raise ProviderError("the edit check asked for other texts than scoring embedded")
        return self._vectors

    def window_ranges(self, text: str) -> list[tuple[int, int]]:
        return self._embedder.window_ranges(text)


def _ranges_by_text(
    spans: Sequence[EvidenceSpan],
    windows: Sequence[tuple[int, int, int]],
    by_sentence: bool,
) -> dict[str, list[tuple[int, int]]]:
    """What the embedder's ``window_ranges`` answered for each text scoring asked it about.

    Without sentence windows it was asked about each span's text; with them, about each of the
    span's sentences (see ``services.verification.window_ranges``), and every window lies inside
    one sentence, so the stored windows split back by sentence.
    """
    table: dict[str, list[tuple[int, int]]] = {}
    for index, span in enumerate(spans):
        own = [(start, end) for i, start, end in windows if i == index]
        if not own:
            continue
        if not by_sentence:
            _put(table, span.text, own)
            continue
        text = span.text
        for sentence in split_sentences(text) or [Sentence(text, 0, len(text))]:
            inside = [
                (start - sentence.start, end - sentence.start)
                for start, end in own
                if sentence.start <= start and end <= sentence.end
            ]
            _put(table, sentence.text, inside)
    return table


def _put(table: dict[str, list[tuple[int, int]]], text: str, ranges: list[tuple[int, int]]) -> None:
    """Record ``ranges`` for ``text`` if they cover it from end to end, as windows always do.

    Windows that do not reach the end of the text were cut for another text (the plan was
    changed after scoring): leaving them out makes replay embed other texts than the trace
    holds vectors for, which it reports.
    """
    if ranges and min(r[0] for r in ranges) == 0 and max(r[1] for r in ranges) == len(text):
        table.setdefault(text, ranges)


def plan_spans(plan: Sequence[dict[str, Any]]) -> list[EvidenceSpan]:
    """The evidence spans a trace's ``plan`` records, in plan order.

    Each entry gives ``id``, ``text``, ``truth_class`` (default True) and optionally ``erased``
    (``[[start, end], ...]``); every other key is source metadata, which scoring never reads.
    """
    return [
        EvidenceSpan(
            id=str(entry["id"]),
            text=str(entry["text"]),
            truth_class=bool(entry.get("truth_class", True)),
            source={k: v for k, v in entry.items() if k not in _SPAN_KEYS},
            erased=tuple(ErasedRange(int(a), int(b)) for a, b in entry.get("erased", [])),
        )
        for entry in plan
    ]


def _claim(entry: dict[str, Any]) -> Claim:
    span = entry.get("draft_span")
    return Claim(
        id=str(entry["id"]),
        text=str(entry["text"]),
        draft_span=None if span is None else (int(span[0]), int(span[1])),
        cited_markers=tuple(str(m) for m in entry.get("cited_markers", [])),
        negates=str(entry.get("negates", "")),
    )


def trace_embeddings(
    claims: Sequence[Claim | ClaimVerdict],
    plan_spans: Sequence[EvidenceSpan],
    embedder: Embedder,
    model: ScoreModel,
) -> dict[str, Any]:
    """The ``embeddings`` of a trace: what :func:`replay` needs to re-score it.

    Args:
        claims: the claims scored, in order (claims or their verdicts: only the text is read).
        plan_spans: the evidence exactly as scoring received it, in the order of the trace's
            ``plan`` (under v72 the windows are recorded in the offsets of its text as scoring
            read it, :func:`~spanproof.services.verification.evidence_as_read`).
        embedder: the embedder that scored; a :class:`RecordingEmbedder` whose last call was
            that scoring gives its vectors back without embedding again.
        model: the score model used (it decides the windows).

    Returns:
        ``{"claims": [vector, ...], "windows": [{"span", "start", "end", "vector"}, ...]}``
        with vectors as base64 float32; both lists are empty when scoring embedded nothing
        (no claims, or no truth-class span). Under score model v4, when the edit check embedded
        phrases, ``"phrases": [{"text", "vector"}, ...]`` too.

    Raises:
        ProviderError: the embedder failed (only when it has to embed again).
    """
    if not claims or not any(span.truth_class for span in plan_spans):
        return {"claims": [], "windows": []}
    plan_spans = evidence_as_read(plan_spans, model)  # v72: the texts scoring embedded
    texts = [claim.scored_text for claim in claims]
    owners: list[tuple[int, int, int]] = []
    for index, span in enumerate(plan_spans):
        if not span.truth_class:
            continue
        for start, end in window_ranges(span.text, embedder, model.sentence_windows):
            owners.append((index, start, end))
            texts.append(span.text[start:end])
    recorded = embedder.recorded(texts) if isinstance(embedder, RecordingEmbedder) else None
    vectors = recorded if recorded is not None else embedder.embed(texts)
    n = len(claims)
    out: dict[str, Any] = {
        "claims": [encode_vector(v) for v in vectors[:n]],
        "windows": [
            {"span": index, "start": start, "end": end, "vector": encode_vector(vector)}
            for (index, start, end), vector in zip(owners, vectors[n:], strict=True)
        ],
    }
    if model.edit_check:
        phrases = _edit_phrase_vectors(claims, plan_spans, embedder, model, texts, vectors)
        if phrases:  # only then: every other trace keeps its exact shape
            out["phrases"] = phrases
    return out


def _edit_phrase_vectors(
    claims: Sequence[Claim | ClaimVerdict],
    plan_spans: Sequence[EvidenceSpan],
    embedder: Embedder,
    model: ScoreModel,
    texts: list[str],
    vectors: FloatMatrix,
) -> list[dict[str, str]]:
    """The phrases score model v4's edit check embedded, with their vectors.

    Which phrases it asked about follows from the claims, the plan and the vectors above (the
    same alignment runs again on them); their vectors come from the recording when it holds
    that call, else from the embedder.
    """
    scored = [
        Claim(id=c.id, text=c.scored_text, cited_markers=tuple(c.cited_markers)) for c in claims
    ]
    plan = prepare_plan(plan_spans, model)
    served = _Served(texts, vectors, embedder)
    phrases = edit_phrases(scored, plan, span_cosines(scored, plan, served))
    if not phrases:
        return []
    recorded = embedder.recorded(phrases) if isinstance(embedder, RecordingEmbedder) else None
    got = recorded if recorded is not None else embedder.embed(phrases)
    return [{"text": t, "vector": encode_vector(v)} for t, v in zip(phrases, got, strict=True)]


def replay(trace: Trace, checker: EntailmentChecker | None = None) -> ReplayResult:
    """Re-score ``trace`` from its stored plan, claims and vectors and compare with its claims.

    A trace an erasure masked is not replayed (``skipped`` says so): the text its scores came
    from is gone. The plan must also still match ``plan_hash`` (when the trace records one). A
    trace whose verification was ``unavailable`` scored nothing: it replays when it records no
    claims. A trace that cannot be read as scoring input (a field missing, an unknown score model, a
    damaged vector) fails with the reason. A score model with escalation (v3) needs
    ``checker``, the same model the trace names. A judged trace (v5) whose judge was an LLM, or
    a local judge other than ``checker`` (one this installation no longer ships), replays from
    the judgements its claims stored; the rest of the scoring runs again.
    """
    if trace.erased:
        ids = ", ".join(f"#{i}" for i in trace.erased.get("erasures", []))
        return ReplayResult(True, skipped=f"not replayed: erasure {ids} masked text it read")
    if trace.verification != VERIFIED:
        if trace.claims:
            return ReplayResult(
                False, [f"{len(trace.claims)} claims recorded by an unavailable verification"]
            )
        return ReplayResult(True)
    try:
        model = score_model(str(trace.models["score_model"]))
        spans = plan_spans(trace.plan)
        claims = [_claim(entry) for entry in trace.claims]
        embedder = ReplayEmbedder.from_trace(trace, evidence_as_read(spans, model), claims, model)
        if model.uses_checker:
            recorded = str(trace.models.get("checker_model", ""))
            retired = (
                recorded.startswith(LOCAL_JUDGE_PREFIX)
                and checker is not None
                and checker.model_id != recorded
            )
            if model.reads_judge and (recorded.startswith(LLM_JUDGE_PREFIX) or retired):
                checker = _stored(trace, spans, recorded, model, checker)
            if checker is None or checker.model_id != recorded:
                have = "none" if checker is None else checker.model_id
                return ReplayResult(
                    False, [f"score model {model.name} replays with checker {recorded}, not {have}"]
                )
        groupings = _groupings(trace, len(claims))
        scored = [_score_groups(claims, spans, embedder, model, checker, g) for g in groupings]
    except (KeyError, TypeError, ValueError, IndexError, SpanproofError) as exc:
        detail = f"{type(exc).__name__}: {exc}"
        return ReplayResult(False, [f"cannot replay the trace: {detail}"])
    differences = []
    if trace.plan_hash and plan_hash(trace.plan) != trace.plan_hash:
        differences.append("the plan does not match its plan_hash")
    found: list[str] = []
    for verdicts, status in scored:  # the first grouping that reproduces the trace stands
        if status != VERIFIED:
            found = [f"replay could not score: {status}"]
        else:
            found = compare_claims(trace.claims, [v.to_dict() for v in verdicts])
        if not found:
            break
    differences += found
    return ReplayResult(not differences, differences, len(claims))


def _groupings(trace: Trace, n: int) -> list[list[int]]:
    """How the trace's claims were scored together, as group sizes: all at once; or, for the
    proxy's streamed answers, piece by piece as the sentences arrived (``request.pieces``, the
    claims of each piece), since a claim's score may differ in its last bits with the claims
    scored beside it. A streamed trace written before ``pieces`` was recorded is tried at once,
    then one claim at a time (most pieces are one sentence, one claim)."""
    recorded = trace.request.get("pieces")
    pieces = recorded if isinstance(recorded, list) else []
    if pieces and all(isinstance(p, int) and p >= 0 for p in pieces) and sum(pieces) == n:
        return [[int(p) for p in pieces]]
    if trace.request.get("stream") is True and n > 1:
        return [[n], [1] * n]
    return [[n]]


def _score_groups(
    claims: list[Claim],
    spans: list[EvidenceSpan],
    embedder: ReplayEmbedder,
    model: ScoreModel,
    checker: EntailmentChecker | None,
    sizes: list[int],
) -> tuple[list[ClaimVerdict], str]:
    """``score_all`` over consecutive groups of ``sizes`` claims, as they were first scored."""
    if sizes == [len(claims)]:
        return score_all(claims, spans, embedder, model, checker)
    verdicts: list[ClaimVerdict] = []
    at = 0
    for size in sizes:
        if size:
            group = embedder.for_claims(at, size)
            part, status = score_all(claims[at : at + size], spans, group, model, checker)
            if status != VERIFIED:
                return [], status
            verdicts += part
        at += size
    return verdicts, VERIFIED


#: The model id prefix of LLM judges: their traces replay from the stored judgements.
LLM_JUDGE_PREFIX = "llm-judge:"
#: The model id prefix of the local judge. A trace judged by a local judge that this
#: installation no longer ships (another ``spanproof-judge@sha256:…``) replays from the
#: judgements it stored, as an LLM judge's does: the judge is not re-run, the rest is.
LOCAL_JUDGE_PREFIX = "spanproof-judge@"


def _stored(
    trace: Trace,
    spans: Sequence[EvidenceSpan],
    recorded: str,
    model: ScoreModel,
    checker: EntailmentChecker | None,
) -> EntailmentChecker:
    """The trace's stored judgements as its judge; under v71, with ``checker``'s parser, which
    reads the roles again (``recorded`` names both: ``<judge>+<parser>``)."""
    visible = model.visible_evidence
    if not (model.role_bindings and isinstance(checker, SentenceParser)):
        return stored_judge(trace, spans, recorded, visible=visible)
    judge_id = recorded.rsplit("+", 1)[0]
    return ReadingChecker(stored_judge(trace, spans, judge_id, visible=visible), checker)


def stored_judge(
    trace: Trace, spans: Sequence[EvidenceSpan], model_id: str, *, visible: bool = False
) -> RecordedJudge:
    """A judge that answers what the trace's claims record the judge said (score model v5).

    Each claim's ``judge`` entry names its window by span id and range; the window text is
    rebuilt from the trace's plan exactly as the judge read it (``visible``: without its
    invisible format characters, as v72 reads evidence).
    """
    index = {span.id: n for n, span in enumerate(spans)}
    texts = {n: span.text for n, span in enumerate(spans)}
    table: dict[tuple[str, str], list[float]] = {}
    for entry in trace.claims:
        judged = entry.get("judge")
        if not isinstance(judged, dict):
            continue
        parts = [(index[w["id"]], int(w["start"]), int(w["end"])) for w in judged["window"]]
        probs = judged["probabilities"]
        row = [float(probs[label]) for label in CHECKER_LABELS]
        text = window_text(parts, texts)
        table[(str(entry["text"]), INVISIBLE.sub("", text) if visible else text)] = row
    return RecordedJudge(table, model_id)


def compare_claims(
    stored: Sequence[dict[str, Any]], replayed: Sequence[dict[str, Any]]
) -> list[str]:
    """Differences between stored and replayed claim dicts, field by field.

    Values compare by their canonical JSON, so a float must match bit for bit (``0.1 + 0.2`` is
    not ``0.3``, ``1`` is not ``1.0``). Only the fields scoring produces are compared; others a
    writer adds are covered by the trace's hash, not by replay.
    """
    differences: list[str] = []
    if len(stored) != len(replayed):
        differences.append(f"{len(stored)} claims stored, {len(replayed)} replayed")
    for position, (old, new) in enumerate(zip(stored, replayed, strict=False), start=1):
        label = f"claim {new.get('id', position)}"
        for key, value in new.items():
            if key not in old:
                differences.append(f"{label}: {key} is missing from the trace")
            elif canonical_json(old[key]) != canonical_json(value):
                differences.append(f"{label}: {key} stored {old[key]!r}, replay gives {value!r}")
        if "edits" in old and "edits" not in new:  # written only when there are edits
            differences.append(f"{label}: edits stored {old['edits']!r}, replay gives none")
    return differences
