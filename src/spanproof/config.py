"""Settings: one object, environment prefix ``SPANPROOF_`` (nested groups with ``__``), an
optional TOML file, every field described, unknown keys rejected. Only entry points and
``bootstrap`` read it.

Example: ``SPANPROOF_EMBEDDER__KIND=openai SPANPROOF_EMBEDDER__BASE_URL=http://127.0.0.1:8000``.

The sources are read here rather than by pydantic-settings, whose import alone costs a quarter
of a second of every command's start-up; they follow its rules for this model (see
:func:`_build_values`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from spanproof.core.models import DEFAULT_SCORE_MODEL, ScoreModelName


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
    score_model: ScoreModelName = Field(
        DEFAULT_SCORE_MODEL,
        description=(
            "Score model (SPEC §4.4–4.5; v3 escalates to the cross-encoder; v4 adds the edit "
            "check, docs/edit-check.md; v5 reads every claim with the judge named by "
            "verify.judge and decides with the calibrated combiner; v6 is v4 whose edit check "
            "also reads claims that change two separate details; v7 is v2 whose evidence "
            "windows must state a finding, not an aim or a method; v8 is v6 whose edit check "
            "leaves rewordings alone: a near copy must copy most of its words in stretches; "
            "v9 is v8 whose edit check reads a number or a name put where the window holds "
            "another, which the window states elsewhere, as a substitution: two figures or "
            "names mixed up; v10 is v9 whose compressions keep their figures in place: "
            "dropping a number across a clause mark and aligning the claim's number to a "
            "later mention changes the number; v11 is v10 whose copied figures keep their "
            "units ('5%' against '5 mmHg' changes the figure) and whose claims' citation "
            "markers ('[12]', '(Smith et al., 2019)') are no words of the claim; v12 is v11 "
            "whose compressions keep the finding's strength: dropping 'in mice', a hedge "
            "or an association states more than the window; v13 is v12 whose compressions "
            "keep what inverts the finding: dropping 'lack of', 'inhibition of' or 'neither' "
            "before the words the claim keeps states the opposite; v14 is v13 whose claims may "
            "not quote what the window denies, doubts, supposes or asks: 'X' against 'there is "
            "no evidence that X' or 'it is unclear whether X'; v15 is v14 whose compressions "
            "keep what restricts the finding, a co-intervention, a dose, a subgroup or a "
            "population: 'X reduced Y' against 'Among smokers, X reduced Y'; v16 is v15 "
            "whose kept qualifiers must cover what was dropped: 'in vitro' keeps no dropped "
            "'in mice', a 'may' in one clause no 'may' dropped from another, and whose "
            "compressions keep a figure's bound: 'over 50%' is no '50%'; v17 is v16 that reads "
            "a figure in another format as the figure it is: 'P < .001' is 'P < 0.001', '2·9' "
            "is '2.9', '671 945' is '671,945', a contraction is its words: 'doesn't' is 'does "
            "not', a British spelling the American one: 'haemorrhage' is 'hemorrhage', and an "
            "abbreviation another passage of the source defines is defined; v18 is v17 that "
            "reads a word written together, with a hyphen or apart as one word: 'nonsmall' is "
            "'non-small', 'health care' is 'healthcare'; v19 is v18 that reads a sign: '1.5' "
            "is no '−1.5', 'CD4− T cells' no 'CD4+ T cells', and a fold or a bound written "
            "another way: 'twofold' is '2-fold', '65 years or older' is '≥65 years'; v20 is "
            "v19 whose gates read a word's forms as the word: 'HSPC' is 'HSPCs', 'Hodgkin' "
            "'Hodgkin's', 'inhibiting' 'inhibition'; v21 is "
            "v20 that reads 'A-769662' as 'A769662', 'BRCA 1' as 'BRCA1', and whose failed "
            "near copy of the closest passage no other passage rescues; v22 is v21 whose "
            "polarity gate reads more direction and negation words: 'impedes', 'scarce', "
            "'expanded', 'deactivates', 'ineffective'; v23 is v22 whose polarity gate also "
            "reads the sentences that cover a claim nearly as well as the best one: an aim "
            "sentence that covers it best no longer hides a result that states the opposite; "
            "v24 is v23 in which a passage that states no direction cannot support a claim "
            "that a close passage reverses; v25 is v23 whose entity gate reads a name written "
            "within a longer one as that name: 'RAS' against 'KRAS', 'VSMCs' against 'SMCs'; "
            "v26 is v25 with v24's rule; v27 is v25 whose polarity gate counts only the "
            "negations that deny: 'heart failure', 'with or without', 'compared with no "
            "treatment', 'never smokers' deny nothing; v28 is v27 whose polarity gate reads "
            "a sentence's clauses one by one where they state opposite directions; v29 is v28 "
            "whose polarity gate also reads sentences covering the claim less (a floor of "
            "0.3, not 0.4); v30 is v29 whose polarity gate also reads the window the verdict "
            "quotes; v31 is v29 whose edit check reads a near copy that takes words from an "
            "opposed clause of the passage, 'A rose, whereas B fell' read as 'B rose', as "
            "unsupported, not as words reordered; v32 is v31 whose polarity gate also trips "
            "on a comparison with its sides traded, 'A more effective than B' against 'B more "
            "effective than A'; v33 is v32 whose edit check reads what a deletion carries "
            "on: '15 years and older' from '15 years and 95 years and older', 'not "
            "different' left with one side of its comparison, '… was seen if X' read as X; "
            "v34 is v33 whose numeric gate reads a figure written after a name with a hyphen, "
            "'COVID-19', 'SARS-CoV-2', as part of the name: missing only where the passage "
            "writes that name or a longer form of it, 'interleukin-6' for 'IL-8'; v35 is "
            "v34 whose edit check reads a dropped word of extent as an overstatement: "
            "'mediated partly by' → 'mediated by', 'in some patients' → 'in patients'; v36 "
            "is v35 whose edit check reads what the passage only supposes, aims at or doubts "
            "stated as a finding: 'It has been proposed that X' → 'X', 'is thought to play' → "
            "'plays', 'is unlikely to prevent' → 'prevents', and 'would', 'should' and 'has "
            "the potential to' dropped as hedges; v37 is v36 whose edit check reads what takes "
            "the finding back: 'Although X, the difference was not significant' → 'X', 'X (12% "
            "vs 15%), although this was not significant' → 'X', 'reduced relapse at 6 months "
            "but not at 12 months' → 'reduced relapse', 'Limited evidence suggests that X' → "
            "'X', 'numerically lower' → 'lower', and 'significantly lower' against 'lower, but "
            "not significantly' is contradicted; v38 is v37 that also reads an effect claimed on "
            "a passage stating only an association, near copy or not: 'Dexamethasone increases "
            "the risk of bleeding' against 'Dexamethasone use was associated with bleeding' is "
            "unsupported; v39 is v38 that reads each direction word with the thing it acts on: "
            "'Polymeal increases cardiovascular mortality' against '… to reduce cardiovascular "
            "morbidity and increase life expectancy' is contradicted; v40 is v39 that refuses a "
            "cure claimed on a passage that states none: 'Vitamin C cures COVID-19' against "
            "'IV vitamin C … may be feasible' is unsupported; v41 is v40 that reads a comparison "
            "restated with its sides traded and its direction turned round as agreeing: 'Women "
            "had lower mortality than men' against 'Mortality was higher in men than in women' "
            "is supported; v42 is v41 whose edit check reads a negation deleted from the finding "
            "the claim keeps as dropped, even past a comma: '…, compared with nonuse, was not "
            "associated with an increased risk' → 'increased the risk' is contradicted; v43 is "
            "v42, strict: 'supported' only for a faithful near copy the edit check read word by "
            "word, and 'partial' — a person should look — for whatever else v42 supports; v44 "
            "is v42 whose edit check reads a dropped population where it was dropped: 'Men and "
            "women …; however, nausea was more frequent among women' → '…; however, nausea was "
            "more frequent' is unsupported; v45 is v44 that tells a comparison's sides apart by "
            "their figures alone when each side has one: 'Participants who slept 8 hours had "
            "lower cortisol than those who slept fewer than 6 hours' restates 'Participants who "
            "slept fewer than 6 hours had higher cortisol than those who slept 8 hours'; v46 is "
            "v45, strict, as v43 is v42; v47 is v45 that reads a cardinal number word as its "
            "figure: 'reaction time four hours after the dose' against 'one hour after the "
            "dose' is unsupported; v48 is v47, strict; v49 is v47 that reads a sentence stating "
            "only a procedure, 'We placed temperature loggers in 48 city blocks', as stating no "
            "finding: it supports no finding claimed from it; v50 is v47 whose edit check "
            "allows a faithful answer's rewordings: 'reduced' for 'lowered', 'approximately 5 "
            "mmHg' for '5 mmHg', 'was found to lower' for 'lowered', 'BP' for 'blood "
            "pressure'; v51 is v50 that refuses a thing joined to a copied one which the "
            "evidence states otherwise: 'lowered systolic and diastolic blood pressure' "
            "against '… lowered systolic blood pressure … Diastolic blood pressure did not "
            "change'; v52 is v51 that reads more of an answer's words: 'is "
            "contraindicated' denies a use as 'should not be used' does, 'versus' and "
            "'relative to' are 'compared with', 'cut' is a plain word of change down; v53 is "
            "v52 whose entity gate reads a name a letter tells from its kin: 'vitamin C' "
            "against 'vitamin D', 'hepatitis B' against 'hepatitis C'; v54 is v53 whose "
            "entity gate reads a claim's abbreviation of words its span writes out: 'BP' for "
            "'blood pressure'; v55 is v54 whose entity gate reads capitals that "
            "are a sentence's style as no name: 'the short answer is YES', a heading's 'AND', "
            "a sentence written in capitals; a name the span writes joined to its figures as "
            "the claim's: 'COVID19' for 'COVID-19'; and an abbreviation the claim defines in "
            "place by the words the span writes out: '(BIR)' for 'break-induced replication'; "
            "v56 is v55 that reads a figure the claim rounds from the one the "
            "span states as that figure: 'nearly 70' for 69, 'about 5 mmHg' for 5.2 mmHg; "
            "v57 is v56 with the judge's veto: a claim the rules call supported "
            "that is not a faithful near copy and that the judge (verify.judge) reads as "
            "entailed with a probability below 0.1 is partial; v58 is v57 whose "
            "judge also reads what the polarity gate calls contradicted: one it reads as "
            "entailed with a probability of 0.5 or more is partial; v59 is v58 "
            "whose edit check lets a claim name what its window's opening 'it' or 'they' "
            "stands for when the evidence item before states it; v60 is v59 "
            "whose edit check also reads one phrase of up to six words put in for another "
            "in a copied sentence as a substitution; v61 is v60 that refuses "
            "a copied sentence with four words of its own grafted on after the copy; v62 is "
            "v61 that refuses three such words; v63 is v62 that reads business "
            "and news text: its polarity gate also reads their words of change, 'climbed', "
            "'slipped', and 'up' or 'down' before a figure, and its edit check lets an answer "
            "name what its source calls 'the company' when the source opens with that name; "
            "v64 is v63 whose edit check reads a claim's 'both … and' and 'as "
            "well as' as 'and'; v65 is v64 that reads general text as answers "
            "quote it: a figure's unit, a splice across a semicolon, a name for what the "
            "sentence before calls 'it' or 'the company', an opening frame such as 'At X,'; "
            "v66 is v65 that reads who holds a title, a score with its sides "
            "traded and a predicative 'non-' as 'not'; v67 is v66 that reads "
            "evidence items cut from one source, as a store's plan lists them, as that "
            "source's text; v68 is v67 that reads a bound on a figure turned round, 'before' "
            "and 'after' traded, and plain words of change such as 'grew'; v69 is v68 that "
            "reads more units of a figure: a percentage against money, electric units, a "
            "rate written as a span of time; v70 is v69 that reads a figure "
            "converted to another unit as stated, 'two days' for '48 hours'; v71 is v70 "
            "that reads who does what to whom with a parser and refuses a claim that gives "
            "its source's act to someone else; v72 is v71 that reads evidence without its "
            "invisible format characters, such as a zero-width space; v73 is v72 that "
            "refuses a claim joining one side of a contrast to the other side's thing; v74 is "
            "v73 that reads the sign of an association and contradicts a claim that turns it; "
            "v75 is v74 whose edit check reads an association restated in a copy, 'linked "
            "to' for 'associated with'; v76 is v75 that reads negations against "
            "the other side: a group a relative clause names, a privative word such as "
            "'asymptomatic'; v77 is v76 that keeps a negation to its clause "
            "of a contrast: 'lowered X, but did not change Y' denies Y only; v78 is v77 "
            "that reads a comparison whose other side a phrase names: 'Compared with "
            "children, adults were more susceptible'; v79, the default, is v78 that reads a "
            "window stating only a procedure as stating no finding: 'We measured serum "
            "vitamin D in 300 patients' supports no finding on vitamin D)."
        ),
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
    judge_threads: int | None = Field(
        None,
        ge=1,
        description="onnxruntime intra-op threads of the local judge (None: one per physical "
        "core). Its results are the same bit for bit whatever the count.",
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
        200,
        ge=1,
        description="The most claims one /v1/verify request may send or its draft may "
        "decompose into (413 above it).",
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


class Settings(BaseModel):
    """All of spanproof's configuration: the keyword arguments given, over the ``SPANPROOF_*``
    environment, over ``spanproof.toml`` in the working directory (nested groups merge)."""

    model_config = ConfigDict(extra="forbid", validate_default=True, arbitrary_types_allowed=True)

    def __init__(self, **values: Any) -> None:
        super().__init__(**_build_values(type(self), values))

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


#: The environment's prefix and nesting delimiter, and the settings file (working directory).
ENV_PREFIX = "SPANPROOF_"
ENV_NESTED_DELIMITER = "__"
TOML_FILE = "spanproof.toml"


class SettingsError(ValueError):
    """A ``SPANPROOF_*`` variable that must hold JSON (a whole group) does not."""


def _build_values(model: type[BaseModel], init: dict[str, Any]) -> dict[str, Any]:
    """What :class:`Settings` validates, by pydantic-settings' rules for this model.

    * Sources, highest first: keyword arguments, the environment, ``spanproof.toml``; a group
      given as a mapping by several sources is merged key by key (a model instance is taken
      whole). Top-level names match case-insensitively in every source.
    * Environment names match case-insensitively. ``SPANPROOF_<GROUP>`` holds the group as JSON
      (``null`` is ignored; anything that is not JSON is an error); ``SPANPROOF_<GROUP>__<KEY>``
      (deeper with more ``__``) sets one key as text, or as JSON when the key is itself a
      group; names under a group that match no field are kept, for validation to reject.
      ``SPANPROOF_*`` names that name no group are ignored.
    """
    sources = (
        _top_level(model, init),
        _env_values(model),
        _top_level(model, _toml_values(Path(TOML_FILE))),
    )
    state: dict[str, Any] = {}
    for source in sources:
        state = _deep_update(source, state)
    return state


def _top_level(model: type[BaseModel], values: dict[str, Any]) -> dict[str, Any]:
    """``values`` with keys that name a field case-insensitively renamed to the field."""
    out: dict[str, Any] = {}
    left = dict(values)
    for name in model.model_fields:
        matched = [key for key in values if key.lower() == name.lower() and key in left]
        if matched:
            out[name] = values[matched[0]]
            for key in matched:
                del left[key]
    out.update(left)
    return out


def _toml_values(path: Path) -> dict[str, Any]:
    path = path.expanduser()
    if not path.is_file():
        return {}
    import tomllib

    with path.open("rb") as handle:
        return tomllib.load(handle)


def _env_values(model: type[BaseModel]) -> dict[str, Any]:
    env = {name.lower(): value for name, value in os.environ.items()}
    data: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        env_name = (ENV_PREFIX + name).lower()
        raw = env.get(env_name)
        try:
            value = _field_value(field.annotation, env_name, raw, env)
        except ValueError as exc:
            raise SettingsError(
                f'error parsing value for field "{name}" from source "EnvSettingsSource"'
            ) from exc
        if value is None:
            continue
        if isinstance(value, dict):
            value = _field_names(field.annotation, value)
        data[name] = value
    return data


def _field_value(annotation: Any, env_name: str, raw: str | None, env: dict[str, str]) -> Any:
    """One top-level field's value from the environment (None: not set)."""
    complex_, lenient = _complexity(annotation)
    if not complex_:
        return raw
    if raw is None:
        return _explode(annotation, env_name + ENV_NESTED_DELIMITER, env) or None
    try:
        value = json.loads(raw)
    except ValueError:
        if not lenient:
            raise
        value = raw
    if isinstance(value, dict):
        return _deep_update(value, _explode(annotation, env_name + ENV_NESTED_DELIMITER, env))
    return value


