"""The verifying chat proxy (``POST /v1/chat/completions``): any chat model, its answers checked.

A request in OpenAI's Chat Completions shape goes to the upstream as it is (only the
``spanproof`` options are taken out). The evidence is what the model was given: the request's
system, developer and user messages and tool results, each split into sentence spans with ids
``m<message index>.s<sentence number>``. With ``"spanproof": {"retrieve": true}`` (or the
proxy's default) the evidence is instead a plan from the store for the last user message,
injected as a system message after the request's leading system messages, worded as
``/v1/generate`` words it (spans ``S1…Sn``).

The answer is decomposed and verified against that evidence, delivered per the policy (``flag``
or ``redact``, SPEC §4.6), and recorded in a ``generation`` trace, as ``/v1/generate`` does.
The reply is the upstream's completion with the delivered text as its message and a
``spanproof`` object (outcome, counts, claims with verdicts and spans, trace id).

Streaming holds each sentence back until it is verified: a sentence is sent (flagged or
redacted) once the next one has begun or the upstream has finished, then a last chunk carries
the finish reason and the ``spanproof`` object. Verification is per sentence; a claim's score
never depends on the other claims, so the trace replays exactly as a whole-answer one.
"""

from __future__ import annotations

import bisect
import json
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from spanproof.core.checker import EntailmentChecker
from spanproof.core.errors import InvalidInputError
from spanproof.core.models import ClaimVerdict, EvidenceSpan, Policy, Report
from spanproof.core.outcome import headline
from spanproof.core.ports import Decomposer, Embedder
from spanproof.core.trace import Trace, TraceStore, canonical_json, plan_hash, scrub, sha256_hex
from spanproof.core.upstream import ChatUpstream, UpstreamError, message_text, openai_error
from spanproof.services.planning import Plan, Planner
from spanproof.services.replay import RecordingEmbedder, trace_embeddings
from spanproof.services.verification import VERIFIED, verify_draft
from spanproof.services.verification_trace import evidence_plan
from spanproof.text.sentences import split_sentences
from spanproof.verify.decompose import CLOSERS
from spanproof.verify.prompt import PROMPT_MODEL, build_generation_messages
from spanproof.verify.scoring import ScoreModel

__all__ = ["EVIDENCE_ROLES", "ChatProxy", "ProxyRequest", "message_evidence"]

#: The roles whose messages are evidence: what the model was told, never what it said.
EVIDENCE_ROLES = frozenset({"system", "developer", "user", "tool", "function"})
#: ``plan_model`` of evidence taken from the request's messages.
MESSAGES_PLAN_MODEL = "messages-v1"
#: ``prompt_model`` of a request sent upstream as the caller wrote it.
PASSTHROUGH_PROMPT = "passthrough"
_OPTIONS = frozenset({"retrieve", "policy"})


@dataclass(frozen=True, slots=True)
class ProxyRequest:
    """A request made ready: what goes upstream and what the answer is checked against."""

    upstream_body: dict[str, Any]
    evidence: tuple[EvidenceSpan, ...]
    plan: Plan | None
    question: str
    policy: Policy
    stream: bool

    @property
    def prompt_hash(self) -> str:
        return sha256_hex(canonical_json(self.upstream_body.get("messages", [])))


def message_evidence(messages: Sequence[Mapping[str, Any]]) -> list[EvidenceSpan]:
    """The sentences of the evidence messages as spans ``m<i>.s<j>`` (``i`` the message's index,
    ``j`` from 1); each span's source names the role, the message and the offsets in its text.

    A question ("Question: Did X lower Y?") asserts nothing, so it is no evidence: otherwise a
    "Yes." checked as the question's proposition, or a claim that restates the question, would
    be supported by the question itself. Its number ``j`` is skipped, so the others keep theirs.

    A sentence after a document's label at the start of a line ("[2] …", "Document 2: …") has
    ``document`` ``"2"`` in its source: an answer citing "[2]" cites that document's sentences
    (:func:`spanproof.verify.decompose.markers_as_ids`). In a message with no such label, a
    numbered list whose items are numbered 1, 2, 3 … in order ("1. …", "2) …") numbers its
    documents the same way (:func:`list_labels`).
    """
    spans: list[EvidenceSpan] = []
    for i, message in enumerate(messages):
        role = message.get("role")
        if role not in EVIDENCE_ROLES:
            continue
        text = message_text(message)
        labels = [(m.start(), m.group(1) or m.group(2)) for m in _DOCUMENT_LABEL.finditer(text)]
        labels = labels or list_labels(text)
        starts = [at for at, _ in labels]
        for j, sentence in enumerate(split_sentences(text), start=1):
            if sentence.text.rstrip(CLOSERS).endswith("?"):
                continue
            source: dict[str, Any] = {
                "role": role, "message": i, "start": sentence.start, "end": sentence.end,
            }  # fmt: skip
            at = bisect.bisect_right(starts, sentence.start) - 1
            if at >= 0:
                source["document"] = labels[at][1]
            spans.append(EvidenceSpan(id=f"m{i}.s{j}", text=sentence.text, source=source))
    return spans


