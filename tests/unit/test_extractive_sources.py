"""The extractive generator quotes one source by default: the one that bears on the question
most, counting its second-best sentence too (issue 15)."""

from __future__ import annotations

import pytest

from spanproof.core.errors import ConfigurationError
from spanproof.core.models import EvidenceSpan
from spanproof.services.generation import ExtractiveGenerator
from spanproof.services.planning import Plan
from spanproof.testing.fakes import FakeEmbedder

QUESTION = "Did daily walking lower blood pressure?"


def _span(marker: str, text: str, source: str | None) -> EvidenceSpan:
    return EvidenceSpan(id=marker, text=text, source={"source_id": source} if source else {})


def _plan(
    spans: tuple[EvidenceSpan, ...], relevance: tuple[float, ...], floor: float = 0.5
) -> Plan:
    return Plan(
        question=QUESTION, spans=spans, relevance=relevance, relevance_model="test", floor=floor
    )


PLAN = _plan(
    (
        _span("S1", "Daily walking lowered systolic blood pressure by 5 mmHg.", "walking"),
        _span("S2", "Walking trials elsewhere lowered blood pressure too.", "review"),
        _span("S3", "Daily walking also lowered diastolic blood pressure.", "walking"),
        _span("S4", "Blood pressure fell most in the oldest walkers.", "walking"),
    ),
    (0.90, 0.89, 0.88, 0.87),
)


def test_one_source_by_default_even_when_another_is_as_relevant() -> None:
    draft = ExtractiveGenerator().generate(QUESTION, PLAN).text
    assert "[S1]" in draft and "[S3]" in draft and "[S4]" in draft
    assert "[S2]" not in draft


def test_more_sources_when_asked_in_relevance_order() -> None:
    draft = ExtractiveGenerator(max_sources=2).generate(QUESTION, PLAN).text
    assert draft.index("[S1]") < draft.index("[S2]") < draft.index("[S3]")
    assert "[S4]" not in draft  # three sentences at most


def test_spans_without_a_source_each_count_as_their_own() -> None:
    plan = _plan(tuple(_span(s.id, s.text, None) for s in PLAN.spans), PLAN.relevance)
    assert ExtractiveGenerator().generate(QUESTION, plan).text.count("[S") == 1


def test_the_model_id_names_the_behaviour() -> None:
    assert ExtractiveGenerator().model_id == "extractive-v4"
    assert ExtractiveGenerator().generate(QUESTION, PLAN).model == "extractive-v4"
    # Another weight ranks sources otherwise: its drafts are named apart.
    assert ExtractiveGenerator(second_weight=0.25).model_id == "extractive-v4:second=0.25"
    # As many sources as sentences: the drafts of the generator before the one-source rule.
    assert ExtractiveGenerator(max_sources=3).model_id == "extractive-v1"


def test_at_least_one_source() -> None:
    with pytest.raises(ConfigurationError, match="max_sources"):
        ExtractiveGenerator(max_sources=0)


@pytest.mark.parametrize("weight", [-0.1, 1.5])
def test_second_weight_is_a_share(weight: float) -> None:
    with pytest.raises(ConfigurationError, match="second_weight"):
        ExtractiveGenerator(second_weight=weight)


# A neighbour with one sentence that matches the question's words a little better than the
# best sentence of the source the question is about, which has a second relevant sentence.
STRAY = _plan(
    (
        _span("S1", "Walking programmes were compared in an earlier review.", "review"),
        _span("S2", "Daily walking lowered systolic blood pressure by 5 mmHg.", "walking"),
        _span("S3", "Daily walking also lowered diastolic blood pressure.", "walking"),
        _span("S4", "The trial enrolled 120 adults.", "walking"),
    ),
    (0.86, 0.84, 0.80, 0.55),
)


def test_a_source_with_two_relevant_sentences_beats_one_stray_match() -> None:
    draft = ExtractiveGenerator().generate(QUESTION, STRAY).text
    assert draft == (
        "Daily walking lowered systolic blood pressure by 5 mmHg [S2]. "
        "Daily walking also lowered diastolic blood pressure [S3]."
    )  # S4 is more than MAX_BEHIND below the chosen source's best sentence
    # Without the second sentence counted, the single best sentence's source is quoted.
    assert ExtractiveGenerator(second_weight=0.0, title_weight=0.0).generate(
        QUESTION, STRAY
    ).text == ("Walking programmes were compared in an earlier review [S1].")


