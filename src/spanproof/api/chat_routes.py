"""``POST /v1/chat/completions``: the verifying OpenAI-compatible proxy (docs/proxy.md).

Errors of this route answer in OpenAI's error shape, so OpenAI clients read them as they read
OpenAI's own: ``{"error": {"message", "type", "param", "code"}}``, with the house's ``status``
and ``request_id`` beside them. An upstream's error keeps its status and its error object.
Without an upstream the route answers 503, saying what to configure. The API key check, the
body limit and the content type are the API middleware's, as for every ``/v1`` route.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, StrictBool
from starlette.concurrency import run_in_threadpool

from spanproof.api.errors import INTERNAL_MESSAGE, request_id, spanproof_status
from spanproof.api.schemas import MAX_ITEMS, OUTCOME_DESCRIPTION, VerdictCounts
from spanproof.core.errors import InvalidInputError, SpanproofError
from spanproof.core.models import Outcome
from spanproof.core.upstream import UpstreamError, openai_error
from spanproof.services.chat_proxy import ChatProxy

log = logging.getLogger("spanproof.api")

NOT_CONFIGURED = (
    "no upstream chat model is configured for /v1/chat/completions: set "
    "SPANPROOF_PROXY__UPSTREAM__KIND=openai and SPANPROOF_PROXY__UPSTREAM__BASE_URL (with "
    "SPANPROOF_PROXY__UPSTREAM__API_KEY when the endpoint needs one), or "
    "SPANPROOF_PROXY__UPSTREAM__KIND=anthropic and SPANPROOF_PROXY__UPSTREAM__API_KEY, then "
    "restart spanproof serve (see docs/proxy.md)"
)


class ChatMessageIn(BaseModel):
    """One message, as OpenAI's Chat Completions API takes it (other keys pass through)."""

    model_config = ConfigDict(extra="allow")

    role: str = Field(..., min_length=1)
    content: str | list[dict[str, Any]] | None = None


class SpanproofOptions(BaseModel):
    """What spanproof does with this request (taken out before the request goes upstream)."""

    model_config = ConfigDict(extra="forbid", strict=True)  # "yes" is no boolean

    retrieve: bool | None = Field(
        None,
        description="Verify against a plan from the store, injected before the call, instead "
        "of the request's own messages (default: the server's proxy.retrieve).",
    )
    policy: Literal["flag", "redact"] | None = Field(
        None, description="Delivery policy (default: the server's verify.policy)."
    )


class ChatCompletionRequest(BaseModel):
    """OpenAI's Chat Completions request; every key but ``spanproof`` goes upstream as sent."""

    model_config = ConfigDict(extra="allow")

    model: str = Field(..., min_length=1)
    messages: list[ChatMessageIn] = Field(..., min_length=1, max_length=MAX_ITEMS)
    stream: StrictBool = False  # "yes" or 1 read as true here went upstream as sent
    n: Literal[1] | None = Field(None, description="spanproof verifies one choice: 1 or absent.")
    spanproof: SpanproofOptions | None = None


class SpanproofResult(BaseModel):
    """What verification found in the answer, and where its trace is."""

    model_config = ConfigDict(extra="allow")

    outcome: Outcome = Field(..., description=OUTCOME_DESCRIPTION)
    headline: str
    verification: str
    counts: VerdictCounts
    policy: Literal["flag", "redact"]
    evidence: Literal["messages", "retrieve"]
    evidence_spans: int
    claims: list[dict[str, Any]]
    models: dict[str, str]
    trace_id: str | None


class ChatCompletionResponse(BaseModel):
    """The upstream's chat completion, its message delivered per the policy, and ``spanproof``."""

    model_config = ConfigDict(extra="allow")

    id: str
    object: str
    created: int
    model: str
    choices: list[dict[str, Any]]
    usage: dict[str, Any] | None = None
    spanproof: SpanproofResult


class OpenAIError(BaseModel):
    """OpenAI's error object; ``param`` and ``code`` are absent from the errors the API
    middleware answers before the route (API key, body size, content type, encoding)."""

    message: str
    type: str
    param: str | None = None
    code: str | None = None
    status: int
    request_id: str


class OpenAIErrorBody(BaseModel):
    """OpenAI's error shape, with the house's ``status`` and ``request_id``."""

    error: OpenAIError


