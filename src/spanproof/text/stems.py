"""English stems for lexical coverage in score model v2 (Snowball/Porter2 stemmer).

``reduced``, ``reduces`` and ``reducing`` share the stem ``reduc``, so a paraphrase that changes
inflection keeps its lexical credit. Tokens without a letter, and non-ASCII words the English
stemmer does not model, are returned unchanged.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
import types
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

#: The name under which :func:`_new_english_stemmer` loads snowballstemmer's modules on their own.
_PRIVATE_PACKAGE = "_spanproof_snowballstemmer"


#: Each thread's stemmer: a Snowball stemmer keeps the word it works on in the object itself, so
#: two threads stemming with one object read each other's words (wrong stems, and an
#: ``IndexError`` now and then), as a worker's concurrent ingestions and the API's request threads
#: would.
_PER_THREAD = threading.local()
_LOADING = threading.Lock()


def _english_stemmer() -> Any:
    """This thread's English stemmer (:func:`_new_english_stemmer`), made on first use."""
    stemmer = getattr(_PER_THREAD, "stemmer", None)
    if stemmer is None:
        stemmer = _PER_THREAD.stemmer = _new_english_stemmer()
    return stemmer


def _new_english_stemmer() -> Any:
    """snowballstemmer's English stemmer, as ``snowballstemmer.stemmer("english")`` makes it,
    without the import of all its 30-odd languages that costs every start-up tens of
    milliseconds: its ``english_stemmer`` module is loaded from the package's folder under a
    private package name. When the package is already imported, or when PyStemmer (which
    snowballstemmer prefers when installed) is present, snowballstemmer is asked as usual.
    """
    if "snowballstemmer" in sys.modules or importlib.util.find_spec("Stemmer") is not None:
        import snowballstemmer

        return snowballstemmer.stemmer("english")
    with _LOADING:
        if _PRIVATE_PACKAGE not in sys.modules:
            spec = importlib.util.find_spec("snowballstemmer")
            if spec is None or not spec.submodule_search_locations:
                raise ModuleNotFoundError(
                    "No module named 'snowballstemmer'", name="snowballstemmer"
                )
            package = types.ModuleType(_PRIVATE_PACKAGE)
            package.__path__ = list(spec.submodule_search_locations)
            sys.modules[_PRIVATE_PACKAGE] = package
        module = importlib.import_module(f"{_PRIVATE_PACKAGE}.english_stemmer")
    return module.EnglishStemmer()


@lru_cache(maxsize=200_000)
def stem(token: str) -> str:
    """The stem of one lowercase token."""
    if not token.isascii() or not any(ch.isalpha() for ch in token):
        return token
    return str(_english_stemmer().stemWord(token))


def stems(tokens: Sequence[str]) -> list[str]:
    return [stem(t) for t in tokens]


#: Plurals the stemmer does not bring back to their singular ("mice" → "mice", "mouse" → "mous"):
#: the irregular English ones and the Latin and Greek ones of scientific writing.
IRREGULAR_SINGULARS: dict[str, str] = {
    "mice": "mouse", "children": "child", "women": "woman", "men": "man", "feet": "foot",
    "teeth": "tooth", "geese": "goose", "lice": "louse", "people": "person",
    "analyses": "analysis", "diagnoses": "diagnosis", "prognoses": "prognosis",
    "metastases": "metastasis", "hypotheses": "hypothesis", "syntheses": "synthesis",
    "theses": "thesis", "crises": "crisis", "axes": "axis",
    "anastomoses": "anastomosis", "fibroses": "fibrosis", "stenoses": "stenosis",
    "nuclei": "nucleus", "loci": "locus", "foci": "focus", "stimuli": "stimulus",
    "fungi": "fungus", "bacilli": "bacillus", "radii": "radius", "emboli": "embolus",
    "thrombi": "thrombus", "alveoli": "alveolus", "bronchi": "bronchus", "nevi": "nevus",
    "bacteria": "bacterium", "criteria": "criterion", "phenomena": "phenomenon",
    "strata": "stratum", "spectra": "spectrum", "media": "medium", "genera": "genus",
    "larvae": "larva", "vertebrae": "vertebra", "formulae": "formula", "amoebae": "amoeba",
    "indices": "index", "matrices": "matrix", "appendices": "appendix", "vertices": "vertex",
    "cortices": "cortex", "apices": "apex",
}  # fmt: skip


def singular(token: str) -> str:
    """The singular of a lowercase irregular plural (:data:`IRREGULAR_SINGULARS`: "mice" →
    "mouse", "analyses" → "analysis", "nuclei" → "nucleus"); any other token unchanged."""
    return IRREGULAR_SINGULARS.get(token, token)
