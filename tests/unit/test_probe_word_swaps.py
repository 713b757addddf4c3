"""The word-swap probe (scripts/probe_word_swaps.py): each case is a sentence of an abstract with
one content word replaced by a word another sentence of the same abstract writes."""

from __future__ import annotations

import sys
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from probe_word_swaps import Case, build_cases, content_words, swap

from spanproof.testing.fakes import FakeEmbedder

ABSTRACT = [
    "Obesity was studied in adult laboratory mice kept on a standard chow diet.",
    "Treated mice gained weight faster than untreated littermates over twelve weeks.",
    "Leptin injections lowered appetite in every treated animal within three days.",
    "These results suggest leptin regulates appetite through hypothalamic circuits.",
]


class WordVectors:
    """An embedder that puts "rodents" right beside "animal" and every other word apart."""

    model_id = "word-vectors"
    model_hash = "0" * 64

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = []
        for text in texts:
            vec = np.zeros(64)
            vec[zlib.crc32(text.encode()) % 61 + 3] = 1.0
            if text in ("animal", "rodents"):
                vec = np.zeros(64)
                vec[0], vec[1] = 1.0, 0.3 if text == "rodents" else 0.0
            out.append(vec / np.linalg.norm(vec))
        return np.asarray(out)


def test_a_swap_replaces_one_word_in_place() -> None:
    sentence = "Leptin injections lowered appetite in every treated animal."
    word = next(m for m in content_words(sentence) if m.group(0) == "lowered")
    assert (
        swap(sentence, word, "raised")
        == "Leptin injections raised appetite in every treated animal."
    )


def test_content_words_are_five_letters_or_more_and_no_function_word() -> None:
    words = [m.group(0) for m in content_words("These mice were treated with leptin because")]
    assert "mice" not in words  # four letters
    assert "treated" in words and "leptin" in words
    assert "because" not in words  # a function word


def test_each_random_case_takes_a_word_of_another_sentence_of_the_same_abstract() -> None:
    other = ["One sentence.", "Two.", "Three."]  # too short to make a case from
    cases = build_cases([ABSTRACT, other], n=5, seed=1, embedder=FakeEmbedder())
    assert len(cases["random"]) == 1  # one sentence per abstract, and only one abstract can
    case = cases["random"][0]
    assert case.evidence == " ".join(ABSTRACT)
    source = next(s for s in ABSTRACT if swap_back(case) == s)
    assert case.new.lower() not in source.lower()
    assert any(case.new in s.lower() for s in ABSTRACT if s != source)
    assert case.claim != source


def test_the_closest_case_takes_the_word_nearest_in_meaning() -> None:
    abstracts = [
        [
            "Leptin injections lowered appetite in every treated animal within three days.",
            "Obesity was studied in adult laboratory rodents kept on a standard chow diet.",
            "Treated rodents gained weight faster than untreated littermates over twelve weeks.",
            "These results suggest leptin regulates appetite through hypothalamic circuits.",
        ]
    ]
    found = []
    for seed in range(40):  # seeds whose chosen sentence and word are "animal" in the first
        for case in build_cases(abstracts, n=1, seed=seed, embedder=WordVectors())["closest"]:
            if case.old == "animal":
                found.append(case)
    assert found, "no seed chose the word 'animal'"
    assert all(case.new == "rodents" for case in found)
    assert all("every treated rodents within" in case.claim for case in found)


def swap_back(case: Case) -> str:
    return case.claim.replace(case.new, case.old, 1)
