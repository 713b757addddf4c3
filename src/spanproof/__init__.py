"""spanproof: check every factual claim in a text against the exact source text it may rest on.

The public API is what ``__all__`` lists; everything else is internal.
"""

from typing import TYPE_CHECKING, Any

from spanproof.core.errors import (
    ConfigurationError,
    DecomposeError,
    InvalidInputError,
    ProviderError,
    SpanproofError,
)

if TYPE_CHECKING:
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

_MODELS = ("Claim", "ClaimVerdict", "EvidenceSpan", "Outcome", "Policy", "Report", "SpanRef")
#: Imported on first use, so that ``import spanproof`` (and so the command line's start-up) does
#: not load the models, the answering and the scoring stack until a caller asks for them.
_LAZY = {
    **dict.fromkeys((*_MODELS, "Verdict"), "spanproof.core.models"),
    "Answer": "spanproof.services.answering",
    "Engine": "spanproof.services.answering",
    "Verifier": "spanproof.verifier",
}


def __getattr__(name: str) -> Any:
    """Load a public name on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'spanproof' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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
