"""The ``with`` support of adapters that hold a resource: leaving the block calls ``close``."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class ClosesOnExit:
    """Base of an adapter that owns a resource (a connection pool, a database file): leaving a
    ``with`` block closes it. Subclasses implement :meth:`close`."""

    def close(self) -> None:
        """Release the resource."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
