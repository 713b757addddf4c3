"""The library entry point: :class:`Verifier`.

>>> from spanproof import Verifier
>>> v = Verifier()                                   # bundled model, offline
>>> report = v.verify("Aspirin lowered fever [S1].", [{"id": "S1", "text": "..."}])
>>> [c.verdict.value for c in report.claims]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from spanproof.core.checker import EntailmentChecker
from spanproof.core.errors import ConfigurationError, InvalidInputError, check_text
from spanproof.core.models import (
    DEFAULT_SCORE_MODEL,
    Claim,
    ClaimVerdict,
    ErasedRange,
    EvidenceSpan,
    Policy,
    Report,
)
from spanproof.core.ports import Decomposer, Embedder
from spanproof.services.verification import checker_model, checker_note, score_all, verify_draft
from spanproof.verify.scoring import ScoreModel, score_model

EvidenceLike = EvidenceSpan | Mapping[str, Any]
ClaimLike = Claim | Mapping[str, Any] | str


def items_of(items: object, what: str) -> Iterable[Any]:
    """``items`` when it is a collection of items; a clear error for one string, bytes, None or
    anything else that is not (a string would otherwise be read one character an item)."""
    if isinstance(items, str | bytes | bytearray):
        raise InvalidInputError(f"{what} must be a list of items, not one string: wrap it in [ ]")
    if not isinstance(items, Iterable) or isinstance(items, Mapping):
        raise InvalidInputError(f"{what} must be a list of items, got {type(items).__name__}")
    return items


def to_evidence(items: Iterable[EvidenceLike]) -> list[EvidenceSpan]:
    """Evidence spans from ``EvidenceSpan`` objects or ``{"id", "text", ...}`` mappings.

    Keys other than ``id``, ``text``, ``truth_class`` and ``erased`` are kept as source metadata.
    """
    out: list[EvidenceSpan] = []
    seen: set[str] = set()
    for n, item in enumerate(items_of(items, "evidence"), start=1):
        span = item if isinstance(item, EvidenceSpan) else _mapping_to_span(item, n)
        check_text(span.text, f"evidence item {n}: 'text'")
        if span.id in seen:
            raise InvalidInputError(f"evidence item {n}: duplicate id {span.id!r}")
        seen.add(span.id)
        out.append(span)
    return out


def _mapping_to_span(item: Mapping[str, Any], n: int) -> EvidenceSpan:
    if not isinstance(item, Mapping):
        raise InvalidInputError(f"evidence item {n}: expected an object with 'id' and 'text'")
    if "id" not in item or "text" not in item:
        raise InvalidInputError(f"evidence item {n}: needs both 'id' and 'text'")
    text = item["text"]
    if not isinstance(text, str):
        raise InvalidInputError(f"evidence item {n}: 'text' must be a string")
    ident = item["id"]
    if not isinstance(ident, str | int) or isinstance(ident, bool):
        raise InvalidInputError(f"evidence item {n}: 'id' must be a string or an integer")
    if isinstance(ident, str) and not ident.strip():
        raise InvalidInputError(f"evidence item {n}: 'id' is blank (no citation could name it)")
    truth_class = item.get("truth_class", True)
    if not isinstance(truth_class, bool):  # bool("false") is True
        raise InvalidInputError(f"evidence item {n}: 'truth_class' must be true or false")
    erased = _erased_ranges(item.get("erased") or (), n)  # null: nothing erased
    meta = {k: v for k, v in item.items() if k not in {"id", "text", "truth_class", "erased"}}
    return EvidenceSpan(
        id=str(ident),
        text=text,
        truth_class=truth_class,
        source=meta,
        erased=erased,
    )


def _erased_ranges(value: object, n: int) -> tuple[ErasedRange, ...]:
    """An evidence item's ``erased``: ``[start, end]`` character ranges of its text."""

    def is_int(x: object) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    ranges = []
    for pair in items_of(value, f"evidence item {n}: 'erased'"):
        if not isinstance(pair, list | tuple) or len(pair) != 2 or not all(map(is_int, pair)):
            raise InvalidInputError(
                f"evidence item {n}: 'erased' must be a list of [start, end] character ranges"
            )
        ranges.append(ErasedRange(pair[0], pair[1]))
    return tuple(ranges)


