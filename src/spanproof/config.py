"""Settings: one object, environment prefix ``SPANPROOF_`` (nested groups with ``__``), an
optional TOML file, every field described, unknown keys rejected. Only entry points and
``bootstrap`` read it.

Example: ``SPANPROOF_EMBEDDER__KIND=openai SPANPROOF_EMBEDDER__BASE_URL=http://127.0.0.1:8000``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)


def _default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "spanproof"


class EmbedderSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["local", "openai"] = Field(
        "local",
        description="local: the bundled all-MiniLM-L6-v2 ONNX model; openai: a remote "
        "OpenAI-compatible /v1/embeddings endpoint.",
    )
    base_url: str | None = Field(None, description="Base URL of the remote embeddings endpoint.")
    model: str | None = Field(None, description="Model name sent to the remote endpoint.")
    api_key: SecretStr | None = Field(None, description="API key of the remote endpoint.")
    cache: bool = Field(True, description="Cache embeddings on disk by (model, text hash).")
    cache_dir: Path = Field(
        default_factory=_default_cache_dir, description="Folder of the embedding cache file."
    )
    threads: int | None = Field(None, description="onnxruntime intra-op threads (None: auto).")


class LlmSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["none", "openai", "anthropic"] = Field(
        "none", description="none: built-in offline components (rule-based decomposer)."
    )
    base_url: str | None = Field(None, description="Endpoint base URL (OpenAI-compatible).")
    model: str | None = Field(None, description="Model name.")
    api_key: SecretStr | None = Field(None, description="API key; never logged or traced.")
    timeout: float = Field(60.0, description="Seconds before a model call times out.")


class VerifySettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    record_model_check: bool = Field(
        True,
        description="Offline record checking (no LLM): run the trained cross-encoder beside the "
        "five rule checks (the default); a record the rules would verify but the model reads as "
        "contradicted goes to review. false: the rule checks alone.",
    )
    score_model: Literal["v1", "v2", "v3", "v4", "v5", "v6"] = Field(
        "v2",
        description="Score model (SPEC §4.4–4.5; v3 escalates to the cross-encoder; v4 adds the "
        "edit check, docs/edit-check.md; v5 reads every claim with the judge named by "
        "verify.judge and decides with the calibrated combiner; v6 is v4 whose edit check "
        "also reads claims that change two separate details).",
    )
    escalation_band: float | None = Field(
        None,
        gt=0,
        le=1,
        description="v3 only: escalate claims whose score lies within this distance of "
        "supported_min (default 0.15; wider asks the checker more often, at a latency cost). "
        "Reports and traces then name the model v3:band=<x>.",
    )
    policy: Literal["flag", "redact"] = Field("flag", description="Delivery policy (SPEC §4.6).")
    judge: Literal["local", "llm"] = Field(
        "local",
        description="The judge of score model v5. local: the bundled trained model. llm: a chat "
        "model under MiniCheck's protocol (the judge_llm endpoint, else the llm one), cached, "
        "falling back to the local judge when the model call fails (docs/llm-judge.md).",
    )
    judge_prompt: Literal["json", "minicheck"] = Field(
        "json",
        description="LLM judge prompt. json: instructions and a JSON label (any chat model); "
        "minicheck: the bare 'Document: ... Claim: ...' prompt Bespoke-MiniCheck expects "
        "(answers Yes/No). Each has its own prompt hash.",
    )


class ProxySettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    upstream: LlmSettings = Field(
        default_factory=LlmSettings,
        description="The chat model behind POST /v1/chat/completions: kind openai (base_url, "
        "api_key) or anthropic (api_key, model as the default). kind none: the llm group's "
        "endpoint; when that is none too, the route answers 503.",
    )
    retrieve: bool = Field(
        False,
        description="Verify proxied answers against a plan from the store, injected into the "
        "request, instead of the request's own messages (a request may say otherwise with "
        '"spanproof": {"retrieve": ...}).',
    )


class LimitSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_evidence_items: int = Field(
        1000,
        ge=1,
        description="The most evidence items one /v1/verify request may send (413 above it).",
    )
    max_claims: int = Field(
        200, ge=1, description="The most claims one /v1/verify request may send (413 above it)."
    )
    max_chars: int = Field(
        500_000,
        ge=1,
        description="The most characters of text (draft, claims and evidence together) one "
        "/v1/verify request may send (413 above it).",
    )


class StoreSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(
        "spanproof.sqlite",
        description="The evidence store: a SQLite file path (default: spanproof.sqlite in the "
        "working directory) or a postgresql:// URL.",
    )


class ConnectorSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mailto: str | None = Field(
        None, description="Contact address sent to Crossref and Europe PMC (polite pools)."
    )
    ncbi_api_key: SecretStr | None = Field(None, description="NCBI E-utilities API key.")
    europepmc_url: str = Field(
        "https://www.ebi.ac.uk/europepmc/webservices/rest", description="Europe PMC REST base."
    )
    pubmed_url: str = Field(
        "https://eutils.ncbi.nlm.nih.gov/entrez/eutils", description="NCBI E-utilities base."
    )
    crossref_url: str = Field("https://api.crossref.org", description="Crossref REST API base.")


class WorkflowSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    system_database_url: str | None = Field(
        None,
        description="The durable-workflow engine's system database (DBOS). Default: next to the "
        "store: `<store>.dbos.sqlite` for a SQLite store, the store's own database (schema "
        "`dbos`) for a postgresql:// store.",
    )
    executor_id: str = Field(
        "local",
        description="This worker's stable executor id: a restarted worker with the same id "
        "resumes the workflows a killed one left in flight.",
    )
    ingest_concurrency: int = Field(4, ge=1, description="Ingestion workflows per worker.")
    verify_concurrency: int = Field(2, ge=1, description="Verification workflows per worker.")
    impact_concurrency: int = Field(2, ge=1, description="Impact walks per worker.")
    fetch_per_second: float = Field(
        3.0, gt=0, description="Network fetches started per second, over all workers."
    )
    model_calls_per_minute: int | None = Field(
        None,
        ge=1,
        description="Verification workflows started per minute, over all workers (the LLM "
        "checker's rate limit); None: unlimited.",
    )
    walk_batch: int = Field(50, ge=1, description="Impact-walk edges per journalled step.")
    api_enqueue: bool = Field(
        False,
        description="The API process only enqueues: uploaded documents and the impact walks of "
        "retractions go to the queues for `spanproof worker` processes (scale-out), instead of "
        "running in the request.",
    )
    polling_interval: float = Field(
        1.0, gt=0, description="Seconds between a worker's polls of each queue."
    )
    sweep_interval: float = Field(
        2.0, gt=0, description="Seconds between a worker's sweeps for impact walks to run."
    )


class Settings(BaseSettings):
    """All of spanproof's configuration."""

    model_config = SettingsConfigDict(
        env_prefix="SPANPROOF_",
        env_nested_delimiter="__",
        extra="forbid",
        toml_file="spanproof.toml",
    )

    embedder: EmbedderSettings = EmbedderSettings()
    llm: LlmSettings = LlmSettings()
    judge_llm: LlmSettings = Field(
        default_factory=LlmSettings,
        description="The LLM judge's own endpoint (verify.judge=llm), e.g. Bespoke-MiniCheck "
        "on Ollama; kind none: the llm group's endpoint.",
    )
    verify: VerifySettings = VerifySettings()
    proxy: ProxySettings = Field(
        default_factory=ProxySettings,
        description="The verifying chat proxy (POST /v1/chat/completions, docs/proxy.md).",
    )
    limits: LimitSettings = Field(
        default_factory=LimitSettings,
        description="Work one HTTP request may ask for (docs in README: HTTP API limits).",
    )
    store: StoreSettings = StoreSettings()
    connectors: ConnectorSettings = ConnectorSettings()
    workflows: WorkflowSettings = WorkflowSettings()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls))


PRESETS: dict[str, dict[str, object]] = {
    "offline": {},
    "no-cache": {"embedder": {"cache": False}},
}


def load_settings(preset: str | None = None) -> Settings:
    """Settings from the environment and ``spanproof.toml``, over a named preset."""
    if preset is None:
        return Settings()
    if preset not in PRESETS:
        from spanproof.core.errors import ConfigurationError

        raise ConfigurationError(f"unknown preset {preset!r}; choose one of {sorted(PRESETS)}")
    return Settings(**PRESETS[preset])  # type: ignore[arg-type]