def error_response(
    request: Request, status: int, error: dict[str, Any], headers: dict[str, str] | None = None
) -> JSONResponse:
    """``{"error": {message, type, param, code, status, request_id}}`` with ``status``."""
    body = {
        **openai_error("", "error"),
        **error,
        "status": status,
        "request_id": request_id(request),
    }
    return JSONResponse({"error": body}, status_code=status, headers=headers)


def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return error_response(
            request,
            400,
            openai_error("the request body is not valid JSON", "invalid_request_error"),
        )
    first = errors[0] if errors else {}
    param = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or None
    # Where and what only: never the offending input (it may hold a secret).
    message = "; ".join(
        f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: {e.get('msg')}"
        for e in errors[:10]
    )
    return error_response(request, 400, openai_error(message, "invalid_request_error", param=param))


def _spanproof_error(request: Request, exc: SpanproofError) -> JSONResponse:
    if isinstance(exc, UpstreamError):
        return error_response(request, exc.status, exc.error)
    if isinstance(exc, InvalidInputError):
        return error_response(request, 400, openai_error(str(exc), "invalid_request_error"))
    status, kind, message, _ = spanproof_status(exc)
    if status >= 500:
        log.error("request %s failed: %r", request_id(request), exc)
    return error_response(request, status, openai_error(message, kind))


class OpenAIErrorRoute(APIRoute):
    """A route whose errors answer in OpenAI's error shape (see the module docstring)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestValidationError as exc:
                return _validation_error(request, exc)
            except SpanproofError as exc:
                return _spanproof_error(request, exc)

        return route


router = APIRouter(prefix="/v1", route_class=OpenAIErrorRoute)


@router.post(
    "/chat/completions",
    summary="Chat completions through a model upstream, every answer verified",
    response_model=ChatCompletionResponse,
    responses={
        200: {
            "description": "The chat completion with a `spanproof` object; with `stream: true`, "
            "server-sent `chat.completion.chunk` events, one per verified sentence, the last "
            "with the `spanproof` object, then `data: [DONE]`.",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        **{
            status: {"model": OpenAIErrorBody, "description": description}
            for status, description in (
                (400, "The request is invalid (OpenAI's error shape)."),
                (502, "The upstream could not be reached or answered nonsense."),
                (503, "No upstream is configured (the message says what to set)."),
            )
        },
    },
)
async def chat_completions(body: ChatCompletionRequest, request: Request) -> Response:
    """OpenAI's Chat Completions, verified: the request goes to the configured upstream as it
    is (only `spanproof` is taken out); the answer is checked against the evidence the model
    was given (the request's system and user messages and tool results, or with
    `spanproof.retrieve` a plan from the store), delivered per the policy, and traced.
    The upstream's errors keep their status and OpenAI's error shape."""
    proxy: ChatProxy | None = getattr(request.app.state, "chat_proxy", None)
    if proxy is None:
        error = openai_error(NOT_CONFIGURED, "service_unavailable", code="upstream_not_configured")
        return error_response(request, 503, error)
    raw: dict[str, Any] = await request.json()  # the body as sent (FastAPI parsed it above)
    if body.stream:
        events: Iterator[str] = await run_in_threadpool(proxy.stream, raw)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        guarded = _ending_in_an_error(events, request_id(request))
        return StreamingResponse(guarded, media_type="text/event-stream", headers=headers)
    reply = await run_in_threadpool(proxy.complete, raw)
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is not None:
        found = reply["spanproof"]
        verdicts = [str(c.get("verdict")) for c in found["claims"]]
        metrics.observe_verification("chat", found["verification"], verdicts)
    return JSONResponse(reply)


def _ending_in_an_error(events: Iterator[str], rid: str) -> Iterator[str]:
    """``events``; a failure once the stream has begun (its status is sent) ends the stream with
    an error event in OpenAI's shape, as an upstream's failure does, rather than cutting the
    connection mid-body. The cause goes to the log, never to the client."""
    try:
        yield from events
    except Exception as exc:
        log.error("request %s failed mid-stream", rid, exc_info=exc)
        if isinstance(exc, SpanproofError):
            status, kind, message, _ = spanproof_status(exc)
        else:
            status, kind, message = 500, "internal_error", INTERNAL_MESSAGE
        error = {**openai_error(message, kind), "status": status, "request_id": rid}
        yield f"data: {json.dumps({'error': error}, separators=(',', ':'))}\n\n"