def _explode(annotation: Any, prefix: str, env: dict[str, str]) -> dict[str, Any]:
    """The ``<prefix><key>[__<key>…]`` variables as a nested mapping."""
    result: dict[str, Any] = {}
    for env_name, env_value in env.items():
        if not env_name.startswith(prefix):
            continue
        *keys, last = env_name[len(prefix) :].split(ENV_NESTED_DELIMITER)
        target: Any = result
        field_type: Any = annotation
        for key in keys:
            field_type = _sub_field(field_type, key)
            if isinstance(target, dict):
                target = target.setdefault(key, {})
        field_type = _sub_field(field_type, last)
        value: Any = env_value
        if field_type is not None and env_value:
            complex_, lenient = _complexity(field_type)
            if complex_:
                try:
                    value = json.loads(env_value)
                except ValueError:
                    if not lenient:
                        raise
        if isinstance(target, dict):
            target[last] = value
    return result


def _sub_field(annotation: Any, key: str) -> Any:
    """The annotation of field ``key`` (case-insensitive) of a model (or of a union's model)."""
    if annotation is None:
        return None
    for member in get_args(annotation):
        found = _sub_field(member, key)
        if found is not None:
            return found
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        for name, field in annotation.model_fields.items():
            if name.lower() == key.lower():
                return field.annotation
    return None


