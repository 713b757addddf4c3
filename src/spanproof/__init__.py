"""spanproof: check every factual claim in a text against the exact source text it may rest on.

The public API is what ``__all__`` lists; everything else is internal.
"""

from spanproof.core.errors import (
    ConfigurationError,
    DecomposeError,
    InvalidInputError,
    ProviderError,
    SpanproofError,
)
from spanproof.core.models import (
    Claim,
    ClaimVerdict,
    EvidenceSpan,
    Outcome,
    Policy,
    Report,
    SpanRef,
    Verdict,
)
from spanproof.services.answering import Answer, Engine
from spanproof.verifier import Verifier

__version__ = "0.1.0"

__all__ = [
    "Answer",
    "Claim",
    "ClaimVerdict",
    "ConfigurationError",
    "DecomposeError",
    "Engine",
    "EvidenceSpan",
    "InvalidInputError",
    "Outcome",
    "Policy",
    "ProviderError",
    "Report",
    "SpanRef",
    "SpanproofError",
    "Verdict",
    "Verifier",
    "__version__",
]
