"""What a warm ``verify`` skips at start-up, and that skipping changes no result: the window
tokenizer for short ASCII text, and the model file's hash, remembered beside the cache."""

from __future__ import annotations

import hashlib
import json
import random
import string
from pathlib import Path

import pytest

from spanproof.providers.embeddings import OnnxMiniLMEmbedder
from spanproof.providers.embeddings.onnx_minilm import (
    WINDOW_PIECES,
    _remembered_sha256,
    _surely_one_window,
    bundled_tokenizer_path,
)

pytestmark = pytest.mark.model

ALPHABET = string.ascii_letters + string.digits + string.punctuation + " \t\n\r\x0b\x0c\x00\x1f"


def _texts() -> list[str]:
    rng = random.Random(16)
    texts = ["", " ", "!" * WINDOW_PIECES, "!" * (WINDOW_PIECES + 1), "a" * 400, "[CLS] " * 60]
    for n in range(400):
        size = rng.randint(150, 420)
        words = "".join(rng.choice(ALPHABET) for _ in range(size))
        prose = " ".join(
            rng.choice(["the", "blood", "pressure", "5", "mmHg", "(p<0.05)", ","])
            for _ in range(size // 4)
        )
        texts.append(words if n % 2 else prose)
    return texts


@pytest.fixture(scope="module")
def fast() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder(lazy=True)


@pytest.fixture(scope="module")
def tokenizing() -> OnnxMiniLMEmbedder:
    """The same tokenizer named explicitly, so that every text is tokenized."""
    return OnnxMiniLMEmbedder(lazy=True, tokenizer_path=bundled_tokenizer_path())


def test_the_one_window_shortcut_never_disagrees_with_the_tokenizer(
    fast: OnnxMiniLMEmbedder, tokenizing: OnnxMiniLMEmbedder
) -> None:
    tokenizer = tokenizing._window_tokenizer()
    shortcut = 0
    for text in _texts():
        if _surely_one_window(text):
            shortcut += 1
            assert len(tokenizer.encode(text, add_special_tokens=False).ids) <= WINDOW_PIECES
        assert fast.window_ranges(text) == tokenizing.window_ranges(text), text[:80]
    assert 50 < shortcut < 400  # both paths were taken
    assert _surely_one_window("!" * WINDOW_PIECES) and not _surely_one_window("!" * 255)
    assert not _surely_one_window("é")  # non-ASCII text is always tokenized


def test_a_lazy_embedder_loads_no_tokenizer_for_short_ascii_text(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.onnx"
    garbage.write_bytes(b"\x00not an onnx graph")
    lazy = OnnxMiniLMEmbedder(model_path=garbage, lazy=True)
    assert lazy.window_ranges("Daily walking lowered blood pressure.") == [(0, 37)]
    assert lazy._window is None
    assert lazy.window_ranges("Température élevée.") == [(0, 19)]
    assert lazy._window is not None


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_model_hash_is_remembered_until_the_file_changes(tmp_path: Path) -> None:
    model, memo = tmp_path / "model.onnx", tmp_path / "cache" / "model-hashes.json"
    model.write_bytes(b"weights v1" * 1000)
    assert _remembered_sha256(model, memo) == _sha256(model)
    entry = json.loads(memo.read_text())[str(model.resolve())]
    assert entry["sha256"] == _sha256(model)
    # A remembered digest is used as long as the file is the one it was recorded for ...
    planted = {str(model.resolve()): {"identity": entry["identity"], "sha256": "f" * 64}}
    memo.write_text(json.dumps(planted))
    assert _remembered_sha256(model, memo) == "f" * 64
    # ... and a changed file is hashed again (same size: its times and inode tell).
    model.write_bytes(b"weights v2" * 1000)
    assert _remembered_sha256(model, memo) == _sha256(model)
    assert json.loads(memo.read_text())[str(model.resolve())]["sha256"] == _sha256(model)


def test_a_broken_or_unwritable_memo_is_ignored(tmp_path: Path) -> None:
    model = tmp_path / "model.onnx"
    model.write_bytes(b"weights")
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text("{not json")
    assert _remembered_sha256(model, corrupt) == _sha256(model)
    assert json.loads(corrupt.read_text())[str(model.resolve())]["sha256"] == _sha256(model)
    blocked = tmp_path / "a-file" / "model-hashes.json"  # its folder cannot be created
    (tmp_path / "a-file").write_text("")
    assert _remembered_sha256(model, blocked) == _sha256(model)
    assert _remembered_sha256(model, None) == _sha256(model)


def test_the_bundled_model_hash_is_the_same_with_the_memo(tmp_path: Path) -> None:
    memo = tmp_path / "model-hashes.json"
    first = OnnxMiniLMEmbedder(lazy=True, hash_memo=memo).model_hash
    second = OnnxMiniLMEmbedder(lazy=True, hash_memo=memo).model_hash
    assert first == second == OnnxMiniLMEmbedder(lazy=True).model_hash
    assert memo.is_file()
