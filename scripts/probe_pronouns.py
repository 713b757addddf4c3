"""A claim that opens with "it" or "they": checked as what it says, or as what it names? (rules-v6)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_pronouns.py \\
        [--models v58] [--n 200] [--seed 20261207] [--write docs/quality.md]

An answer goes on about what it has named: "A. It …". Cases from SciFact corpus abstracts,
two kinds, each a two-sentence answer whose second sentence opens with a pronoun:

* ``same subject`` (true): two adjacent sentences of one abstract whose subjects are the same
  words ("Fra-1 forms … . Fra-1 is thought to …"), the second's subject replaced by "It" or
  "They" (by the subject's number); checked against the abstract. Both claims are true.
* ``same subject, a sentence an item``: the same drafts checked against the abstract's sentences
  as separate evidence items (sentence-sized chunks): the pronoun's sentence, quoted word for
  word, is then an item of its own that never names what "It" is.
* ``other subject`` (false): a sentence of one abstract, then a sentence of another abstract
  whose subject differs (same number), its subject replaced by the pronoun; checked against both
  abstracts. The second claim says of the first sentence's subject what the other abstract says
  of its own: it should not be `supported`.

Each draft is decomposed by the rule-based decomposer and its second claim scored two ways:
``as written`` reads the claim's own words ("It is thought to …", what ``rules-v5`` read) and
``named`` reads the text the decomposer gives it (``rules-v6`` names the pronoun when it finds the
previous claim's subject). Reported per model and kind: how many cases the decomposer named, and
the share of second claims `supported` read each way.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from _report import SECONDS, checker_for, publish_timed, start_probe
from probe_word_swaps import corpus_abstracts

from spanproof.core.models import Claim
from spanproof.core.ports import Embedder
from spanproof.services.verification import score_all
from spanproof.verifier import to_evidence
from spanproof.verify.decompose import RuleBasedDecomposer, clean_claim_text
from spanproof.verify.pronouns import plural_subject, statement_subject
from spanproof.verify.scoring import SCORE_MODELS, ScoreModel

BEGIN, END = "<!-- pronouns:begin -->", "<!-- pronouns:end -->"
DEFAULT_SEED = 20261207
KINDS = ("same subject", "same subject, a sentence an item", "other subject")
DECOMPOSER = RuleBasedDecomposer()
#: A subject of more words is left out of the cases (the rules likely misread it).
MAX_WORDS = 6


@dataclass(frozen=True)
class Sentence:
    """A sentence that opens with its subject, and the subject's number."""

    text: str
    subject: str
    plural: bool
    abstract: int


@dataclass(frozen=True)
class Case:
    """A two-sentence answer and the evidence it is checked against."""

    kind: str
    draft: str
    evidence: tuple[str, ...]


def subject_sentences(abstracts: Sequence[list[str]]) -> list[list[Sentence | None]]:
    """Per abstract and sentence: the sentence when it opens with a subject of at most
    :data:`MAX_WORDS` words whose number the rules tell, else None."""
    out: list[list[Sentence | None]] = []
    for k, sentences in enumerate(abstracts):
        row: list[Sentence | None] = []
        for text in sentences:
            subject = statement_subject(text)
            plural = plural_subject(subject) if subject else None
            ok = (
                subject is not None
                and plural is not None
                and len(subject.split()) <= MAX_WORDS
                and "," not in subject
                and text.startswith(subject)
                and text.rstrip().endswith(".")
                and _agrees(text[len(subject) :], plural)
            )
            row.append(Sentence(text, subject, plural, k) if ok else None)  # type: ignore[arg-type]
        out.append(row)
    return out


#: Verbs that show their number: a case's verb must agree with the pronoun put in.
_SINGULAR = frozenset({"is", "was", "has", "does"})
_PLURAL = frozenset({"are", "were", "have", "do"})


def _agrees(rest: str, plural: bool) -> bool:
    """Whether the words after a subject open with a verb of its number: one that shows it
    (:data:`_SINGULAR`, :data:`_PLURAL`), a past form in "-ed", or a modal; "It show …" and
    "They is …" are not made."""
    words = rest.split()
    if not words:
        return False
    verb = words[0].lower()
    if verb in (_PLURAL if plural else _SINGULAR):
        return True
    return verb.endswith("ed") or verb in {"can", "could", "may", "might", "will", "would"}


