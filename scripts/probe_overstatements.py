"""A copied sentence made to say more than its source: caught? (issue 14)

    SPANPROOF_DATA_DIR=../shared/data python scripts/probe_overstatements.py \\
        [--models v2 v34 v35] [--n 150] [--seed 20261206] [--write docs/quality.md]

A generator of overstatement, the error of a summary that copies its source and drops the word
that limited the finding. Each case is a sentence of a SciFact corpus abstract (60–300
characters) with one such word or phrase removed or rewritten, checked against the whole
abstract as its evidence; one case of a kind per abstract, abstracts in a seeded order. The
kinds:

* ``association``: "was associated with" (also "correlated with", "linked to") → "caused": a
  correlation stated as a cause;
* ``hedge``: "may reduce" → "reduces": a possibility stated as a finding;
* ``species``: "in mice" (rats, zebrafish, animal models) dropped: an animal finding stated of
  everything;
* ``in_vitro``: "in vitro" (in cultured cells) dropped;
* ``population``: "in women" (men, children, older adults, smokers …) dropped;
* ``extent``: "partially", "partly", "incompletely", "marginally", "nominally" dropped: a finding
  that holds in part, or is significant at the margin, stated whole;
* ``trend``: "a trend toward(s)" (or "for") dropped: a trend stated as a finding ("showed a
  trend toward lower mortality" → "showed lower mortality");
* ``nonsignificant``: "non-significant", "nonsignificant", "insignificant" dropped ("a
  non-significant reduction" → "a reduction");
* ``largely``: "largely", "mostly", "mainly", "predominantly" dropped ("largely unknown" →
  "unknown");
* ``frequency``: "rarely", "seldom", "occasionally", "sometimes", "infrequently",
  "sporadically" dropped ("are seldom offered" → "are offered");
* ``part``: "some", "a few", "a minority of", "a fraction of", "a proportion of", "certain"
  dropped (not "some" before a figure: "some 30 patients"): a finding of part of a group stated
  of all of it;
* ``supposed_that``: what follows "It has been proposed that", "It was suggested that", "It is
  thought that", "We hypothesized that", "We predicted that" … at a sentence's start, stated on
  its own: a supposition stated as a finding;
* ``supposed_to``: "is thought to", "are believed to", "was expected to", "has been proposed
  to", "is presumed to" … dropped ("is thought to play" → "plays");
* ``unlikely``: "is unlikely to", "are improbable to" … dropped ("is unlikely to reduce" →
  "reduces"): what the sentence doubts stated as a finding;
* ``aimed_to``: "aims to", "seeks to", "tries to", "was designed to", "are intended to" …
  dropped ("The programme aims to reduce obesity" → "The programme reduces obesity"): an aim
  stated as its result;
* ``potential``: "has the potential to" dropped ("has the potential to reduce" → "reduces");
* ``would``: "would" or "should" before a verb dropped ("would reduce" → "reduces"): what would
  or should be stated as what is;
* ``duration``: "transiently", "temporarily", "briefly" dropped ("transiently increased" →
  "increased"): a finding that held for a while stated as lasting;
* ``weak_evidence``: what follows "Limited evidence suggests that", "Emerging evidence indicates
  that", "There is weak evidence that" … at a sentence's start (past a lead-in clause), stated
  on its own: what weak evidence points to stated as a finding;
* ``contrast``: a qualifier that a "but not" contrasts dropped with its contrast ("reduced
  relapse in the per-protocol analysis but not in the intention-to-treat analysis." →
  "reduced relapse."): a finding that holds under one condition stated whole;
* ``size`` (a control): "slightly", "modestly", "moderately", "mildly", "somewhat" dropped. The
  claim says what the sentence says, less exactly ("decreased slightly" → "decreased"), so it
  *should* be `supported`;
* ``asserted_that`` (a control): what follows "We found that", "We show that", "Our results
  indicate that", "These data suggest that" … stated on its own: the sentence asserts it;
* ``asserted_to`` (a control): "was shown to", "were found to", "is known to", "has been
  demonstrated to" dropped ("was shown to reduce" → "reduces").

Every other kind's claim states more than its evidence and should be refused. Reported per
model and kind: how many claims are `supported`, `unsupported`, `contradicted`, and (the
control the other way) how many of the unedited sentences the last model supports; then the
last model's `supported` cases of the kinds that should be refused, listed.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from _report import (
    SECONDS,
    listed_examples,
    publish_timed,
    start_probe,
    verdict_cells,
)
from probe_word_swaps import Case, corpus_abstracts, verdict_of

from spanproof.core.ports import Embedder
from spanproof.verify.scoring import SCORE_MODELS

BEGIN, END = "<!-- overstatements:begin -->", "<!-- overstatements:end -->"
DEFAULT_SEED = 20261206
#: A sentence's length bounds, in characters.
SHORTEST, LONGEST = 60, 300


def _causal(match: re.Match[str]) -> str:
    """The causal verb in the tense and number of the association's "is", "are", "was" or
    "were"."""
    return {"is": "causes", "are": "cause"}.get(match.group(1).lower(), "caused")


@dataclass(frozen=True)
class Kind:
    """One way of overstating: the phrase that limits the finding, what replaces it, and whether
    the edited claim should be supported."""

    name: str
    pattern: re.Pattern[str]
    replace: Callable[[re.Match[str]], str]
    supported: bool = False


def _drop(_: re.Match[str]) -> str:
    return ""


def _third_person(verb: str) -> str:
    """``verb`` with the "-s" of the third person singular ("play" → "plays", "reach" →
    "reaches", "modify" → "modifies"; "be" → "is", "have" → "has")."""
    irregular = {"be": "is", "have": "has", "do": "does", "go": "goes"}
    if verb in irregular:
        return irregular[verb]
    if re.search(r"(?:s|sh|ch|x|z|o)$", verb):
        return verb + "es"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    return verb + "s"


def _stated(match: re.Match[str]) -> str:
    """The verb after "<be> <participle> to" (or "aims to", "has the potential to") stated in
    the present, in the number of what stands before it ("is thought to play" → "plays", "are
    believed to be" → "are", "aims to reduce" → "reduces")."""
    verb = match.group("verb")
    aux = match.group("aux").lower()
    first = aux.split()[0]
    singular = first in {"is", "was", "has", "had"} or (" " not in aux and aux.endswith("s"))
    if singular:
        return _third_person(verb)
    return "are" if verb == "be" else verb


def _hedged(match: re.Match[str]) -> str:
    """The hedged verb stated in the present ("may reduce", "would reduce" → "reduces")."""
    return _third_person(match.group("verb"))


_BE_AUX = r"(?P<aux>is|are|was|were|has been|have been|had been)"
_ALSO = r"(?:widely |generally |commonly |often |also |previously )?"


#: What opens a qualifier a "but not" may contrast ("in the per-protocol analysis but not in
#: the intention-to-treat analysis").
_CONTRASTED = (
    "in|at|among|during|after|before|for|with|within|on|under|from|by|over|compared|relative"
    "|versus|vs"
)
_ADVERB = r"(?:significantly |independently |strongly |positively |inversely |negatively )?"
KINDS: tuple[Kind, ...] = (
    Kind(
        "association",
        re.compile(
            rf"\b(is|was|are|were) {_ADVERB}(?:associated with|correlated with|linked to)\b"
        ),
        _causal,
    ),
    Kind(
        "hedge",
        re.compile(
            r"\bmay (?P<verb>reduce|increase|improve|prevent|lower|decrease|protect|promote"
            r"|inhibit|enhance|contribute|play|induce|cause|affect|regulate|lead|represent"
            r"|explain)\b"
        ),
        _hedged,
    ),
    Kind(
        "species",
        re.compile(
            r",? (?:in|of) (?:mice|rats|zebrafish|rodents|animals|mouse models?|a mouse model"
            r"|a rat model)\b"
        ),
        _drop,
    ),
    Kind("in_vitro", re.compile(r",? (?:in vitro|in cultured cells|in cell culture)\b"), _drop),
    Kind(
        "population",
        re.compile(
            r",? (?:in|among) (?:women|men|children|adolescents|older adults|elderly patients"
            r"|postmenopausal women|smokers|infants|girls|boys)\b"
        ),
        _drop,
    ),
    Kind(
        "extent",
        re.compile(r"\b(?:partially|partly|incompletely|marginally|nominally) ", re.IGNORECASE),
        _drop,
    ),
    Kind(
        "trend",
        re.compile(
            r"\ba (?:non-?significant |nonsignificant )?trends? (?:toward|towards|for) ", re.I
        ),
        _drop,
    ),
    Kind(
        "nonsignificant",
        re.compile(r"\b(?:non-?significant|nonsignificant|insignificant) ", re.IGNORECASE),
        _drop,
    ),
    Kind(
        "largely",
        re.compile(r"\b(?:largely|mostly|mainly|predominantly) ", re.IGNORECASE),
        _drop,
    ),
    Kind(
        "frequency",
        re.compile(
            r"\b(?:rarely|seldom|occasionally|sometimes|infrequently|sporadically) ", re.IGNORECASE
        ),
        _drop,
    ),
    Kind(
        "part",
        re.compile(
            r"\b(?:some|a few|a minority of|a fraction of|a proportion of|certain) (?![\d.])",
            re.IGNORECASE,
        ),
        _drop,
    ),
    Kind(
        "supposed_that",
        re.compile(
            r"^(?:It (?:has been|had been|is|was) (?:widely |generally |previously )?"
            r"(?:proposed|suggested|hypothesi[sz]ed|postulated|speculated|thought|believed"
            r"|assumed|argued|claimed|predicted|expected)|We (?:hypothesi[sz]ed|hypothesi[sz]e"
            r"|proposed|propose|speculated|speculate|predicted|predict|expected|postulated"
            r"|postulate|assumed)) that "
        ),
        _drop,
    ),
    Kind(
        "supposed_to",
        re.compile(
            rf"\b{_BE_AUX} {_ALSO}(?:thought|believed|assumed|presumed|proposed|hypothesi[sz]ed"
            r"|postulated|expected|predicted|suggested|speculated|supposed|alleged|purported"
            r"|claimed) to (?P<verb>[a-z]+)\b"
        ),
        _stated,
    ),
    Kind(
        "unlikely",
        re.compile(rf"\b{_BE_AUX} {_ALSO}(?:unlikely|improbable) to (?P<verb>[a-z]+)\b"),
        _stated,
    ),
    Kind(
        "aimed_to",
        re.compile(
            r"\b(?P<aux>aims|seeks|attempts|tries|intends|hopes|strives|(?:is|are|was|were) "
            r"(?:designed|intended|meant|hoped)) to (?P<verb>[a-z]+)\b"
        ),
        _stated,
    ),
    Kind(
        "potential",
        re.compile(r"\b(?P<aux>has|have|had) (?:the |a )?potential to (?P<verb>[a-z]+)\b"),
        _stated,
    ),
    Kind(
        "would",
        re.compile(
            r"\b(?:would|should) (?P<verb>(?!be\b|have\b|not\b|also\b|therefore\b|thus\b)"
            r"[a-z]+)\b"
        ),
        _hedged,
    ),
    Kind(
        "duration",
        re.compile(r"\b(?:transiently|temporarily|briefly) ", re.IGNORECASE),
        _drop,
    ),
    Kind(
        "weak_evidence",
        re.compile(
            r"^(?:[^,]{0,80}, )?(?:there (?:is|was) )?(?:very |only )?(?:limited|weak|preliminary"
            r"|insufficient|inconclusive|sparse|scant|scarce|tentative|anecdotal|low|emerging"
            r"|conflicting|inconsistent)(?:[- ]\w+)? evidence (?:\w+ ){0,2}that ",
            re.IGNORECASE,
        ),
        _drop,
    ),
    Kind(
        "contrast",
        re.compile(
            rf",? (?:{_CONTRASTED}) [^,;()]{{3,60}}?,? but not (?:{_CONTRASTED}) [^,;.]+(?=\.$)"
        ),
        _drop,
    ),
    Kind(
        "size",
        re.compile(r"\b(?:slightly|modestly|moderately|mildly|somewhat) ", re.IGNORECASE),
        _drop,
        supported=True,
    ),
    Kind(
        "asserted_that",
        re.compile(
            r"^(?:We (?:found|find|show|showed|demonstrate|demonstrated|observed|confirmed"
            r"|report|reported|conclude|concluded) that |(?:Our|These) (?:results|data"
            r"|findings) (?:show|showed|demonstrate|demonstrated|indicate|indicated|suggest"
            r"|suggested|reveal|revealed) that )"
        ),
        _drop,
        supported=True,
    ),
    Kind(
        "asserted_to",
        re.compile(
            rf"\b{_BE_AUX} {_ALSO}(?:shown|found|known|demonstrated)"
            r" to (?P<verb>[a-z]+)\b"
        ),
        _stated,
        supported=True,
    ),
)


def overstate(sentence: str, kind: Kind) -> str | None:
    """``sentence`` with ``kind``'s first phrase replaced (its first letter kept upper-case when
    the phrase opened it), or None when it has none."""
    match = kind.pattern.search(sentence)
    if match is None:
        return None
    new = sentence[: match.start()] + kind.replace(match) + sentence[match.end() :]
    new = " ".join(new.split())
    return new[:1].upper() + new[1:] if match.start() == 0 else new


def build_cases(abstracts: Sequence[list[str]], n: int, seed: int) -> dict[str, list[Case]]:
    """Up to ``n`` cases of each kind, seeded: abstracts in a seeded order, and from each the
    first sentence of the right length that the kind can edit (one case a kind per abstract).
    A case's ``old`` is the unedited sentence."""
    order = list(range(len(abstracts)))
    random.Random(seed).shuffle(order)
    out: dict[str, list[Case]] = {kind.name: [] for kind in KINDS}
    for index in order:
        if all(len(cases) >= n for cases in out.values()):
            break
        evidence = " ".join(abstracts[index])
        for kind in KINDS:
            if len(out[kind.name]) >= n:
                continue
            for sentence in abstracts[index]:
                if not SHORTEST <= len(sentence) <= LONGEST:
                    continue
                claim = overstate(sentence, kind)
                if claim is not None and claim != sentence:
                    out[kind.name].append(Case(kind.name, claim, evidence, sentence, ""))
                    break
    return out


def tally(
    cases: Sequence[Case], name: str, embedder: Embedder, original: bool = False
) -> tuple[Counter[str], list[Case]]:
    """The verdicts of ``cases`` (or, with ``original``, of their unedited sentences) under the
    score model ``name``, and the cases it supports."""
    counts: Counter[str] = Counter()
    supported: list[Case] = []
    for case in cases:
        probe = Case(case.kind, case.old, case.evidence, case.old, "") if original else case
        verdict = verdict_of(probe, SCORE_MODELS[name], embedder)
        counts[verdict] += 1
        if verdict == "supported":
            supported.append(case)
    return counts, supported


def main() -> int:
    run = start_probe(
        __doc__ or "", models=["v2", "v34", "v35"], n=150, seed=DEFAULT_SEED, examples=8
    )
    if run is None:
        return 2
    args, started, embedder = run.args, run.started, run.embedder
    cases = build_cases(corpus_abstracts(run.root), args.n, args.seed)
    last = args.models[-1]
    lines = [
        BEGIN,
        "",
        f"Measured by `python scripts/probe_overstatements.py --models {' '.join(args.models)} "
        f"--n {args.n} --seed {args.seed}` on {time.strftime('%Y-%m-%d')} ({SECONDS} s): a "
        "sentence of a SciFact abstract with the word that limited its finding removed or "
        "rewritten, the whole abstract as evidence. `size`, `asserted_that` and `asserted_to` "
        "are controls: their claims should be `supported`; every other kind's should not.",
        "",
        "| kind | should be | cases | model | `supported` | `unsupported` | `contradicted` |",
        "|---|---|---:|---|---:|---:|---:|",
    ]
    listed: list[str] = []
    originals: list[str] = []
    for kind in KINDS:
        made = cases[kind.name]
        for name in args.models:
            counts, supported = tally(made, name, embedder)
            cells = verdict_cells(counts, len(made))
            should = "supported" if kind.supported else "refused"
            lines.append(
                f"| {kind.name} | {should} | {len(made)} | {name} | " + " | ".join(cells) + " |"
            )
            if name == last and not kind.supported:
                listed += [
                    f"* {kind.name}: {' '.join(c.claim.split())} (from: {' '.join(c.old.split())})"
                    for c in supported
                ]
        if made:
            counts, _ = tally(made, last, embedder, original=True)
            originals.append(f"{kind.name} {counts['supported']} of {len(made)}")
    lines += [
        "",
        f"The unedited sentences under {last}, `supported`: " + ", ".join(originals) + ".",
        "",
        f"`supported` under {last} though it should be refused:",
        "",
    ]
    lines += listed_examples(listed, args.examples)
    publish_timed(lines, started, args.write, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