def test_a_clearly_better_single_sentence_still_wins() -> None:
    plan = _plan(STRAY.spans, (0.99, 0.60, 0.40, 0.30), floor=0.2)
    assert ExtractiveGenerator().generate(QUESTION, plan).text == (
        "Walking programmes were compared in an earlier review [S1]."
    )  # 0.99 against 0.60 + 0.5 x 0.40


def test_as_many_sources_as_sentences_keeps_relevance_order() -> None:
    draft = ExtractiveGenerator(max_sources=3).generate(QUESTION, STRAY).text
    assert draft == (
        "Walking programmes were compared in an earlier review [S1]. "
        "Daily walking lowered systolic blood pressure by 5 mmHg [S2]."
    )  # S3 is more than MAX_BEHIND below the best sentence


# Two sources whose sentences bear on the question almost equally: the title decides.
def _titled(title_of: dict[str, str | None]) -> Plan:
    def span(marker: str, text: str, source: str) -> EvidenceSpan:
        title = title_of.get(source)
        return EvidenceSpan(
            id=marker,
            text=text,
            source={"source_id": source, **({"title": title} if title is not None else {})},
        )

    return _plan(
        (
            span("S1", "Walking programmes were compared in an earlier review.", "review"),
            span("S2", "Daily walking lowered systolic blood pressure by 5 mmHg.", "walking"),
            span("S3", "The trial enrolled 120 adults.", "walking"),
        ),
        (0.93, 0.87, 0.10),
        floor=0.05,
    )


TITLES = {
    "review": "Exercise programmes for older people: a systematic review",
    "walking": "Daily walking lowers blood pressure",
}


def test_a_title_that_names_the_question_decides_between_close_sources() -> None:
    generator = ExtractiveGenerator(FakeEmbedder())
    draft = generator.generate(QUESTION, _titled(TITLES)).text
    # 0.87 + 0.5 x 0.10 + 0.2 x cos(title) beats 0.93 + 0.2 x cos(the review's title).
    assert draft == "Daily walking lowered systolic blood pressure by 5 mmHg [S2]."
    # Without titles read, the review's single sentence wins, as under extractive-v3.
    assert ExtractiveGenerator(FakeEmbedder(), title_weight=0.0).generate(
        QUESTION, _titled(TITLES)
    ).text == ("Walking programmes were compared in an earlier review [S1].")


@pytest.mark.parametrize(
    "titles", [{**TITLES, "review": None}, {**TITLES, "review": "  "}], ids=["absent", "blank"]
)
def test_titles_count_only_when_every_source_has_one(titles: dict[str, str | None]) -> None:
    # A source is never ranked down for lacking a title: then no title counts.
    draft = ExtractiveGenerator(FakeEmbedder()).generate(QUESTION, _titled(titles)).text
    assert draft == "Walking programmes were compared in an earlier review [S1]."


def test_titles_need_an_embedder() -> None:
    draft = ExtractiveGenerator().generate(QUESTION, _titled(TITLES)).text
    assert draft == "Walking programmes were compared in an earlier review [S1]."


def test_the_model_id_names_the_title_weight() -> None:
    assert ExtractiveGenerator(title_weight=0.0).model_id == "extractive-v3"
    assert ExtractiveGenerator(second_weight=0.0, title_weight=0.0).model_id == "extractive-v2"
    assert (
        ExtractiveGenerator(second_weight=0.25, title_weight=0.0).model_id
        == "extractive-v3:second=0.25"
    )
    assert ExtractiveGenerator(title_weight=0.5).model_id == "extractive-v4:title=0.5"
    assert ExtractiveGenerator(second_weight=0.0).model_id == "extractive-v4:second=0"


@pytest.mark.parametrize("weight", [-0.1, 1.5])
def test_title_weight_is_a_share(weight: float) -> None:
    with pytest.raises(ConfigurationError, match="title_weight"):
        ExtractiveGenerator(title_weight=weight)