def with_pronoun(sentence: Sentence) -> str:
    """``sentence`` with its subject replaced by "It" or "They"."""
    return ("They" if sentence.plural else "It") + sentence.text[len(sentence.subject) :]


def build_cases(abstracts: Sequence[list[str]], n: int, seed: int) -> dict[str, list[Case]]:
    """Every ``same subject`` case the corpus holds (up to ``n``), and ``n`` seeded ``other
    subject`` cases."""
    rows = subject_sentences(abstracts)
    same: list[Case] = []
    split: list[Case] = []
    for k, row in enumerate(rows):
        for i, (a, b) in enumerate(itertools.pairwise(row)):
            if a and b and a.subject.lower() == b.subject.lower() and a.plural == b.plural:
                draft = f"{a.text} {with_pronoun(b)}"
                same.append(Case(KINDS[0], draft, (" ".join(abstracts[k]),)))
                items = list(abstracts[k])
                items[i + 1] = with_pronoun(b)  # the source sentence as the answer quotes it
                split.append(Case(KINDS[1], draft, tuple(items)))
    rng = random.Random(seed)
    order = list(range(len(same)))
    rng.shuffle(order)
    pool = [s for row in rows for s in row if s is not None]
    other: list[Case] = []
    tries = 0
    while len(other) < n and tries < 50 * n:
        tries += 1
        a, b = rng.choice(pool), rng.choice(pool)
        if a.abstract == b.abstract or a.plural != b.plural:
            continue
        if a.subject.lower() in b.text.lower() or b.subject.lower() in a.text.lower():
            continue  # the other sentence names the first's subject anyway
        draft = f"{a.text} {with_pronoun(b)}"
        evidence = (" ".join(abstracts[a.abstract]), " ".join(abstracts[b.abstract]))
        other.append(Case(KINDS[2], draft, evidence))
    return {
        KINDS[0]: [same[i] for i in order][:n],
        KINDS[1]: [split[i] for i in order][:n],
        KINDS[2]: other,
    }


def second_claim(case: Case) -> tuple[Claim, Claim] | None:
    """The draft's second claim as the decomposer names it, and as written (its own words)."""
    claims = DECOMPOSER.decompose(case.draft)
    if len(claims) != 2 or claims[1].draft_span is None:
        return None
    named = claims[1]
    written = Claim(named.id, clean_claim_text(case.draft[slice(*named.draft_span)]))
    return named, written


def supported(claim: Claim, case: Case, model: ScoreModel, embedder: Embedder) -> bool:
    evidence = to_evidence([{"id": f"E{k + 1}", "text": t} for k, t in enumerate(case.evidence)])
    verdicts, _ = score_all([claim], evidence, embedder, model, checker_for(model))
    return bool(verdicts) and verdicts[0].verdict.value == "supported"


def main() -> int:
    run = start_probe(__doc__, models=["v58"], n=200, seed=DEFAULT_SEED, examples=0)
    if run is None:
        return 2
    args, embedder = run.args, run.embedder
    cases = build_cases(corpus_abstracts(run.root), args.n, args.seed)
    command = (
        f"python scripts/probe_pronouns.py --models {' '.join(args.models)} --n {args.n} "
        f"--seed {args.seed}"
    )
    lines = [
        BEGIN,
        f"Measured by `{command}` on {time.strftime('%Y-%m-%d')} ({SECONDS} s), decomposer "
        f"`{DECOMPOSER.model_id}`: two-sentence answers whose second sentence opens with a "
        "pronoun; the share of second claims `supported`, read as written and as the "
        "decomposer names them (true claims: higher is better; false claims: lower).",
        "",
        "| model | kind | cases | named by the decomposer | `supported` as written "
        "| `supported` named |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for name in args.models:
        model = SCORE_MODELS[name]
        for kind in KINDS:
            read = [(c, second_claim(c)) for c in cases[kind]]
            read = [(c, pair) for c, pair in read if pair is not None]
            named = sum(pair[0].text != pair[1].text for _, pair in read)
            as_written = sum(supported(pair[1], c, model, embedder) for c, pair in read)
            as_named = sum(supported(pair[0], c, model, embedder) for c, pair in read)
            total = len(read) or 1
            lines.append(
                f"| {name} | {kind} | {len(read)} | {named} | {100 * as_written / total:.1f} % "
                f"| {100 * as_named / total:.1f} % |"
            )
    publish_timed(lines, run.started, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
