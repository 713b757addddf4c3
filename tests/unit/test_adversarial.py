"""The adversarial class builders edit real sentences in the way their class promises."""

from __future__ import annotations

from collections import Counter

from spanproof.evaluation.adversarial import entities_of, entity_swap, negation_flip, number_swap
from spanproof.text.numerics import numerics
from spanproof.text.tokens import token_texts
from spanproof.verify.gates import cues, polarity_gate_trips


def nums(text: str) -> Counter[str]:
    return Counter(numerics(token_texts(text)))


def test_number_swap_changes_one_number_to_a_value_absent_from_the_evidence() -> None:
    sentence = "In 240 adults the dose of 12.5 mg lowered pressure by 5 mmHg."
    evidence = sentence + " A second cohort of 241 adults and 6 sites agreed."
    edited = number_swap(sentence, evidence)
    assert edited is not None and edited != sentence
    removed = nums(sentence) - nums(edited)
    added = nums(edited) - nums(sentence)
    assert sum(removed.values()) == 1 and sum(added.values()) == 1
    assert not set(added) & set(nums(evidence))


def test_number_swap_is_deterministic_and_none_without_numbers() -> None:
    sentence = "Rates fell from 12 to 7 per 1,000 births."
    assert number_swap(sentence) == number_swap(sentence)
    assert number_swap("No figures here at all.") is None


def test_entity_swap_uses_a_same_shaped_entity_the_evidence_lacks() -> None:
    sentence = "Serum TNF rose in the Boston cohort."
    pool = [("CRP", "acronym"), ("London", "name"), ("IL6", "identifier")]
    edited = entity_swap(sentence, pool, avoid=sentence)
    assert edited is not None
    before = {surface for _, _, surface, _ in entities_of(sentence)}
    after = {surface for _, _, surface, _ in entities_of(edited)}
    assert len(before - after) == 1 and len(after - before) == 1
    (old,) = before - after
    (new,) = after - before
    shapes = dict(pool)
    assert shapes[new] == dict((s, sh) for _, _, s, sh in entities_of(sentence))[old]


def test_entity_swap_returns_none_when_no_replacement_fits() -> None:
    assert entity_swap("Serum TNF rose.", [("TNF", "acronym")], avoid="") is None
    assert entity_swap("nothing capitalised here.", [("CRP", "acronym")], avoid="") is None


def test_negation_flip_always_trips_the_polarity_gate() -> None:
    for sentence in (
        "Aspirin reduced fever in adults.",
        "The vaccine was effective in older adults.",
        "Smoking did not increase the risk of gout.",
        "Higher doses were associated with better survival.",
    ):
        edited = negation_flip(sentence)
        assert edited is not None and edited != sentence
        assert polarity_gate_trips(cues(token_texts(edited)), cues(token_texts(sentence)))


def test_negation_flip_is_none_without_a_handle() -> None:
    assert negation_flip("Blue sky over green fields.") is None
