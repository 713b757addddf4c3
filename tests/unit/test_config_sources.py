"""Where settings come from: keyword arguments over ``SPANPROOF_*`` over ``spanproof.toml``,
nested groups merged, names case-insensitive, unknown keys rejected."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from spanproof.config import EmbedderSettings, Settings, SettingsError, load_settings


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import os

    for name in list(os.environ):
        if name.upper().startswith("SPANPROOF_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def test_nested_variables_set_one_key_each_and_names_ignore_case(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SPANPROOF_EMBEDDER__CACHE_DIR", "/tmp/c")
    monkeypatch.setenv("spanproof_embedder__threads", "3")
    monkeypatch.setenv("Spanproof_Verify__Score_Model", "v4")
    monkeypatch.setenv("SPANPROOF_PROXY__UPSTREAM__KIND", "openai")
    monkeypatch.setenv("SPANPROOF_API_KEYS", "k1")  # names no group: ignored
    settings = load_settings()
    assert settings.embedder.cache_dir == Path("/tmp/c") and settings.embedder.threads == 3
    assert settings.verify.score_model == "v4" and settings.proxy.upstream.kind == "openai"
    assert settings.embedder.kind == "local"  # the rest keeps its defaults


def test_a_group_variable_is_json_merged_with_its_nested_variables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SPANPROOF_EMBEDDER", '{"kind": "openai", "Model": "m1"}')
    monkeypatch.setenv("SPANPROOF_EMBEDDER__BASE_URL", "http://h")
    monkeypatch.setenv("SPANPROOF_PROXY__UPSTREAM", '{"kind": "anthropic", "api_key": "s"}')
    settings = load_settings()
    assert (settings.embedder.kind, settings.embedder.model) == ("openai", "m1")
    assert settings.embedder.base_url == "http://h"
    upstream = settings.proxy.upstream
    assert upstream.kind == "anthropic" and upstream.api_key is not None
    assert upstream.api_key.get_secret_value() == "s"


def test_a_group_variable_that_is_not_json_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPANPROOF_EMBEDDER", "openai")
    with pytest.raises(SettingsError, match='field "embedder"'):
        load_settings()
    monkeypatch.setenv("SPANPROOF_EMBEDDER", "null")  # JSON null: as if unset
    assert load_settings().embedder.kind == "local"


def test_unknown_and_invalid_values_fail_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPANPROOF_EMBEDDER__BOGUS", "1")
    with pytest.raises(ValidationError, match=r"embedder\.bogus[\s\S]*Extra inputs"):
        load_settings()
    monkeypatch.delenv("SPANPROOF_EMBEDDER__BOGUS")
    monkeypatch.setenv("SPANPROOF_LIMITS__MAX_CLAIMS", "0")
    with pytest.raises(ValidationError, match=r"limits\.max_claims"):
        load_settings()


def test_keywords_over_environment_over_toml_groups_merged(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "spanproof.toml").write_text(
        '[verify]\npolicy = "redact"\nscore_model = "v3"\n[Embedder]\nthreads = 2\n'
    )
    monkeypatch.setenv("SPANPROOF_VERIFY__SCORE_MODEL", "v4")
    monkeypatch.setenv("SPANPROOF_EMBEDDER__CACHE_DIR", "/tmp/x")
    settings = Settings(verify={"escalation_band": 0.3})  # type: ignore[arg-type]
    assert settings.verify.policy == "redact"  # toml
    assert settings.verify.score_model == "v4"  # environment over toml
    assert settings.verify.escalation_band == 0.3  # keyword
    assert settings.embedder.threads == 2 and settings.embedder.cache_dir == Path("/tmp/x")
    preset = load_settings("no-cache")
    assert preset.embedder.cache is False and preset.embedder.threads == 2
    # A model instance given as a keyword is taken whole.
    whole = Settings(embedder=EmbedderSettings(kind="openai"))
    assert whole.embedder.threads is None and whole.embedder.kind == "openai"


def test_unknown_keys_in_the_toml_file_are_rejected(tmp_path: Path) -> None:
    (tmp_path / "spanproof.toml").write_text("[embedder]\nKind = 'openai'\n")
    with pytest.raises(ValidationError, match=r"embedder\.Kind"):
        load_settings()
    (tmp_path / "spanproof.toml").write_text("bogus = 1\n")
    with pytest.raises(ValidationError, match="bogus"):
        load_settings()


def test_settings_load_without_pydantic_settings() -> None:
    import subprocess

    code = (
        "import sys; from spanproof.config import load_settings; load_settings(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pydantic_settings', 'asyncio', 'dotenv')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
