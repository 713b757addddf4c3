"""``spanproof embed``: back-fill the vectors a store's ``ask`` reads (chunks and sentences)."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.console import Console

from spanproof.cli.errors import handle_errors
from spanproof.cli.render import progress_bar
from spanproof.cli.store_commands import DB_OPTION, open_store


@click.command("embed")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@handle_errors
def embed_command(db: str | None, as_json: bool) -> None:
    """Embed what the store lacks: chunk vectors, and sentence vectors for the embedding cache.

    The planner of `ask` compares the question with every sentence of the chunks it recalls;
    with their vectors cached it embeds only the question. `spanproof ingest` caches the
    sentences of what it ingests; run this once for a store ingested before, or after the
    cache file was deleted. Resumable: an interrupted run goes on where it stopped.
    """
    from spanproof.bootstrap import build_embedder
    from spanproof.services.ingestion import EmbeddingCache, cache_sentences, embed_pending

    err = Console(stderr=True)
    with open_store(db) as (settings, store):
        embedder = build_embedder(settings)
        stats = store.stats()
        todo = stats.get("chunks", 0) - stats.get("embeddings", 0)
        with progress_bar(err) as progress:
            task = progress.add_task("embedding chunks", total=max(todo, 0))
            chunks = embed_pending(store, embedder, progress=lambda n: progress.advance(task, n))
            task = progress.add_task("caching sentences", total=stats.get("sources", 0))
            fill = cache_sentences(store, embedder, progress=lambda n: progress.advance(task, n))
    cached = isinstance(embedder, EmbeddingCache)
    summary: dict[str, Any] = {
        "chunks_embedded": chunks,
        "sentences": fill.sentences,
        "sentences_embedded": fill.embedded,
        "sentences_cached_before": fill.sentences - fill.embedded if cached else 0,
        "embedding_cache": str(settings.embedder.cache_dir / "embeddings.sqlite")
        if cached
        else None,
    }
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False))
        return
    click.echo(f"{chunks} chunks embedded")
    if not cached:
        click.echo(
            f"{fill.sentences} sentences not cached: the embedding cache is off "
            "(SPANPROOF_EMBEDDER__CACHE=false), so `ask` embeds them each time"
        )
        return
    click.echo(
        f"{fill.sentences} sentences: {fill.embedded} embedded now, "
        f"{summary['sentences_cached_before']} cached before, in {summary['embedding_cache']}"
    )
