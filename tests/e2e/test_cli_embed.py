"""``spanproof embed`` end to end on the bundled model: it back-fills the chunk vectors of a store
ingested with ``--no-embed`` and the sentence vectors ``ask`` reads from the embedding cache;
``spanproof ingest`` leaves nothing for it to do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from spanproof.cli.main import cli

pytestmark = pytest.mark.model
CORPUS = Path(__file__).parents[2] / "examples" / "demo" / "corpus"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def embed_json(db: str) -> dict[str, object]:
    code, out, err = run("embed", "--db", db, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_embed_back_fills_chunks_and_sentences_then_has_nothing_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPANPROOF_EMBEDDER__CACHE_DIR", str(tmp_path / "cache"))
    db = str(tmp_path / "demo.sqlite")
    code, out, err = run("ingest", str(CORPUS), "--db", db, "--no-embed", "--json")
    assert code == 0, err
    assert json.loads(out)["chunks_embedded"] == 0
    first = embed_json(db)
    assert isinstance(first["chunks_embedded"], int) and first["chunks_embedded"] > 0
    assert isinstance(first["sentences"], int) and first["sentences"] > 20
    # A one-sentence section is its own chunk: embedding the chunk cached that sentence.
    assert 0 < first["sentences_embedded"] <= first["sentences"]
    assert first["sentences_cached_before"] == first["sentences"] - first["sentences_embedded"]
    assert first["embedding_cache"] == str(tmp_path / "cache" / "embeddings.sqlite")
    again = embed_json(db)
    assert again["chunks_embedded"] == again["sentences_embedded"] == 0
    assert again["sentences_cached_before"] == again["sentences"] == first["sentences"]
    code, out, err = run("embed", "--db", db)
    assert code == 0, err
    assert "0 chunks embedded" in out and f"{first['sentences']} cached before" in out


def test_ingest_caches_the_sentences_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPANPROOF_EMBEDDER__CACHE_DIR", str(tmp_path / "cache"))
    db = str(tmp_path / "demo.sqlite")
    code, _, err = run("ingest", str(CORPUS), "--db", db)
    assert code == 0, err
    data = embed_json(db)
    assert data["chunks_embedded"] == data["sentences_embedded"] == 0
    assert isinstance(data["sentences"], int) and data["sentences"] > 20


def test_embed_refuses_a_store_that_does_not_exist(tmp_path: Path) -> None:
    code, _, err = run("embed", "--db", str(tmp_path / "nope.sqlite"))
    assert code != 0
    assert "no store at" in err


def test_ingest_with_no_sentences_embeds_chunks_and_leaves_sentences_to_embed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPANPROOF_EMBEDDER__CACHE_DIR", str(tmp_path / "cache"))
    db = str(tmp_path / "demo.sqlite")
    code, out, err = run("ingest", str(CORPUS), "--db", db, "--no-sentences", "--json")
    assert code == 0, err
    assert json.loads(out)["chunks_embedded"] > 0
    data = embed_json(db)
    assert data["chunks_embedded"] == 0
    assert isinstance(data["sentences_embedded"], int) and data["sentences_embedded"] > 0
