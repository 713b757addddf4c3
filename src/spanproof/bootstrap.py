"""The composition root: the one place that builds concrete adapters from Settings."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spanproof.config import LlmSettings, Settings
from spanproof.core.errors import ConfigurationError, InvalidInputError
from spanproof.core.store import postgres_url

if TYPE_CHECKING:
    from spanproof.core.checker import EntailmentChecker
    from spanproof.core.documents import FetchedDocument, ParsedDocument
    from spanproof.core.parser import SentenceParser
    from spanproof.core.ports import ChatModel, Decomposer, Embedder, WorkQueue
    from spanproof.core.store import EvidenceStore
    from spanproof.core.trace import TraceStore
    from spanproof.core.upstream import ChatUpstream
    from spanproof.services.answering import Engine
    from spanproof.services.chat_proxy import ChatProxy
    from spanproof.services.records import Checker
    from spanproof.verify.scoring import ScoreModel
    from spanproof.workflows import EngineConfig
    from spanproof.workflows import Runtime as WorkflowRuntime
    from spanproof.workflows.client import StatusView


def build_embedder(settings: Settings) -> Embedder:
    """The configured embedder, wrapped in the on-disk cache unless disabled."""
    cfg = settings.embedder
    inner: Embedder
    if cfg.kind == "local":
        from spanproof.providers.embeddings.onnx_minilm import OnnxMiniLMEmbedder

        # Lazy: a run whose texts all hit the cache never loads the model (nor, with the model
        # hash remembered beside the cache, reads the model file).
        inner = OnnxMiniLMEmbedder(
            intra_op_num_threads=cfg.threads,
            lazy=cfg.cache,
            hash_memo=cfg.cache_dir / "model-hashes.json" if cfg.cache else None,
        )
    else:
        if not cfg.base_url or not cfg.model:
            raise ConfigurationError(
                "embedder.kind=openai needs SPANPROOF_EMBEDDER__BASE_URL and "
                "SPANPROOF_EMBEDDER__MODEL"
            )
        from spanproof.providers.embeddings.openai_compat import OpenAICompatibleEmbedder

        key = cfg.api_key.get_secret_value() if cfg.api_key else None
        inner = OpenAICompatibleEmbedder(cfg.base_url, cfg.model, api_key=key)
    if not cfg.cache:
        return inner
    from spanproof.providers.embeddings.cache import CachedEmbedder

    return CachedEmbedder(inner, cfg.cache_dir / "embeddings.sqlite")


def build_reference_embedder(settings: Settings) -> Callable[[Sequence[str]], Any] | None:
    """The bundled embedding model run through onnxruntime with nothing of spanproof's (the
    yardstick ``spanproof bench`` times the embedder against), with the configured thread count;
    None when the configured embedder is not the bundled one."""
    if settings.embedder.kind != "local":
        return None
    from spanproof.providers.embeddings.reference import ReferenceMiniLM

    return ReferenceMiniLM(intra_op_num_threads=settings.embedder.threads).embed


def build_chat_model(settings: Settings) -> ChatModel | None:
    """The configured LLM, or None for the offline default."""
    return _chat_model(settings.llm, "llm")


def _chat_model(cfg: LlmSettings, group: str) -> ChatModel | None:
    """The chat model of the settings group ``group`` (``llm`` or ``judge_llm``), or None."""
    if cfg.kind == "none":
        return None
    env = f"SPANPROOF_{group.upper()}_"
    key = cfg.api_key.get_secret_value() if cfg.api_key else None
    if cfg.kind == "anthropic":
        if not key or not cfg.model:
            raise ConfigurationError(f"{group}.kind=anthropic needs {env}_API_KEY and {env}_MODEL")
        from spanproof.providers.llm.anthropic import AnthropicChatModel

        if cfg.base_url:
            return AnthropicChatModel(cfg.model, key, base_url=cfg.base_url, timeout=cfg.timeout)
        return AnthropicChatModel(cfg.model, key, timeout=cfg.timeout)
    if not cfg.base_url or not cfg.model:
        raise ConfigurationError(f"{group}.kind=openai needs {env}_BASE_URL and {env}_MODEL")
    from spanproof.providers.llm.openai_compat import OpenAICompatibleChatModel

    return OpenAICompatibleChatModel(cfg.base_url, cfg.model, api_key=key, timeout=cfg.timeout)


def build_decomposer(settings: Settings) -> Decomposer:
    """The LLM decomposer when an LLM is configured, else the rule-based one."""
    chat = build_chat_model(settings)
    if chat is None:
        from spanproof.verify.decompose import RuleBasedDecomposer

        return RuleBasedDecomposer()
    from spanproof.services.decomposition import LlmDecomposer

    return LlmDecomposer(chat)


def build_store(settings: Settings, url: str | None = None) -> EvidenceStore:
    """The evidence store: a SQLite file by default, PostgreSQL for ``postgresql://`` URLs."""
    target = url or settings.store.url
    postgres = postgres_url(target)
    if postgres is not None:
        from spanproof.store.postgres.store import PostgresEvidenceStore

        return PostgresEvidenceStore(postgres)
    from spanproof.store.sqlite.store import SqliteEvidenceStore

    path = target.removeprefix("sqlite:///").removeprefix("sqlite://")
    return SqliteEvidenceStore(path)


