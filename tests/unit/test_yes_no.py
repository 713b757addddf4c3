"""A bare "Yes."/"No." that answers a question, checked as the claim it stands for."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spanproof.core.models import Claim, ClaimVerdict, SpanRef, Verdict
from spanproof.verify.decompose import RuleBasedDecomposer
from spanproof.verify.proposition import negate_statement, negation_of
from spanproof.verify.yes_no import answer_word, question_of, turned_verdict, with_answer_claim

DECOMPOSER = RuleBasedDecomposer()
QUESTION = "Did daily walking raise systolic blood pressure?"
YES = "Daily walking raised systolic blood pressure."
NO = "Daily walking did not raise systolic blood pressure."


@pytest.mark.parametrize(
    ("question", "negation"),
    [
        ("Does aspirin lower fever?", "Aspirin does not lower fever."),
        (QUESTION, NO),
        ("Is aspirin effective against colds?", "Aspirin is not effective against colds."),
        ("Can vitamin D prevent COVID-19?", "Vitamin D cannot prevent COVID-19."),
        ("Has metformin been shown to help?", "Metformin has not been shown to help."),
        ("Do masks reduce transmission or not?", "Masks do not reduce transmission."),
        (
            "Is it true that walking lowered blood pressure?",
            "Walking did not lower blood pressure.",
        ),
        ("True or false: smoking causes lung cancer.", "Smoking does not cause lung cancer."),
        ("Statins lower LDL cholesterol.", "Statins do not lower LDL cholesterol."),
        (
            "Aspirin has a higher risk of bleeding.",
            "Aspirin does not have a higher risk of bleeding.",
        ),
        ("Is the claim that masks work true?", "Masks do not work."),
    ],
)
def test_a_no_states_the_negation_of_the_proposition(question: str, negation: str) -> None:
    assert negation_of(question) == negation


@pytest.mark.parametrize(
    "question",
    [
        "What did the trial find?",  # no proposition
        "Does walking not lower blood pressure?",  # negative already
        "Is it true that smoking is not harmful?",
        # negated after a verb the rules do not know: never negated twice ("do not have not")
        "Is it true that SARS-CoV-2 infects ferrets, but fatalities have not been observed?",
        "Walking blood pressure",
    ],
)
def test_no_negation_where_none_can_be_built(question: str) -> None:
    assert negation_of(question) is None


def test_a_statement_is_negated_at_its_first_verb_not_inside_its_subject() -> None:
    assert (
        negate_statement("The lower dose reduces pain.") == "The lower dose does not reduce pain."
    )
    assert (
        negate_statement("Walking can lower blood pressure.")
        == "Walking cannot lower blood pressure."
    )
    assert negate_statement("Walking is good.") == "Walking is not good."
    assert negate_statement("Walking blood pressure.") is None
    # an abbreviation that spells a verb is no verb
    assert (
        negate_statement("Systemic immunosuppressive (IS) therapy increases mortality.")
        == "Systemic immunosuppressive (IS) therapy does not increase mortality."
    )
    assert negate_statement("Levels of CAN rose.") == "Levels of CAN did not rise."


@pytest.mark.parametrize(
    ("draft", "claim", "span"),
    [
        ("Yes.", YES, (0, 4)),
        ("No.", NO, (0, 3)),
        ("no", NO, (0, 2)),
        ("**No.**", NO, (2, 5)),
        ("Nope!", NO, (0, 5)),
        ("No, it did not.", NO, (0, 15)),
        ("No, it didn't.", NO, (0, 14)),
        ("No, that's not true.", NO, (0, 20)),
        ("Yes, it did [S1].", YES, (0, 17)),
        ("Yes, that is correct.", YES, (0, 21)),
        ("  Correct. Walking raised it [1].", YES, (2, 10)),
        ("No.\nWalking lowered it.", NO, (0, 3)),
        ("**Short answer:** No.", NO, (18, 21)),
        ("Answer: yes.", YES, (8, 12)),
        ("In short, no, it did not.", NO, (10, 25)),
        ("The short answer is no.", NO, (20, 23)),
        ("## Answer\n\nNo.\n\nWalking lowered it.", NO, (11, 14)),
        # an echo before a clause of its own: the span is the word and the echo
        ("No, it did not: it lowered it [S1].", NO, (0, 14)),
        # an echo before words with no verb: they elaborate a "Yes", a "No" keeps its sentence
        ("Yes, it did — by 5 mmHg.", f"{YES[:-1]}, by 5 mmHg.", (0, 24)),
        ("Yes, it did, by 5 mmHg [S1].", f"{YES[:-1]}, by 5 mmHg.", (0, 28)),
        ("Yes, it did in the trial.", f"{YES[:-1]}, in the trial.", (0, 25)),
        ("No, it did not, according to the trial.", NO, (0, 39)),
        (
            "Yes, it did in adults with hypertension.",
            f"{YES[:-1]}, in adults with hypertension.",
            (0, 40),
        ),
        # a "Yes" and a verbless elaboration: the proposition with it
        ("Yes, by 5 mmHg after 12 weeks [S1].", f"{YES[:-1]}, by 5 mmHg after 12 weeks.", (0, 35)),
        (
            "Yes — in adults with hypertension.",
            f"{YES[:-1]}, in adults with hypertension.",
            (0, 34),
        ),
        # a word before a clause of its own: the span is the word (the decomposer reads it)
        ("No, walking lowered it.", NO, (0, 2)),
        ("No — it lowered it by 5 mmHg [S1].", NO, (0, 2)),
        ("Yes, walking raised it by 5 mmHg.", YES, (0, 3)),
        ("Yes, and it also lowered heart rate.", YES, (0, 3)),
        # what reads as an echo opens a clause: the span is the word
        ("No, it did not raise it in the trial.", NO, (0, 2)),
        ("Yes, it did raise it by 5 mmHg [S1].", YES, (0, 3)),
    ],
)
def test_an_answer_word_stands_for_the_proposition_or_its_negation(
    draft: str, claim: str, span: tuple[int, int]
) -> None:
    found = answer_word(QUESTION, draft)
    assert found is not None
    assert (found.claim, found.span) == (claim, span)
    assert found.says_yes == (claim != NO)


@pytest.mark.parametrize(
    ("question", "draft"),
    [
        (QUESTION, "No, by 5 mmHg."),  # a "No" elaborated: what it denies is unclear
        (QUESTION, "Yes, " + "very " * 30 + "much."),  # too long to be an elaboration
        (QUESTION, "Yes, it did not."),  # the echo disagrees with the word
        (QUESTION, "No, it did."),
        (QUESTION, "Walking lowered it. Yes."),  # not the answer's first sentence
        (QUESTION, "No. 5 patients walked."),  # the abbreviation of "number"
        (QUESTION, "Maybe."),
        ("What did the trial find?", "Yes."),  # no proposition
        ("Does walking not lower blood pressure?", "No."),  # no negation to build
        ("Does walking not lower blood pressure?", "No, it lowered it."),
        ("Walking lowered it. Sodium did not change it.", "No."),  # statements, no question
        ("", "Yes."),
    ],
)
def test_no_answer_claim_where_the_word_stands_for_nothing_checkable(
    question: str, draft: str
) -> None:
    assert answer_word(question, draft) is None


def test_the_answer_claim_comes_first_and_replaces_the_echo() -> None:
    draft = "No, it did not [S1]. The trial found a fall of 5 mmHg [S1]."
    claims = with_answer_claim(QUESTION, draft, DECOMPOSER.decompose(draft))
    assert [(c.id, c.text, c.cited_markers) for c in claims] == [
        ("c1", NO, ("S1",)),
        ("c2", "The trial found a fall of 5 mmHg", ("S1",)),
    ]
    assert claims[0].draft_span == (0, 20)
    # the denial is scored as the proposition it negates; a "Yes" negates nothing
    assert claims[0].negates == YES and claims[0].scored_text == YES
    assert claims[1].negates == "" and claims[1].scored_text == claims[1].text
    yes = with_answer_claim(QUESTION, "Yes.", [])
    assert (yes[0].text, yes[0].negates) == (YES, "")


def test_a_claim_running_past_the_answer_word_keeps_what_follows_it() -> None:
    # as an LLM decomposer, or rules-v3, cut it: "No." read as the abbreviation of "number"
    draft = "No. Walking lowered it [S1]."
    given = [Claim("c1", "No. Walking lowered it", (0, 28), ("S1",))]
    claims = with_answer_claim(QUESTION, draft, given)
    assert [(c.id, c.text, c.draft_span, c.cited_markers) for c in claims] == [
        ("c1", NO, (0, 3), ()),
        ("c2", "Walking lowered it", (4, 28), ("S1",)),
    ]


def test_without_an_answer_word_the_claims_are_returned_as_they_are() -> None:
    claims = [Claim("c1", "Walking lowered it", (0, 19))]
    assert with_answer_claim(QUESTION, "Walking lowered it.", claims) == claims
    assert with_answer_claim("", "Yes.", []) == []


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([QUESTION, "Is aspirin effective?", "What is it?", ""]),
    st.lists(
        st.sampled_from(["Yes", "No", ".", ",", " ", "it did", "not", "[S1]", "[2]", "\n", "A"]),
        max_size=12,
    ).map("".join),
)
def test_answer_claims_are_in_bounds_numbered_and_deterministic(question: str, draft: str) -> None:
    claims = with_answer_claim(question, draft, DECOMPOSER.decompose(draft))
    assert [c.id for c in claims] == [f"c{k}" for k in range(1, len(claims) + 1)]
    spans = [c.draft_span for c in claims]
    for span in spans:
        assert span is not None and 0 <= span[0] < span[1] <= len(draft)
    assert all(b[0] >= a[1] for a, b in itertools.pairwise(spans))  # type: ignore[index]
    assert claims == with_answer_claim(question, draft, DECOMPOSER.decompose(draft))


def test_a_rag_prompt_is_read_by_its_last_sentence_when_that_asks() -> None:
    prompt = f"Context: Walking lowered it [1].\n\nQuestion: {QUESTION}"
    assert question_of(prompt) == QUESTION
    found = answer_word(prompt, "No.")
    assert found is not None and found.claim == NO
    assert question_of("Q: " + QUESTION) == QUESTION
    assert question_of("Walking lowered it. Did it?") == "Did it?"
    assert question_of("Walking lowered it. Sodium did not.") == ""
    assert question_of(" ".join(["word"] * 61) + "?") == ""


CONTEXT = "Context: Daily walking lowered systolic blood pressure by 5 mmHg [1]. It was a trial."


@pytest.mark.parametrize(
    "prompt",
    [
        # LangChain's template: the question, then a trailer
        f"Use the context to answer.\n\n{CONTEXT}\n\nQuestion: {QUESTION}\nHelpful Answer:",
        f"{CONTEXT}\n\n{QUESTION}\nAnswer:",
        f"{CONTEXT}\n\n{QUESTION} Answer yes or no, and cite the context.",
        # a labelled question wherever it stands, the context after it
        f"Question: {QUESTION}\n\n{CONTEXT} Was it long? It was not.",
        f"Q: {QUESTION}\n\n{CONTEXT}",
        # the question first, the context after it, no other question
        f"{QUESTION}\n\n{CONTEXT}",
    ],
)
def test_a_rag_prompt_is_read_by_the_sentence_that_asks(prompt: str) -> None:
    assert question_of(prompt) == QUESTION
    found = answer_word(prompt, "No.")
    assert found is not None and found.claim == NO


def test_a_question_that_points_to_a_claim_reads_the_claim() -> None:
    claim = "Daily walking raised systolic blood pressure."
    for prompt in (
        f"{CONTEXT}\n\nClaim: {claim}\nIs this claim supported by the context? Answer yes or no.",
        f"{claim} True or false?",
        f"Is the following statement true? {claim}",
        f"Is the claim true according to the context? {claim}",
        f"Statement: {claim} Is that correct?",
    ):
        assert question_of(prompt) == claim, prompt
        found = answer_word(prompt, "No.")
        assert found is not None and found.claim == NO
    # a frame with nothing beside it to point to, or a question beside it, reads nothing
    assert question_of("Is this true?") == ""
    assert question_of("Did walking raise it? Is that correct?") == ""


@pytest.mark.parametrize(
    "prompt",
    [
        # a question in the middle of a long message, not labelled: not the question
        f"{CONTEXT} Did walking raise it? " + "The trial ran for a year in three towns. " * 3,
        # two unlabelled questions, the first not last: which is asked is unclear
        f"{QUESTION}\n\n{CONTEXT} Was it long? " + "The trial ran for a year. " * 4,
        f"{CONTEXT} Walking is good.",
    ],
)
def test_no_question_is_read_where_the_message_does_not_say_which(prompt: str) -> None:
    assert question_of(prompt) == ""


@pytest.mark.parametrize(
    ("question", "yes", "no"),
    [
        ("Didn't daily walking raise systolic blood pressure?", YES, NO),
        ("Doesn’t aspirin lower fever?", "Aspirin lowers fever.", "Aspirin does not lower fever."),
        ("Isn't aspirin effective?", "Aspirin is effective.", "Aspirin is not effective."),
        (
            "Isn't it true that walking lowered blood pressure?",
            "Walking lowered blood pressure.",
            "Walking did not lower blood pressure.",
        ),
    ],
)
def test_a_contracted_negative_question_is_answered_as_its_positive(
    question: str, yes: str, no: str
) -> None:
    said_yes, said_no = answer_word(question, "Yes."), answer_word(question, "No.")
    assert said_yes is not None and (said_yes.claim, said_yes.proposition) == (yes, yes)
    assert said_no is not None and (said_no.claim, said_no.proposition) == (no, yes)


@pytest.mark.parametrize(
    ("question", "draft", "texts"),
    [
        (  # a "No" and a clause: the denial, and the clause with the subject named
            QUESTION,
            "No — it lowered systolic blood pressure by 5 mmHg [S1].",
            [NO, "Daily walking lowered systolic blood pressure by 5 mmHg"],
        ),
        (QUESTION, "No, walking lowered it.", [NO, "walking lowered it"]),
        (
            QUESTION,
            "No, it did not raise it in the trial.",
            [NO, "Daily walking did not raise it in the trial"],
        ),
        # what reads as an echo, words right after it: one clause ("it had", "it is")
        (QUESTION, "No — it had no effect on it [S3].", [NO, "Daily walking had no effect on it"]),
        (QUESTION, "Yes; it is the cause [S1].", [YES, "Daily walking is the cause"]),
        (QUESTION, "Yes. It raised it by 5 mmHg [1].", [YES, "Daily walking raised it by 5 mmHg"]),
        (
            QUESTION,
            "Yes, and it also lowered heart rate.",
            [YES, "Daily walking also lowered heart rate"],
        ),
        (  # "they" for a plural subject
            "Do masks reduce transmission?",
            "Yes, they cut it by half [S2].",
            ["Masks reduce transmission.", "Masks cut it by half"],
        ),
        # a pronoun that names no thing, or not the subject, stays
        (QUESTION, "No, they found that it lowered it.", [NO, "they found that it lowered it"]),
        (
            "Does aspirin lower fever?",
            "Yes, they showed it in two trials.",
            ["Aspirin lowers fever.", "they showed it in two trials"],
        ),
        # only the claim right after the answer sentence; a later one is named, by the
        # decomposer (rules-v6), from the claim before it
        (
            QUESTION,
            "No. Sodium did not change it. It lowered it.",
            [NO, "Sodium did not change it", "Sodium lowered it"],
        ),
        # a pronoun subject in the question names nothing to put in
        (
            "Did it raise blood pressure?",
            "No, it lowered it.",
            ["It did not raise blood pressure.", "it lowered it"],
        ),
    ],
)
def test_the_claim_after_an_answer_word_names_the_questions_subject(
    question: str, draft: str, texts: list[str]
) -> None:
    claims = with_answer_claim(question, draft, DECOMPOSER.decompose(draft))
    assert [c.text for c in claims] == texts
    # the spans stay on the draft's own words
    assert all(c.draft_span is not None for c in claims)
    assert draft[claims[-1].draft_span[0]].isalpha()  # type: ignore[index]


@pytest.mark.parametrize(
    ("reading", "verdict", "score"),
    [
        (Verdict.SUPPORTED, Verdict.CONTRADICTED, 0.25),
        (Verdict.CONTRADICTED, Verdict.PARTIAL, 0.25),
        (Verdict.PARTIAL, Verdict.PARTIAL, 0.75),
        (Verdict.UNSUPPORTED, Verdict.UNSUPPORTED, 0.75),
        (Verdict.EVIDENCE_REDACTED, Verdict.EVIDENCE_REDACTED, 0.75),
    ],
)
def test_a_denials_verdict_is_its_propositions_turned_round(
    reading: Verdict, verdict: Verdict, score: float
) -> None:
    proposition = ClaimVerdict(
        id="c1", text=YES, draft_span=None, verdict=reading, score=0.75,
        best_span=SpanRef("S1", 0, 10), candidates_considered=2, cited_markers=("S1",),
        numeric_gated=False, polarity_gated=True,
    )  # fmt: skip
    denial = Claim("c1", NO, (0, 3), ("S1",), negates=YES)
    turned = turned_verdict(proposition, denial)
    assert (turned.verdict, turned.score) == (verdict, score)
    assert (turned.text, turned.draft_span, turned.negates) == (NO, (0, 3), YES)
    # what the proposition's reading found stays: its span and gates explain the verdict
    assert turned.best_span == proposition.best_span and turned.polarity_gated
    assert turned.to_dict()["negates"] == YES and "negates" not in proposition.to_dict()


def test_an_elaborated_yes_replaces_the_fragment_the_decomposer_cut() -> None:
    draft = "Yes, by 5 mmHg after 12 weeks [S1]. Sodium did not change it [S2]."
    claims = with_answer_claim(QUESTION, draft, DECOMPOSER.decompose(draft))
    assert [(c.text, c.draft_span, c.cited_markers) for c in claims] == [
        (f"{YES[:-1]}, by 5 mmHg after 12 weeks.", (0, 35), ("S1",)),
        ("Sodium did not change it", (36, len(draft)), ("S2",)),
    ]


def test_an_echo_before_a_clause_leaves_the_clause_to_the_decomposer() -> None:
    draft = "Yes, it did: systolic blood pressure rose by 5 mmHg [S1]."
    claims = with_answer_claim(QUESTION, draft, DECOMPOSER.decompose(draft))
    assert [(c.text, c.draft_span) for c in claims] == [
        (YES, (0, 11)),
        ("systolic blood pressure rose by 5 mmHg", (13, len(draft))),
    ]


@pytest.mark.parametrize(
    ("draft", "scope", "span"),
    [
        ("No, it did not in children.", "in children", (0, 27)),
        ("No, it did not, in the follow-up [S2].", "in the follow-up", (0, 38)),
        ("No — not in adults with hypertension [S1].", "in adults with hypertension", (0, 42)),
        ("No, not among smokers.", "among smokers", (0, 22)),
    ],
)
def test_a_no_limited_to_a_scope_denies_the_proposition_that_far_only(
    draft: str, scope: str, span: tuple[int, int]
) -> None:
    found = answer_word(QUESTION, draft)
    assert found is not None and not found.says_yes
    assert (found.claim, found.span) == (f"{NO[:-1]}, {scope}.", span)
    # the proposition scored and turned round carries the scope too, as a "Yes" would
    assert found.proposition == f"{YES[:-1]}, {scope}."
    claims = with_answer_claim(QUESTION, draft, DECOMPOSER.decompose(draft))
    assert (claims[0].text, claims[0].negates) == (found.claim, found.proposition)


@pytest.mark.parametrize(
    "draft",
    [
        "No, it did not at all.",  # words that stress the denial limit nothing
        "No, it did not in fact.",
        "No, not at all.",
        "No, it did not, according to the trial.",  # who says so limits nothing either
    ],
)
def test_a_no_with_words_that_limit_nothing_denies_the_whole_proposition(draft: str) -> None:
    found = answer_word(QUESTION, draft)
    assert found is not None
    assert (found.claim, found.proposition, found.span) == (NO, YES, (0, len(draft)))


def test_a_scoped_no_is_not_contradicted_by_a_finding_that_names_no_scope() -> None:
    from spanproof.verifier import Verifier

    evidence = [{"id": "S1", "text": "Daily walking raised systolic blood pressure."}]
    verifier = Verifier()
    whole = verifier.verify("No, it did not.", evidence, question=QUESTION)
    scoped = verifier.verify("No, it did not in children.", evidence, question=QUESTION)
    # the finding refutes the unqualified denial; of children it says nothing
    assert whole.claims[0].verdict is Verdict.CONTRADICTED
    assert scoped.claims[0].verdict is Verdict.UNSUPPORTED


def test_a_no_without_a_verb_to_negate_states_that_it_is_not_the_case() -> None:
    question = "Do coffee drinkers sleep less?"  # "sleep" is no verb the rules know
    assert negation_of(question) is None
    found = answer_word(question, "No.")
    assert found is not None
    assert found.claim == "It is not the case that coffee drinkers sleep less."
    assert found.proposition == "Coffee drinkers sleep less."
    # a negative question stays unread: "No" to it is ambiguous
    assert answer_word("Do coffee drinkers never sleep well?", "No.") is None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                QUESTION,
                "Question: Did it?",
                "Q: Was it?",
                "Walking lowered it.",
                "Answer:",
                "Helpful Answer:",
                "Context:",
                "\n\n",
                " ",
                "Answer yes or no.",
                "It was a trial.",
            ]
        ),
        max_size=8,
    ).map(" ".join)
)
def test_the_question_read_is_one_of_the_messages_sentences_or_none(message: str) -> None:
    question = question_of(message)
    assert question == question_of(message)  # deterministic
    if question:
        assert question in message
        assert len(question.split()) <= 60
        # a sentence that asks, unless the message is that one sentence
        assert question.endswith("?") or question == message.strip()


def test_a_yes_to_a_request_is_no_claim_unless_the_request_names_one() -> None:
    # "Yes, …" to "Can you summarise the context?" states nothing the sources could refute
    assert answer_word("Can you summarise the context?", "Yes. Walking lowered it.") is None
    asked = "Can you tell me whether daily walking raised systolic blood pressure?"
    found = answer_word(asked, "No.")
    assert found is not None and (found.claim, found.proposition) == (NO, YES)
