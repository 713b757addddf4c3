"""The library's inputs: a mistaken shape is a clear ``InvalidInputError``, never a silent result.

One string given where a list belongs used to be read one character an item (20 claims 'R',
'e', 'f' …; a context per character), and a ``None`` draft raised a bare AttributeError.
"""

from __future__ import annotations

from typing import Any

import pytest

from spanproof.core.errors import ConfigurationError, InvalidInputError
from spanproof.services.answer_check import context_spans
from spanproof.testing.fakes import FakeEmbedder
from spanproof.testing.grounding import assert_grounded
from spanproof.verifier import Verifier, to_claims, to_evidence
from spanproof.verify.decompose import RuleBasedDecomposer

EVIDENCE = [{"id": "S1", "text": "Refunds take 5 days."}]


@pytest.fixture
def verifier() -> Verifier:
    return Verifier(embedder=FakeEmbedder(), decomposer=RuleBasedDecomposer())


@pytest.mark.parametrize("items", ["Refunds take 5 days.", b"Refunds", bytearray(b"R")])
def test_one_string_is_not_a_list_of_claims_or_evidence(items: Any) -> None:
    with pytest.raises(InvalidInputError, match="claims must be a list of items, not one string"):
        to_claims(items)
    with pytest.raises(InvalidInputError, match="evidence must be a list of items, not one"):
        to_evidence(items)
    with pytest.raises(InvalidInputError, match="not one string"):
        context_spans(items)


@pytest.mark.parametrize("items", [None, 42, {"id": "S1", "text": "x"}])
def test_no_list_at_all_names_what_it_got(items: Any) -> None:
    kind = type(items).__name__
    with pytest.raises(InvalidInputError, match=f"claims must be a list of items, got {kind}"):
        to_claims(items)
    with pytest.raises(InvalidInputError, match=f"evidence must be a list of items, got {kind}"):
        to_evidence(items)


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_a_blank_claim_is_refused_with_its_position(text: str) -> None:
    with pytest.raises(InvalidInputError, match="claim 2: the text is blank"):
        to_claims(["Refunds take 5 days.", {"id": "b", "text": text}])


def test_two_claims_with_one_id_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="claim 2: duplicate id 'a'"):
        to_claims([{"id": "a", "text": "One."}, {"id": "a", "text": "Two."}])
    # A string's id is its position, so it may collide with an explicit one.
    with pytest.raises(InvalidInputError, match="claim 2: duplicate id 'c2'"):
        to_claims([{"id": "c2", "text": "One."}, "Two."])
    assert [c.id for c in to_claims(["One.", "Two.", {"id": "x", "text": "Three."}])] == [
        "c1",
        "c2",
        "x",
    ]


def test_cited_markers_must_be_a_list_too() -> None:
    with pytest.raises(InvalidInputError, match="claim 1: 'cited_markers' must be a list"):
        to_claims([{"text": "Refunds take 5 days.", "cited_markers": "S1"}])
    assert to_claims([{"text": "x", "cited_markers": ["S1"]}])[0].cited_markers == ("S1",)


def test_the_library_refuses_a_draft_that_is_not_text(verifier: Verifier) -> None:
    with pytest.raises(InvalidInputError, match="draft must be a string, got NoneType"):
        verifier.verify(None, EVIDENCE)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="evidence must be a list of items, not one"):
        verifier.verify("Refunds take 5 days.", "Refunds take 5 days.")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="claims must be a list of items, not one"):
        verifier.score_claims("Refunds take 5 days.", EVIDENCE)


@pytest.mark.parametrize("draft", ["", "   ", "\n\t\n"])
def test_an_empty_draft_or_claim_list_is_refused_as_the_api_refuses_it(
    verifier: Verifier, draft: str
) -> None:
    # The API answers 422 to both; the library answered `no_claims`, which a caller reads as
    # "checked, nothing wrong".
    with pytest.raises(InvalidInputError, match="the draft is empty"):
        verifier.verify(draft, EVIDENCE)
    with pytest.raises(InvalidInputError, match="'claims' is empty"):
        verifier.check_claims([], EVIDENCE)
    with pytest.raises(InvalidInputError, match="'claims' is empty"):
        verifier.score_claims([], EVIDENCE)
    # A draft of words that state no claim is not an error: it has an outcome.
    assert verifier.verify("Thanks for asking!", EVIDENCE).outcome.value == "no_claims"


def test_well_formed_inputs_still_verify(verifier: Verifier) -> None:
    report = verifier.check_claims(["Refunds take 5 days."], EVIDENCE)
    assert [c.verdict.value for c in report.claims] == ["supported"]
    assert verifier.verify("Refunds take 5 days [S1].", EVIDENCE).claims


#: JSON's "\ud800" escape decodes to a lone surrogate: no character, which the bundled model's
#: tokenizer refused with a bare TypeError from deep inside the scoring.
LONE = "Refunds take \ud800 5 days."