def build_parser() -> Callable[[bytes, str], ParsedDocument]:
    """The format-detecting parser used by ingestion."""
    from spanproof.ingest.parsers import parse_bytes

    def parse(raw: bytes, media_type: str) -> ParsedDocument:
        return parse_bytes(raw, media_type=media_type)

    return parse


def local_documents(
    path: Path, skip: Collection[Path] = ()
) -> Iterator[tuple[str, FetchedDocument]]:
    """(source id, document) for a local file, folder or SciFact corpus (the file connector);
    ``skip``: files and folders a folder walk leaves out (the store's own)."""
    from spanproof.ingest.files import iter_path

    return iter_path(path, skip)


def local_files(path: Path, skip: Collection[Path] = ()) -> list[Path]:
    """The files a local path names (a folder's, recursively), none of them read yet."""
    from spanproof.ingest.files import list_files

    return list_files(path, skip)


def file_documents(path: Path) -> Iterator[tuple[str, FetchedDocument]]:
    """(source id, document) for one local file, read only as they are taken."""
    from spanproof.ingest.files import file_documents as documents

    return documents(path)


#: The target prefixes a connector fetches: ``pmc:PMC…``, ``pmid:…``, ``doi:…``.
REMOTE_KINDS = ("pmc", "pmid", "doi")


def is_remote(target: str) -> bool:
    """Whether ``target`` names a source a connector fetches rather than a local path."""
    return target.split(":", 1)[0] in REMOTE_KINDS


def remote_source_id(target: str) -> str:
    """The source id ``target`` is stored under (``doi:10.5555/x``), its id checked and
    normalised; nothing is fetched.

    Raises:
        InvalidInputError: an unknown kind of source, or an id that is malformed.
    """
    kind, _, ident = target.partition(":")
    if kind == "pmc":
        from spanproof.ingest.clients.europepmc import normalize_pmcid

        return f"pmc:{normalize_pmcid(ident)}"
    if kind == "pmid":
        from spanproof.ingest.clients.pubmed import normalize_pmid

        return f"pmid:{normalize_pmid(ident)}"
    if kind == "doi":
        from spanproof.ingest.clients.crossref import normalize_doi

        return f"doi:{normalize_doi(ident)}"
    raise InvalidInputError(f"unknown source {target!r}: use a path, pmc:PMC…, pmid:… or doi:…")


def fetch_remote(settings: Settings, target: str) -> tuple[str, FetchedDocument]:
    """Fetch ``pmc:PMC…``, ``pmid:…`` or ``doi:…`` through its connector: (source id, document).

    Raises:
        InvalidInputError: as :func:`remote_source_id`.
        SourceError: the fetch failed (not found, a network error, a reply that is not what the
            service documents); ``retryable`` says whether a later try may succeed.
    """
    source_id = remote_source_id(target)
    kind, _, ident = source_id.partition(":")
    cfg = settings.connectors
    if kind == "pmc":
        from spanproof.ingest.clients.europepmc import EuropePmcClient

        with EuropePmcClient(base_url=cfg.europepmc_url, mailto=cfg.mailto) as client:
            return source_id, client.fetch_fulltext(ident)
    if kind == "pmid":
        from spanproof.ingest.clients.pubmed import PubMedClient

        key = cfg.ncbi_api_key.get_secret_value() if cfg.ncbi_api_key else None
        with PubMedClient(base_url=cfg.pubmed_url, email=cfg.mailto, api_key=key) as client:
            return source_id, client.fetch(ident)
    from spanproof.ingest.clients.crossref import CrossrefClient

    with CrossrefClient(base_url=cfg.crossref_url, mailto=cfg.mailto) as client:
        return source_id, client.work(ident)