_CONTAINERS = (list, tuple, set, frozenset, dict)


def _complexity(annotation: Any) -> tuple[bool, bool]:
    """(whether an environment value for ``annotation`` is JSON, whether invalid JSON is kept
    as text): a model or a container is JSON; a union with one among its members is JSON when
    it parses."""

    def complex_type(tp: Any) -> bool:
        origin = get_origin(tp) or tp
        return isinstance(origin, type) and issubclass(origin, (BaseModel, *_CONTAINERS))

    if complex_type(annotation):
        return True, False
    if get_origin(annotation) in (Union, UnionType) and any(
        complex_type(a) for a in get_args(annotation)
    ):
        return True, True
    return False, False


def _field_names(annotation: Any, values: dict[str, Any]) -> dict[str, Any]:
    """``values`` for a model field with keys renamed to its fields (case-insensitive), nested
    groups too; keys that name no field are kept."""
    model = _model_of(annotation)
    if model is None:
        return values
    out: dict[str, Any] = {}
    for key, value in values.items():
        name = next((n for n in model.model_fields if n.lower() == key.lower()), None)
        if name is None:
            out[key] = value
        elif isinstance(value, dict) and _model_of(model.model_fields[name].annotation):
            out[name] = _field_names(model.model_fields[name].annotation, value)
        else:
            out[name] = value
    return out


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model class of ``annotation`` or of ``Optional[annotation]``."""
    args = get_args(annotation)
    if get_origin(annotation) in (Union, UnionType) and len(args) == 2 and type(None) in args:
        annotation = next(a for a in args if a is not type(None))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _deep_update(mapping: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """``mapping`` updated by ``update``, merging mappings found under the same key."""
    out = dict(mapping)
    for key, value in update.items():
        if isinstance(out.get(key), dict) and isinstance(value, dict):
            out[key] = _deep_update(out[key], value)
        else:
            out[key] = value
    return out


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
    return Settings(**PRESETS[preset])