def to_claims(items: Iterable[ClaimLike]) -> list[Claim]:
    """Atomic claims from ``Claim`` objects, ``{"id", "text"}`` mappings or plain strings.

    Raises:
        InvalidInputError: ``items`` is one string rather than a list, a claim is neither a
            string nor an object with a string ``text``, a claim's text is blank or holds a lone
            surrogate, or two claims share an id.
    """
    out: list[Claim] = []
    seen: set[str] = set()
    for n, item in enumerate(items_of(items, "claims"), start=1):
        claim = _to_claim(item, n)
        if not claim.text.strip():
            raise InvalidInputError(f"claim {n}: the text is blank; give the claim's words")
        check_text(claim.text, f"claim {n}")
        if claim.id in seen:
            raise InvalidInputError(f"claim {n}: duplicate id {claim.id!r}")
        seen.add(claim.id)
        out.append(claim)
    return out


def _to_claim(item: ClaimLike, n: int) -> Claim:
    if isinstance(item, Claim):
        return item
    if isinstance(item, str):
        return Claim(id=f"c{n}", text=item)
    if not isinstance(item, Mapping):
        raise InvalidInputError(f"claim {n}: expected a string or an object with 'text'")
    text = item.get("text")
    if not isinstance(text, str):
        raise InvalidInputError(f"claim {n}: needs a string 'text'")
    ident = item.get("id")
    if ident is not None and (not isinstance(ident, str | int) or isinstance(ident, bool)):
        raise InvalidInputError(f"claim {n}: 'id' must be a string or an integer")
    if isinstance(ident, str) and not ident.strip():
        raise InvalidInputError(f"claim {n}: 'id' is blank")
    markers = item.get("cited_markers", ())
    return Claim(
        id=f"c{n}" if ident is None else str(ident),
        text=text,
        cited_markers=tuple(str(m) for m in items_of(markers, f"claim {n}: 'cited_markers'")),
    )