def build_engine(settings: Settings, db: str | None = None) -> Engine:
    """The verified-answer engine over the configured store, models and policy.

    The generator is the configured LLM, else the offline extractive one. Traces go to the store
    when its backend keeps them. The caller owns the store: close it with ``engine.store.close()``.
    """
    from spanproof.core.models import Policy
    from spanproof.core.trace import TraceStore
    from spanproof.services.answering import Engine
    from spanproof.services.generation import ExtractiveGenerator, Generator, LlmGenerator
    from spanproof.verify.relevance import relevance_model_for

    store = build_store(settings, db)
    try:
        embedder = build_embedder(settings)
        chat = build_chat_model(settings)
        generator: Generator = (
            LlmGenerator(chat) if chat is not None else ExtractiveGenerator(embedder)
        )
        model = build_score_model(settings)
        return Engine(
            store=store,
            traces=store if isinstance(store, TraceStore) else None,
            embedder=embedder,
            decomposer=build_decomposer(settings),
            generator=generator,
            score_model=model,
            policy=Policy(settings.verify.policy),
            checker=build_checker_for(model, settings),
            relevance=relevance_model_for(embedder.model_id),
        )
    except BaseException:
        store.close()
        raise


def build_chat_upstream(settings: Settings) -> ChatUpstream | None:
    """The upstream of ``POST /v1/chat/completions``: the ``proxy.upstream`` endpoint, else the
    ``llm`` one; None when neither is configured.

    Raises:
        ConfigurationError: the chosen group lacks a field it needs.
    """
    group = "proxy.upstream" if settings.proxy.upstream.kind != "none" else "llm"
    cfg = settings.proxy.upstream if group == "proxy.upstream" else settings.llm
    if cfg.kind == "none":
        return None
    env = "SPANPROOF_" + group.upper().replace(".", "__") + "__"
    key = cfg.api_key.get_secret_value() if cfg.api_key else None
    if cfg.kind == "anthropic":
        if not key:
            raise ConfigurationError(f"{group}.kind=anthropic needs {env}API_KEY")
        from spanproof.providers.llm.upstream import AnthropicUpstream

        return AnthropicUpstream(key, cfg.base_url, cfg.model, timeout=cfg.timeout)
    if not cfg.base_url:
        raise ConfigurationError(f"{group}.kind=openai needs {env}BASE_URL")
    from spanproof.providers.llm.upstream import OpenAICompatibleUpstream

    return OpenAICompatibleUpstream(cfg.base_url, key, timeout=cfg.timeout)


def build_chat_proxy(settings: Settings, engine: Engine, traces: TraceStore) -> ChatProxy | None:
    """The verifying chat proxy over ``engine`` (its embedder, decomposer, score model, checker
    and planner), writing to ``traces``, and the configured upstream; None without an upstream."""
    from spanproof.core.models import Policy
    from spanproof.services.chat_proxy import ChatProxy

    upstream = build_chat_upstream(settings)
    if upstream is None:
        return None
    return ChatProxy(
        upstream=upstream,
        traces=traces,
        embedder=engine.embedder,
        decomposer=engine.decomposer,
        score_model=engine.score_model,
        policy=Policy(settings.verify.policy),
        planner=engine.planner,
        checker=engine.checker,
        retrieve=settings.proxy.retrieve,
    )


def build_work_queue(settings: Settings, db: str | None = None) -> WorkQueue:
    """The queues an API process enqueues to: the system database of the store ``db`` (or the
    configured store), as the workers use it."""
    from spanproof.workflows import system_database_url
    from spanproof.workflows.client import QueueClient

    url = system_database_url(db or settings.store.url, settings.workflows.system_database_url)
    return QueueClient(url)


def build_score_model(settings: Settings, name: str | None = None) -> ScoreModel:
    """The score model ``name`` (default: the configured one), with the configured escalation
    band when that model escalates (v3); the band setting does not apply to v1 and v2."""
    from spanproof.verify.scoring import SCORE_MODELS, score_model

    chosen = name or settings.verify.score_model
    base = SCORE_MODELS.get(chosen)
    escalates = base is not None and base.escalation_band is not None
    return score_model(chosen, settings.verify.escalation_band if escalates else None)


