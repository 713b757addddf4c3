"""The one place where the CLI maps errors to messages and exit codes."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from spanproof.core.errors import (
    ConfigurationError,
    InvalidInputError,
    RuntimeFailure,
    SpanproofError,
)

F = TypeVar("F", bound=Callable[..., Any])

EXIT_INPUT = 2
EXIT_CONFIG = 3
EXIT_RUNTIME = 4


def exit_code(exc: SpanproofError) -> int:
    if isinstance(exc, InvalidInputError):
        return EXIT_INPUT
    if isinstance(exc, ConfigurationError):
        return EXIT_CONFIG
    if isinstance(exc, RuntimeFailure):
        return EXIT_RUNTIME
    return 1


def error_object(exc: BaseException) -> dict[str, str]:
    """The JSON shape of an error (batch lines use it too)."""
    return {"type": type(exc).__name__, "message": str(exc)}


def handle_errors(func: F) -> F:
    """Turn spanproof errors into one ``error: ...`` line on stderr and a non-zero exit."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except SpanproofError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(exit_code(exc))

    return wrapper  # type: ignore[return-value]
