"""``spanproof bench``: how fast the engine runs on this machine."""

from __future__ import annotations

import os
import platform
import tempfile
from pathlib import Path
from typing import Any

import click

from spanproof.cli.errors import handle_errors
from spanproof.cli.paging import echo_json
from spanproof.cli.store_commands import DB_OPTION
from spanproof.core.errors import InvalidInputError
from spanproof.core.models import SCORE_MODEL_NAMES


@click.command("bench")
@click.option(
    "--score-model",
    type=click.Choice(SCORE_MODEL_NAMES),
    default=None,
    help="Score model the verify benchmark runs (default: the configured one, v79).",
)
@click.option(
    "--repeats",
    type=click.IntRange(1, 100),
    default=7,
    show_default=True,
    help="Runs of each measurement (the median is reported); the uncached verify runs "
    "ceil(repeats / 2) times.",
)
@click.option(
    "--store",
    "use_store",
    is_flag=True,
    help="Time on sentences of the store instead of made-up ones (implied by --db).",
)
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
@handle_errors
def bench_command(
    score_model: str | None, repeats: int, use_store: bool, db: str | None, as_json: bool
) -> None:
    """Time the engine on this machine: the embedder against onnxruntime run directly on the
    same texts, and one verify of 10 claims against 64 evidence spans, uncached and cached.

    Texts are made-up sentences shaped like clinical findings (the same every run), or with
    --store (or --db) the first sentences of the store. Nothing is written: the embedding cache
    used is a temporary one. Under score model v5 the judge remembers its outputs in memory, as a
    long-running process does, so only the first uncached verify runs the judge. For the
    benchmarks behind bench/RESULTS.md see `make bench`.
    """
    from spanproof.bootstrap import (
        build_checker_for,
        build_embedder,
        build_reference_embedder,
        build_score_model,
    )
    from spanproof.config import load_settings
    from spanproof.services.benchmark import (
        EMBED_TEXTS,
        TEXTS_NEEDED,
        bench_embedding,
        bench_verify,
        store_sentences,
        synthetic_sentences,
    )

    if use_store or db is not None:
        from spanproof.cli.store_commands import open_store

        with open_store(db) as (_, store):
            texts = store_sentences(store)
        if len(texts) < TEXTS_NEEDED:
            raise InvalidInputError(
                f"the store holds {len(texts)} distinct sentences of five words or more; the "
                f"benchmark needs {TEXTS_NEEDED} (leave out --store to time on made-up ones)"
            )
        origin = "store"
    else:
        texts, origin = synthetic_sentences(), "synthetic"
    settings = load_settings()
    model = build_score_model(settings, score_model)
    plain = settings.model_copy(
        update={"embedder": settings.embedder.model_copy(update={"cache": False})}
    )
    uncached = build_embedder(plain)
    checker = build_checker_for(model, plain)
    reference = build_reference_embedder(settings)
    if not as_json:
        click.echo("timing the embedder …", err=True)
    embedding = bench_embedding(texts[:EMBED_TEXTS], uncached.embed, reference, repeats)
    with tempfile.TemporaryDirectory(prefix="spanproof-bench-") as tmp:
        temp_cache = settings.model_copy(
            update={
                "embedder": settings.embedder.model_copy(
                    update={"cache": True, "cache_dir": Path(tmp)}
                )
            }
        )
        cached = build_embedder(temp_cache)
        if not as_json:
            click.echo(f"timing verify under {model.name} …", err=True)
        verify = bench_verify(
            texts, cached, uncached, model, checker, repeats, max(1, (repeats + 1) // 2)
        )
        close = getattr(cached, "close", None)
        if callable(close):
            close()
    result: dict[str, Any] = {
        "machine": {
            "platform": platform.platform(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
        },
        "texts": origin,
        "repeats": repeats,
        "embedder": uncached.model_id,
        "embedding": embedding.to_dict(),
        "verify": verify.to_dict(),
    }
    if as_json:
        echo_json(result)
        return
    m = result["machine"]
    click.echo(
        f"this machine: {m['machine']}, {m['cpus']} CPUs, Python {m['python']}; "
        f"{origin} texts; medians of {repeats} runs"
    )
    e = embedding
    line = f"embedding  {e.texts} texts: spanproof {e.spanproof_per_s:.1f} texts/s"
    if e.reference_per_s is not None:
        line += (
            f", onnxruntime alone {e.reference_per_s:.1f} texts/s (ratio {e.ratio:.3f}; "
            f"largest difference between their vectors {e.largest_difference:.1e})"
        )
    else:
        line += " (the configured embedder is not the bundled model: no reference to compare)"
    click.echo(line)
    v = verify
    verdicts = ", ".join(f"{n} {name}" for name, n in v.verdicts.items())
    click.echo(
        f"verify     {v.claims} claims × {v.spans} spans under {v.score_model}: "
        f"{v.uncached_median_ms:.1f} ms with nothing cached, {v.cached_median_ms:.1f} ms with "
        f"the embeddings cached (p95 {v.cached_p95_ms:.1f} ms); verdicts: {verdicts}"
    )