def build_record_checker(settings: Settings) -> Checker:
    """The record checker (SPEC §5.3): the LLM checker when an LLM is configured, else the
    deterministic one with the cross-encoder beside it (the rule checks alone when
    ``verify.record_model_check`` is false).
    All answer a label and the five checks."""
    chat = build_chat_model(settings)
    if chat is None:
        from spanproof.evidence.checker import check

        if settings.verify.record_model_check:
            from spanproof.services.record_checking import ModelAssistedChecker

            return ModelAssistedChecker(build_checker())
        return check
    from spanproof.services.record_checking import LlmRecordChecker

    return LlmRecordChecker(chat)


def build_engine_config(
    settings: Settings, db: str | None = None, executor_id: str | None = None
) -> EngineConfig:
    """The durable-workflow engine's configuration for the store ``db`` (or the configured one):
    its system database (beside a SQLite store, inside a PostgreSQL one, unless set), this
    process's executor id and the queues' limits."""
    from spanproof import __version__
    from spanproof.workflows import EngineConfig, QueueLimits, system_database_url

    cfg = settings.workflows
    return EngineConfig(
        system_database_url=system_database_url(db or settings.store.url, cfg.system_database_url),
        executor_id=executor_id or cfg.executor_id,
        app_version=__version__,
        limits=QueueLimits(
            ingest_concurrency=cfg.ingest_concurrency,
            verify_concurrency=cfg.verify_concurrency,
            impact_concurrency=cfg.impact_concurrency,
            fetch_per_second=cfg.fetch_per_second,
            model_calls_per_minute=cfg.model_calls_per_minute,
            polling_interval=cfg.polling_interval,
        ),
    )


def build_workflow_runtime(settings: Settings, db: str | None = None) -> WorkflowRuntime:
    """What a worker's steps run against: the store, parser, embedder (built on first use),
    record checker and connectors. The caller owns the store: close it with
    ``runtime.store.close()``."""
    from spanproof.workflows import Runtime

    store = build_store(settings, db)
    return Runtime(
        store=store,
        parse=build_parser(),
        embedder=lambda: build_embedder(settings),
        checker=build_record_checker(settings),
        fetch=lambda target: fetch_remote(settings, target),
        walk_batch=settings.workflows.walk_batch,
    )


def workflow_status(settings: Settings, store: EvidenceStore, *, recent: int = 20) -> StatusView:
    """The workflow engine's queues and recent workflows for the journal of ``store`` (the
    configured system database, else the one beside the store), as the web page shows them.

    Raises:
        ConfigurationError: no journal yet (no worker has run against this store).
    """
    from spanproof.workflows import system_database_url
    from spanproof.workflows.client import connect, status

    store_url = settings.store.url
    path = getattr(store, "path", None)
    if path is not None:  # SQLite: the file it opened
        store_url = str(path)
    elif getattr(store, "_dsn", None):  # PostgreSQL: the DSN it was opened with
        store_url = str(store._dsn)  # type: ignore[attr-defined]
    url = system_database_url(store_url, settings.workflows.system_database_url)
    with connect(url) as client:
        return status(client, url, recent=recent)


def has_stored_api_keys(settings: Settings, db: str | None = None) -> bool:
    """Whether the store holds an active API key (``spanproof keys create``). A SQLite file that
    does not exist holds none, and is not created by asking."""
    from spanproof.core.keys import KeyStore

    target = db or settings.store.url
    sqlite_path = Path(target.removeprefix("sqlite:///").removeprefix("sqlite://"))
    if postgres_url(target) is None and not sqlite_path.exists():
        return False
    store = build_store(settings, db)
    try:
        return isinstance(store, KeyStore) and store.has_active_api_keys()
    finally:
        store.close()


def build_checker() -> EntailmentChecker:
    """The entailment checker of score model v3: the bundled cross-encoder."""
    from spanproof.providers.checker.cross_encoder import CrossEncoderChecker

    return CrossEncoderChecker()


