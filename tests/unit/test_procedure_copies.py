"""Score model v79: v49's procedure reading on v78, with what the edit check reads left to it.

v49 capped a window that states only a procedure ("We measured serum vitamin D in 300
patients …"), so that it no longer supported a finding it never stated ("Vitamin D deficiency
increases the risk of tuberculosis"). It also capped the copies of such a sentence: "Patients
were not randomized from April 2003 through February 2007" against "Patients were randomized
…" was `unsupported` (a negation made the claim a finding, and the gate capped the procedure
it copies) where v47 had read the copy and said `contradicted: negation added`. v79 reads a
claim that denies a procedure as stating no finding, and leaves a span the claim nearly copies
to the edit check.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from spanproof import Verifier
from spanproof.core.models import DEFAULT_SCORE_MODEL, Claim, ClaimVerdict, Verdict
from spanproof.verify.edits import longest_copy
from spanproof.verify.gates import states_a_procedure, states_no_finding
from spanproof.verify.scoring import (
    SCORE_MODELS,
    V49,
    V78,
    V79,
    ScoreModel,
    claim_states_no_finding,
    edit_text,
    may_copy_window,
    no_finding,
)

MEASURED = "We measured serum vitamin D in 300 patients with tuberculosis and 300 healthy controls."
RANDOMIZED = "Patients were randomized from April 2003 through February 2007."


def test_v79_is_v78_with_v49s_procedures_and_the_copies_spared_and_the_default() -> None:
    assert SCORE_MODELS["v79"] is V79
    assert DEFAULT_SCORE_MODEL == "v79"
    assert V79.procedure_statements and V79.procedure_copies and V79.comparison_phrases
    assert not V78.procedure_statements and not V78.procedure_copies
    assert not V49.procedure_copies
    assert replace(V78, name="v79", procedure_statements=True, procedure_copies=True) == V79


@pytest.mark.parametrize(
    "text",
    [
        "Patients were not randomized from April 2003 through February 2007.",
        "Studies were not included if they used a single measurement.",
        "We did not measure serum vitamin D.",
    ],
)
def test_a_denied_procedure_states_no_finding_in_a_claim_under_v79(text: str) -> None:
    assert states_a_procedure(text, denied=True)
    assert not states_a_procedure(text)  # a window's negation still reads as a finding
    assert states_no_finding(text, procedures=True, aims=False, denied=True)
    assert claim_states_no_finding(text, V79)
    assert not claim_states_no_finding(text, V49)
    assert not no_finding(text, V79)  # windows are read as under v49


@pytest.mark.parametrize(
    "text",
    [
        "Patients were randomized, and fever did not fall.",
        "We measured cortisol and found that it was higher after short sleep.",
        "Vitamin D deficiency does not increase the risk of tuberculosis.",
    ],
)
def test_a_finding_stays_a_finding_when_negations_are_set_aside(text: str) -> None:
    assert not states_a_procedure(text, denied=True)
    assert not claim_states_no_finding(text, V79)


def score(claim: str, texts: list[str], model: ScoreModel) -> ClaimVerdict:
    evidence = [{"id": f"e{i}", "text": t} for i, t in enumerate(texts)]
    (verdict,) = Verifier(score_model=model).score_claims([claim], evidence)
    return verdict


def test_a_denied_procedure_is_contradicted_by_its_copy_under_v79_and_capped_under_v49() -> None:
    claim = "Patients were not randomized from April 2003 through February 2007."
    v79 = score(claim, [RANDOMIZED], V79)
    v49 = score(claim, [RANDOMIZED], V49)
    assert v79.verdict is Verdict.CONTRADICTED and not v79.finding_gated
    assert v49.verdict is Verdict.UNSUPPORTED and v49.finding_gated


def test_a_near_copy_of_a_procedure_is_left_to_the_edit_check() -> None:
    # the claim states a finding ("lower"), and nearly copies the procedure it changes
    claim = "We measured lower serum vitamin D in 300 patients with tuberculosis."
    v79 = score(claim, [MEASURED], V79)
    v49 = score(claim, [MEASURED], V49)
    assert v49.finding_gated and not v79.finding_gated
    assert v49.verdict is Verdict.UNSUPPORTED
    assert v79.verdict is not Verdict.SUPPORTED and v79.edits  # the edit check says why


def test_the_bundled_model_reads_a_procedure_as_v49_does() -> None:
    evidence = [{"id": "M", "text": MEASURED}]
    claims = [
        "Vitamin D deficiency increases the risk of tuberculosis.",
        "Serum vitamin D was measured in 300 patients with tuberculosis.",
    ]
    before = Verifier(score_model="v78").check_claims(claims, evidence).claims
    after = Verifier(score_model="v79").check_claims(claims, evidence).claims
    assert [c.verdict for c in before] == [Verdict.SUPPORTED, Verdict.SUPPORTED]
    assert [c.verdict for c in after] == [Verdict.UNSUPPORTED, Verdict.SUPPORTED]
    assert after[0].finding_gated and not after[1].finding_gated


def test_the_bundled_model_contradicts_a_denied_procedure() -> None:
    claims = ["Patients were not randomized from April 2003 through February 2007."]
    evidence = [{"id": "R", "text": RANDOMIZED}]
    v49 = Verifier(score_model="v49").check_claims(claims, evidence).claims[0]
    v79 = Verifier(score_model="v79").check_claims(claims, evidence).claims[0]
    assert v49.verdict is Verdict.UNSUPPORTED
    assert v79.verdict is Verdict.CONTRADICTED


HIGHLIGHT = (
    "We highlight common features that are relevant to the fidelity of any DNA synthesis "
    "reaction, and consider why fidelity varies depending on the enzymes, the error, and the "
    "local sequence environment."
)


def test_a_finding_claim_keeps_a_procedure_window_it_copies_at_length() -> None:
    graft = Claim(
        "c1",
        "consider why fidelity varies depending on the enzymes, the error, and the local "
        "sequence environment, and habits impact on health, wellness, and the risk of chronic "
        "diseases",
    )
    short = Claim("c2", "We highlight common features relevant to the fidelity of DNA synthesis.")
    other = Claim("c3", "Tree canopy cooled the city blocks in summer.")
    assert may_copy_window(graft, HIGHLIGHT, V79)  # a run of eight words and more, as a graft
    assert not may_copy_window(short, HIGHLIGHT, V79)  # five words in a run
    assert not may_copy_window(other, HIGHLIGHT, V79)
    assert not may_copy_window(graft, HIGHLIGHT, V49)  # v49 passed every such window over


def test_longest_copy_counts_content_words_in_order_from_one_sentence() -> None:
    said = edit_text("the error varies with the local sequence environment of the enzymes", V79)
    copied, after = longest_copy(said, edit_text(HIGHLIGHT, V79))
    assert copied == 3  # "local sequence environment"
    assert after == 5  # the copy ends before the claim's sixth content word, "enzymes"


def test_a_graft_on_a_procedure_sentence_is_still_read_as_a_graft() -> None:
    evidence = (
        "DNA replication fidelity is a key determinant of genome stability and is central to "
        f"the evolution of species and to the origins of human diseases. {HIGHLIGHT}"
    )
    claim = (
        "Fidelity varies depending on the enzymes, the error, and the local sequence "
        "environment, and habits impact on health, wellness, and the risk of chronic diseases."
    )
    for model in ("v78", "v79"):
        verdicts = Verifier(score_model=model).verify(claim, [{"id": "E1", "text": evidence}])
        assert any(c.verdict is not Verdict.SUPPORTED for c in verdicts.claims), model