class Verifier:
    """Verifies drafts and atomic claims against evidence.

    Args:
        embedder: the embedding model; default: the bundled MiniLM with the on-disk cache.
        decomposer: how drafts become claims; default: LLM if configured, else rule-based.
        score_model: ``"v1"`` (the seed formula), ``"v2"`` (the default before v25), ``"v3"``
            (v2 with borderline claims escalated to the entailment checker), ``"v4"`` (v2 plus the
            edit check, :mod:`spanproof.verify.edits`), ``"v5"`` (every claim read
            by the judge, a calibrated combiner decides), ``"v6"`` (v4 whose edit check also
            reads claims with two changed details), ``"v7"`` (v2 whose evidence windows must
            state a finding, not an aim or a method), ``"v8"`` (v6 whose edit check leaves
            rewordings that share only scattered words with a sentence to v2), ``"v9"`` (v8
            whose edit check reads two of the window's figures or names mixed up as a
            substitution), ``"v10"`` (v9 whose shortened copies keep their figures in place),
            ``"v11"`` (v10 whose copied figures keep their units), ``"v12"`` (v11 whose
            compressions keep the finding's strength), ``"v13"`` (v12 whose compressions keep
            what inverts the finding), ``"v14"`` (v13 whose claims may not quote what the
            window does not assert), ``"v15"`` (v14 whose compressions keep what restricts
            the finding: a co-intervention, a dose, a subgroup, a population), ``"v16"`` (v15
            whose kept qualifiers must cover what was dropped and whose compressions keep a
            figure's bound), ``"v17"`` (v16 that reads ".001", "2·9" and "671 945" as the
            figures 0.001, 2.9 and 671,945, "doesn't" as "does not" and "haemorrhage" as
            "hemorrhage", and an abbreviation another span of the source defines as defined),
            ``"v18"`` (v17 that reads "nonsmall" as "non-small" and "health care" as
            "healthcare"), ``"v19"`` (v18 that reads a figure's minus sign and the sign after
            a name: "1.5" is no "−1.5", "CD4−" no "CD4+"; "twofold" as "2-fold" and "65 years
            or older" as "≥65 years"), ``"v20"`` (v19 whose gates read a plural or
            possessive name as the name, "HSPCs" as "HSPC", "Hodgkin's" as "Hodgkin", and a
            direction word's forms as one word, "inhibiting" as "inhibition"), ``"v21"`` (v20
            that reads "A-769662" as "A769662" and "BRCA 1" as "BRCA1", and whose failed near
            copy of the closest span no other span rescues), ``"v22"`` (v21 whose polarity gate
            reads more direction and negation words: "impedes", "scarce", "expanded",
            "deactivates", "ineffective"), ``"v23"`` (v22 whose polarity gate also reads the
            sentences that cover a claim nearly as well as the best one: an aim sentence that
            covers it best no longer hides a result stating the opposite), ``"v24"`` (v23 in
            which a span stating no direction cannot support a claim a close span reverses),
            ``"v25"`` (the default before v27: v23 whose entity gate reads a name written
            within a longer one as that name, "RAS" against "KRAS", "VSMCs" against "SMCs"),
            ``"v26"`` (v25 with v24's rule), ``"v27"`` (the default before v29: v25 whose
            polarity gate counts only the negations that deny: "heart failure", "with or
            without", "compared with no treatment" deny nothing), ``"v28"`` (v27 whose
            polarity gate reads a sentence's clauses one by one where they state opposite
            directions), ``"v29"`` (the default before v33: v28 whose polarity gate also
            reads sentences covering the claim less), ``"v30"`` (v29 whose polarity gate also
            reads the window the verdict quotes), ``"v31"`` (v29 whose edit check reads a near
            copy taking words from an opposed clause, "A rose, whereas B fell" read as "B
            rose", as unsupported), ``"v32"`` (v31 whose polarity gate also trips on a
            comparison with its sides traded, "A more effective than B" against "B more
            effective than A"), ``"v33"`` (the default before v34: v32 whose edit check
            reads what a deletion carries on to the words it joins: "15 years and older" from
            "15 years and 95 years and older"), ``"v34"`` (the default before v35: v33 whose
            numeric gate reads a figure written after a name with a hyphen, "COVID-19",
            "SARS-CoV-2", as part of the name: missing only where the passage writes that name
            or a longer form of it, "interleukin-6" for "IL-8"), ``"v35"`` (the default before
            v36: v34 whose edit check reads a dropped word of extent as an overstatement:
            "mediated partly by" → "mediated by", "in some patients" → "in patients", "a trend
            towards lower mortality" → "lower mortality"), ``"v36"`` (the default before
            v37: v35 whose edit check reads what the passage only supposes, aims at or doubts
            stated as a finding: "It has been proposed that X" → "X", "is thought to play" →
            "plays", "is unlikely to prevent" → "prevents", and "would", "should" and "has the
            potential to" dropped as hedges), ``"v37"`` (the default before v38: v36 whose
            edit check reads what takes the finding back: "Although X, the difference was not
            significant" → "X", "reduced relapse at 6 months but not at 12 months" → "reduced
            relapse", "Limited evidence suggests that X" → "X", "numerically lower" → "lower",
            and "significantly lower" against "lower, but not significantly" is contradicted),
            ``"v38"`` (the default before v39: v37 that also reads an effect claimed on a
            passage stating only an association, near copy or not: "Dexamethasone increases
            the risk of bleeding" against "Dexamethasone use was associated with bleeding" is
            unsupported), ``"v39"`` (the default before v40: v38 that reads each direction
            word with the thing it acts on: "Polymeal increases cardiovascular mortality"
            against "… to reduce cardiovascular morbidity and increase life expectancy" is
            contradicted), ``"v40"`` (the default before v41: v39 that refuses a cure
            claimed on a passage that states none: "Vitamin C cures COVID-19" against "IV
            vitamin C … may be feasible" is unsupported), ``"v41"`` (the default before v42:
            v40 that reads a comparison restated with its sides traded and its direction
            turned round as agreeing: "Women had lower mortality than men" against "Mortality
            was higher in men than in women" is supported), ``"v42"`` (the default before
            v45: v41 whose edit check reads a negation deleted from the finding the claim
            keeps as dropped, even past a comma: "…, compared with nonuse, was not associated
            with an increased risk" → "increased the risk" is contradicted), ``"v43"`` (v42,
            strict:
            `supported` only for a faithful near copy the edit check read word by word,
            `partial` — "the evidence may support this; a person should look" — for whatever
            else v42 supports), ``"v44"`` (v42 whose edit check reads a dropped population
            where it was dropped: a claim word copied from another mention does not keep it),
            ``"v45"`` (the default until v47: v44 that tells a comparison's sides apart by their
            figures alone when each side has one: "Participants who slept 8 hours had lower
            cortisol than those who slept fewer than 6 hours" restates "Participants who slept
            fewer than 6 hours had higher cortisol than those who slept 8 hours"), ``"v46"``
            (v45, strict, as v43 is v42), ``"v47"`` (the default until v50: v45 that reads a
            cardinal number word as its figure: "four hours" is 4 hours), ``"v48"`` (v47,
            strict), ``"v49"`` (v47 that reads a sentence stating only a procedure, "We placed
            temperature loggers in 48 city blocks", as stating no finding), ``"v50"`` (v47
            whose edit check allows a faithful answer's rewordings, "reduced" for "lowered",
            "approximately 5 mmHg", "was found to lower", "BP" for "blood pressure"),
            ``"v51"`` (v50 that refuses a thing joined to a copied one which the evidence
            states otherwise, "lowered systolic and diastolic blood pressure" against
            "Diastolic blood pressure did not change"), ``"v52"`` (v51 that reads more of an
            answer's words, "is contraindicated" for "should not be used", "versus" for
            "compared with", "cut" for "reduced"), ``"v53"`` (v52 whose entity gate reads a
            name a letter tells from its kin, "vitamin C" against "vitamin D"), ``"v54"`` (v53
            whose entity gate reads an abbreviation of words the span writes out, "BP" for
            "blood pressure"), ``"v55"`` (v54 whose entity gate reads capitals that
            are a sentence's style as no name, "the short answer is YES", a sentence written in
            capitals, "COVID19" as "COVID-19", and an abbreviation the claim defines in place
            by the words the span writes out), ``"v56"`` (v55 that reads a figure
            the claim rounds from the one the span states as that figure, "nearly 70" for 69),
            ``"v57"`` (v56 with the judge's veto, a claim the rules call supported that is
            not a faithful near copy and that the judge reads as entailed with a probability
            below 0.1 is partial), ``"v58"`` (v57 whose judge also reads what the polarity
            gate calls contradicted, partial when it reads it as entailed with a probability of
            0.5 or more), ``"v59"`` (v58 whose edit check lets a claim name what its window's
            opening "it" or "they" stands for when the evidence item before states it),
            ``"v60"`` (v59 whose edit check also reads one phrase of up to six words put in
            for another in a copied sentence as a substitution), ``"v61"`` (v60 that
            refuses a copied sentence with four words of its own grafted on after the copy),
            ``"v62"`` (v61 that refuses three such words), ``"v63"`` (v62 that
            reads business and news text: its polarity gate also reads their words of change,
            "climbed", "slipped", and "up" or "down" before a figure, and its edit check lets an
            answer name what its source calls "the company" when the source opens with that
            name), ``"v64"`` (v63 whose edit check reads a claim's "both … and" and "as well
            as" as "and"), ``"v65"`` (v64 that reads a figure's unit, a splice across a
            semicolon, a name for what the sentence before calls "it" or "the company", and
            an opening frame such as "At X," that the evidence states), ``"v66"`` (v65 that
            reads who holds a title, a score with its sides traded and a predicative "non-" as
            "not"), ``"v67"`` (v66 that reads evidence items cut from one source, as a store's
            plan lists them, as that source's text), ``"v68"`` (v67 that reads a bound on a
            figure turned round, "before" and "after" traded, and plain words of change such
            as "grew"), ``"v69"`` (v68 that reads more units of a figure: a percentage against
            money, electric units, a rate written as a span of time), ``"v70"`` (v69 that
            reads a figure converted to another unit as stated, "two days" for "48 hours"),
            ``"v71"`` (v70 that reads who does what to whom with the bundled parser and
            refuses a claim that gives its source's act to someone else), ``"v72"`` (v71
            that reads evidence without its invisible format characters, such as a zero-width
            space inside a word), ``"v73"`` (v72 that refuses a claim joining one side of
            a contrast to the other side's thing), ``"v74"`` (v73 that reads the sign of an
            association), ``"v75"`` (v74 that reads an association restated in a copy),
            ``"v76"`` (v75 that reads negations against the other side: a group a relative
            clause names, a privative word such as "asymptomatic"), ``"v77"`` (v76 that
            keeps a negation to its clause of a contrast: "lowered X, but did not change Y"
            denies Y only), ``"v78"`` (v77 that reads a comparison whose other side a
            phrase names: "Compared with children, adults were more susceptible"), ``"v79"``
            (the default: v78 that reads a window stating only a procedure, "We measured
            serum vitamin D in 300 patients", as stating no finding), or a ScoreModel.
        checker: the entailment checker for v3, the judge for v5 and v57 to v79 (with the
            bundled sentence parser for v71 to v79); default: the bundled ones (for the
            judge, the one ``verify.judge`` names).
    """

    def __init__(
        self,
        embedder: Embedder | None = None,
        decomposer: Decomposer | None = None,
        score_model: str | ScoreModel = DEFAULT_SCORE_MODEL,
        checker: EntailmentChecker | None = None,
    ) -> None:
        if embedder is None or decomposer is None:
            from spanproof.bootstrap import build_decomposer, build_embedder
            from spanproof.config import load_settings

            settings = load_settings()
            embedder = embedder if embedder is not None else build_embedder(settings)
            decomposer = decomposer if decomposer is not None else build_decomposer(settings)
        self.embedder = embedder
        self.decomposer = decomposer
        self.model = score_model if isinstance(score_model, ScoreModel) else _model(score_model)
        if checker is None and self.model.uses_checker:
            from spanproof.bootstrap import build_checker_for

            checker = build_checker_for(self.model)
        self.checker = checker

    def verify(
        self,
        draft: str,
        evidence: Sequence[EvidenceLike],
        policy: Policy | str = Policy.FLAG,
        question: str = "",
    ) -> Report:
        """Decompose ``draft`` into claims and verify each against ``evidence``.

        ``question``: what the draft answers, when known. A draft that opens with a bare
        "Yes."/"No." to a yes/no question ("Did walking lower blood pressure?") has that word
        checked as the question's proposition or its negation (the first claim; see
        :mod:`spanproof.verify.yes_no`); otherwise the question changes nothing.

        Raises:
            InvalidInputError: ``draft`` is not a string or is empty or blank (nothing to
                verify, as the API's 422), or ``evidence`` is malformed (one string rather than
                a list, an item without ``id`` and ``text``, a repeated id), or a text holds a
                lone surrogate (no character: JSON's ``"\\ud800"``). A draft that states no
                claim ("Thanks!") is not an error: its outcome is ``no_claims``.
        """
        if not isinstance(draft, str):
            raise InvalidInputError(f"draft must be a string, got {type(draft).__name__}")
        check_text(draft, "draft")
        if not draft.strip():
            raise InvalidInputError("the draft is empty: give the text to verify")
        if not isinstance(question, str):
            raise InvalidInputError(f"question must be a string, got {type(question).__name__}")
        check_text(question, "question")
        return verify_draft(
            draft,
            to_evidence(evidence),
            decomposer=self.decomposer,
            embedder=self.embedder,
            model=self.model,
            policy=_policy(policy),
            checker=self.checker,
            question=question,
        )

    def score_claims(
        self, claims: Sequence[ClaimLike], evidence: Sequence[EvidenceLike]
    ) -> list[ClaimVerdict]:
        """Verify atomic claims (no decomposition). Raises if verification is unavailable."""
        report = self.check_claims(claims, evidence)
        if report.verification != "verified":
            from spanproof.core.errors import ProviderError

            raise ProviderError(f"verification {report.verification}")
        return list(report.claims)

    def check_claims(self, claims: Sequence[ClaimLike], evidence: Sequence[EvidenceLike]) -> Report:
        """Like :meth:`score_claims` but returns a Report (unavailability recorded, not raised).

        Raises:
            InvalidInputError: ``claims`` is empty (nothing to verify, as the API's 422) or
                malformed, or ``evidence`` is malformed.
        """
        atomic = to_claims(claims)
        if not atomic:
            raise InvalidInputError("'claims' is empty: give at least one claim")
        verdicts, status = score_all(
            atomic, to_evidence(evidence), self.embedder, self.model, self.checker
        )
        return Report(
            score_model=self.model.name,
            embed_model=self.embedder.model_id if status == "verified" else "",
            verification=status,
            claims=tuple(verdicts),
            delivered=None,
            embed_model_hash=self.embedder.model_hash if status == "verified" else "",
            checker_model=checker_model(self.model, self.checker, status),
            checker_note=checker_note(self.checker) if status == "verified" else "",
        )


def _model(name: object) -> ScoreModel:
    if not isinstance(name, str):  # None, 45: a bare AttributeError from the name's lookup
        raise ConfigurationError(
            f"score_model must be a score model's name, {DEFAULT_SCORE_MODEL!r} by default, "
            f"or a ScoreModel; got {type(name).__name__}"
        )
    return score_model(name)


def _policy(value: Policy | str) -> Policy:
    if isinstance(value, Policy):
        return value
    try:
        return Policy(value)
    except ValueError:
        raise InvalidInputError(f"unknown policy {value!r}; choose 'flag' or 'redact'") from None