def test_a_lone_surrogate_in_any_text_is_refused_saying_where(verifier: Verifier) -> None:
    with pytest.raises(InvalidInputError, match="draft holds a lone surrogate U\\+D800 at char"):
        verifier.verify(LONE, EVIDENCE)
    with pytest.raises(InvalidInputError, match="evidence item 2: 'text' holds a lone surrogate"):
        verifier.verify("Refunds take 5 days.", [*EVIDENCE, {"id": "S2", "text": LONE}])
    with pytest.raises(InvalidInputError, match="claim 1 holds a lone surrogate"):
        verifier.score_claims([LONE], EVIDENCE)
    with pytest.raises(InvalidInputError, match="contexts: context 1 holds a lone surrogate"):
        context_spans([LONE])
    with pytest.raises(InvalidInputError, match="answer holds a lone surrogate"):
        assert_grounded(LONE, ["Refunds take 5 days."], verifier=verifier)
    # A pair is one character and verifies as any other.
    assert verifier.verify("Refunds take 5 days \U0001f600.", EVIDENCE).claims


@pytest.mark.parametrize("contexts", [None, 42, {"S1": "Refunds take 5 days."}])
def test_contexts_that_are_no_list_are_refused_naming_what_they_are(contexts: Any) -> None:
    # None raised a bare TypeError; a mapping of id → text was read as its keys, so the
    # answer was checked against the text "S1".
    kind = type(contexts).__name__
    with pytest.raises(InvalidInputError, match=f"give a list of contexts, got {kind}"):
        context_spans(contexts)


def test_a_context_id_of_null_is_no_id_and_other_kinds_are_refused() -> None:
    spans = context_spans([{"id": None, "text": "a"}, {"id": None, "text": "b"}])
    assert [s.id for s in spans] == ["S1", "S2"]  # not "None", then "repeats the id 'None'"
    with pytest.raises(InvalidInputError, match="context 1: 'id' must be a string or an integer"):
        context_spans([{"id": ["S1"], "text": "a"}])


@pytest.mark.parametrize("name", [None, 45])
def test_a_score_model_that_is_no_name_is_a_configuration_error(name: Any) -> None:
    with pytest.raises(ConfigurationError, match="score_model must be a score model's name"):
        Verifier(embedder=FakeEmbedder(), decomposer=RuleBasedDecomposer(), score_model=name)


def test_a_claim_id_of_null_is_no_id_and_other_kinds_are_refused() -> None:
    # null was the id "None" (twice: "duplicate id 'None'"), a list its repr, while evidence
    # refuses both.
    claims = to_claims([{"id": None, "text": "One."}, {"id": None, "text": "Two."}])
    assert [c.id for c in claims] == ["c1", "c2"]
    for ident in (["c1"], {"a": 1}, True, 1.5):
        with pytest.raises(InvalidInputError, match="claim 1: 'id' must be a string or an int"):
            to_claims([{"id": ident, "text": "One."}])


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ({"erased": True}, "'erased' must be a list of items, got bool"),
        ({"erased": [[1]]}, "'erased' must be a list of \\[start, end\\] character ranges"),
        ({"erased": [[0, "x"]]}, "'erased' must be a list of \\[start, end\\]"),
        ({"truth_class": "false"}, "'truth_class' must be true or false"),
        ({"truth_class": None}, "'truth_class' must be true or false"),
    ],
)
def test_a_malformed_reserved_evidence_key_is_refused(
    verifier: Verifier, field: dict[str, Any], message: str
) -> None:
    # "erased": true (metadata of the caller's own) raised a bare TypeError: a traceback and
    # exit 1 from verify; "truth_class": "false" was read as true.
    item = {"id": "S1", "text": "Refunds take 5 days.", **field}
    with pytest.raises(InvalidInputError, match=f"evidence item 1: {message}"):
        verifier.verify("Refunds take 5 days.", [item])


def test_well_formed_reserved_evidence_keys_still_apply(verifier: Verifier) -> None:
    item = {"id": "S1", "text": "Refunds take 5 days.", "erased": [[0, 7]], "truth_class": True}
    (span,) = to_evidence([item])
    assert [(r.start, r.end) for r in span.erased] == [(0, 7)] and span.truth_class
    assert to_evidence([{**item, "erased": None}])[0].erased == ()
    report = verifier.verify("Refunds take 5 days.", [{**item, "erased": []}])
    assert [c.verdict.value for c in report.claims] == ["supported"]


@pytest.mark.parametrize("ident", ["", "  "])
def test_a_blank_id_is_refused_for_evidence_and_claims(ident: str) -> None:
    # no citation marker can name a blank evidence id, and a blank claim id names no claim
    with pytest.raises(InvalidInputError, match="evidence item 1: 'id' is blank"):
        to_evidence([{"id": ident, "text": "Walking lowered blood pressure."}])
    with pytest.raises(InvalidInputError, match="claim 1: 'id' is blank"):
        to_claims([{"id": ident, "text": "Walking lowered blood pressure."}])
    assert [s.id for s in to_evidence([{"id": 0, "text": "A."}])] == ["0"]  # 0 is an id
