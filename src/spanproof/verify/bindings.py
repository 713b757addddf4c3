"""A title bound to a name (score model v66): "finance director Marcus Hale" is not Anya Borrell.

News, biography and sport text names people and bodies by a title written right before the
name: "chief executive Anya Borrell", "defending champion Leah Omondi", "top seed Ilse
Marten". An answer that mixes up who holds which title keeps every name and every title word of
its source — "Finance director Anya Borrell will take over from chief executive Marcus Hale"
against "Chief executive Anya Borrell will step down and be replaced by finance director Marcus
Hale" — so the entity gate, which asks only whether each name is there, passes it.

A *binding* is one or two lowercase content words of three letters or more (the title; the
first of two may be a sentence's capitalised first word, "Chief executive Anya Borrell"; the
last not ending in "-ed" or "-ing", which are more often verbs) right before a name — two words
or more each written with a capital and then lowercase letters, one space between them
("Rev-Erbalpha" is a gene's name), not joined to the title by a hyphen — within one sentence.
:func:`title_conflict` is True when the claim binds a title to a name while the span binds the
same title (the claim's title words, the same last word) to another name and never to
the claim's: the span says that title belongs to someone else. A name is the same when one's
words hold the other's ("Marten", "Ilse Marten"). A title the span binds to no one, or binds to
the claim's name somewhere, is not read as changed.
"""

from __future__ import annotations

from functools import lru_cache

from spanproof.text.sentences import split_sentences
from spanproof.text.tokens import nfc, segments
from spanproof.verify.features import STOP_WORDS

Binding = tuple[tuple[str, ...], tuple[str, ...]]  # (title words, name words), lowercase


#: A name is at least two words written as names ("Anya Borrell", "Pendry Holdings"): one word
#: after an adjective is as often a gene, a disease or a month ("human TRIM5", "severe Covid",
#: "late February").
MIN_NAME_WORDS = 2


def _capitalised(word: str) -> bool:
    return word[:1].isupper()


def _name_word(word: str) -> bool:
    """A word written as a name is: a capital, then lowercase letters ("Borrell"; not "NK",
    "TRIM5", "B")."""
    return len(word) >= 2 and word.isalpha() and word[0].isupper() and word[1:].islower()


def bindings(text: str) -> tuple[Binding, ...]:
    """Each title of ``text`` with the name written right after it (see the module docstring):
    ``(("finance", "director"), ("marcus", "hale"))``."""
    out: list[Binding] = []
    for sentence in split_sentences(nfc(text)):
        segs = segments(sentence.text)
        words = [w for w, _, _ in segs]
        k = 1
        while k < len(words):
            end = k
            while end < len(words) and _name_word(words[end]):
                if end > k and sentence.text[segs[end - 1][2] : segs[end][1]] != " ":
                    break  # "Rev-Erbalpha": a hyphened name is a gene's or a compound's
                end += 1
            joint = sentence.text[segs[k - 1][2] : segs[k][1]]
            if (
                end - k < MIN_NAME_WORDS
                or not _title_word(words, k - 1)
                or _capitalised(words[k - 1])  # "Florida Governor Rick Scott": no title
                or words[k - 1].lower().endswith(_VERB_ENDINGS)
                or "-" in joint
            ):
                k = max(end, k + 1)
                continue
            start = k - 2 if k >= 2 and _title_word(words, k - 2) else k - 1
            title = tuple(w.lower() for w in words[start:k])
            out.append((title, tuple(w.lower() for w in words[k:end])))
            k = end
    return tuple(out)


#: A title's last word is a noun: one ending so is more often a verb ("visited Paris",
#: "including Acme").
_VERB_ENDINGS = ("ed", "ing")


def _title_word(words: list[str], i: int) -> bool:
    """A lowercase content word of three letters or more, or the sentence's first word written
    with a capital (a title that opens the sentence: "Chief executive Anya Borrell …")."""
    word = words[i]
    if not word.isalpha() or len(word) < 3 or word.lower() in STOP_WORDS:
        return False
    return not _capitalised(word) or (i == 0 and word[1:].islower())


def _same_name(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return set(a) <= set(b) or set(b) <= set(a)


def _same_title(ours: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    return ours[-1] == theirs[-1] and set(ours) <= set(theirs)


@lru_cache(maxsize=1 << 14)
def title_conflict(claim: str, span: str) -> Binding | None:
    """The claim's first binding whose title the span binds to another name only (see the
    module docstring); None if there is none."""
    theirs = bindings(span)
    for title, name in bindings(claim):
        held = [n for t, n in theirs if _same_title(title, t)]
        if held and not any(_same_name(name, n) for n in held):
            return title, name
    return None