#: A numbered document in a prompt, at the start of a line: "[1] …", "Document 2: …", "Source 3
#: -", "Passage 4." (a model's answer cites it as "[1]"; the sentences after it, up to the next
#: label, are that document's).
_DOCUMENT_LABEL = re.compile(
    r"(?m)^[ \t]*(?:\[(\d{1,3})\]|(?:documents?|docs?|sources?|passages?|contexts?|"
    r"references?|refs?)\s*#?\s*(\d{1,3})\s*[:.)\]-])",
    re.IGNORECASE,
)


#: An item of a numbered list, at the start of a line: "1. …", "2) …".
_LIST_ITEM = re.compile(r"(?m)^[ \t]*(\d{1,3})[.)][ \t]+(?=\S)")


def list_labels(text: str) -> list[tuple[int, str]]:
    """Where the items of ``text``'s numbered list start, with their numbers, when its items
    are numbered 1, 2, 3 … in order (a prompt that lists its documents so: an answer citing
    "[2]" means the second item); empty otherwise ("1. …" then "3. …"), and for a list of one
    item.
    """
    items = [(m.start(), m.group(1)) for m in _LIST_ITEM.finditer(text)]
    if len(items) < 2 or [int(n) for _, n in items] != list(range(1, len(items) + 1)):
        return []
    return items


def _last_user_text(messages: Sequence[Mapping[str, Any]]) -> str:
    for message in reversed(messages):
        if message.get("role") == "user":
            return message_text(message)
    return ""


def _with_plan(messages: list[dict[str, Any]], question: str, plan: Plan) -> list[dict[str, Any]]:
    """``messages`` with the plan as a system message after the leading system messages."""
    system, user = build_generation_messages(question, plan.evidence)
    injected = {"role": "system", "content": f"{system.content}\n{user.content}"}
    at = 0
    while at < len(messages) and messages[at].get("role") in ("system", "developer"):
        at += 1
    return [*messages[:at], injected, *messages[at:]]


@dataclass
class _Piece:
    """A verified part of a streamed answer (one sentence, with the space before it)."""

    report: Report
    offset: int


@dataclass
class _Stream:
    """What a streamed answer has gathered so far."""

    meta: dict[str, Any] = field(default_factory=dict)
    draft: str = ""
    sent: int = 0  # draft[:sent] has been verified and delivered
    delivered: list[str] = field(default_factory=list)
    pieces: list[_Piece] = field(default_factory=list)
    finish_reason: str | None = None
    usage: dict[str, Any] | None = None
    started: bool = False


