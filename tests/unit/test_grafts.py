"""Score models v61 and v62: a copied sentence with words of its own grafted on after the copy is
`unsupported`; words before the copy (a frame) and words the evidence states are left alone."""

from __future__ import annotations

from spanproof.core.models import Verdict
from spanproof.verifier import Verifier
from spanproof.verify.edits import grafted_phrase, prepare_evidence, prepare_text

SENTENCE = (
    "Younger children, who may be more susceptible to the adverse effects of neuroglycopenia, "
    "are at a particular risk of significant hypoglycemia"
)
EVIDENCE = [{"id": "S1", "text": f"{SENTENCE}. Parents were given glucose meters at discharge."}]
GRAFTED = (
    f"{SENTENCE}, and for high-throughput profiling of histone modifications in mammalian cells."
)


def verdicts(model: str, draft: str) -> list[tuple[str, list[str]]]:
    report = Verifier(score_model=model).verify(draft, EVIDENCE)
    return [(c.verdict.value, [e.judgement or "" for e in c.edits]) for c in report.claims]


def test_words_grafted_after_a_copied_sentence_are_refused() -> None:
    assert verdicts("v60", GRAFTED) == [("supported", [])]  # closeness supported it
    [(verdict, edits)] = verdicts("v61", GRAFTED)
    assert verdict == Verdict.UNSUPPORTED
    assert edits == ["unsupported: not in the evidence (grafted on a copied sentence)"]


def test_the_copy_alone_and_words_the_evidence_states_stay_supported() -> None:
    assert verdicts("v61", f"{SENTENCE}.") == [("supported", [])]
    stated = f"{SENTENCE}, and parents were given glucose meters at discharge."
    assert all(v == "supported" for v, _ in verdicts("v61", stated))


def test_the_grafted_words_are_found_after_the_copy_only() -> None:
    window = prepare_text(SENTENCE)
    keys = prepare_evidence("S1", EVIDENCE[0]["text"]).keys

    def stated() -> frozenset[str]:
        return keys

    claim = prepare_text(GRAFTED)
    found = grafted_phrase(claim, window, stated, 8, 4)
    assert found is not None
    assert claim.text[found[0] : found[1]] == (
        "high-throughput profiling of histone modifications in mammalian cells"
    )
    framed = prepare_text(f"A new review of mammalian histone profiling found that {SENTENCE}.")
    assert grafted_phrase(framed, window, stated, 8, 4) is None  # new words before: a frame
    assert grafted_phrase(claim, window, stated, 30, 4) is None  # no copy that long
    assert grafted_phrase(claim, window, stated, 8, 12) is None  # no new run that long


# v62: three new words in a row after the copy are enough. The claim leaves out parts of the
# sentence and adds words, so it is no near copy for the edit check to read word by word.
WALKING_EVIDENCE = [
    {
        "id": "S1",
        "text": "In a randomized trial of 200 adults with hypertension, daily walking for 30 "
        "minutes lowered systolic blood pressure by 5 mmHg after 12 weeks compared with usual "
        "care. Diastolic pressure did not change.",
    }
]
COPIED = (
    "In a trial of adults with hypertension, daily walking for 30 minutes lowered systolic blood "
    "pressure by 5 mmHg"
)


def walking(model: str, draft: str) -> list[str]:
    report = Verifier(score_model=model).verify(draft, WALKING_EVIDENCE)
    return [c.verdict.value for c in report.claims]


def test_three_grafted_words_are_refused_from_v62() -> None:
    grafted = f"{COPIED} and reduced the risk of stroke."
    assert walking("v61", grafted) == ["supported"]  # three new words: under v61's four
    report = Verifier(score_model="v62").verify(grafted, WALKING_EVIDENCE)
    [claim] = report.claims
    assert claim.verdict == Verdict.UNSUPPORTED
    [edit] = claim.edits
    assert edit.claim_text == "reduced the risk of stroke"
    assert edit.judgement == "unsupported: not in the evidence (grafted on a copied sentence)"


def test_stated_words_after_the_copy_stay_supported_under_v62() -> None:
    assert walking("v62", f"{COPIED}.") == ["supported"]
    assert walking("v62", f"{COPIED} after 12 weeks.") == ["supported"]
    stated = f"{COPIED}, while diastolic pressure did not change."
    assert walking("v62", stated) == ["supported", "supported"]
