"""Chunking (SPEC §2): retrieval units cut from a section, sentence-aligned and token-bounded.

Sentences are packed greedily into chunks of at most ``max_tokens`` word tokens; a sentence longer
than that is cut at word-token boundaries. Chunks never overlap and together cover every word of
the section, so every sentence is retrievable. Offsets index the section's canonical text.
"""

from __future__ import annotations

from spanproof.text.sentences import split_sentences
from spanproof.text.tokens import segments

MAX_TOKENS = 120  # well inside the embedding model's 256-piece window for English prose


def _cut_long(text: str, start: int, end: int, max_tokens: int) -> list[tuple[int, int]]:
    words = segments(text[start:end])
    out: list[tuple[int, int]] = []
    for i in range(0, len(words), max_tokens):
        group = words[i : i + max_tokens]
        first = start if i == 0 else start + group[0][1]
        last = end if i + max_tokens >= len(words) else start + group[-1][2]
        out.append((first, last))
    return out or [(start, end)]


def chunk_ranges(text: str, max_tokens: int = MAX_TOKENS) -> list[tuple[int, int]]:
    """``(start, end)`` ranges of the chunks of ``text``, in order."""
    if max_tokens < 1:
        raise ValueError("max_tokens must be at least 1")
    out: list[tuple[int, int]] = []
    current: tuple[int, int] | None = None
    current_tokens = 0
    for sentence in split_sentences(text):
        n = len(segments(sentence.text))
        if n > max_tokens:
            if current is not None:
                out.append(current)
                current, current_tokens = None, 0
            out.extend(_cut_long(text, sentence.start, sentence.end, max_tokens))
            continue
        if current is not None and current_tokens + n <= max_tokens:
            current = (current[0], sentence.end)
            current_tokens += n
        else:
            if current is not None:
                out.append(current)
            current, current_tokens = (sentence.start, sentence.end), n
    if current is not None:
        out.append(current)
    return out