class ChatProxy:
    """Forwards chat completions upstream and verifies the answers.

    Args:
        upstream: the chat model behind the proxy.
        traces: where traces go; None keeps none (``trace_id`` is then None).
        embedder: one model for verification (and retrieval); None makes verification
            unavailable.
        decomposer: cuts answers into claims.
        score_model: the scoring rules.
        policy: the default delivery policy.
        planner: plans evidence from the store for ``retrieve``; None refuses ``retrieve``.
        checker: the entailment checker of a score model that reads one (v3, v5).
        retrieve: plan from the store for every request that does not say otherwise.
    """

    def __init__(
        self,
        *,
        upstream: ChatUpstream,
        traces: TraceStore | None,
        embedder: Embedder | None,
        decomposer: Decomposer,
        score_model: ScoreModel,
        policy: Policy = Policy.FLAG,
        planner: Planner | None = None,
        checker: EntailmentChecker | None = None,
        retrieve: bool = False,
    ) -> None:
        self.upstream = upstream
        self.traces = traces
        self.embedder = embedder
        self.decomposer = decomposer
        self.score_model = score_model
        self.policy = policy
        self.planner = planner
        self.checker = checker
        self.retrieve = retrieve

    def prepare(self, body: Mapping[str, Any]) -> ProxyRequest:
        """Check ``body``, take out its ``spanproof`` options, plan when asked.

        Raises:
            InvalidInputError: no messages, ``n`` other than 1, or bad ``spanproof`` options.
        """
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise InvalidInputError("'messages' must be a non-empty list of messages")
        if not all(isinstance(m, dict) for m in messages):
            raise InvalidInputError("every item of 'messages' must be an object")
        if body.get("n") not in (None, 1):
            raise InvalidInputError("spanproof verifies one choice: 'n' must be 1")
        retrieve, policy = self._options(body.get("spanproof"))
        upstream_body = {k: v for k, v in body.items() if k != "spanproof"}
        question = _last_user_text(messages)
        plan = None
        if retrieve:
            if self.planner is None:
                raise InvalidInputError(
                    "'retrieve' needs a store to plan from; this proxy has none"
                )
            if not question.strip():
                raise InvalidInputError("'retrieve' plans for the last user message: send one")
            plan = self.planner.plan(question)
            upstream_body["messages"] = _with_plan(messages, question, plan)
        evidence = tuple(plan.evidence) if plan is not None else tuple(message_evidence(messages))
        return ProxyRequest(
            upstream_body=upstream_body,
            evidence=evidence,
            plan=plan,
            question=question,
            policy=policy,
            stream=body.get("stream") is True,
        )

    def _options(self, options: Any) -> tuple[bool, Policy]:
        if options is None:
            return self.retrieve, self.policy
        if not isinstance(options, dict) or not set(options) <= _OPTIONS:
            raise InvalidInputError("'spanproof' takes an object with 'retrieve' and 'policy'")
        retrieve = options.get("retrieve", self.retrieve)
        policy = options.get("policy", self.policy.value)
        if not isinstance(retrieve, bool) or policy not in ("flag", "redact"):
            raise InvalidInputError(
                "'spanproof.retrieve' must be true or false, 'spanproof.policy' flag or redact"
            )
        return retrieve, Policy(policy)

    def complete(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The upstream's completion of ``body``, its message delivered per the policy, with
        the ``spanproof`` object.

        Raises:
            InvalidInputError: see :meth:`prepare`.
            UpstreamError: the upstream failed (its status and error object are kept).
        """
        request = self.prepare(body)
        reply = self.upstream.complete(request.upstream_body)
        choices = reply.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            error = openai_error(
                "the upstream answered a completion without choices", "upstream_error"
            )
            raise UpstreamError(502, error, retryable=False)
        message = dict(choices[0].get("message") or {})
        content = message.get("content")
        draft = content if isinstance(content, str) else ""
        recorder = RecordingEmbedder(self.embedder) if self.embedder is not None else None
        report = self._verify(draft, request, recorder)
        usage = reply.get("usage") if isinstance(reply.get("usage"), dict) else None
        spanproof = self._record(request, report, recorder, str(reply.get("model", "")), usage)
        if isinstance(content, str):
            message["content"] = report.delivered if report.delivered is not None else ""
        return {**reply, "choices": [{**choices[0], "message": message}], "spanproof": spanproof}

    def stream(self, body: Mapping[str, Any]) -> Iterator[str]:
        """Server-sent events answering ``body``: ``chat.completion.chunk`` objects, one per
        verified sentence, a last one with the ``spanproof`` object, then ``[DONE]``.

        The upstream is called before this returns, so its refusal raises here.

        Raises:
            InvalidInputError: see :meth:`prepare`.
            UpstreamError: the upstream refused the request.
        """
        request = self.prepare(body)
        chunks = self.upstream.stream(request.upstream_body)
        return self._events(request, chunks)

    def _events(self, request: ProxyRequest, chunks: Iterator[dict[str, Any]]) -> Iterator[str]:
        state = _Stream(
            meta={"created": int(time.time()), "model": request.upstream_body.get("model", "")}
        )
        recorder = RecordingEmbedder(self.embedder) if self.embedder is not None else None
        try:
            for chunk in chunks:
                yield from self._take(state, chunk)
                while (end := _sentence_end(state.draft, state.sent)) > state.sent:
                    yield from self._deliver(state, end, request, recorder)
        except UpstreamError as exc:
            yield _event({"error": exc.error})
            return
        yield from self._start(state)
        if state.sent < len(state.draft):
            yield from self._deliver(state, len(state.draft), request, recorder)
        report = self._combine(state, request)
        pieces = [len(p.report.claims) for p in state.pieces]
        spanproof = self._record(
            request, report, recorder, str(state.meta["model"]), state.usage, pieces
        )
        last = self._chunk(state, {}, state.finish_reason or "stop")
        if state.usage is not None:
            last["usage"] = state.usage
        yield _event({**last, "spanproof": spanproof})
        yield "data: [DONE]\n\n"

    def _take(self, state: _Stream, chunk: dict[str, Any]) -> Iterator[str]:
        """Read one upstream chunk into ``state``; yields the opening chunk once."""
        for key in ("id", "created", "model", "system_fingerprint"):
            if chunk.get(key) is not None:
                state.meta[key] = chunk[key]
        if isinstance(chunk.get("usage"), dict):
            state.usage = chunk["usage"]
        choices = chunk.get("choices")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            delta = choices[0].get("delta")
            content = delta.get("content") if isinstance(delta, dict) else None
            if isinstance(content, str):
                state.draft += content
            if choices[0].get("finish_reason"):
                state.finish_reason = str(choices[0]["finish_reason"])
        yield from self._start(state)

    def _start(self, state: _Stream) -> Iterator[str]:
        if not state.started:
            state.started = True
            yield _event(self._chunk(state, {"role": "assistant", "content": ""}, None))

    def _deliver(
        self, state: _Stream, end: int, request: ProxyRequest, recorder: RecordingEmbedder | None
    ) -> Iterator[str]:
        """Verify ``draft[sent:end]`` and send it as the policy delivers it."""
        piece = state.draft[state.sent : end]
        report = self._verify(piece, request, recorder, first=state.sent == 0)
        state.pieces.append(_Piece(report, state.sent))
        state.sent = end
        if report.delivered:
            state.delivered.append(report.delivered)
            yield _event(self._chunk(state, {"content": report.delivered}, None))

    def _chunk(self, state: _Stream, delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
        return {
            **{"id": "", **state.meta},
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    def _combine(self, state: _Stream, request: ProxyRequest) -> Report:
        """One report for the whole streamed answer: the pieces' claims renumbered and placed
        in the draft; unavailable (with no claims) when any piece could not be verified."""
        claims: list[ClaimVerdict] = []
        status = VERIFIED
        for piece in state.pieces:
            if piece.report.verification != VERIFIED:
                status = status if status != VERIFIED else piece.report.verification
            for claim in piece.report.claims:
                span = claim.draft_span
                moved = None if span is None else (span[0] + piece.offset, span[1] + piece.offset)
                claims.append(replace(claim, id=f"c{len(claims) + 1}", draft_span=moved))
        verified = [p.report for p in state.pieces if p.report.verification == VERIFIED]
        first = verified[0] if verified and status == VERIFIED else None
        return Report(
            score_model=self.score_model.name,
            embed_model=first.embed_model if first else "",
            verification=status,
            claims=tuple(claims) if status == VERIFIED else (),
            delivered="".join(state.delivered),
            draft=state.draft,
            policy=request.policy,
            decompose_model=self.decomposer.model_id,
            embed_model_hash=first.embed_model_hash if first else "",
            checker_model=next((r.checker_model for r in verified if r.checker_model), ""),
            checker_note=next((r.checker_note for r in verified if r.checker_note), ""),
        )

    def _verify(
        self,
        draft: str,
        request: ProxyRequest,
        recorder: RecordingEmbedder | None,
        first: bool = True,
    ) -> Report:
        """Verify ``draft``; the user's question reads a bare "Yes."/"No." that opens the
        answer (``first``: the piece that starts it), as :func:`verify_draft` does."""
        return verify_draft(
            draft,
            request.evidence,
            decomposer=self.decomposer,
            embedder=recorder,
            model=self.score_model,
            policy=request.policy,
            checker=self.checker,
            question=request.question if first else "",
        )

    def _record(
        self,
        request: ProxyRequest,
        report: Report,
        recorder: RecordingEmbedder | None,
        gen_model: str,
        usage: Mapping[str, Any] | None,
        pieces: list[int] | None = None,
    ) -> dict[str, Any]:
        """Write the trace; the ``spanproof`` object of the reply. ``pieces`` (a streamed
        answer): the claims of each piece verified as it arrived, in order, which replay
        scores the same way."""
        evidence = request.evidence
        embeddings: dict[str, Any] = {}
        if recorder is not None and report.verification == VERIFIED:
            embeddings = trace_embeddings(report.claims, evidence, recorder, self.score_model)
        plan = request.plan.to_trace() if request.plan is not None else evidence_plan(evidence)
        models = self._models(request, report, recorder, gen_model)
        trace = Trace(
            kind="generation",
            request=scrub(
                {
                    "endpoint": "/v1/chat/completions",
                    "question": request.question,
                    "model": request.upstream_body.get("model"),
                    "messages": len(request.upstream_body.get("messages", [])),
                    "stream": request.stream,
                    "retrieve": request.plan is not None,
                    "policy": request.policy.value,
                    "upstream": self.upstream.name,
                    **({"pieces": pieces} if pieces is not None else {}),
                }
            ),
            plan=plan,
            plan_hash=plan_hash(plan),
            prompt_hash=request.prompt_hash,
            models=models,
            draft=report.draft or "",
            claims=[c.to_dict() for c in report.claims],
            verification=report.verification,
            delivered=report.delivered,
            usage=_usage(usage),
            embeddings=embeddings,
            outcome=report.outcome.value,
            counts=report.counts,
        )
        stored = self.traces.append(trace) if self.traces is not None else None
        return {
            "outcome": report.outcome.value,
            "headline": headline(report.outcome, report.counts, report.verification),
            "verification": report.verification,
            "counts": report.counts,
            "policy": request.policy.value,
            "evidence": "retrieve" if request.plan is not None else "messages",
            "evidence_spans": len(evidence),
            "claims": [_claim(c, evidence) for c in report.claims],
            "models": models,
            "trace_id": stored.id if stored is not None else None,
        }

    def _models(
        self,
        request: ProxyRequest,
        report: Report,
        recorder: RecordingEmbedder | None,
        gen_model: str,
    ) -> dict[str, str]:
        embed = report.embed_model or (recorder.model_id if recorder is not None else "")
        plan = request.plan
        return {
            "gen": gen_model or str(request.upstream_body.get("model", "")),
            "decompose": self.decomposer.model_id,
            "embed": embed,
            "embed_hash": report.embed_model_hash,
            "score_model": self.score_model.name,
            "plan_model": plan.plan_model if plan is not None else MESSAGES_PLAN_MODEL,
            "prompt_model": PROMPT_MODEL if plan is not None else PASSTHROUGH_PROMPT,
            **({"checker_model": report.checker_model} if report.checker_model else {}),
            **({"checker_note": report.checker_note} if report.checker_note else {}),
        }


def _sentence_end(draft: str, sent: int) -> int:
    """The end of the first complete sentence after ``draft[:sent]`` (complete: another has
    begun after it); ``sent`` when there is none yet."""
    sentences = split_sentences(draft[sent:])
    return sent + sentences[0].end if len(sentences) > 1 else sent


def _claim(claim: ClaimVerdict, evidence: Sequence[EvidenceSpan]) -> dict[str, Any]:
    """A claim's verdict as the reply gives it: its best span with the quoted text and the
    span's source."""
    out = claim.to_dict()
    best = claim.best_span
    span = next((s for s in evidence if best is not None and s.id == best.id), None)
    if best is not None and span is not None:
        out["best_span"] = {
            **best.to_dict(),
            "quote": span.text[best.start : best.end],
            "source": span.source,
        }
    return out


def _usage(usage: Mapping[str, Any] | None) -> dict[str, int]:
    if usage is None:
        return {}
    out: dict[str, int] = {}
    for key, name in (
        ("prompt_tokens", "gen_input_tokens"),
        ("completion_tokens", "gen_output_tokens"),
    ):
        value = usage.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            out[name] = value
    return out


def _event(data: Mapping[str, Any]) -> str:
    return f"data: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n"
