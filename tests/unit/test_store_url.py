"""Which store a ``--db`` / ``SPANPROOF_STORE__URL`` names (``core.store.postgres_url``)."""

from __future__ import annotations

import pytest

from spanproof.core.errors import ConfigurationError
from spanproof.core.store import postgres_url


@pytest.mark.parametrize(
    "target",
    [
        "postgresql://u@h/db",
        "POSTGRESQL://u@h/db",
        "postgres://u@h/db",
        "Postgres://u@h/db",
        "postgresql+psycopg://u@h/db",
        "postgresql+psycopg2://u@h/db",
    ],
)
def test_every_spelling_of_postgresql_is_one_url(target: str) -> None:
    assert postgres_url(target) == "postgresql://u@h/db"


@pytest.mark.parametrize(
    "target", ["spanproof.sqlite", "data/x.db", "sqlite:///data/x.sqlite", ":memory:", "a:b"]
)
def test_files_and_sqlite_urls_name_a_sqlite_store(target: str) -> None:
    assert postgres_url(target) is None


@pytest.mark.parametrize("target", ["mysql://u@h/db", "https://example.org/x", "file://x"])
def test_another_scheme_is_refused_not_taken_for_a_file_name(target: str) -> None:
    with pytest.raises(ConfigurationError, match="unsupported store URL scheme"):
        postgres_url(target)
