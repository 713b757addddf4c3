"""The verification use case: embed under one model, score, band, apply policy (SPEC §4.4–4.6).

Degradations are results, not exceptions: a missing embedder, a failing or inconsistent embedding
model, or a failed decomposition gives ``verification = "unavailable: <reason>"``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from spanproof.core.checker import CheckerPair, EntailmentChecker
from spanproof.core.errors import DecomposeError, ProviderError
from spanproof.core.models import (
    Claim,
    ClaimVerdict,
    Edit,
    ErasedRange,
    EvidenceSpan,
    JudgeRecord,
    Policy,
    Report,
    SpanRef,
    Verdict,
)
from spanproof.core.parser import Parsed, SentenceParser
from spanproof.core.ports import Decomposer, Embedder
from spanproof.text.citations import blank_citations
from spanproof.text.sentences import Sentence, split_sentences
from spanproof.text.tokens import token_texts
from spanproof.text.visible import VisibleText, visible_text
from spanproof.verify.decompose import markers_as_ids
from spanproof.verify.edits import EditCheck, judge_with_vectors, phrase_texts
from spanproof.verify.escalation import escalated, needs_escalation
from spanproof.verify.judging import (
    FEATURES,
    JudgeWindow,
    WindowCandidate,
    choose_window,
    combine,
    feature_vector,
    judged_verdict,
)
from spanproof.verify.policy import deliver
from spanproof.verify.roles import role_conflict
from spanproof.verify.scoring import (
    Plan,
    PreparedClaim,
    ScoreModel,
    claim_states_no_finding,
    edit_alignments,
    faithful_copy,
    lexical_terms,
    may_copy_window,
    no_finding,
    prepare_claim,
    prepare_plan,
    resolve_markers,
    score_claim,
    score_pair,
    select_candidates,
    unsupported_verdict,
)
from spanproof.verify.splices import contrast_splice, contrasts
from spanproof.verify.tables import with_table_context
from spanproof.verify.yes_no import turned_verdict, with_answer_claim

VERIFIED = "verified"


class EmbeddingUnavailable(Exception):
    """Internal signal: the embedder cannot serve this verification (reason in args[0])."""


@dataclass(frozen=True, slots=True)
class SpanCosines:
    """Cosines of claims to plan spans (max over each span's windows) and the best windows."""

    cosines: npt.NDArray[np.float64]  # (claims, spans)
    windows: list[list[tuple[int, int]]]  # per claim, per span: best window range
    claim_vectors: npt.NDArray[np.float32]  # (claims, dim)
    window_vectors: list[list[npt.NDArray[np.float32] | None]]  # per claim, per span: best window
    #: Every embedded window: its span index, character range, and cosine to each claim.
    window_owners: tuple[int, ...] = ()
    window_ranges: tuple[tuple[int, int], ...] = ()
    window_cosines: npt.NDArray[np.float64] | None = None  # (claims, windows)


def _check_vectors(vectors: npt.NDArray[np.float32], expected_rows: int) -> None:
    if vectors.ndim != 2 or vectors.shape[0] != expected_rows:
        raise EmbeddingUnavailable(
            f"inconsistent embedding model: expected {expected_rows} vectors, got shape "
            f"{tuple(vectors.shape)}"
        )
    if not np.all(np.isfinite(vectors)):
        raise EmbeddingUnavailable("inconsistent embedding model: non-finite vector values")


def window_ranges(text: str, embedder: Embedder, by_sentence: bool) -> list[tuple[int, int]]:
    """Character ranges to embed for one span.

    Every range fits the model's input window, so nothing is truncated. With ``by_sentence``
    (score model v2) each sentence is its own window, so one supporting sentence inside a long
    passage is not diluted by the rest; otherwise the span is one window unless it is longer
    than the model's input (the seed's embedding of the whole span).
    """
    if not by_sentence:
        return embedder.window_ranges(text)
    ranges: list[tuple[int, int]] = []
    for sentence in split_sentences(text) or [Sentence(text, 0, len(text))]:
        for start, end in embedder.window_ranges(sentence.text):
            ranges.append((sentence.start + start, sentence.start + end))
    return ranges or [(0, len(text))]


def span_cosines(claims: Sequence[Claim], plan: Plan, embedder: Embedder) -> SpanCosines:
    """Embed claims and every truth-class span window in one call; reduce to per-span maxima.

    Long spans are embedded as overlapping windows so nothing is truncated; the best window
    counts. Cache-class spans are not embedded (they can never be candidates).
    """
    owners: list[int] = []
    ranges: list[tuple[int, int]] = []
    texts: list[str] = [c.text for c in claims]
    for prepared in plan.spans:
        if not prepared.span.truth_class:
            continue
        text = prepared.span.text
        for start, end in window_ranges(text, embedder, plan.model.sentence_windows):
            owners.append(prepared.index)
            ranges.append((start, end))
            texts.append(text[start:end])
    try:
        vectors = embedder.embed(texts)
    except ProviderError as exc:
        raise EmbeddingUnavailable(f"embedding failed: {exc}") from exc
    _check_vectors(vectors, len(texts))
    as64 = vectors.astype(np.float64)
    claim_vecs, window_vecs = as64[: len(claims)], as64[len(claims) :]
    window_cos = claim_vecs @ window_vecs.T if ranges else np.zeros((len(claims), 0))
    n_spans = len(plan.spans)
    cosines = np.full((len(claims), n_spans), -1.0, dtype=np.float64)
    best: list[list[tuple[int, int]]] = [
        [(0, len(p.span.text)) for p in plan.spans] for _ in claims
    ]
    best_vec: list[list[npt.NDArray[np.float32] | None]] = [[None] * n_spans for _ in claims]
    # Score model v7: a claim that states a finding takes its best window among a span's
    # windows that state one too, when the span has any (the finding gate caps the rest).
    aims = [False] * len(ranges)
    finding_claims = [False] * len(claims)
    if plan.model.reads_findings:
        aims = [no_finding(t, plan.model) for t in texts[len(claims) :]]
        finding_claims = [not claim_states_no_finding(c.text, plan.model) for c in claims]
    with_finding = {owner for owner, aim in zip(owners, aims, strict=True) if not aim}
    for w, (owner, rng) in enumerate(zip(owners, ranges, strict=True)):
        column = window_cos[:, w]
        passed_over = aims[w] and owner in with_finding
        for c in range(len(claims)):
            if (
                passed_over
                and finding_claims[c]
                and not may_copy_window(claims[c], texts[len(claims) + w], plan.model)
            ):
                continue
            if column[c] > cosines[c, owner]:  # strictly greater: first window wins ties
                cosines[c, owner] = column[c]
                best[c][owner] = rng
                best_vec[c][owner] = vectors[len(claims) + w]
    return SpanCosines(
        cosines,
        best,
        vectors[: len(claims)],
        best_vec,
        tuple(owners),
        tuple(ranges),
        window_cos,
    )


def score_all(
    claims: Sequence[Claim],
    evidence: Sequence[EvidenceSpan],
    embedder: Embedder | None,
    model: ScoreModel,
    checker: EntailmentChecker | None = None,
) -> tuple[list[ClaimVerdict], str]:
    """Verdicts for atomic claims, and the ``verification`` status string. ``checker`` decides
    the borderline claims of a score model with escalation (v3). A denial
    (:attr:`Claim.negates`) is scored as the proposition it negates and its verdict turned
    round (:func:`spanproof.verify.yes_no.turned_verdict`)."""
    if not claims:
        return [], VERIFIED
    if any(c.negates for c in claims):
        scored = [
            dataclasses.replace(c, text=c.negates, negates="") if c.negates else c for c in claims
        ]
        verdicts, status = score_all(scored, evidence, embedder, model, checker)
        if not verdicts:  # unavailable
            return verdicts, status
        turned = [
            turned_verdict(v, c) if c.negates else v for v, c in zip(verdicts, claims, strict=True)
        ]
        return turned, status
    if model.visible_evidence:
        views = _visible_views(evidence)
        if views:
            seen = _read_through(evidence, views)
            verdicts, status = score_all(claims, seen, embedder, model, checker)
            return [_restored(v, views) for v in verdicts], status
    plan = prepare_plan(evidence, model)
    if not plan.truth_indices:
        # No truth-class span: every claim is unsupported by construction, no embedding.
        return [unsupported_verdict(c) for c in claims], VERIFIED
    if embedder is None:
        return [], "unavailable: no embedder configured"
    try:
        sims = span_cosines(claims, plan, embedder)
        checks = edit_checks(claims, plan, sims, embedder) if model.edit_check else None
    except EmbeddingUnavailable as exc:
        return [], f"unavailable: {exc.args[0]}"
    verdicts = [
        score_claim(claim, sims.cosines[i], plan, sims.windows[i], checks[i] if checks else None)[0]
        for i, claim in enumerate(claims)
    ]
    if not model.uses_checker:
        return verdicts, VERIFIED
    return _read_by_checker(claims, verdicts, plan, sims, checker, model, checks)


def evidence_as_read(evidence: Sequence[EvidenceSpan], model: ScoreModel) -> list[EvidenceSpan]:
    """The evidence as ``model``'s scoring reads it: under v72 each span without its invisible
    format characters (its erased ranges moved with its text); as given before v72. What a
    trace records of the windows scoring embedded is in these texts' offsets."""
    return _read_through(evidence, _visible_views(evidence) if model.visible_evidence else {})


def _read_through(
    evidence: Sequence[EvidenceSpan], views: Mapping[str, VisibleText]
) -> list[EvidenceSpan]:
    """Each span as its view reads it (as given when it has none)."""
    return [_visible_span(s, views[s.id]) if s.id in views else s for s in evidence]


def _visible_views(evidence: Sequence[EvidenceSpan]) -> dict[str, VisibleText]:
    """Score model v72: each span with invisible format characters, by id, as read without
    them (a span whose id another span shares is read as given: a verdict names its span by
    id)."""
    counts = Counter(s.id for s in evidence)
    return {
        s.id: view
        for s in evidence
        if counts[s.id] == 1 and (view := visible_text(s.text)) is not None
    }


def _visible_span(span: EvidenceSpan, view: VisibleText) -> EvidenceSpan:
    """``span`` with its text as ``view`` reads it, its erased ranges moved with it."""
    erased = tuple(ErasedRange(view.visible(r.start), view.visible(r.end)) for r in span.erased)
    return dataclasses.replace(span, text=view.text, erased=erased)


def _restored(verdict: ClaimVerdict, views: Mapping[str, VisibleText]) -> ClaimVerdict:
    """A verdict scored on visible texts, its offsets into the evidence as given: the best
    span, the judge's window and each edit's evidence words (``evidence_text`` the given
    text's slice)."""

    def ref(r: SpanRef) -> SpanRef:
        view = views.get(r.id)
        return r if view is None else SpanRef(r.id, *view.range(r.start, r.end))

    def edit(e: Edit) -> Edit:
        view = views.get(e.evidence_id)
        if view is None:
            return e
        start, end = view.range(e.evidence_start, e.evidence_end)
        return dataclasses.replace(
            e, evidence_start=start, evidence_end=end, evidence_text=view.original[start:end]
        )

    judge = verdict.judge
    if judge is not None:
        judge = dataclasses.replace(judge, window=tuple(ref(r) for r in judge.window))
    return dataclasses.replace(
        verdict,
        best_span=None if verdict.best_span is None else ref(verdict.best_span),
        edits=tuple(edit(e) for e in verdict.edits),
        judge=judge,
    )


def _read_by_checker(
    claims: Sequence[Claim],
    verdicts: list[ClaimVerdict],
    plan: Plan,
    sims: SpanCosines,
    checker: EntailmentChecker | None,
    model: ScoreModel,
    checks: Sequence[Mapping[int, EditCheck]] | None,
) -> tuple[list[ClaimVerdict], str]:
    """The rules' verdicts as a model's checker reads them: v57's judge vetoes what the rules
    support (v58's also what the polarity gate reverses), v5's judge and combiner decide every
    claim, v3's cross-encoder decides the borderline ones; with the ``verification`` status
    (unavailable without the checker)."""
    judged = model.reads_judge
    what = "judge" if judged else "entailment checker"
    if checker is None:
        return [], f"unavailable: score model {model.name} needs {'a' if judged else 'an'} {what}"
    if model.role_bindings and not isinstance(checker, SentenceParser):
        return [], f"unavailable: score model {model.name} needs a sentence parser with its judge"
    try:
        if model.judge_veto is not None:
            verdicts = veto_all(claims, verdicts, plan, sims, checker, model, checks)
        else:
            decide = judge_all if judged else _escalate
            verdicts = decide(claims, verdicts, plan, sims, checker, model)
    except ProviderError as exc:
        return [], f"unavailable: {what} failed: {exc}"
    if model.role_bindings:
        assert isinstance(checker, SentenceParser)
        verdicts = read_roles(claims, verdicts, plan, checker, model, checks)
    return verdicts, VERIFIED


def read_roles(
    claims: Sequence[Claim],
    verdicts: list[ClaimVerdict],
    plan: Plan,
    parser: SentenceParser,
    model: ScoreModel,
    checks: Sequence[Mapping[int, EditCheck]] | None = None,
) -> list[ClaimVerdict]:
    """Score model v71: every claim still ``supported`` after the judge's veto is read with its
    window by the parser (all texts in one ``parse`` call) — but for a copy of its window with
    words only dropped (``checks``: the edit check's reading, which reads what a deletion
    drops), which moves no one — and one that gives the window's act to someone else
    (:func:`~spanproof.verify.roles.role_conflict`: subject and object traded, another name in
    a role, "from" for "to"; a name it moves must be one the window writes) is
    ``unsupported``, recorded as the substitution ``unsupported: roles swapped`` between the
    two arguments; its score is capped like a gate's. Under v73 (``contrast_splices``) a claim
    whose roles are the window's and that joins one side of a contrast in it to the other
    side's thing (:func:`~spanproof.verify.splices.contrast_splice`) is ``unsupported`` the
    same way, recorded as ``unsupported: contrast spliced``."""
    spans = {p.span.id: p.span for p in plan.spans}
    index = {p.span.id: p.index for p in plan.spans}

    def cut_only(i: int, ref: SpanRef) -> bool:
        check = checks[i].get(index[ref.id]) if checks else None
        if check is None or not check.near_copy:
            return False
        if model.contrast_splices and any(
            contrasts(e.evidence_text) for e in check.edits
        ):  # a cut across "but" can join one side's act to the other's thing
            return False
        return all(e.op == "deletion" for e in check.edits)

    rows = [
        i
        for i, v in enumerate(verdicts)
        if v.verdict is Verdict.SUPPORTED
        and v.best_span is not None
        and v.best_span.id in spans
        and not cut_only(i, v.best_span)
    ]
    if not rows:
        return verdicts
    texts: list[str] = []
    for i in rows:
        ref = verdicts[i].best_span
        assert ref is not None
        texts += [blank_citations(claims[i].scored_text), spans[ref.id].text[ref.start : ref.end]]
    parsed = parser.parse(texts)
    out = list(verdicts)
    for k, i in enumerate(rows):
        ref = verdicts[i].best_span
        assert ref is not None
        span = spans[ref.id]
        found = _misread(parsed[2 * k], parsed[2 * k + 1], model)
        if found is None:
            continue
        claim = claims[i].scored_text
        ((cs, ce), (ss, se)), why = found
        edit = Edit(
            "substitution", cs, ce, claim[cs:ce], span.id, ref.start + ss, ref.start + se,
            span.text[ref.start + ss : ref.start + se], why,
        )  # fmt: skip
        out[i] = dataclasses.replace(
            verdicts[i],
            verdict=Verdict.UNSUPPORTED,
            score=min(verdicts[i].score, model.gate_cap),
            edits=(edit,),
        )
    return out


def _misread(
    claim: Parsed, span: Parsed, model: ScoreModel
) -> tuple[tuple[tuple[int, int], tuple[int, int]], str] | None:
    """What the parse of a claim and its window shows the claim gets wrong, as (its range in
    the claim, its range in the window) and the edit's judgement; None when nothing."""
    roles = role_conflict(claim, span)
    if roles is not None:
        return (roles.claim_range, roles.span_range), "unsupported: roles swapped"
    if model.contrast_splices:
        spliced = contrast_splice(claim, span)
        if spliced is not None:
            return (spliced.claim_range, spliced.span_range), "unsupported: contrast spliced"
    return None


def _escalate(
    claims: Sequence[Claim],
    verdicts: list[ClaimVerdict],
    plan: Plan,
    sims: SpanCosines,
    checker: EntailmentChecker,
    model: ScoreModel,
) -> list[ClaimVerdict]:
    """Borderline verdicts decided by the checker on (claim, best span window) (score model v3)."""
    index = {p.span.id: p.index for p in plan.spans}
    rows: list[int] = []
    pairs: list[CheckerPair] = []
    for i, verdict in enumerate(verdicts):
        if not needs_escalation(verdict, model):
            continue
        assert verdict.best_span is not None
        s = index[verdict.best_span.id]
        window_vec = sims.window_vectors[i][s]
        if window_vec is None:
            continue
        text = plan.spans[s].span.text[verdict.best_span.start : verdict.best_span.end]
        rows.append(i)
        pairs.append((claims[i].text, text, sims.claim_vectors[i], window_vec))
    if not pairs:
        return verdicts
    probabilities = checker.check(pairs)
    out = list(verdicts)
    for row, probs in zip(rows, probabilities, strict=True):
        out[row] = escalated(out[row], [float(p) for p in probs])
    return out


@dataclass(frozen=True, slots=True)
class _JudgePairs:
    """The claims a judge reads in one call: their rows, windows, prepared claims and pairs."""

    rows: list[int]
    windows: list[JudgeWindow]
    prepared: dict[int, PreparedClaim]
    pairs: list[CheckerPair]


def _judge_pairs(
    claims: Sequence[Claim],
    verdicts: Sequence[ClaimVerdict],
    plan: Plan,
    sims: SpanCosines,
    model: ScoreModel,
    wanted: Callable[[int, ClaimVerdict], bool],
) -> _JudgePairs:
    """Each wanted claim's evidence window (:func:`~spanproof.verify.judging.choose_window`
    over its candidate spans) and the (claim, window) pair the judge reads. A claim with no
    window (no truth-class evidence) and an ``evidence_redacted`` verdict are left out."""
    assert sims.window_cosines is not None
    span_texts = {p.index: p.span.text for p in plan.spans}
    positions: list[int] = []
    seen: dict[int, int] = {}
    for owner in sims.window_owners:
        positions.append(seen.get(owner, 0))
        seen[owner] = positions[-1] + 1
    lexical_cache: dict[int, list[str]] = {}

    def lexical_tokens(w: int) -> list[str]:
        if w not in lexical_cache:
            start, end = sims.window_ranges[w]
            text = span_texts[sims.window_owners[w]][start:end]
            lexical_cache[w] = lexical_terms(token_texts(text), model)
        return lexical_cache[w]

    out = _JudgePairs([], [], {}, [])
    for i, verdict in enumerate(verdicts):
        if verdict.best_span is None or verdict.verdict is Verdict.EVIDENCE_REDACTED:
            continue
        if not wanted(i, verdict):
            continue
        prepared = prepare_claim(claims[i], plan)
        cited = resolve_markers(claims[i].cited_markers, plan)
        candidates = set(select_candidates(sims.cosines[i], cited, plan))
        ids = [w for w, owner in enumerate(sims.window_owners) if owner in candidates]
        found = [
            WindowCandidate(
                positions[w],
                sims.window_owners[w],
                sims.window_ranges[w][0],
                sims.window_ranges[w][1],
                float(sims.window_cosines[i, w]),
            )
            for w in ids
        ]
        window = choose_window(
            prepared.weighted, found, [lexical_tokens(w) for w in ids], span_texts, model.beta
        )
        if window is None:
            continue
        best = plan.spans[window.parts[0][0]]
        vector = sims.window_vectors[i][best.index]
        out.rows.append(i)
        out.windows.append(window)
        out.prepared[i] = prepared
        out.pairs.append(
            (
                claims[i].text,
                window.text,
                sims.claim_vectors[i],
                vector if vector is not None else sims.claim_vectors[i],
            )
        )
    return out


def _window_refs(window: JudgeWindow, plan: Plan) -> tuple[SpanRef, ...]:
    return tuple(SpanRef(plan.spans[s].span.id, start, end) for s, start, end in window.parts)


def veto_all(
    claims: Sequence[Claim],
    verdicts: list[ClaimVerdict],
    plan: Plan,
    sims: SpanCosines,
    checker: EntailmentChecker,
    model: ScoreModel,
    checks: Sequence[Mapping[int, EditCheck]] | None,
) -> list[ClaimVerdict]:
    """The judge's veto (score model v57): every claim the rules call ``supported`` is read by
    the judge against its evidence window (as v5 chooses it), all pairs in one ``check`` call,
    but for a faithful near copy of the span its verdict rests on (``checks``: the edit
    check's reading, :func:`~spanproof.verify.scoring.faithful_copy`); one whose probability
    of being entailed is below ``model.judge_veto`` becomes ``partial`` ("the evidence may
    support this; a person should look"). With ``model.contradiction_veto`` (v58) the judge
    also reads each claim the polarity gate calls ``contradicted`` (not one the edit check
    named word by word), and one it reads as entailed with a probability at least that floor
    becomes ``partial``. Its score stays the rules'; the judge's reading is recorded
    (``judge``) on every claim it read, vetoed or not."""
    floor = model.judge_veto
    assert floor is not None
    index = {p.span.id: p.index for p in plan.spans}

    def wanted(i: int, verdict: ClaimVerdict) -> bool:
        if verdict.best_span is None:
            return False
        if verdict.verdict is Verdict.CONTRADICTED:  # v58: what the polarity gate reverses
            return model.contradiction_veto is not None and not _edit_contradicts(verdict)
        if verdict.verdict is not Verdict.SUPPORTED:
            return False
        return not faithful_copy(checks[i] if checks else None, index[verdict.best_span.id])

    read = _judge_pairs(claims, verdicts, plan, sims, model, wanted)
    if not read.pairs:
        return verdicts
    probabilities = checker.check(read.pairs)
    out = list(verdicts)
    for row, window, probs in zip(read.rows, read.windows, probabilities, strict=True):
        triple = (float(probs[0]), float(probs[1]), float(probs[2]))
        doubts = out[row].verdict.value
        record = JudgeRecord(
            window=_window_refs(window, plan),
            probabilities=triple,
            probability=triple[0],
            veto=model.contradiction_veto if doubts == "contradicted" else floor,
            doubts=doubts,
        )
        out[row] = dataclasses.replace(
            out[row], verdict=Verdict.PARTIAL if record.vetoed else out[row].verdict, judge=record
        )
    return out


def _edit_contradicts(verdict: ClaimVerdict) -> bool:
    """Whether the edit check, reading a near copy word by word, named the contradiction."""
    return any(edit.status == "contradicted" for edit in verdict.edits)


def judge_all(
    claims: Sequence[Claim],
    verdicts: list[ClaimVerdict],
    plan: Plan,
    sims: SpanCosines,
    checker: EntailmentChecker,
    model: ScoreModel,
) -> list[ClaimVerdict]:
    """Every claim read by the judge against its evidence window; the combiner decides (v5).

    All (claim, window) pairs of the call go to the judge in one ``check`` call. A claim with no
    window (no truth-class evidence) and an ``evidence_redacted`` verdict keep their verdict.
    """
    combiner = model.combiner
    assert combiner is not None
    read = _judge_pairs(claims, verdicts, plan, sims, model, lambda i, v: True)
    rows, windows, prepared_claims, pairs = read.rows, read.windows, read.prepared, read.pairs
    if not pairs:
        return verdicts
    probabilities = checker.check(pairs)
    out = list(verdicts)
    index = {p.span.id: p.index for p in plan.spans}
    for row, window, probs in zip(rows, windows, probabilities, strict=True):
        verdict = out[row]
        assert verdict.best_span is not None
        pair = score_pair(
            prepared_claims[row],
            plan.spans[index[verdict.best_span.id]],
            float(sims.cosines[row, index[verdict.best_span.id]]),
            model,
        )
        triple = (float(probs[0]), float(probs[1]), float(probs[2]))
        gates = (verdict.numeric_gated, verdict.entity_gated, verdict.polarity_gated)
        statuses = {edit.status for edit in verdict.edits}
        edit_outcome = (
            "contradicted"
            if "contradicted" in statuses
            else "unsupported"
            if "unsupported" in statuses
            else "none"
        )
        features = feature_vector(
            triple, pair.cosine, pair.lexical, pair.fused, gates, edit_outcome
        )
        probability = combine(features, combiner)
        decided = judged_verdict(
            probability,
            triple,
            combiner,
            capped=any(gates) or edit_outcome != "none",
            contradiction_named=verdict.verdict is Verdict.CONTRADICTED,
        )
        record = JudgeRecord(
            window=_window_refs(window, plan),
            probabilities=triple,
            probability=probability,
            features=tuple(zip(FEATURES, features, strict=True)),
        )
        out[row] = dataclasses.replace(verdict, verdict=decided, score=probability, judge=record)
    return out


def checker_note(checker: EntailmentChecker | None) -> str:
    """What the report says when the configured judge failed and another judged instead."""
    note = getattr(checker, "fallback_note", None)
    return note if isinstance(note, str) else ""


def edit_phrases(claims: Sequence[Claim], plan: Plan, sims: SpanCosines) -> list[str]:
    """The phrases the edit check (score model v4) embeds, in the order it embeds them."""
    return phrase_texts(
        alignment
        for i, claim in enumerate(claims)
        for alignment in edit_alignments(claim, sims.cosines[i], plan, sims.windows[i]).values()
    )


def edit_checks(
    claims: Sequence[Claim], plan: Plan, sims: SpanCosines, embedder: Embedder
) -> list[dict[int, EditCheck]]:
    """Score model v4's edit check for every claim and candidate span it nearly copies.

    Phase one (pure) aligns each claim to its candidate spans; the substituted phrases it cannot
    judge by rule are embedded here, bare (no context words: ``edits.CONTEXT_WORDS``), all in
    one call after the claims and windows, and phase two judges them by their cosine. Replay
    serves the call from the phrase vectors a trace records (``embeddings.phrases``).
    """
    alignments = [
        edit_alignments(claim, sims.cosines[i], plan, sims.windows[i])
        for i, claim in enumerate(claims)
    ]
    texts = phrase_texts(a for by_span in alignments for a in by_span.values())
    vectors: dict[str, npt.NDArray[np.float32]] = {}
    if texts:
        try:
            embedded = embedder.embed(texts)
        except ProviderError as exc:
            raise EmbeddingUnavailable(f"embedding failed: {exc}") from exc
        _check_vectors(embedded, len(texts))
        vectors = dict(zip(texts, embedded, strict=True))
    threshold = plan.model.edit_similarity_min
    return [
        {i: judge_with_vectors(a, vectors, threshold) for i, a in by_span.items()}
        for by_span in alignments
    ]


def checker_model(model: ScoreModel, checker: EntailmentChecker | None, status: str) -> str:
    """The checker's model id for the report: set when it could decide claims (v3), else ""."""
    if not model.uses_checker or checker is None or status != VERIFIED:
        return ""
    return checker.model_id


def documents(evidence: Sequence[EvidenceSpan]) -> dict[str, list[str]]:
    """The ids of the spans of each numbered document the evidence came in (``source``'s
    ``document``: the proxy's message evidence labels them), by number."""
    out: dict[str, list[str]] = {}
    for span in evidence:
        label = span.source.get("document") if span.source else None
        if label is not None:
            out.setdefault(str(label), []).append(span.id)
    return out


def verify_draft(
    draft: str,
    evidence: Sequence[EvidenceSpan],
    *,
    decomposer: Decomposer,
    embedder: Embedder | None,
    model: ScoreModel,
    policy: Policy = Policy.FLAG,
    checker: EntailmentChecker | None = None,
    question: str = "",
) -> Report:
    """Decompose ``draft``, score every claim, and apply ``policy``.

    A table row's claim is read with its table's header
    (:func:`spanproof.verify.tables.with_table_context`). ``question``, when the draft answers
    one: a draft that opens with a bare "Yes."/"No." to a question that is a proposition has
    that word checked as the proposition or its negation
    (:func:`spanproof.verify.yes_no.with_answer_claim`).

    When verification is unavailable the draft is delivered unchanged under ``flag`` and withheld
    (``delivered = None``) under ``redact``: unverified text is never passed off as redacted.
    """

    def report(status: str, verdicts: Sequence[ClaimVerdict], delivered: str | None) -> Report:
        return Report(
            score_model=model.name,
            embed_model=embedder.model_id if embedder is not None and status == VERIFIED else "",
            verification=status,
            claims=tuple(verdicts),
            delivered=delivered,
            draft=draft,
            policy=policy,
            decompose_model=decomposer.model_id,
            embed_model_hash=(
                embedder.model_hash if embedder is not None and status == VERIFIED else ""
            ),
            checker_model=checker_model(model, checker, status),
            checker_note=checker_note(checker) if status == VERIFIED else "",
        )

    withheld = draft if policy is Policy.FLAG else None
    if not draft.strip():
        return report(VERIFIED, (), draft)
    try:
        claims = decomposer.decompose(draft)
    except DecomposeError as exc:
        return report(f"unavailable: decomposition failed: {exc}", (), withheld)
    claims = with_table_context(draft, claims)
    if question:
        claims = with_answer_claim(question, draft, claims)
    claims = markers_as_ids(draft, claims, {span.id for span in evidence}, documents(evidence))
    verdicts, status = score_all(claims, evidence, embedder, model, checker)
    if status != VERIFIED:
        return report(status, (), withheld)
    return report(status, verdicts, deliver(draft, verdicts, policy))
