"""Work one ``/v1/verify`` request may ask for (``SPANPROOF_LIMITS__*``), checked before any
model runs or any trace is written.

Over a limit: 413 ``limit_exceeded`` naming the limit, the request's count and the setting that
raises it. A draft's claims are counted once it is decomposed (:class:`CappedDecomposer`), before
any is scored. Nothing to verify (an empty or blank draft, an empty claim list): 422
``invalid_input``, and no trace.
"""

from __future__ import annotations

from spanproof.api.errors import ApiError
from spanproof.api.schemas import VerifyRequest
from spanproof.config import LimitSettings
from spanproof.core.errors import InvalidInputError
from spanproof.core.models import Claim
from spanproof.core.ports import Decomposer


def _over(what: str, count: int, limit: int, setting: str) -> ApiError:
    return ApiError(
        413,
        f"the request has {count:,} {what}, over the limit of {limit:,} per request "
        f"(the server's SPANPROOF_LIMITS__{setting.upper()}); split it into smaller requests",
        type="limit_exceeded",
    )


def check_verify_request(body: VerifyRequest, limits: LimitSettings) -> None:
    """Raise when ``body`` asks for more work than ``limits`` allow or for none at all.

    Raises:
        ApiError: 413 over a limit.
        InvalidInputError: an empty draft or claim list (422).
    """
    if body.draft is not None and not body.draft.strip():
        raise InvalidInputError("the draft is empty: send the text to verify")
    if body.claims is not None and not body.claims:
        raise InvalidInputError("'claims' is empty: send at least one claim")
    if len(body.evidence) > limits.max_evidence_items:
        raise _over(
            "evidence items", len(body.evidence), limits.max_evidence_items, "max_evidence_items"
        )
    claims = body.claims or []
    if len(claims) > limits.max_claims:
        raise _over("claims", len(claims), limits.max_claims, "max_claims")
    chars = len(body.draft or "") + len(body.question or "")
    chars += sum(len(e.text) for e in body.evidence)
    chars += sum(len(c if isinstance(c, str) else c.text) for c in claims)
    if chars > limits.max_chars:
        raise _over("characters of text", chars, limits.max_chars, "max_chars")


class CappedDecomposer:
    """``inner``, refusing a draft that decomposes into more than ``limit`` claims (413, as a
    ``claims`` list over ``max_claims`` is refused): a long draft is otherwise unbounded work."""

    def __init__(self, inner: Decomposer, limit: int) -> None:
        self.inner = inner
        self.limit = limit

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def decompose(self, draft: str) -> list[Claim]:
        claims = self.inner.decompose(draft)
        if len(claims) > self.limit:
            raise _over("claims in its draft", len(claims), self.limit, "max_claims")
        return claims
