"""The English stemmer loads on its own (not snowballstemmer's 30-odd languages) and stems
exactly as ``snowballstemmer.stemmer("english")`` does."""

from __future__ import annotations

import json
import subprocess
import sys

from spanproof.providers.embeddings.onnx_minilm import bundled_tokenizer_path

CODE = """
import json, sys
from spanproof.text.stems import stem
words = json.load(sys.stdin)
out = [stem(w) for w in words]
loaded = sorted(m for m in sys.modules if m.startswith("snowballstemmer"))
import snowballstemmer
ref = snowballstemmer.stemmer("english")
expected = [
    w if not w.isascii() or not any(c.isalpha() for c in w) else ref.stemWord(w) for w in words
]
print(json.dumps({"loaded": loaded, "same": out == expected, "n": len(words)}))
"""


def test_the_english_stemmer_alone_stems_as_snowballstemmer_does() -> None:
    vocab = json.loads(bundled_tokenizer_path().read_text(encoding="utf-8"))["model"]["vocab"]
    words = [w.removeprefix("##") for w in vocab] + ["reduced", "reduces", "reducing", "généré"]
    done = subprocess.run(
        [sys.executable, "-c", CODE],
        input=json.dumps(words),
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout)
    assert result == {"loaded": [], "same": True, "n": len(words)}


def test_threads_stem_with_stemmers_of_their_own_and_get_the_same_stems() -> None:
    import threading

    from spanproof.text import stems

    vocab = json.loads(bundled_tokenizer_path().read_text(encoding="utf-8"))["model"]["vocab"]
    words = sorted({w.removeprefix("##") for w in vocab if w.isascii() and w.isalpha()})
    reference = [stems._english_stemmer().stemWord(w) for w in words]
    seen: list[object] = []
    results: dict[int, list[str]] = {}

    def run(k: int) -> None:
        stemmer = stems._english_stemmer()
        seen.append(stemmer)
        # straight to the stemmer, past stem()'s cache: one shared Snowball object gave other
        # words' stems ("adhesion" → "amelior") and IndexErrors under four threads
        results[k] = [stemmer.stemWord(w) for w in words]

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(s) for s in seen}) == 4 and stems._english_stemmer() not in seen
    assert all(results[k] == reference for k in range(4))
