"""The judge's pairs (``training/judge_pairs.py``) and training mix (``training/train_judge.py``).

No torch needed: the training modules import it lazily. ``training/`` is on the path only for
this module. Real-data checks skip when ``../shared/data`` is absent (SPANPROOF_DATA_DIR).
"""

from __future__ import annotations

import json
import random
import sys
import types
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))

from build_pairs import PARTIAL_LABEL, is_validation
from judge_pairs import (
    MAX_TOKENS,
    MINED,
    REALISTIC,
    TITLES,
    JudgePair,
    claim_like,
    clause_pairs,
    compression,
    first_clause,
    fit_window,
    official_pairs,
    phrase_substitutions,
    piece_counter,
    realistic_calibration,
    scifact_windows,
    strip_citations,
    title_pairs,
    title_window,
)
from train_judge import cell_weights, curve_sample, training_mix

from spanproof.evaluation.devdata import data_dir, scifact_corpus


def _words(claim: str, evidence: str) -> int:
    """A cheap stand-in for the word-piece count: words plus the three special tokens."""
    return len(claim.split()) + len(evidence.split()) + 3


def test_fit_window_stays_within_the_piece_limit() -> None:
    count = piece_counter()
    claim = "Vitamin D supplementation lowers the incidence of respiratory infections."
    sentences = [
        f"Sentence {i} reports that cohort {i} of participants received 2000 IU daily "
        "(randomised, double-blind, placebo-controlled) and infections were counted weekly."
        for i in range(12)
    ]
    window = fit_window(claim, sentences, count)
    assert count(claim, window) <= MAX_TOKENS
    assert window.startswith(sentences[0]) and sentences[-1] not in window  # trailing ones dropped
    assert count(claim, " ".join(sentences)) > MAX_TOKENS  # so the limit was really in play
    assert fit_window(claim, sentences[:2], count) == " ".join(sentences[:2])  # fits: all kept


