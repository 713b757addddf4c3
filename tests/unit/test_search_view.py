"""The search page marks the words of a hit that the store matched the query by."""

from __future__ import annotations

from spanproof.web.search_view import highlight, query_stems


def _marked(query: str, text: str) -> tuple[str, ...]:
    pieces, matched = highlight(text, query_stems(query))
    assert "".join(p.text for p in pieces) == text
    return matched


def test_words_are_marked_by_the_keyword_terms_the_store_matches() -> None:
    assert _marked("cafe lowered", "The Café lowers prices at the café.") == ("Café", "lowers")
    assert _marked("strasse", "Die Straße ist lang.") == ("Straße",)
    assert _marked("1.5", "A ratio of 1.5, not 5 or 15.") == ("1.5",)


def test_stop_words_mark_nothing() -> None:
    assert _marked("the effect of it", "The effect of it was small.") == ("effect",)
    assert _marked("to be or not", "To be or not to be.") == ()