def build_judge(settings: Settings | None = None) -> EntailmentChecker:
    """The local judge (issue 14): the bundled ``models/judge.onnx``, all pairs of a call batched.

    With ``settings`` whose embedding cache is on, the judge's batch outputs are also kept on
    disk beside it (``judge-outputs.sqlite``), so another process verifying the same claims
    against the same evidence runs no model; without, it remembers them in memory only. Its
    onnxruntime threads are ``verify.judge_threads`` (one per physical core when unset).

    Raises:
        ConfigurationError: the model or its ``judge.json`` is missing or unusable (build it
            with ``make quantize-judge`` after ``make train-checker``), or the cache file is
            not a usable SQLite database.
    """
    from spanproof.providers.checker.judge import JudgeChecker

    if settings is None:
        return JudgeChecker()
    threads = settings.verify.judge_threads
    if not settings.embedder.cache:
        return JudgeChecker(intra_op_num_threads=threads)
    from spanproof.providers.checker.judge_cache import SqliteJudgeOutputCache

    # lazy: a run whose batches are all on disk loads no model
    judge = JudgeChecker(intra_op_num_threads=threads, lazy=True)
    judge.outputs = SqliteJudgeOutputCache(settings.embedder.cache_dir / "judge-outputs.sqlite")
    return judge


def build_judge_for(settings: Settings) -> EntailmentChecker:
    """The judge of score model v5 that ``verify.judge`` names.

    ``local``: the bundled local judge. ``llm``: the LLM judge (docs/llm-judge.md) over the
    ``judge_llm`` endpoint (the ``llm`` one when ``judge_llm.kind`` is ``none``), its labels
    cached beside the embedding cache (unless ``embedder.cache`` is off), wrapped in a
    :class:`~spanproof.core.judgement.FallbackJudge` that hands a failed call to the local judge.

    Raises:
        ConfigurationError: ``verify.judge=llm`` with no LLM endpoint configured, or an
            endpoint group that lacks a field it needs.
    """
    local = build_judge(settings)
    if settings.verify.judge == "local":
        return local
    group = "judge_llm" if settings.judge_llm.kind != "none" else "llm"
    cfg = settings.judge_llm if group == "judge_llm" else settings.llm
    chat = _chat_model(cfg, group)
    if chat is None:
        raise ConfigurationError(
            "verify.judge=llm needs an LLM endpoint: set SPANPROOF_JUDGE_LLM__KIND=openai (with "
            "SPANPROOF_JUDGE_LLM__BASE_URL and SPANPROOF_JUDGE_LLM__MODEL) or anthropic (with "
            "__MODEL and __API_KEY), or configure SPANPROOF_LLM__*; or use "
            "SPANPROOF_VERIFY__JUDGE=local"
        )
    from spanproof.core.judgement import FallbackJudge
    from spanproof.providers.checker.judge_cache import SqliteJudgementCache
    from spanproof.providers.checker.llm_judge import LlmJudge

    cache = None
    if settings.embedder.cache:
        cache = SqliteJudgementCache(settings.embedder.cache_dir / "judgements.sqlite")
    key = cfg.api_key.get_secret_value() if cfg.api_key else ""
    judge = LlmJudge(chat, cache, prompt=settings.verify.judge_prompt)
    return FallbackJudge(judge, local, secrets=(key,))


_SENTENCE_PARSER: list[SentenceParser] = []  # the process's one parser, once built


def build_sentence_parser() -> SentenceParser:
    """The bundled sentence parser (score model v71), loaded once per process."""
    if not _SENTENCE_PARSER:
        from spanproof.providers.parser import SpacyParser

        _SENTENCE_PARSER.append(SpacyParser())
    return _SENTENCE_PARSER[0]


def build_checker_for(
    model: ScoreModel, settings: Settings | None = None
) -> EntailmentChecker | None:
    """The checker a score model reads: the judge for v5's combiner and v57's veto
    (``verify.judge``), with the bundled sentence parser for v71's roles
    (:class:`~spanproof.core.parser.ReadingChecker`), the cross-encoder for v3's escalation,
    none for the other models."""
    if model.reads_judge:
        from spanproof.config import load_settings

        judge = build_judge_for(settings if settings is not None else load_settings())
        if model.role_bindings:
            from spanproof.core.parser import ReadingChecker

            return ReadingChecker(judge, build_sentence_parser())
        return judge
    if model.escalation_band is not None:
        return build_checker()
    return None