def _scifact_root(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    (root / "scifact").mkdir(parents=True)
    abstract = [
        "Aspirin was given to 400 adults.",
        "Stroke risk fell by a third in the aspirin group.",
        "Bleeding events were rare.",
        "Follow-up lasted five years.",
        "Funding came from a national agency.",
    ]
    other = ["Unrelated abstract sentence one.", "Unrelated abstract sentence two."]
    corpus = [
        {"doc_id": 11, "title": "t", "abstract": abstract, "structured": False},
        {"doc_id": 22, "title": "u", "abstract": other, "structured": False},
    ]
    (root / "scifact" / "corpus.jsonl").write_text("\n".join(json.dumps(d) for d in corpus))
    claims = [
        {
            "id": 1,
            "claim": "Aspirin lowers stroke risk.",
            "evidence": {"11": [{"sentences": [1], "label": "SUPPORT"}]},
            "cited_doc_ids": [11],
        }
    ]
    (root / "scifact" / "claims_train.jsonl").write_text("\n".join(json.dumps(d) for d in claims))
    return root


def test_scifact_neutral_windows_come_from_the_same_abstract_and_hold_no_rationale(
    tmp_path: Path,
) -> None:
    root = _scifact_root(tmp_path)
    corpus = scifact_corpus(root)
    pairs = scifact_windows(root, corpus, _words, random.Random(0))
    abstract = corpus[11]["abstract"]
    rationale = abstract[1]
    entailed = [p for p in pairs if p.label == "entailed"]
    neutral = [p for p in pairs if p.label == "neutral"]
    assert entailed and all(rationale in p.evidence for p in entailed)
    assert len(neutral) == 2  # the closest window and a random one
    for p in neutral:
        assert rationale not in p.evidence
        # every sentence of the window is a sentence of abstract 11, adjacent and in order
        start = abstract.index(next(s for s in abstract if p.evidence.startswith(s)))
        width = next(w for w in (1, 2) if " ".join(abstract[start : start + w]) == p.evidence)
        assert 1 not in range(start, start + width)
    split = "dev" if is_validation("scifact:1") else "train"
    assert {p.split for p in pairs} == {split} and {p.group for p in pairs} == {"scifact:1"}


def test_first_clause_and_compression_are_entailed_by_their_window() -> None:
    sentence = (
        "Mortality fell by 20% in the treated arm (n = 312), whereas admissions did not change."
    )
    assert first_clause(sentence) == "Mortality fell by 20% in the treated arm (n = 312)."
    assert compression(sentence) == (
        "Mortality fell by 20% in the treated arm, whereas admissions did not change."
    )
    assert first_clause("Too short; really.") is None
    window = ["Patients were randomised.", sentence]
    made = clause_pairs([("mined:x", window)], _words)
    assert len(made) == 1
    assert made[0].label == "entailed" and made[0].dataset == MINED and made[0].split == "train"
    assert made[0].evidence == " ".join(window)


def test_phrase_substitutions_put_in_a_phrase_the_window_lacks() -> None:
    window = "Serum ferritin levels predicted severe disease in hospitalised adults."
    sources = [("scifact:5", window, window)]
    donors = ["Gut microbiota composition shifted after antibiotic exposure."]
    made = phrase_substitutions(sources, donors, _words)
    assert len(made) == 1
    edit = made[0]
    assert edit.label == PARTIAL_LABEL and edit.dataset == REALISTIC and edit.split == "train"
    assert edit.claim != window and edit.evidence == window
    new_words = set(edit.claim.split()) - set(window.split())
    assert new_words and all(w.lower() not in window.lower() for w in new_words)


def test_claim_like_titles_state_a_finding() -> None:
    verbs = frozenset({"promote", "regulate", "determine"})
    assert claim_like("Adipocyte inflammation is essential for adipose tissue expansion", verbs)
    assert claim_like("The Bloom's syndrome helicase promotes the annealing of DNA", verbs)
    assert claim_like("TCR ligand density and affinity determine induction of Foxp3", verbs)
    assert not claim_like("Emerging mechanisms in morphogen-mediated axon guidance", verbs)
    assert not claim_like("Sildenafil for sexual dysfunction: a randomized controlled trial", verbs)
    assert not claim_like("Aspirin promotes healing", verbs)  # under five words
    assert not claim_like("Regulatory mechanisms of cholesterol transport in the gut", verbs)


def test_a_title_is_read_against_a_finding_never_an_aim() -> None:
    sentences = [
        "Stroke is a leading cause of death in adults.",
        "Aspirin was given to 400 adults at risk of stroke.",
        "We investigated whether aspirin lowers stroke risk in adults.",
        "Follow-up lasted five years.",
        "Aspirin lowered stroke risk in adults by a third.",
    ]
    title = "Aspirin lowers stroke risk in adults"
    assert title_window(title, sentences) == (4, 5)
    aims_only = [*sentences[:3], "Funding came from a national agency."]
    aims_only[1] = "Four hundred participants were enrolled."
    assert title_window(title, aims_only) is None  # the aim holds the words, but states no finding
    assert title_window("Gut microbiota shift after antibiotics", sentences) is None


def test_title_pairs_pair_a_title_with_its_own_finding(tmp_path: Path) -> None:
    root = tmp_path / "data"
    (root / "scifact").mkdir(parents=True)
    corpus = [
        {
            "doc_id": 31,
            "title": "Aspirin is protective against stroke in older adults.",
            "abstract": [
                "Stroke is a leading cause of disability.",
                "Older adults were given aspirin or placebo for five years.",
                "Aspirin lowered the risk of stroke in older adults by a third.",
            ],
        },
        {
            "doc_id": 32,
            "title": "Statins reduce the incidence of myocardial infarction in smokers.",
            "abstract": [
                "Smokers were given statins or placebo.",
                "Statins reduced myocardial infarction in smokers.",
            ],
        },
    ]
    (root / "scifact" / "corpus.jsonl").write_text("\n".join(json.dumps(d) for d in corpus))
    (root / "scifact" / "claims_train.jsonl").write_text("")
    made = title_pairs(root, [31], _words)
    entailed = [p for p in made if p.label == "entailed"]
    assert [(p.claim, p.evidence) for p in entailed] == [
        (
            "Aspirin is protective against stroke in older adults.",
            "Aspirin lowered the risk of stroke in older adults by a third.",
        )
    ]
    assert all(p.dataset == TITLES and p.split == "train" and p.group == "titles:31" for p in made)
    assert {p.label for p in made} <= {"entailed", "contradicted", PARTIAL_LABEL}
    assert [p.claim for p in made if p.label == "contradicted"] == [
        "Aspirin is not protective against stroke in older adults."
    ]
    assert all(p.evidence == entailed[0].evidence for p in made)  # every edit reads the same window
    assert all(p.claim != entailed[0].claim for p in made if p.label != "entailed")


def test_only_the_calibration_half_of_the_realistic_generator_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def case(split: str, doc: str, label: str, n: int) -> Any:
        return types.SimpleNamespace(
            kind="swap", claim=f"claim {n}", evidence=f"evidence {n}.", doc_id=doc,
            split=split, label=label, detail="",
        )  # fmt: skip

    cases = [
        case("calibration", "1", "supported", 0),
        case("heldout", "1", "supported", 1),
        case("calibration", "2", "not_supported", 2),
        case("heldout", "3", "contradicted", 3),
        case("calibration", "4", "contradicted", 4),
        case("calibration", "9", "supported", 5),  # an abstract a dev claim cites
    ]
    fake = types.ModuleType("spanproof.evaluation.realistic")
    fake.generate = lambda root, seed=0, limit_per_kind=None: cases  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "spanproof.evaluation.realistic", fake)
    made = realistic_calibration(tmp_path, {9}, _words)
    assert [(p.claim, p.label) for p in made] == [
        ("claim 0", "entailed"),
        ("claim 2", PARTIAL_LABEL),
        ("claim 4", "contradicted"),
    ]
    assert all(p.split == "train" and p.dataset == REALISTIC for p in made)


