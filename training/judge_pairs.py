"""The judge's (claim, evidence window, label) pairs: every labelled set, a dev split per set,
hard negatives mined from the SciFact corpus (issue 14, item 2).

    SPANPROOF_DATA_DIR=../shared/data .venv/bin/python training/judge_pairs.py \
        --dev-out .judge-ckpt/dev_pairs.jsonl

The judge reads a claim against an evidence *window*: one to three adjacent sentences, or the
rationale sentences joined in document order, within ``MAX_TOKENS`` word pieces for
``[CLS] claim [SEP] window [SEP]`` (:func:`fit_window` drops trailing sentences until it fits).

Sources (labels as in :mod:`build_pairs`: entailed / contradicted / neutral, and the partial
label ``not_entailed``):

* SciFact train claims: each rationale set, its sentences joined in abstract order → entailed
  (SUPPORT) or contradicted (CONTRADICT); for one pair in two (seeded by a hash) a neighbouring
  non-rationale sentence is added for context. Neutral: windows of one or two adjacent sentences
  of the *same* cited abstract that hold no rationale sentence — the one sharing most words with
  the claim, and one picked at random (seeded); for claims without evidence, the closest window
  of each cited abstract.
* HealthVer, COVID-Fact, CLIMATE-FEVER, FEVER: as :mod:`build_pairs` (passages are already
  windows; CLIMATE-FEVER's evidence sentences come from different articles, so one each).
* Citation-Integrity and Check-COVID: the official ``train.jsonl`` / ``dev.jsonl``; the citation
  markers (``<|cit|>``, ``<|multi_cit|>``, ``<|other_cit|>``) are removed from the claim.
* Mined (dataset ``mined``, training only): a window's own first main clause, or the sentence
  with its parentheticals dropped → entailed, from training SciFact rationale windows and from
  corpus abstracts that no dev claim cites.
* Substitutions (dataset ``realistic``, training only): the ``calibration`` half of
  :func:`spanproof.evaluation.realistic.generate` when it is importable and works (never its
  ``heldout`` half), mapped supported → entailed, contradicted → contradicted, not_supported →
  not_entailed; otherwise (``--substitutions phrase``) :func:`phrase_substitutions`: a two-word
  phrase of a sentence replaced with one from another abstract → not_entailed.
* Titles (dataset ``titles``, training only, with ``titles=True`` / ``train_judge.py
  --titles``): SciFact titles that state a finding, against the window of their abstract's last
  sentences that holds them → entailed; with a phrase or entity swapped → not_entailed; with the
  polarity flipped → contradicted (:func:`title_pairs`; docs/model-card.md, recipe A).
* Adversarial edits (``synthetic``) and identity pairs (``identity``) of :mod:`build_pairs`,
  made from the training pairs only.

Split, per set: Citation-Integrity and Check-COVID use their official dev files; the other sets
keep :func:`build_pairs.is_validation` (seeded, by claim group). Made-up pairs are training only,
and none is made from a dev group's claim or from an abstract a dev claim cites.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_pairs import (
    IDENTITY,
    LABELS,
    PARTIAL_LABEL,
    SEED,
    SYNTHETIC,
    Pair,
    climate_fever_pairs,
    covidfact_pairs,
    fever_pairs,
    healthver_pairs,
    identity_pairs,
    is_validation,
    synthetic_pairs,
)

from spanproof.evaluation.devdata import data_dir, scifact_claims, scifact_corpus
from spanproof.text.sentences import split_sentences
from spanproof.text.tokens import token_texts

MAX_TOKENS = 256
REAL_SETS = (
    "scifact",
    "healthver",
    "covidfact",
    "climate_fever",
    "fever",
    "citation_integrity",
    "check_covid",
)
MINED = "mined"
REALISTIC = "realistic"
TITLES = "titles"
MADE_UP = (MINED, REALISTIC, TITLES, SYNTHETIC, IDENTITY)
#: Corpus abstracts sampled for mined pairs (besides the training rationale windows).
CORPUS_DOCS = 1200

Counter_ = Callable[[str, str], int]


@dataclass(frozen=True, slots=True)
class JudgePair:
    claim: str
    evidence: str  # the window, as the judge reads it
    label: str  # one of LABELS, or PARTIAL_LABEL
    group: str  # claim-level group, unique across sets
    dataset: str
    split: str  # "train" | "dev"


def _clean(text: str) -> str:
    return " ".join(text.split())


def _hash01(*parts: object) -> float:
    digest = hashlib.sha256(":".join(map(str, (SEED, *parts))).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


def piece_counter() -> Counter_:
    """Word pieces of ``[CLS] claim [SEP] evidence [SEP]`` under the bundled MiniLM tokenizer."""
    from tokenizers import Tokenizer

    from spanproof.providers.embeddings.onnx_minilm import bundled_tokenizer_path

    tok = Tokenizer.from_file(str(bundled_tokenizer_path()))
    tok.no_truncation()
    tok.no_padding()
    return lambda claim, evidence: len(tok.encode(claim, evidence).ids)


def fit_window(claim: str, sentences: Sequence[str], count: Counter_) -> str:
    """The sentences joined, trailing ones dropped until claim + window fit ``MAX_TOKENS``
    pieces (at least one sentence is kept; the model's truncation cuts a single long one)."""
    kept = list(sentences)
    while len(kept) > 1 and count(claim, " ".join(kept)) > MAX_TOKENS:
        kept.pop()
    return _clean(" ".join(kept))


def _fit_passage(claim: str, passage: str, count: Counter_) -> str:
    if count(claim, passage) <= MAX_TOKENS:
        return _clean(passage)
    return fit_window(claim, [s.text for s in split_sentences(passage)], count)


# --------------------------------------------------------------------------- SciFact windows


def _overlap(words: set[str], text: str) -> int:
    return len(words & set(token_texts(text)))


def scifact_windows(
    root: Path, corpus: dict[int, dict[str, Any]], count: Counter_, rng: random.Random
) -> list[JudgePair]:
    out: list[JudgePair] = []
    label_of = {"SUPPORT": "entailed", "CONTRADICT": "contradicted"}
    for claim in scifact_claims(root):
        group = f"scifact:{claim.id}"
        split = "dev" if is_validation(group) else "train"
        text = _clean(claim.claim)
        words = set(token_texts(text))
        for doc_id in sorted(set(claim.cited_doc_ids) | set(claim.evidence)):
            abstract = [_clean(s) for s in corpus.get(doc_id, {}).get("abstract", [])]
            if not abstract:
                continue
            used: set[int] = set()
            for label, sentences in claim.evidence.get(doc_id, []):
                idx = sorted(i for i in sentences if 0 <= i < len(abstract))
                if not idx:
                    continue
                used.update(idx)
                if _hash01("context", claim.id, doc_id, idx) < 0.5:
                    near = [j for j in (idx[0] - 1, idx[-1] + 1) if 0 <= j < len(abstract)]
                    near = [j for j in near if j not in sentences]
                    if near:
                        idx = sorted({*idx, near[int(_hash01("side", claim.id, idx) * len(near))]})
                window = fit_window(text, [abstract[i] for i in idx], count)
                out.append(JudgePair(text, window, label_of[label], group, "scifact", split))
            # neutral windows: one or two adjacent sentences holding no rationale sentence
            spans = [
                (i, i + w)
                for w in (1, 2)
                for i in range(len(abstract) - w + 1)
                if not used & set(range(i, i + w))
            ]
            if not spans:
                continue
            closest = max(
                spans,
                key=lambda s: (_overlap(words, " ".join(abstract[s[0] : s[1]])), -s[0], -s[1]),
            )
            picked = [closest]
            if claim.evidence:
                others = [s for s in spans if not set(range(*s)) & set(range(*closest))]
                if others:
                    picked.append(others[rng.randrange(len(others))])
            for a, b in picked:
                window = fit_window(text, abstract[a:b], count)
                out.append(JudgePair(text, window, "neutral", group, "scifact", split))
    return out


# --------------------------------------------------------------------------- official splits

_CITATION = re.compile(r"\s*<\|[a-z_]+\|>")
_NLI = {"entailment": "entailed", "contradiction": "contradicted", "neutral": "neutral"}


def strip_citations(text: str) -> str:
    text = _CITATION.sub("", text)
    text = re.sub(r"\s*\[[\s,;]*\]", "", text)  # the brackets a removed marker leaves
    return _clean(re.sub(r"\s+([,.;:)])", r"\1", text))


def official_pairs(root: Path, dataset: str, count: Counter_) -> list[JudgePair]:
    out = []
    for split, name in (("train", "train.jsonl"), ("dev", "dev.jsonl")):
        with (root / dataset / name).open(encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                d = json.loads(line)
                claim = strip_citations(d["hypothesis"])
                if not claim or not d["premise"].strip():
                    continue
                window = _fit_passage(claim, d["premise"], count)
                group = f"{dataset}:{split}:{claim.lower()}"
                out.append(JudgePair(claim, window, _NLI[d["label"]], group, dataset, split))
    return out


def _from_pairs(pairs: Iterable[Pair], count: Counter_) -> list[JudgePair]:
    return [
        JudgePair(
            p.claim,
            _fit_passage(p.claim, p.evidence, count),
            p.label,
            p.group,
            p.dataset,
            "dev" if is_validation(p.group) else "train",
        )
        for p in pairs
    ]


# --------------------------------------------------------------------------- mined pairs

_CLAUSE_CUT = re.compile(r"(;|, (?:whereas|while|but|which|although|and thus|thereby)\b| whereas )")
_PAREN = re.compile(r"\s*\([^()]*\)")


def first_clause(sentence: str) -> str | None:
    """The sentence's first main clause (cut at a semicolon or a subordinating comma), as a
    sentence, when it is at least five words and shorter than the sentence."""
    match = _CLAUSE_CUT.search(sentence)
    if not match:
        return None
    head = sentence[: match.start()].strip().rstrip(",")
    if len(head.split()) < 5:
        return None
    return head if head.endswith(".") else head + "."


def compression(sentence: str) -> str | None:
    """The sentence with its parentheticals dropped, when that changes it."""
    short = _clean(_PAREN.sub("", sentence))
    short = re.sub(r"\s+([,.;:])", r"\1", short)
    return short if short != sentence and len(short.split()) >= 5 else None


def clause_pairs(windows: Iterable[tuple[str, list[str]]], count: Counter_) -> list[JudgePair]:
    """(first clause or compression of a window sentence, the window) → entailed."""
    out = []
    for group, sentences in windows:
        for k, sentence in enumerate(sentences):
            claim = first_clause(sentence) or compression(sentence)
            if claim is None:
                continue
            window = fit_window(claim, sentences, count)
            if sentence not in window:
                continue
            out.append(JudgePair(claim, window, "entailed", f"{group}:{k}", MINED, "train"))
            break
    return out


_STOP = frozenset(
    "the a an of in on at to for and or with by from as is are was were be been that this these "  # noqa: SIM905
    "those which who whom than then there their its it not no we our after before between into "
    "during under over among all both each more most less".split()
)
_WORD = re.compile(r"[A-Za-z][A-Za-z-]{3,}")


def _phrases(sentence: str) -> list[tuple[int, int, str]]:
    words = list(_WORD.finditer(sentence))
    out = []
    for a, b in itertools.pairwise(words):
        between = sentence[a.end() : b.start()]
        if between == " " and a.group().lower() not in _STOP and b.group().lower() not in _STOP:
            out.append((a.start(), b.end(), sentence[a.start() : b.end()]))
    return out


def phrase_substitutions(
    sources: Sequence[tuple[str, str, str]], donors: Sequence[str], count: Counter_
) -> list[JudgePair]:
    """For each (group, claim sentence, window): a two-word content phrase of the claim replaced
    with a two-word phrase of another abstract's sentence that the window lacks → not_entailed
    (a different phrase may or may not contradict; the partial label says only "not entailed")."""
    pool = sorted({p for d in donors for _, _, p in _phrases(d)})
    out: list[JudgePair] = []
    if not pool:
        return out
    for group, claim, window in sources:
        spots = _phrases(claim)
        if not spots:
            continue
        start, end, old = spots[int(_hash01("spot", group, claim) * len(spots))]
        lowered = window.lower()
        for k in range(8):
            new = pool[int(_hash01("donor", group, claim, k) * len(pool))]
            if new.lower() != old.lower() and new.lower() not in lowered:
                edited = claim[:start] + new + claim[end:]
                out.append(
                    JudgePair(
                        edited,
                        fit_window(edited, [window], count),
                        PARTIAL_LABEL,
                        f"{group}:sub",
                        REALISTIC,
                        "train",
                    )
                )
                break
    return out


def realistic_calibration(root: Path, dev_docs: set[int], count: Counter_) -> list[JudgePair]:
    """The calibration half of the realistic edit generator (never its heldout half)."""
    from spanproof.evaluation.realistic import generate  # type: ignore[import-not-found]

    label_of = {"supported": "entailed", "contradicted": "contradicted"}
    out = []
    for case in generate(root, seed=0):
        if case.split != "calibration":
            continue
        try:
            doc = int(case.doc_id)
        except (TypeError, ValueError):
            doc = -1
        if doc in dev_docs:
            continue
        claim, evidence = _clean(case.claim), _clean(case.evidence)
        label = label_of.get(case.label, PARTIAL_LABEL)
        group = f"realistic:{case.kind}:{case.doc_id}:{claim.lower()}"
        out.append(
            JudgePair(claim, _fit_passage(claim, evidence, count), label, group, REALISTIC, "train")
        )
    return out


# --------------------------------------------------------------------------- titles

_COPULAS = frozenset("is are was were has have can may does do".split())  # noqa: SIM905
_VERB_CUES = frozenset(
    "to not may can cannot will could would should must might".split()  # noqa: SIM905
)
#: Share of a title's content words its window must hold (the title is grounded there).
TITLE_MIN_OVERLAP = 0.4


def corpus_verbs(corpus: dict[int, dict[str, Any]]) -> frozenset[str]:
    """Words that "to", "not" or a modal precedes in at least a quarter of their uses (at least
    twice): the corpus's verbs in their base form."""
    after: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    for doc in corpus.values():
        for sentence in doc.get("abstract", []):
            low = [w.lower() for w in re.findall(r"[A-Za-z]+", sentence or "")]
            totals.update(low)
            after.update(b for a, b in itertools.pairwise(low) if a in _VERB_CUES)
    from spanproof.evaluation.realistic import _verbs

    return _verbs(after, totals)


def claim_like(title: str, verbs: frozenset[str]) -> bool:
    """A title that states a finding ("X promotes Y", "X is required for Y"): five to 25 words,
    no subtitle, and a finite verb (a copula, or a corpus verb with its third-person ending)."""
    words = re.findall(r"[A-Za-z]+", title)
    if ":" in title or "?" in title or not 5 <= len(words) <= 25:
        return False
    for w in (x.lower() for x in words[1:]):
        if w in _COPULAS or (w in verbs and not w.endswith("s")):
            return True
        if (w.endswith("es") and w[:-2] in verbs) or (w.endswith("s") and w[:-1] in verbs):
            return True
    return False


def _content(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _STOP}


#: Sentences that state an aim or a gap, not a finding: never a title's supporting window.
_AIM = re.compile(
    r"\b(whether|we (?:investigated|examined|asked|assessed|evaluated|studied|tested|sought|aimed"
    r"|hypothesi[sz]ed)|to (?:determine|investigate|examine|assess|evaluate|test)|aim|objective"
    r"|purpose|unknown|unclear|remains? to be)\b",
    re.IGNORECASE,
)
#: The window is sought among the abstract's last sentences, where the findings are stated.
TITLE_LAST_SENTENCES = 3


def title_window(title: str, sentences: Sequence[str]) -> tuple[int, int] | None:
    """The one or two adjacent sentences among the abstract's last
    :data:`TITLE_LAST_SENTENCES` that hold most of the title's content words (ties: the later),
    when they hold at least :data:`TITLE_MIN_OVERLAP` of them and state no aim or gap."""
    words = _content(title)
    best: tuple[float, int, int] | None = None
    for i in range(max(0, len(sentences) - TITLE_LAST_SENTENCES), len(sentences)):
        for j in (i + 1, i + 2):
            chosen = sentences[i:j]
            if j > len(sentences) or not all(chosen) or any(_AIM.search(x) for x in chosen):
                continue
            share = len(words & _content(" ".join(chosen))) / max(1, len(words))
            score = share - 0.01 * (j - i)  # one sentence when two add nothing
            if best is None or score >= best[0]:
                best = (score, i, j)
    if best is None or best[0] + 0.02 < TITLE_MIN_OVERLAP:
        return None
    return best[1], best[2]


def title_pairs(root: Path, docs: Iterable[int], count: Counter_) -> list[JudgePair]:
    """Titles that state a finding, read against the window of their own abstract's last
    sentences that holds them: entailed (a reworded statement of the abstract's finding, as
    SciFact's claims are); the same title with a noun phrase or an entity swapped for one the
    TF-IDF-nearest other abstracts use (the realistic generator's substitutions) → not_entailed;
    with its polarity flipped → contradicted."""
    from spanproof.evaluation import realistic
    from spanproof.evaluation.adversarial import negation_flip
    from spanproof.evaluation.substitution import substitute_entity, substitute_phrase

    corpus = scifact_corpus(root)
    verbs = corpus_verbs(corpus)
    all_docs = realistic._scifact_docs(root)
    index = realistic._index(all_docs)
    position = {doc.doc_id: k for k, doc in enumerate(all_docs)}
    chosen: list[tuple[int, str, str]] = []
    for doc in docs:
        entry = corpus[doc]
        title = _clean(str(entry.get("title", ""))).rstrip(".")
        sentences = [_clean(s) for s in entry.get("abstract", [])]
        if not claim_like(title, verbs):
            continue
        found = title_window(title, sentences)
        if found is not None:
            claim = title + "."
            chosen.append((doc, claim, fit_window(claim, sentences[found[0] : found[1]], count)))
    queries = [position[str(doc)] for doc, _, _ in chosen]
    near = realistic.nearest_documents(
        index.terms, [d.doc_id for d in all_docs], queries, k=realistic.NEIGHBOURS
    )
    out: list[JudgePair] = []
    for (doc, claim, window), q in zip(chosen, queries, strict=True):
        group = f"{TITLES}:{doc}"
        out.append(JudgePair(claim, window, "entailed", group, TITLES, "train"))
        pools = realistic._pools(index, near[q])
        key = f"title:{doc}"
        for edit in (
            substitute_phrase(claim, window, pools.phrases, index.vocab, key),
            substitute_entity(
                claim,
                window,
                pools.entities,
                key,
                index.contexts.similarity,
                realistic.ENTITY_MIN_SIMILARITY,
            ),
        ):
            if edit is not None and edit.claim != claim:
                out.append(JudgePair(edit.claim, window, PARTIAL_LABEL, group, TITLES, "train"))
        flipped = negation_flip(claim)
        if flipped and flipped != claim:
            out.append(JudgePair(flipped, window, "contradicted", group, TITLES, "train"))
    return out


# --------------------------------------------------------------------------- everything


def _substitutions(
    root: Path,
    substitutions: str,
    train_real: Sequence[JudgePair],
    corpus_windows: Sequence[tuple[str, list[str]]],
    dev_docs: set[int],
    count: Counter_,
    notes: dict[str, Any],
) -> list[JudgePair]:
    """The substitution pairs: the realistic generator's calibration half, or phrase swaps."""
    chosen = substitutions
    made: list[JudgePair] = []
    if substitutions in ("auto", "realistic"):
        try:
            made = realistic_calibration(root, dev_docs, count)
            chosen = "realistic"
            notes["realistic_cases"] = len(made)
        except Exception as exc:  # the generator may be absent or unfinished
            if substitutions == "realistic":
                raise
            notes["realistic_unavailable"] = f"{type(exc).__name__}: {exc}"[:300]
            chosen = "phrase"
    if chosen == "phrase":
        sources = [
            (p.group, p.claim, p.evidence)
            for p in train_real
            if p.dataset == "scifact" and p.label == "entailed"
        ]
        sources += [(g, ws[0], " ".join(ws)) for g, ws in corpus_windows]
        donors = [ws[0] for _, ws in corpus_windows]
        made = phrase_substitutions(sources, donors, count)
    notes["substitutions"] = chosen
    return made


def build_judge_pairs(
    root: Path | None = None,
    *,
    count: Counter_ | None = None,
    substitutions: str = "auto",
    titles: bool = False,
) -> tuple[list[JudgePair], dict[str, Any]]:
    """Every pair (fixed order: the real sets, then the made-up ones), and notes on how the
    made-up pairs were made. ``substitutions``: "realistic", "phrase" or "auto" (realistic when
    the generator imports and runs, else phrase)."""
    root = root or data_dir()
    if root is None:
        raise SystemExit(
            "no development data: set SPANPROOF_DATA_DIR to the folder of ../shared/data"
        )
    count = count or piece_counter()
    rng = random.Random(SEED)
    corpus = scifact_corpus(root)
    real = [
        *scifact_windows(root, corpus, count, rng),
        *_from_pairs(healthver_pairs(root), count),
        *_from_pairs(covidfact_pairs(root), count),
        *_from_pairs(climate_fever_pairs(root), count),
        *_from_pairs(fever_pairs(root), count),
        *official_pairs(root, "citation_integrity", count),
        *official_pairs(root, "check_covid", count),
    ]
    seen: set[tuple[str, str, str]] = set()
    pairs: list[JudgePair] = []

    def add(items: Iterable[JudgePair]) -> None:
        for p in items:
            key = (p.claim, p.evidence, p.label)
            if key not in seen and p.claim and p.evidence:
                seen.add(key)
                pairs.append(p)

    add(real)
    train_real = [p for p in pairs if p.split == "train"]
    # abstracts that any dev claim cites: nothing is mined from them
    dev_docs = {
        doc
        for c in scifact_claims(root)
        if is_validation(f"scifact:{c.id}")
        for doc in (*c.cited_doc_ids, *c.evidence)
    }
    sampled = sorted(d for d in corpus if d not in dev_docs)
    rng.shuffle(sampled)
    corpus_windows: list[tuple[str, list[str]]] = []
    for doc in sorted(sampled[:CORPUS_DOCS]):
        abstract = [_clean(s) for s in corpus[doc].get("abstract", [])]
        if len(abstract) < 2:
            continue
        i = int(_hash01("corpus", doc) * len(abstract))
        j = min(len(abstract), i + 1 + int(_hash01("width", doc) * 3))
        corpus_windows.append((f"mined:{doc}:{i}", abstract[i:j]))
    rationale_windows = [
        (f"mined:{p.group}", [s.text for s in split_sentences(p.evidence)])
        for p in train_real
        if p.dataset == "scifact" and p.label in ("entailed", "contradicted")
    ]
    add(clause_pairs([*rationale_windows, *corpus_windows], count))
    notes: dict[str, Any] = {"corpus_docs": len(corpus_windows)}
    made = _substitutions(root, substitutions, train_real, corpus_windows, dev_docs, count, notes)
    add(made)
    as_pairs = [Pair(p.claim, p.evidence, p.label, p.group, p.dataset) for p in train_real]
    if titles:  # abstracts no dev claim cites, in the realistic generator's calibration half
        from spanproof.evaluation.realistic import CALIBRATION, split_of

        kept = [d for d in sorted(corpus) if d not in dev_docs and split_of(str(d)) == CALIBRATION]
        made_titles = title_pairs(root, kept, count)
        notes["title_pairs"] = len(made_titles)
        add(made_titles)
    made_from_train = synthetic_pairs(as_pairs) + identity_pairs(as_pairs)
    add(
        JudgePair(p.claim, p.evidence, p.label, p.group, p.dataset, "train")
        for p in made_from_train
    )
    return pairs, notes


def summary(pairs: Sequence[JudgePair]) -> dict[str, dict[str, dict[str, int]]]:
    """Counts per dataset, split and label (and claim groups)."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for dataset in (*REAL_SETS, *MADE_UP):
        for split in ("train", "dev"):
            subset = [p for p in pairs if p.dataset == dataset and p.split == split]
            if not subset:
                continue
            counts = Counter(p.label for p in subset)
            row = {label: counts[label] for label in (*LABELS, PARTIAL_LABEL) if counts[label]}
            row["pairs"] = len(subset)
            row["groups"] = len({p.group for p in subset})
            out.setdefault(dataset, {})[split] = row
    return out


def write_dev(pairs: Sequence[JudgePair], path: Path) -> int:
    """The dev pairs as JSONL: dataset, group, claim, evidence (the window), label."""
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [p for p in pairs if p.split == "dev"]
    with path.open("w", encoding="utf-8") as fh:
        for p in rows:
            d = asdict(p)
            d.pop("split")
            fh.write(json.dumps(d, ensure_ascii=False) + "\n")
    return len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dev-out", type=Path, default=None)
    parser.add_argument("--substitutions", choices=("auto", "realistic", "phrase"), default="auto")
    args = parser.parse_args()
    pairs, notes = build_judge_pairs(substitutions=args.substitutions)
    print(json.dumps({"summary": summary(pairs), "notes": notes}, indent=1))
    print("total", len(pairs))
    if args.dev_out:
        print("dev pairs", write_dev(pairs, args.dev_out), "->", args.dev_out)


if __name__ == "__main__":
    main()
