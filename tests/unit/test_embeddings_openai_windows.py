"""OpenAICompatibleEmbedder without a server: identity, settings checks and word windows."""

from __future__ import annotations

import hashlib
import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spanproof.core.errors import ConfigurationError
from spanproof.core.ports import Embedder
from spanproof.providers.embeddings import OpenAICompatibleEmbedder
from spanproof.providers.embeddings.openai_compat import WINDOW_OVERLAP_WORDS, WINDOW_WORDS


def make(
    base_url: str = "http://127.0.0.1:9", model: str = "bge-small"
) -> OpenAICompatibleEmbedder:
    return OpenAICompatibleEmbedder(base_url, model)


def test_openai_compatible_embedder_implements_the_embedder_port() -> None:
    with make() as embedder:
        assert isinstance(embedder, Embedder)
        assert embedder.model_id == "openai-compat:bge-small"


@pytest.mark.parametrize(
    "base_url",
    [
        "http://127.0.0.1:9",
        "http://127.0.0.1:9/",
        "http://127.0.0.1:9/v1",
        "http://127.0.0.1:9/v1/",
    ],
)
def test_model_hash_is_the_sha256_of_base_url_and_model_whatever_the_v1_suffix(
    base_url: str,
) -> None:
    expected = hashlib.sha256(b"http://127.0.0.1:9|bge-small").hexdigest()
    with make(base_url) as embedder:
        assert embedder.model_hash == expected


def test_model_hash_changes_with_the_server_or_the_model() -> None:
    with make() as a, make(model="other") as b, make("http://10.0.0.1:9") as c:
        assert len({a.model_hash, b.model_hash, c.model_hash}) == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"base_url": "localhost:8000"}, "http"),
        ({"base_url": "ftp://example.org"}, "http"),
        ({"base_url": "http://user:secret@example.org"}, "api_key"),
        ({"model": ""}, "model"),
        ({"batch_size": 0}, "batch_size"),
        ({"timeout": 0}, "timeout"),
        ({"max_attempts": 0}, "max_attempts"),
        ({"backoff_s": -1.0}, "backoff_s"),
    ],
)
def test_bad_settings_raise_configuration_errors_that_name_the_setting(
    kwargs: dict[str, object], message: str
) -> None:
    arguments: dict[str, object] = {"base_url": "http://127.0.0.1:9", "model": "m"} | kwargs
    with pytest.raises(ConfigurationError, match=message) as caught:
        OpenAICompatibleEmbedder(**arguments)  # type: ignore[arg-type]
    assert "secret" not in str(caught.value)


def test_short_text_is_one_window() -> None:
    with make() as embedder:
        text = "  a claim of a few words  "
        assert embedder.window_ranges(text) == [(0, len(text))]
        assert embedder.window_ranges("") == [(0, 0)]


def test_long_text_windows_hold_200_words_and_share_50() -> None:
    text = " ".join(f"w{i}" for i in range(450))
    with make() as embedder:
        windows = embedder.window_ranges(text)
    words = [text[a:b].split() for a, b in windows]
    assert [len(w) for w in words] == [200, 200, 150]
    assert words[0][-WINDOW_OVERLAP_WORDS:] == words[1][:WINDOW_OVERLAP_WORDS]
    assert words[1][0] == "w150" and words[2][0] == "w300" and words[2][-1] == "w449"


WORD = st.text(alphabet=st.characters(exclude_categories=["Cs", "Zs", "Cc"]), min_size=1)
SEP = st.sampled_from([" ", "  ", "\n", "\t", " \n "])


@settings(max_examples=80, deadline=None)
@given(words=st.lists(WORD, max_size=700), seps=st.lists(SEP, min_size=701, max_size=701))
def test_word_windows_cover_the_text_in_order_within_the_word_limit(
    words: list[str], seps: list[str]
) -> None:
    text = seps[0] + "".join(w + s for w, s in zip(words, seps[1:], strict=False))
    with make() as embedder:
        windows = embedder.window_ranges(text)
    assert windows[0][0] == 0
    assert windows[-1][1] == len(text)
    for (a, b), (c, d) in itertools.pairwise(windows):
        assert a < c <= b < d  # ordered, overlapping, so no character is left out
    for a, b in windows:
        assert len(re.findall(r"\S+", text[a:b])) <= WINDOW_WORDS
    assert windows == embedder.window_ranges(text)