def test_official_dev_files_are_the_dev_split_and_never_trained_on(tmp_path: Path) -> None:
    folder = tmp_path / "check_covid"
    folder.mkdir()
    row = {"premise": "Masks cut spread.", "source": "check_covid"}
    (folder / "train.jsonl").write_text(
        json.dumps({**row, "hypothesis": "Masks help <|cit|>.", "label": "entailment"}) + "\n"
    )
    (folder / "dev.jsonl").write_text(
        json.dumps({**row, "hypothesis": "Masks harm.", "label": "contradiction"}) + "\n"
    )
    pairs = official_pairs(tmp_path, "check_covid", _words)
    assert [(p.claim, p.label, p.split) for p in pairs] == [
        ("Masks help.", "entailed", "train"),
        ("Masks harm.", "contradicted", "dev"),
    ]
    assert [p.claim for p in training_mix(pairs, {})] == ["Masks help."]


def test_caps_and_weights_keep_big_sets_from_dominating() -> None:
    fever = [JudgePair(f"f{i}", "e", "entailed", f"fever:{i}", "fever", "train") for i in range(50)]
    small = [
        JudgePair(f"s{i}", "e", "neutral", f"scifact:{i}", "scifact", "train") for i in range(5)
    ]
    dev = [JudgePair("d", "e", "entailed", "scifact:99", "scifact", "dev")]
    mix = training_mix([*fever, *small, *dev], {"fever": 10})
    assert len([p for p in mix if p.dataset == "fever"]) == 10
    assert [p for p in mix if p.dataset == "scifact"] == small
    # the cap picks by content, not position
    again = training_mix([*reversed(fever), *small], {"fever": 10})
    assert {p.claim for p in again if p.dataset == "fever"} == {
        p.claim for p in mix if p.dataset == "fever"
    }
    weights = cell_weights(mix)
    assert abs(float(weights.mean()) - 1.0) < 1e-5
    assert weights[-1] > weights[0]  # a pair of the small cell weighs more
    assert curve_sample([*dev, *dev], per_set=1) == [0]


needs_data = pytest.mark.skipif(
    data_dir() is None, reason="../shared/data not found (SPANPROOF_DATA_DIR)"
)


@needs_data
def test_real_dev_splits_are_disjoint_from_training_by_claim_group() -> None:
    from build_pairs import healthver_pairs
    from judge_pairs import _from_pairs

    root = data_dir()
    assert root is not None
    pairs = [
        *_from_pairs(healthver_pairs(root), _words),
        *scifact_windows(root, scifact_corpus(root), _words, random.Random(0)),
        *official_pairs(root, "citation_integrity", _words),
        *official_pairs(root, "check_covid", _words),
    ]
    for dataset in ("healthver", "scifact", "citation_integrity", "check_covid"):
        mine = [p for p in pairs if p.dataset == dataset]
        train = {p.group for p in mine if p.split == "train"}
        dev = {p.group for p in mine if p.split == "dev"}
        assert train and dev and not train & dev, dataset
    for dataset in ("citation_integrity", "check_covid"):
        with (root / dataset / "dev.jsonl").open(encoding="utf-8") as fh:
            dev_claims = {strip_citations(json.loads(line)["hypothesis"]) for line in fh}
        trained = {p.claim for p in training_mix(pairs, {}) if p.dataset == dataset}
        dev_rows = [p for p in pairs if p.dataset == dataset and p.split == "dev"]
        assert dev_rows
        assert {p.claim for p in dev_rows} <= dev_claims
        # a dev claim is never trained on (the official splits share no claim text here)
        assert not trained & {p.claim for p in dev_rows}, dataset
