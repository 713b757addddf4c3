"""Claim scoring: candidates, pair scores, max with first-in-plan-order ties, bands.

Score model ``v1`` is the seed formula exactly (SPEC §4.4). ``v2`` (SPEC §4.5) adds the entity and
polarity gates as hard caps, a ``contradicted`` verdict, and reads month names as numbers only next
to a digit. Every threshold lives in :class:`ScoreModel`; changing one means a new model name.

Everything here is pure: cosines arrive as a matrix computed by the caller under one embedder.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from typing import Any

import numpy as np
import numpy.typing as npt

from spanproof.core.errors import ConfigurationError
from spanproof.core.models import (
    Claim,
    ClaimVerdict,
    Edit,
    EvidenceSpan,
    PairScore,
    SpanRef,
    Verdict,
)
from spanproof.text.citations import blank_citations
from spanproof.text.numerics import Rounding, numerics, roundings, rounds_to, with_magnitudes
from spanproof.text.sentences import Sentence, split_sentences
from spanproof.text.spelling import american, greek_named
from spanproof.text.stems import stems
from spanproof.text.tokens import lower_chars, nfc, segments, token_texts
from spanproof.verify.bindings import title_conflict
from spanproof.verify.combiner_weights import COMBINER_V5
from spanproof.verify.comparisons import (
    comparison_restated,
    comparison_reversed,
    restated_comparatives,
    without_comparatives,
)
from spanproof.verify.edits import (
    Abbreviation,
    Alignment,
    EditCheck,
    EvidenceText,
    Text,
    abbreviation_keys,
    align_edits,
    correlatives_joined,
    grafted_phrase,
    longest_copy,
    may_copy,
    prepare_evidence,
    prepare_text,
)
from spanproof.verify.figure_units import converted, pair_reversed, units_differ
from spanproof.verify.fusion import fuse
from spanproof.verify.gates import (
    CONTRAINDICATIONS,
    Cues,
    EntityView,
    association_reversed,
    association_stated_as_effect,
    clause_denials,
    confine_clause_negations,
    cues,
    cure_not_stated,
    direction_reversed_on_object,
    entity_gate_trips,
    entity_view,
    opposed_clauses,
    polarity_gate_trips,
    segment_words,
    states_no_finding,
    states_polarity,
)
from spanproof.verify.judging import Combiner
from spanproof.verify.lexical import PlanIdf, WeightedClaim, coverage, weigh_claim
from spanproof.verify.orders import bound_opposed, order_opposed

_MARKER = re.compile(r"^S(\d+)$")


#: Score model v23: the sentences of a span whose coverage of the claim is within this of the
#: best sentence's (v2's dominance margin), and at least :data:`CLOSE_COVERAGE_MIN`, are read
#: by the polarity gate when the best one states nothing of the claim's polarity.
CLOSE_COVERAGE_MARGIN = 0.2
CLOSE_COVERAGE_MIN = 0.4


@dataclass(frozen=True, slots=True)
class ScoreModel:
    """A named, versioned set of scoring rules and thresholds."""

    name: str
    supported_min: float
    beta: float = 0.65
    candidates_m: int = 8
    partial_min: float = 0.50
    gate_cap: float = 0.2
    entity_gate: bool = False
    polarity_gate: bool = False
    months_need_digits: bool = False
    number_parts: bool = False
    dominance_margin: float | None = None
    stem: bool = False
    sentence_windows: bool = False
    #: v3: claims whose score lies within this distance of ``supported_min`` (and that no gate
    #: capped) go to the entailment checker, whose label then decides (SPEC §4.5 escalation).
    escalation_band: float | None = None
    #: v4: the edit check (:mod:`spanproof.verify.edits`) caps a pair whose claim nearly copies
    #: the span with an unsupported edit, and reads its negation and direction word by word
    #: (a contradicting edit sets the polarity gate); two phrases whose cosine reaches
    #: ``edit_similarity_min`` mean the same.
    edit_check: bool = False
    edit_similarity_min: float = 1.0
    #: v6: how many separate changed runs a near copy may have (one under v4: one detail
    #: changed; two under v6: two details changed, :func:`spanproof.verify.edits.near_copy`).
    edit_changed_runs: int = 1
    #: v8: the share of a claim's words a near copy must copy in stretches of two or more words
    #: (:func:`spanproof.verify.edits.run_share`); 0 under v4 and v6.
    edit_run_share_min: float = 0.0
    #: v59: a claim may name what its window's opening "it" or "they" stands for when the
    #: evidence item before states it (:func:`antecedent_of`); False before v59.
    edit_named_pronouns: bool = False
    #: v63: a near copy may name what its window calls "the company", "the drug" (a description
    #: of :data:`spanproof.verify.edits.REFERRING_NOUNS`) when the evidence item opens with
    #: that name ("Acme expects …" against "Acme Corp reported … The company expects …");
    #: False before v63: the name was a substitution of different meaning.
    edit_named_descriptions: bool = False
    #: v64: the edit check reads a claim it does not read as written again with its "both"
    #: before a pair that "and" joins left out and its "as well as" read as "and"
    #: (:func:`spanproof.verify.edits.correlatives_joined`), so
    #: "lowered both systolic and diastolic" is read as v51 reads "lowered systolic and
    #: diastolic"; False before v64: "both" split the copied run and the check did not read it.
    edit_correlatives: bool = False
    #: v65: a deletion across a semicolon that drops the next clause's own words splices two
    #: statements, as one across a sentence boundary does
    #: (:func:`spanproof.verify.edits.clause_starts`): "approved for children" quoted from
    #: "approved for adults; its safety in children has not been established"; False before
    #: v65: a compression.
    edit_clause_splices: bool = False
    #: v65: the numeric gate also reads what a figure measures
    #: (:func:`spanproof.verify.figure_units.units_differ`): a claim that writes a figure the
    #: span states with another unit of the same kind ("30 minutes" against "30 seconds", "45
    #: euros" against "45 dollars", "per week" against "per month") is gated; False before v65.
    #: 2 (v69): and a percentage against money, electric units and a rate written as a span of
    #: time ("2%" against "£2", "65 Wh" against "65 W", "per week" against "in any 24-hour
    #: period"; ``units_differ(..., more=True)``). 3 (v70): and a figure the span states as the
    #: same quantity in another unit is not missing ("two days" for "48 hours":
    #: :func:`spanproof.verify.figure_units.converted`).
    figure_units: int = 0
    #: v65: a near copy may name what its window calls "it", "they" or "the (same) <noun>" when
    #: the sentence before, in the same evidence item, opens by naming it
    #: (:meth:`spanproof.verify.edits._Builder._names_the_referent`): "Quillstack's Team plan
    #: includes 100 GB" against "The Team plan of Quillstack costs … It includes 100 GB";
    #: False before v65 (v59 read only the evidence item before, v63 only the item's opening
    #: name for a listed description).
    edit_named_within: bool = False
    #: v65: a claim's opening frame of context ("At Pellham, …") whose words the evidence states
    #: is allowed before the words it copies, unless the window's words there name something
    #: else (:meth:`spanproof.verify.edits._Builder._stated_frame`); False before v65: the
    #: frame stood against the window's words before the copy, "different entity".
    edit_stated_frames: bool = False
    #: v66: the numeric gate also reads a pair of figures joined by a hyphen with its sides
    #: traded ("won 6-3" against "3-6": :func:`spanproof.verify.figure_units.pair_reversed`);
    #: False before v66.
    figure_pairs: bool = False
    #: v66: the entity gate also reads a title bound to a name ("finance director Marcus Hale":
    #: :func:`spanproof.verify.bindings.title_conflict`): a claim that gives a title to another
    #: name than the span does is gated; False before v66.
    title_bindings: bool = False
    #: v66: "non-" after a copula denies as "not" does ("tickets are non-refundable" is
    #: "tickets cannot be refunded" to the polarity gate); False before v66.
    predicative_non: bool = False
    #: v67: evidence items cut from one source are read as that source's text: the item before a
    #: span is the plan's item of the same source that starts last before it there, wherever
    #: the plan lists it (v59 read only the plan's previous item), v65's names for "it" and "the
    #: company" read that item's last sentence, and v65's opening frame may name what any item
    #: of the same source states (:func:`antecedent_of`, :func:`source_keys`); False before v67.
    source_context: bool = False
    #: v68: the polarity gate also reads a bound turned round
    #: (:func:`spanproof.verify.orders.bound_opposed`): a claim that bounds a figure from one
    #: side ("above £30,000", "up to and including 3.9") where the span bounds it from the other
    #: ("under £30,000", "3.9 or newer") trips it; False before v68.
    bound_sides: bool = False
    #: v68: the polarity gate also reads "before" and "after" traded
    #: (:func:`spanproof.verify.orders.order_opposed`): "collected after the first antibiotic
    #: dose" against "drawn before the first antibiotic dose" trips it; False before v68.
    order_words: bool = False
    #: v60: a near copy may also change one run of up to this many content words when it copies
    #: enough of the rest (:func:`spanproof.verify.edits.near_copy`): a phrase of several words
    #: put in for another's is read as a substitution; 0 before v60.
    edit_long_run: int = 0
    #: v61: a `supported` claim that is no near copy but copies a run of at least
    #: ``graft_copied_min`` content words from one sentence of its window and, after it, holds
    #: a run of at least ``graft_novel_min`` content words no evidence item states is
    #: `unsupported` (:func:`spanproof.verify.edits.grafted_phrase`); 0 (off) before v61; v62
    #: asks three new words, not four.
    graft_copied_min: int = 0
    graft_novel_min: int = 0
    #: v9: a number or a name the claim puts where the window holds another, and that the
    #: window states elsewhere, is a substitution, not a word moved
    #: (:func:`spanproof.verify.edits.align_edits`, ``mixups``); False before v9.
    edit_mixups: bool = False
    #: v10: a compression may not drop a figure (or name) across a clause mark and put a figure
    #: the window states *later* in its place (:func:`spanproof.verify.edits.align_edits`,
    #: ``moved_figures``); False before v10.
    edit_moved_figures: bool = False
    #: v11: a copied figure's unit is part of it: "5%" against "5 mmHg", "12 months" against
    #: "12 weeks" (:func:`spanproof.verify.edits.align_edits`, ``units``); False before v11.
    edit_units: bool = False
    #: v11: a claim's citation markers ("[12]", "(Smith et al., 2019)", "[S1]") are blanked
    #: before the gates and the edit check read its words (:func:`claim_words`); the embedding
    #: reads the claim as written. False before v11: "X [12]." has a number "12" no span states.
    citation_markers: bool = False
    #: v12: a compression may not state the finding more strongly than the window: drop a
    #: species qualifier, a hedge or an association (:func:`spanproof.verify.edits.align_edits`,
    #: ``overstatement``); False before v12.
    edit_overstatement: bool = False
    #: v13: a compression may not drop what inverts the words the claim keeps: "Lack of
    #: exercise increased falls" quoted as "Exercise increased falls", "neither A nor B" as "A
    #: and B" (:func:`spanproof.verify.edits.align_edits`, ``inversions``); False before v13.
    edit_inversions: bool = False
    #: v14: a claim may not quote, as a finding, what its window denies, doubts, supposes or
    #: asks: "Vitamin C prevents colds" against "There is no evidence that vitamin C prevents
    #: colds" (:func:`spanproof.verify.edits.align_edits`, ``frames``); False before v14.
    edit_frames: bool = False
    #: v15: a compression may not drop, nor a quote leave off at its edges, what restricts the
    #: finding: a co-intervention, a dose, a subgroup, a population ("Among smokers, X reduced
    #: Y" is not "X reduced Y") (:func:`spanproof.verify.edits.align_edits`,
    #: ``restrictions``); False before v15.
    edit_restrictions: bool = False
    #: v15: a noun written with its modifier the other way round ("COVID-19 patients" /
    #: "patients with COVID-19") or two conjuncts of two content words or more traded swap no
    #: roles (:func:`spanproof.verify.edits.align_edits`, ``reorders``); False before v15.
    edit_reorders: bool = False
    #: v16: what keeps a dropped qualifier is read where it was dropped: a species or in-vitro
    #: scope only by one of its kind, a hedge or an association only by one in the same stretch
    #: of the claim (:func:`spanproof.verify.edits.align_edits`, ``local_qualifiers``); False
    #: before v16.
    edit_local_qualifiers: bool = False
    #: v16: in reading whose noun a figure has, "over", "below" or "before" is none, and a noun
    #: right before a later figure is its own (:func:`spanproof.verify.edits.align_edits`,
    #: ``figure_nouns``); False before v16.
    edit_figure_nouns: bool = False
    #: v16: a compression may not drop what bounds a figure the claim keeps ("over 50%" →
    #: "50%", "<5%" → "5%"), nor change its side ("<5%" → ">5%")
    #: (:func:`spanproof.verify.edits.align_edits`, ``bounds``); False before v16.
    edit_bounds: bool = False
    #: v17: a figure written without its leading zero (".001"), with a middle dot for its
    #: decimal point ("2·9") or with its thousands grouped by spaces ("671 945") is one figure,
    #: the same as "0.001", "2.9" and "671,945", for the lexical score, the numeric gate and the
    #: edit check (:func:`spanproof.text.tokens.number_segments`); False before v17: ".001"
    #: read as "001" (1), so "P < .01" quoted "P < .001" and "P < 0.001" tripped the gate.
    number_formats: bool = False
    #: v17: a contraction and the words it stands for are the same words for the edit check
    #: ("doesn't" / "does not", "can't" / "cannot", "we're" / "we are";
    #: :func:`spanproof.verify.edits.align_edits`, ``contractions``); False before v17: the
    #: check read them as a phrase of another meaning or words not in the evidence.
    edit_contractions: bool = False
    #: v17: a British spelling is read as the American one and a Greek letter as its name
    #: ("haemorrhage" / "hemorrhage", "randomised" / "randomized", "IL-1β" / "IL-1beta") by the
    #: lexical score and the edit check (:func:`spanproof.text.spelling.american`); False before
    #: v17: the edit check read them as phrases of another meaning (cosine 0.61-0.85).
    spellings: bool = False
    #: v17: an abbreviation another span of the same source defines counts as defined in the
    #: span ("pyridostatin (PDS)" in one sentence, "PDS reduces …" in the next), and a claim
    #: that writes out an abbreviation the window states, or abbreviates a long form it states,
    #: states nothing new (:func:`spanproof.verify.edits.align_edits`, ``abbreviated``).
    edit_shared_abbreviations: bool = False
    #: v18: words written together, with a hyphen or apart are the same words for the edit
    #: check ("nonsmall" / "non-small", "overexpression" / "over-expression", "health care" /
    #: "healthcare"; :func:`spanproof.verify.edits.written_together`); False before v18: the
    #: check read "nonsmall" against "non-small" as an opposite term and "lifespan" against
    #: "life-span" as a phrase of another meaning (cosine 0.82).
    edit_compounds: bool = False
    #: v19: a figure keeps its minus sign ("−1.5", "(-0.3"), for the lexical score, the numeric
    #: gate and the edit check (:func:`spanproof.text.tokens.number_segments`, ``signs``), and
    #: the edit check reads the sign written after a name ("CD4+" against "CD4−", "Apoe−/−"
    #: against "Apoe+/+": :func:`spanproof.verify.edits.marker_of`); False before v19: word
    #: segmentation drops both, so "1.5" quoted "−1.5" and "CD4− T cells" quoted "CD4+ T
    #: cells" word for word.
    signs: bool = False
    #: v19: a number word joined to "fold" is its figure for the numeric gate ("twofold" is
    #: "2-fold"; :func:`spanproof.text.numerics.numerics`, ``fold_words``); False before v19:
    #: "2-fold" against "twofold" tripped the gate.
    fold_words: bool = False
    #: v47: a cardinal number word ("two" … "ninety", not "one") is its figure for the numeric
    #: gate (:func:`spanproof.text.numerics.numerics`, ``number_words``);
    #: False before v47: "Caffeine shortened reaction time four hours after the dose" against
    #: "One hour after the dose, caffeine shortened reaction time" was `supported`, "4 hours"
    #: against "four hours" a figure missing.
    number_words: bool = False
    #: v50: the edit check allows three rewordings a faithful answer makes: one plain word of
    #: change for another of the same direction ("reduced" / "lowered"), an approximation
    #: before a figure ("approximately 5 mmHg"), a finding stated as found ("was found to
    #: lower"), and an abbreviation of the words it stands against by their initials ("BP" /
    #: "blood pressure") (:func:`spanproof.verify.edits.align_edits`, ``paraphrases``); False
    #: before v50: each made a sentence copied from its source `unsupported`.
    edit_paraphrases: bool = False
    #: v51: a thing the claim joins by "and" or "or" to a copied one is stated in the evidence
    #: only where the copy's sentence states it, or another sentence states it without a
    #: negation or the opposite direction ("lowered systolic and diastolic blood pressure"
    #: against "… lowered systolic blood pressure … Diastolic blood pressure did not change" is
    #: `unsupported`; :func:`spanproof.verify.edits.align_edits`, ``conjuncts``); False before
    #: v51: any mention of it anywhere in the span allowed it.
    edit_conjuncts: bool = False
    #: v52: "contraindicated" and "contraindication" deny a use as "should not be used" does,
    #: for the polarity gate (:data:`~spanproof.verify.gates.CONTRAINDICATIONS`); False before
    #: v52: "Metformin is contraindicated when eGFR is below 30" against "Metformin should not
    #: be used in patients with an eGFR below 30" read as a negation dropped, `contradicted`.
    contraindications: bool = False
    #: v52: the edit check allows more of an answer's words: "versus", "vs", "relative to"
    #: and "compared to" for "compared with" (and the other way round), and "cut" as a plain
    #: word of change down (:func:`spanproof.verify.edits.align_edits`, ``answer_words``);
    #: False before v52.
    edit_answer_words: bool = False
    #: v53: a name that a letter tells from its kin ("vitamin C", "hepatitis B", "group A",
    #: "vitamin B12") is an entity of its own for the entity gate
    #: (:func:`~spanproof.verify.gates.designated`), so "Vitamin C reduces COVID-19 severity"
    #: against "Vitamin D supplementation reduced the severity of COVID-19" is gated; False
    #: before v53: the letter was no entity, and the claim was `supported`.
    designators: bool = False
    #: v54: a claim acronym that spells the initials of consecutive words of the span ("BP"
    #: against "blood pressure") is no entity the span lacks, for the entity gate
    #: (:func:`~spanproof.verify.gates.spelled_by_initials`); False before v54: with another
    #: acronym in the span ("HR", a "DEMO DATA" banner) the gate refused the claim.
    initials: bool = False
    #: v55: capitals that are a sentence's style name nothing for the entity gate
    #: (:func:`~spanproof.verify.gates.entities`, ``plain_case``): an English word written in
    #: capitals ("the short answer is YES", "CONCLUSIONS AND RELEVANCE"), a word of four
    #: letters or more of a sentence written in capitals ("VITAMIN D LEVELS MAY IMPACT COVID-19
    #: MORTALITY RATES"); False before v55: each was an acronym, and another acronym in the span
    #: refused the claim.
    plain_case: bool = False
    #: v55: a claim entity that the span writes joined to the figures after it ("COVID-19"
    #: against "COVID19", "SARS-CoV-2" against "SARSCoV2") is no entity the span lacks, for the
    #: entity gate (:func:`~spanproof.verify.gates.written_joined`); False before v55: the span's
    #: "COVID19" was another name, and any acronym of the span refused the claim.
    joined_names: bool = False
    #: v56: a figure the claim says is approximate ("about", "nearly", "an estimated" …) and
    #: writes rounded from one the span states ("nearly 70 drugs" against "69 drugs", "an
    #: estimated 40 percent" against "40.7%"), to its last digit and within 5 %, is no figure the
    #: span lacks, for the numeric gate and the edit check
    #: (:func:`~spanproof.text.numerics.rounds_to`); False before v56: it was missing. A figure
    #: written without such a word stays exact ("122,000" against "122 300" is missing).
    rounded_figures: bool = False
    #: v55: an abbreviation the claim defines in place whose words the span writes out
    #: ("break-induced DNA replication (BIR)" against "break-induced replication") is no entity
    #: the span lacks, for the entity gate (:func:`~spanproof.verify.gates.alias_spelled`);
    #: False before v55: v54's ``initials`` read a claim's acronym, not one it defines.
    alias_initials: bool = False
    #: v19: with ``edit_bounds``, a bound written after its figure is its bound for the edit
    #: check ("65 years or older" is "≥65 years"; :func:`spanproof.verify.edits.align_edits`,
    #: ``postposed``); False before v19: "or older" was words not in the evidence, "≥65" a
    #: bound dropped.
    edit_postposed_bounds: bool = False
    #: v20: a word's other forms are the word: for the entity gate and the edit check a
    #: possessive or a plural abbreviation is its entity ("HSPC" against "HSPCs", "Hodgkin"
    #: against "Hodgkin's": :func:`~spanproof.verify.gates.base_form`), and for the edit check
    #: an irregular plural its singular ("mice" / "mouse": :func:`~spanproof.text.stems.singular`);
    #: for the polarity gate a direction word's forms are one word ("inhibiting" against
    #: "inhibition": :func:`~spanproof.verify.gates.direction_word`) and a noun of what acts
    #: ("inhibitor", "promoter": :func:`~spanproof.verify.gates.is_agent_noun`) states no
    #: direction. False before v20: the entity gate and the edit check read "MICALs" as another
    #: entity put for "MICAL", the edit check "mouse" against "mice" as a phrase of another
    #: meaning, the polarity gate "Inhibiting X increases survival" against "Inhibition of X with
    #: an inhibitor improved survival" as a direction flip.
    word_forms: bool = False
    #: v21: a number written after a name's letters with a hyphen or a space ("A-769662",
    #: "BRCA 1", "IL-6") is part of that name when the span writes the name joined ("A769662",
    #: "BRCA1", "IL6"): the numeric gate does not read it as a figure the span lacks
    #: (:func:`joined_forms`). False before v21: "C2 acts with A-769662" against "… A769662"
    #: tripped the gate.
    joined_identifiers: bool = False
    #: v21: when the claim's closest span is a near copy whose edit check names a detail the
    #: claim put in place of the span's (another entity, number, unit, sign or bound, an
    #: opposite term, roles swapped: :func:`names_a_change`), no other span rescues the claim,
    #: however close it comes (v2's dominance rule lets a span within ``dominance_margin`` of
    #: it do so). A phrase of low similarity, words the span does not state or a qualifier left
    #: out, another span may still support. False before v21: "HuR is a hypervariable PRR …"
    #: against "AgDscam is a hypervariable PRR …" was `supported` by a neighbouring sentence
    #: that mentions neither name.
    copy_dominates: bool = False
    #: v22: the polarity gate reads longer lists of direction and negation words
    #: (:func:`spanproof.verify.gates.cues`, ``more``): "impedes" against "promoting",
    #: "deactivates" against "activating", "scarce" against "expanded", "incapable of" against
    #: "elicited". False before v22: those words carried no direction or negation.
    more_cues: bool = False
    #: v63: the polarity gate also reads the words of change of business and news text
    #: ("climbed", "slipped", "halved") and "up" or "down" before a figure ("revenue … up 12%")
    #: (:func:`spanproof.verify.gates.cues`, ``market``). False before v63: "Revenue fell"
    #: against "revenue of $4.2 billion, up 12%" met no direction in the span. 2 (v68): and the
    #: plain words of change those lists lack ("grew", "cutting", "eased", "lighter":
    #: :data:`spanproof.verify.gates.PLAIN_DIRECTIONS`).
    market_cues: int = 0
    #: v23: the polarity gate reads more than the span sentence that covers the claim best.
    #: When that sentence states none of the claim's direction or negation and trips nothing,
    #: the span's other sentences that cover the claim nearly as well
    #: (:data:`CLOSE_COVERAGE_MARGIN`, at least :data:`CLOSE_COVERAGE_MIN`) are read: if none
    #: of them states the claim's direction and one states the opposite, the gate trips on it
    #: (:func:`_aligned_cues`). False before v23: "CDCA treatment decreases BAT activity"
    #: against an abstract whose aim sentence ("we examined the effects of CDCA on BAT
    #: activity") covers it best and whose result ("CDCA … resulted in increased BAT
    #: activity") covers it nearly as well was `supported`.
    close_sentences: bool = False
    #: v24: when a span close to the claim (fused within ``dominance_margin`` of the closest,
    #: and at least ``supported_min``) states its opposite and trips the polarity gate alone,
    #: a span whose sentence states none of the claim's direction or negation cannot support
    #: it (:func:`_eligible`): it shares the claim's words, not its finding. False before v24:
    #: asked of an abstract's sentences, "Decreased diastolic blood pressure is associated with
    #: abdominal aortic aneurysm" was `supported` by a sentence that names the two and states
    #: no direction, beside one that states an inverse association.
    close_spans: bool = False
    #: v25: for the entity gate a name the span writes within a longer name, or holding a
    #: shorter one, with the same figures, is the claim's name written another way
    #: (:func:`~spanproof.verify.gates.written_within`): "RAS" against "KRAS", "VSMCs" against
    #: "SMCs", "AMP-activated" against "AMPK". False before v25: each was a missing entity, and
    #: any same-shaped name of the span tripped the gate. Measured on the training claims of
    #: the four scientific sets, the gate capped true claims at least as often as false ones.
    entity_variants: bool = False
    #: v27: the polarity gate counts only negations that deny the statement
    #: (:func:`~spanproof.verify.gates.names_no_denial`): "heart failure", "with or without
    #: steroids", "compared with no treatment", "than never smokers", "whether or not" and
    #: "not only" deny nothing, "lacking" denies when predicated ("evidence was lacking", not
    #: "mice lacking p53"), and adjectives that deny what they qualify are negations
    #: ("inaccurate", "unreliable", "insufficient", "unlikely":
    #: :data:`~spanproof.verify.gates.SCOPED_NEGATION_WORDS`). False before v27: each such
    #: word flipped the sentence's negation parity, or none did, so "Ibuprofen use was not
    #: associated with worse outcomes, compared with paracetamol or no antipyretic" read as
    #: affirmed, "β-blockers improve heart failure outcomes" as negated, and "ABPM is
    #: inaccurate" as agreeing with "ABPM is more accurate".
    scoped_negations: bool = False
    #: v28: the polarity gate reads a sentence whose clauses state opposite directions clause
    #: by clause (:func:`~spanproof.verify.gates.opposed_clauses`): "Individuals with blood
    #: type O are more susceptible" against "blood group A was associated with a higher risk
    #: …, whereas blood group O was associated with a lower risk …" is read against the O
    #: clause. False before v28: the sentence held both directions, so neither was unshared and
    #: the gate could not trip.
    opposed_clauses: bool = False
    #: v30: when the sentence the polarity gate reads states nothing of the claim's polarity and
    #: trips nothing, the window the verdict quotes (the span sentence closest to the claim in
    #: meaning) is read as well, and the gate trips when that window states the opposite and not
    #: the claim's polarity: "hydroxychloroquine is associated with decreased overall
    #: mortality" against a passage whose first sentence covers the claim's words as well and
    #: states no direction, and whose quoted sentence reads "An association of increased overall
    #: mortality was identified …". False before v30: the gate read the first of the tied
    #: sentences, and the verdict quoted the reversing one as support.
    window_polarity: bool = False
    #: v23's floor on the coverage of a sentence the polarity gate reads besides the best one
    #: (:data:`CLOSE_COVERAGE_MIN`, 0.4); v29 lowers it to 0.3, the lowest of 0.4, 0.3, 0.2 and 0
    #: that lost no training split: a result sentence that reverses the claim in other words
    #: ("An association of increased overall mortality was identified …") shares fewer of them.
    close_coverage_min: float = CLOSE_COVERAGE_MIN
    #: v31: a near copy whose moved words come from another clause of the window than the rest
    #: of what it copies, where the window's clauses state opposite directions, changed the
    #: finding (:meth:`~spanproof.verify.edits._Builder._from_an_opposed_clause`):
    #: "Sitagliptin increased insulin sensitivity" against "metformin increased insulin
    #: sensitivity; sitagliptin decreased insulin sensitivity". False before v31: the claim read
    #: as the window's words reordered, and the edit check, which replaces the polarity gate for
    #: a near copy, allowed it.
    edit_clause_mixups: bool = False
    #: v32: the polarity gate also trips on a span sentence that states one of the claim's
    #: comparisons with its sides traded
    #: (:func:`~spanproof.verify.comparisons.comparison_reversed`):
    #: "Homemade cloth masks are more effective than proper surgical ones" against "… the
    #: surgical mask was 3 times more effective … than the homemade mask". False before v32:
    #: both say "more", so neither states a direction the other lacks. A near copy is the edit
    #: check's (its role swap).
    comparisons: bool = False
    #: v33: the edit check reads what a deletion carries on to the words it joins
    #: (:func:`spanproof.verify.edits.align_edits`, ``carried_details``): a bound written
    #: after a later figure ("15 years and older" from "15 years and 95 years and older"), a
    #: comparison left with one side ("not different in reducing 28-day mortality" from "…
    #: 28-day mortality versus 14-day mortality"), a supposed clause stated as a finding
    #: ("… was seen if X" → "X"), a figure given another noun past a repeated frame or a
    #: bracketed figure of the same value. False before v33: each was a compression.
    edit_carried_details: bool = False
    #: v34: a figure the claim writes after a name's letters with a hyphen ("COVID-19",
    #: "SARS-CoV-2", "IL-6") is part of that name: the numeric gate reads it as missing only
    #: when the span writes the same name, or a longer form of it with a figure of which the
    #: claim's name is an initialism ("IL-8" against "interleukin-6") (:func:`name_figures`).
    #: False before v34: "Smokers were less likely to be admitted for COVID-19" against "…
    #: admitted with SARS-CoV-2 infection" tripped the gate on "19".
    name_figures: bool = False
    #: v35: a deletion may not drop what says a finding holds only in part or only for part of
    #: what it speaks of (:func:`spanproof.verify.edits.align_edits`, ``extent``): "mediated
    #: partly by fibroblasts" → "mediated by fibroblasts", "a marginally significant reduction"
    #: → "a significant reduction", "in some patients" → "in patients". False before v35: each
    #: was a compression.
    edit_extent: bool = False
    #: v36: a claim may not state as a finding what the window only supposes, expects, aims at
    #: or doubts (:func:`spanproof.verify.edits.align_edits`, ``suppositions``): "It has been
    #: proposed that X" → "X", "X is thought to play a role" → "X plays a role", "X aims to
    #: reduce" → "X reduces", "X is unlikely to prevent" → "X prevents"; nor drop "potential",
    #: "would" or "should" as it may not drop "may". False before v36: each was a compression
    #: (v14 read "hypothesized", "believed" and "assumed" already).
    edit_suppositions: bool = False
    #: v37: a claim may not leave off a clause saying its finding was not significant when an
    #: aside stands before it, when the quote's own clause concedes ("Although | X, the
    #: difference was not significant") or when it refers to the finding ("; this difference
    #: was not significant"), nor call significant what the window says was not ("significantly
    #: lower" against "lower, but not statistically significant": ``contradicted``)
    #: (:func:`spanproof.verify.edits.align_edits`, ``significance``).
    edit_caveats: bool = False
    #: v42: the edit check reads a deletion whose negation runs on into the words the claim
    #: keeps as a negation dropped, even when the deletion opens after a comma ("…, compared with
    #: nonuse, was not associated with | an increased risk" → "increase the risk")
    #: (:func:`spanproof.verify.edits.align_edits`, ``negation_scope``).
    edit_negation_scope: bool = False
    #: v44: a population the claim drops is kept only by a claim word it does not copy from
    #: elsewhere in the window ("Men and women presented equally …; however, jaw pain was more
    #: frequent | among women" → "… more frequent" drops it), and a population phrase dropped
    #: before a clause mark with none before it is no clause dropped whole ("… appear common |
    #: in children, but …") (:func:`spanproof.verify.edits.align_edits`, ``local_population``).
    edit_local_population: bool = False
    #: v38: a claim judged `supported` on a window it does not nearly copy, that states an
    #: effect ("increases the risk") where the window states only an association ("was
    #: associated with"), is `unsupported`, recorded as the edit ``unsupported: association
    #: stated as an effect`` (:func:`spanproof.verify.gates.association_stated_as_effect`; v12
    #: reads the same in a near copy).
    association_effects: bool = False
    #: v39: a claim judged `supported` on a window it does not nearly copy, that states a
    #: direction of a thing ("increases cardiovascular mortality") whose window states the
    #: opposite direction of the same thing ("reduce cardiovascular morbidity") and never the
    #: claim's, is `contradicted`, recorded as the edit ``contradicted: direction flip``
    #: (:func:`spanproof.verify.gates.direction_reversed_on_object`; the polarity gate counts
    #: direction words as a bag, so a window saying "reduce … and increase …" passed).
    direction_objects: bool = False
    #: v40: a claim judged `supported` that states a cure ("Vitamin C cures COVID-19") on a
    #: window that writes no cure word is `unsupported`, recorded as the insertion
    #: ``unsupported: cure not stated`` (:func:`spanproof.verify.gates.cure_not_stated`).
    cure_claims: bool = False
    #: v41: a comparison the span states with its sides traded and its direction turned round
    #: ("8 hours … lower cortisol than under 6 hours" against "under 6 hours … higher cortisol
    #: than 8 hours") is the claim restated, so the polarity gate does not read its
    #: comparatives as a reversal (:func:`spanproof.verify.comparisons.comparison_restated`);
    #: any other cue still trips it. Comparisons' sides are told apart by their figures too,
    #: so v32's sides traded also read "8 hours … higher than under 6 hours" against "under 6
    #: hours … higher than 8 hours".
    comparison_restated: bool = False
    #: v45: a comparison's sides are told apart by their figures alone when each side of both
    #: comparisons holds one (:func:`spanproof.verify.comparisons.comparison_restated`,
    #: ``figure_sides``): "Participants who slept 8 hours had lower cortisol than those who
    #: slept fewer than 6 hours" restates "Participants who slept fewer than 6 hours had higher
    #: cortisol than those who slept 8 hours", which v41 read as a reversal because both left
    #: sides say "participants" (the right sides say "those").
    comparison_figure_sides: bool = False
    #: v43 (strict): `supported` only for a claim whose window it nearly copies and in which the
    #: edit check, reading word by word, finds nothing changed but what a faithful copy may
    #: change; every other claim the scores would call `supported` is `partial` — "the evidence
    #: may support this; a person should look": closeness of meaning and words, which on real
    #: claim sets is right 61–96 % of the time, is not taken as support.
    supported_needs_copy: bool = False
    #: v5: every claim is read by the judge against its evidence window, and the combiner's
    #: probability decides the verdict (:mod:`spanproof.verify.judging`).
    combiner: Combiner | None = None
    #: v57: the judge's veto. Every claim the rules call ``supported`` is read by the judge
    #: against its evidence window (as v5 chooses it), but for a faithful near copy (the edit
    #: check read it word by word and found nothing changed but what a faithful copy may
    #: change: :func:`faithful_copy`); one whose probability of being entailed is below this
    #: floor is ``partial``: the rules found the evidence close and nothing changed or
    #: reversed, the judge that reads both together doubts it, so a person should look
    #: (:func:`spanproof.services.verification.veto_all`). None before v57.
    judge_veto: float | None = None
    #: v58: the judge's veto on ``contradicted`` too. A claim the rules call ``contradicted``
    #: on the polarity gate's reading (not on the edit check's word-by-word one) is read by the
    #: judge as v57 reads a ``supported`` one; when the judge reads it as entailed with a
    #: probability at least this floor it is ``partial``: a sentence that seems to reverse the
    #: claim, which the judge reads as stating it. None before v58.
    contradiction_veto: float | None = None
    #: v7: a window that states no finding (an aim, a design, a method heading, an open
    #: question: :func:`~spanproof.verify.gates.states_no_finding`) is capped like a gate, and
    #: the polarity gate reads the sentences that state one, unless the claim states none.
    finding_gate: bool = False
    #: v49: a window each of whose sentences states only a procedure ("We placed temperature
    #: loggers in 48 city blocks"; :func:`~spanproof.verify.gates.states_a_procedure`) states
    #: no finding, and is read as ``finding_gate`` reads an aim (without ``finding_gate``, an
    #: aim is not); False before v49: such a sentence, sharing the claim's topic words,
    #: supported "Trees cooled the city".
    procedure_statements: bool = False
    #: v71: a claim the rules and the judge call ``supported`` that gives a span's act to
    #: someone else — its subject and object traded, another name as the subject or object of
    #: the same verb on the same thing, "from X" for "to X", another name as the argument of
    #: the same preposition — is ``unsupported``, recorded as the substitution ``unsupported:
    #: roles swapped`` (:func:`spanproof.verify.roles.role_conflict`, over the bundled parser:
    #: :class:`spanproof.core.parser.ReadingChecker`). False before v71.
    role_bindings: bool = False
    #: v72: evidence is read without its invisible format characters (a zero-width space, a
    #: soft hyphen, a word joiner …: :func:`spanproof.text.visible.visible_text`), so a word a
    #: web page or a PDF split with one ("hospital\u200bisation") is the claim's word; the
    #: offsets a verdict records still point into the evidence as given. False before v72:
    #: such a word was two words, and a claim that copied it was ``unsupported``.
    visible_evidence: bool = False
    #: v73: a claim still ``supported`` after the roles are read that joins one side of a
    #: contrast in its span to the other side's thing ("Two-factor authentication is optional
    #: for organisation administrators" against "optional for personal accounts but mandatory
    #: for all organisation administrators") is ``unsupported``, recorded as the substitution
    #: ``unsupported: contrast spliced`` (:func:`spanproof.verify.splices.contrast_splice`,
    #: over the bundled parser). False before v73.
    contrast_splices: bool = False
    #: v74: a claim ``supported`` on its window (a near copy too), that states an
    #: association with one sign ("Higher levels of X are negatively correlated with
    #: cardiovascular events") where the window states it with the other ("X levels predicted
    #: increased risks for cardiovascular disease"), is ``contradicted``, recorded as the
    #: substitution ``contradicted: association reversed``
    #: (:func:`spanproof.verify.gates.association_reversed`). False before v74: neither text
    #: has a word of change the other opposes, so the polarity gate passed them.
    association_signs: bool = False
    #: v75: the edit check reads one word of association put for another in a copy ("linked
    #: to" for "associated with", "correlated with a higher" for "associated with an
    #: increased") as ``allowed: same association`` when both state the same sign or neither
    #: does, and a sign adverb or word of change put into a copy's association
    #: ("positively associated with the risk") as ``allowed: same sign`` when every
    #: association the window states with that thing has that sign
    #: (:func:`spanproof.verify.edits.align_edits`, ``associations``). False before v75: each
    #: was ``unsupported`` (a different meaning, a word not in the evidence, or "tied to" an
    #: association stated as an effect).
    edit_associations: bool = False
    #: Score model v76: negations read against the other side
    #: (:func:`~spanproof.verify.gates.parity_against`): one in a restrictive relative clause
    #: ("cells that do not express it") names a group and counts only where the other side
    #: holds a word it denies; a privative word ("asymptomatic") counts as a negation where the
    #: other side denies a word of its stem ("did not exhibit symptoms").
    paired_negations: bool = False
    #: Score model v77: a negation in one of a sentence's contrasted clauses is kept to that
    #: clause (:func:`~spanproof.verify.gates.clause_denials`): "Empagliflozin lowered the
    #: rate of hospitalization for heart failure, but did not change all-cause mortality"
    #: denies the mortality finding only, and counts against a claim only where the claim
    #: names that clause (:meth:`~spanproof.verify.gates.ClauseDenial.named_by`: a word it
    #: denies, such as "all-cause mortality", or its own words) or joins a contrast of its
    #: own. False before v77: the
    #: sentence's negations were counted as one parity, so a claim of the first finding was
    #: ``contradicted`` and "had no effect on heart failure hospitalizations" matched it.
    clause_negations: bool = False
    #: Score model v78: a comparison may name its other side with a phrase instead of "than"
    #: ("higher mortality compared with controls", "relative to", "versus"), or open the
    #: clause before the comparative's with one ("Compared with children, adults over 65
    #: were more susceptible to infection") (:data:`~spanproof.verify.comparisons.COMPARED`,
    #: ``phrases``): the comparison gate reads its sides traded ("Children were more
    #: susceptible … than adults over 65" refused), the polarity gate a restatement with
    #: the direction turned round ("Children were less susceptible …" no longer
    #: ``contradicted``), and the edit check lets a claim move the phrase's side to "than"
    #: (``allowed: comparison restated``, not ``roles swapped``). False before v78: such a
    #: sentence held no comparison.
    comparison_phrases: bool = False
    #: v79: what reads a copy is not overruled by the finding gate: a span the claim nearly
    #: copies (the edit check's) or copies a run of ``graft_copied_min`` words from
    #: (:func:`may_copy_window`, the graft reading's) is not capped, and a claim that denies a
    #: procedure ("Patients were not randomized …", :func:`claim_states_no_finding`) states no
    #: finding, so that its copy is read word by word (``contradicted: negation added``). False
    #: before v79: a procedure sentence capped its own copies, and a negation made any claim a
    #: finding.
    procedure_copies: bool = False

    @property
    def reads_findings(self) -> bool:
        """Whether a window that states no finding is capped (v7's aims, v49's procedures)."""
        return self.finding_gate or self.procedure_statements

    @property
    def denials(self) -> frozenset[str]:
        """The words the polarity gate reads as denying beyond the negations (v52)."""
        words = CONTRAINDICATIONS if self.contraindications else frozenset()
        return words | {"non"} if self.predicative_non else words

    @property
    def reads_judge(self) -> bool:
        """Whether this model's checker is the judge (v5's combiner, v57's veto), not v3's
        cross-encoder."""
        return self.combiner is not None or self.judge_veto is not None

    @property
    def uses_checker(self) -> bool:
        """Whether verdicts under this model need an entailment checker (v3, v5 and v57)."""
        return self.escalation_band is not None or self.reads_judge

    def with_supported_min(self, value: float) -> ScoreModel:
        """A copy with another ``supported_min`` (for calibration sweeps only)."""
        return replace(self, supported_min=value)


# supported_min values are calibrated on the development data by scripts/calibrate.py and
# recorded with their measurements in docs/quality.md (`make calibrate`).
V1 = ScoreModel(name="v1", supported_min=0.50)
V2 = ScoreModel(
    name="v2",
    supported_min=0.50,
    entity_gate=True,
    polarity_gate=True,
    months_need_digits=True,
    number_parts=True,
    dominance_margin=0.2,
    stem=True,
    sentence_windows=True,
)
#: v2 plus bounded escalation to the trained cross-encoder (issue 7; docs/checker.md).
V3 = replace(V2, name="v3", escalation_band=0.15)
#: v2 plus the edit check (issue 13); the threshold is calibrated by scripts/calibrate_edits.py.
V4 = replace(V2, name="v4", edit_check=True, edit_similarity_min=0.86)
#: The judge in the verdict (issue 14): bands on the combiner's calibrated probability.
#: v4 (v2 and the edit check) with every claim read by the judge; the edit check's unsupported
#: and contradicting edits are inputs of the combiner and cap the verdict like the gates.
V5 = replace(
    V4,
    name="v5",
    combiner=COMBINER_V5,
)
#: v4 whose edit check also reads claims that change two separate details (each a run of at
#: most two content words) while copying at least half of the words: two substitutions, or a
#: substitution and a scope change, escape v4's one-run rule.
V6 = replace(V4, name="v6", edit_changed_runs=2)
#: v2 whose windows must state a finding: an aim or method sentence ("OBJECTIVE To evaluate X",
#: "We investigated whether X") shares a claim's words without supporting it.
V7 = replace(V2, name="v7", finding_gate=True)
#: v6 whose edit check applies only to a claim that copies at least 65 % of its words in
#: stretches of two or more (:func:`spanproof.verify.edits.run_share`): an expert rewording that
#: shares a few scattered words with a long sentence is left to v2, a copy with details changed
#: is still checked. The floor is the largest at which no substitution kind of the realistic
#: generator's calibration half loses a case v6 catches (scripts/probe_run_share.py).
V8 = replace(V6, name="v8", edit_run_share_min=0.65)
V9 = replace(V8, name="v9", edit_mixups=True)
#: v9 whose compressions keep their figures in place: a shortened copy that drops a number
#: across a clause mark and aligns its own number to a later mention ("fell by 5 mmHg after 8
#: weeks" against "... after 12 weeks; 8 participants dropped out") changed the number.
V10 = replace(V9, name="v10", edit_moved_figures=True)
#: v10 whose copied figures keep their units ("fell by 5%" against "fell by 5 mmHg", "30 mg"
#: against "30%", "12 participants" against "12 weeks" changed the figure) and whose claims'
#: citation markers are no words of the claim ("… fibrillation [12]." states no figure 12).
V11 = replace(V10, name="v11", edit_units=True, citation_markers=True)
#: v11 whose compressions keep the finding's strength: "reduced tumour growth" against "…
#: in mice", "lowered the risk" against "were associated with a lower risk", "is" against
#: "may be" state more than the window does.
V12 = replace(V11, name="v12", edit_overstatement=True)
#: v12 whose compressions keep what inverts the finding: "Exercise increased falls" against
#: "Lack of exercise increased falls", "mTOR prevented" against "Inhibition of mTOR prevented".
V13 = replace(V12, name="v13", edit_inversions=True)
#: v13 whose claims may not quote what the window does not assert: "Vitamin C prevents colds"
#: against "There is no evidence that vitamin C prevents colds", "… unclear whether …".
V14 = replace(V13, name="v14", edit_frames=True)
#: v14 whose compressions keep what restricts the finding: "Metformin reduced HbA1c" against
#: "Metformin in combination with insulin reduced HbA1c", "The intervention reduced relapse"
#: against "Among smokers, the intervention reduced relapse"; and whose edit check reads
#: "patients with COVID-19" against "COVID-19 patients" as words reordered, not roles swapped.
V15 = replace(V14, name="v15", edit_restrictions=True, edit_reorders=True)
#: v15 whose kept qualifiers must cover what was dropped ("in vitro" kept does not keep a
#: dropped "in mice", nor a "may" in one clause the "may" dropped from another ("may be
#: useful …, but is dangerous" against "… but could be dangerous"), and which reads a figure
#: given another's noun past "over" or "below" ("a pH of 2.0" against "a pH of 6.1 even in
#: gastric juice at a pH below 2.0") and a figure's bound dropped ("over 50%" → "50%").
V16 = replace(V15, name="v16", edit_local_qualifiers=True, edit_figure_nouns=True, edit_bounds=True)
#: v16 that reads a figure in the other common formats as the figure it is: "P < .001" is
#: "P < 0.001" (and not "P < .01"), "2·9 years" is "2.9 years", "671 945 women" is "671,945
#: women" (and not "945 women"); and whose edit check reads a contraction as the words it stands
#: for ("doesn't" / "does not"), a British spelling as the American one ("haemorrhage" /
#: "hemorrhage") and an abbreviation one span of a source defines as defined in all of them.
V17 = replace(
    V16,
    name="v17",
    number_formats=True,
    edit_contractions=True,
    spellings=True,
    edit_shared_abbreviations=True,
)
#: v17 whose edit check reads a word written together, with a hyphen or apart as the same word:
#: "nonsmall cell lung cancer" is "non-small cell lung cancer", "postoperative" is
#: "post-operative", "health care" is "healthcare" ("CD4+" is still no "CD4-", nor "5-10" "510").
V18 = replace(V17, name="v18", edit_compounds=True)
#: v18 that reads a sign: a figure's minus ("1.5" is not "−1.5") and the sign written after a
#: name ("CD4− T cells" is not "CD4+ T cells", "Apoe+/+ mice" not "Apoe−/− mice"); a number
#: word joined to "fold" as its figure ("twofold" is "2-fold"), and a bound written after its
#: figure ("65 years or older" is "≥65 years").
V19 = replace(V18, name="v19", signs=True, fold_words=True, edit_postposed_bounds=True)
#: v19 that reads a word's forms as the word: "HSPC mobilization" against "… HSPCs", "Hodgkin
#: lymphoma" against "Hodgkin's lymphoma" name no other entity, and "Inhibiting HDAC6 increases
#: survival" against "Inhibition of HDAC6 with an inhibitor improved the survival" flips no
#: direction.
V20 = replace(V19, name="v20", word_forms=True)
#: v20 that reads "A-769662" against "A769662" as one name, and whose failed near copy of the
#: closest span no other span rescues.
V21 = replace(V20, name="v21", joined_identifiers=True, copy_dominates=True)
#: v21 whose polarity gate reads more direction and negation words ("impedes", "hinders",
#: "deactivates", "scarce", "expanded", "incapable", "ineffective").
V22 = replace(V21, name="v22", more_cues=True)
#: v22 whose polarity gate also reads the sentences that cover the claim nearly as well.
V23 = replace(V22, name="v23", close_sentences=True)
#: v23 in which a span that states nothing of the claim's polarity cannot rescue it from a
#: close span that states the opposite.
V24 = replace(V23, name="v24", close_spans=True)
#: v23 whose entity gate reads a name written within a longer one as that name.
V25 = replace(V23, name="v25", entity_variants=True)
#: v25 in which a span that states nothing of the claim's polarity cannot rescue it from a
#: close span that states the opposite (v24's rule).
V26 = replace(V25, name="v26", close_spans=True)
#: v25 whose polarity gate counts only the negations that deny the statement.
V27 = replace(V25, name="v27", scoped_negations=True)
#: v27 whose polarity gate reads a sentence's opposed clauses one by one.
V28 = replace(V27, name="v28", opposed_clauses=True)
#: v28 whose polarity gate reads sentences that cover a claim less (floor 0.3, not 0.4).
V29 = replace(V28, name="v29", close_coverage_min=0.3)
#: v29 whose polarity gate also reads the window the verdict quotes.
V30 = replace(V29, name="v30", window_polarity=True)
#: v29 whose edit check does not read words taken from an opposed clause as words reordered.
V31 = replace(V29, name="v31", edit_clause_mixups=True)
#: v31 whose polarity gate also reads a comparison with its sides traded.
V32 = replace(V31, name="v32", comparisons=True)
#: v32 whose edit check reads what a deletion carries on to the words it joins.
V33 = replace(V32, name="v33", edit_carried_details=True)
#: v33 whose numeric gate reads a figure written as part of a hyphenated name as that name's.
V34 = replace(V33, name="v34", name_figures=True)
#: v34 whose edit check reads a dropped word of extent ("partly", "some") as an overstatement.
V35 = replace(V34, name="v35", edit_extent=True)
#: v35 whose edit check reads what the window only supposes, aims at or doubts ("It has been
#: proposed that", "is thought to", "aims to", "is unlikely to") as not asserted, and
#: "potential", "would" and "should" as hedges.
V36 = replace(V35, name="v36", edit_suppositions=True)
#: v36 that reads a caveat of non-significance past an aside, after a conceding clause and when
#: it refers to the finding, and refuses a claim that calls significant what was not.
V37 = replace(V36, name="v37", edit_caveats=True)
#: v37 that reads an effect claimed on a window stating only an association, near copy or not.
V38 = replace(V37, name="v38", association_effects=True)
#: v38 that reads each direction word with the thing it acts on: a window stating the opposite
#: direction of the claim's thing, and never the claim's, contradicts it.
V39 = replace(V38, name="v39", direction_objects=True)
#: v39 that refuses a cure claimed on a window that states none.
V40 = replace(V39, name="v40", cure_claims=True)
#: v40 whose polarity gate reads a comparison restated with its sides traded and its direction
#: turned round as the same statement, not a reversal.
V41 = replace(V40, name="v41", comparison_restated=True)
#: v41 whose edit check reads a negation deleted from the finding the claim keeps, even past a
#: comma, as a negation dropped.
V42 = replace(V41, name="v42", edit_negation_scope=True)
#: v42, strict: `supported` only for a faithful near copy the edit check read; the rest of what
#: v42 supports is `partial`.
V43 = replace(V42, name="v43", supported_needs_copy=True)
#: v42 whose edit check reads a dropped population where it was dropped: a copy of another
#: mention of it does not keep it.
V44 = replace(V42, name="v44", edit_local_population=True)
#: v44 whose comparisons tell their sides apart by their figures alone where each side has one.
V45 = replace(V44, name="v45", comparison_figure_sides=True)
#: v45, strict: `supported` only for a faithful near copy the edit check read; the rest of what
#: v45 supports is `partial` (v43 on v45's edit check and comparisons).
V46 = replace(V45, name="v46", supported_needs_copy=True)
#: v45 that reads a cardinal number word ("four hours") as its figure.
V47 = replace(V45, name="v47", number_words=True)
#: v47, strict (v46 on v47's figures).
V48 = replace(V47, name="v48", supported_needs_copy=True)
#: v47 that reads a window stating only a procedure ("We placed temperature loggers in 48 city
#: blocks") as stating no finding, capped like a gate (v7's aims are still not read).
V49 = replace(V47, name="v49", procedure_statements=True)
#: v47 whose edit check allows a faithful answer's rewordings: a plain word of change for
#: another of its direction, an approximation before a figure, a finding stated as found, an
#: abbreviation by initials.
V50 = replace(V47, name="v50", edit_paraphrases=True)
#: v50 whose edit check refuses a thing joined to a copied one ("systolic and diastolic") that
#: the evidence states otherwise elsewhere ("Diastolic blood pressure did not change").
V51 = replace(V50, name="v51", edit_conjuncts=True)
#: v51 that reads more of an answer's words: "contraindicated" denies a use as "should not be
#: used" does, "versus" is "compared with", "cut" a plain word of change down.
V52 = replace(V51, name="v52", contraindications=True, edit_answer_words=True)
#: v52 whose entity gate reads a name that a letter tells from its kin: "vitamin C" against
#: "vitamin D", "hepatitis B" against "hepatitis C".
V53 = replace(V52, name="v53", designators=True)
#: v53 whose entity gate reads a claim's abbreviation of words its span writes out: "BP" for
#: "blood pressure".
V54 = replace(V53, name="v54", initials=True)
#: v54 whose entity gate reads capitals that are a sentence's style as no name ("the answer is
#: YES", "CONCLUSIONS AND RELEVANCE", a sentence written in capitals) and a name the span writes
#: joined to its figures as the claim's ("COVID19" for "COVID-19"), and an abbreviation the claim
#: defines in place by the words the span writes out ("(BIR)" for "break-induced replication").
V55 = replace(V54, name="v55", plain_case=True, joined_names=True, alias_initials=True)
#: v55 that reads an approximate figure the claim rounds from one the span states ("nearly 70"
#: for 69) as stated.
V56 = replace(V55, name="v56", rounded_figures=True)
#: v56 with the judge's veto: a claim the rules call `supported` that the judge reads as
#: entailed with a probability below 0.1 is `partial`.
V57 = replace(V56, name="v57", judge_veto=0.1)
#: v57 whose judge also reads what the polarity gate calls `contradicted`: one it reads as
#: entailed with a probability of 0.5 or more is `partial`.
V58 = replace(V57, name="v58", contradiction_veto=0.5)
#: v58 whose edit check lets a claim name what its window's opening "it" or "they" stands for,
#: as the evidence item before states it (an answer that names a pronoun, decomposer rules-v6).
V59 = replace(V58, name="v59", edit_named_pronouns=True)
#: v59 whose edit check also reads a claim that copies its window but for one phrase of up to
#: six content words as a near copy, so a phrase of several words put in for another's is a
#: substitution ("Magnetic resonance imaging is a novel, CD4+ T cell-restricted cytokine"
#: against "IL-17 is a novel, CD4+ T cell-restricted cytokine").
V60 = replace(V59, name="v60", edit_long_run=6)
#: v60 that refuses a copied sentence with words of its own grafted on: a claim that copies a
#: run of eight content words from one sentence of its window and, after it, says four content
#: words in a row that no evidence item states ("…, and the cytoplasm during oogenesis").
V61 = replace(V60, name="v61", graft_copied_min=8, graft_novel_min=4)
#: v61 whose graft needs three new content words in a row, not four ("…, and reduced the risk
#: of stroke" after a copied sentence).
V62 = replace(V61, name="v62", graft_novel_min=3)
#: v62 that reads business and news text: its polarity gate also reads their words of change
#: ("climbed", "slipped", "halved") and "up" or "down" before a figure ("revenue … up 12%"), and
#: its edit check lets an answer name what its source calls "the company" when the source
#: opens with that name.
V63 = replace(V62, name="v63", market_cues=True, edit_named_descriptions=True)
#: v63 whose edit check reads a claim's "both … and" and "as well as" as "and", so "lowered both
#: systolic and diastolic" is refused where the evidence says diastolic did not change (v51).
V64 = replace(V63, name="v64", edit_correlatives=True)
#: v64 that reads general text as answers quote it: a figure's unit ("30 minutes" against "30
#: seconds", "per week" against "per month"), a splice across a semicolon, a name for what the
#: sentence before calls "it" or "the company", and an opening frame ("At Pellham, …") the
#: evidence states.
V65 = replace(
    V64,
    name="v65",
    edit_clause_splices=True,
    figure_units=True,
    edit_named_within=True,
    edit_stated_frames=True,
)
#: v65 that reads who holds a title ("finance director Marcus Hale"), a score or tally with its
#: sides traded ("6-3" against "3-6"), and a predicative "non-" as "not".
V66 = replace(V65, name="v66", figure_pairs=True, title_bindings=True, predicative_non=True)
#: v66 that reads evidence items cut from one source as that source's text: the item before a
#: span there, wherever the plan lists it, names its "it" or "the company", and an answer's
#: opening frame may name what another item of the source states.
V67 = replace(V66, name="v67", source_context=True)
#: v67 that reads a bound on a figure turned round ("above £30,000" / "under £30,000"), "before"
#: and "after" traded on the same event, and plain words of change ("grew", "cutting").
V68 = replace(V67, name="v68", market_cues=2, bound_sides=True, order_words=True)
#: v68 whose numeric gate reads a percentage against money, electric units and a rate written
#: as a span of time.
V69 = replace(V68, name="v69", figure_units=2)
#: v69 whose numeric gate reads a figure converted to another unit as stated ("two days" for
#: "48 hours").
V70 = replace(V69, name="v70", figure_units=3)
#: v70 that reads who does what to whom: a claim that gives a span's act to someone else
#: ("Local shop owners overruled the city council's objections" against "The city council …
#: overruling objections from local shop owners") is `unsupported`.
V71 = replace(V70, name="v71", role_bindings=True)
#: v71 that reads evidence without its invisible format characters: "hospital\u200bisation"
#: in a span is the claim's "hospitalisation".
V72 = replace(V71, name="v72", visible_evidence=True)
#: v72 that reads a contrast spliced: one side's act given to the other side's thing.
V73 = replace(V72, name="v73", contrast_splices=True)
#: v73 that reads the sign of an association: "negatively correlated" against "predicted
#: increased risks".
V74 = replace(V73, name="v74", association_signs=True)
#: v74 whose edit check reads a word of association, or the sign of one, restated in a copy.
V75 = replace(V74, name="v75", edit_associations=True)
#: v75 that reads negations against the other side: a group a relative clause names, and a
#: privative word against a denial of its stem.
V76 = replace(V75, name="v76", paired_negations=True)
#: v76 whose polarity gate keeps a negation to its contrasted clause.
V77 = replace(V76, name="v77", clause_negations=True)
#: v77 that reads a comparison whose other side a phrase names ("compared with", "relative to").
V78 = replace(V77, name="v78", comparison_phrases=True)
#: v78 that reads a window stating only a procedure as stating no finding (v49's reading),
#: and leaves what the claim copies of one to the edit check and the graft reading.
V79 = replace(V78, name="v79", procedure_statements=True, procedure_copies=True)
SCORE_MODELS: dict[str, ScoreModel] = {
    m.name: m
    for m in (
        V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15, V16, V17, V18, V19, V20,
        V21, V22, V23, V24, V25, V26, V27, V28, V29, V30, V31, V32, V33, V34, V35,
        V36, V37, V38, V39, V40, V41, V42, V43, V44, V45, V46, V47, V48, V49, V50, V51, V52, V53,
        V54, V55, V56, V57, V58, V59, V60, V61, V62, V63, V64, V65, V66, V67, V68, V69, V70, V71,
        V72, V73, V74, V75, V76, V77, V78, V79,
    )
}  # fmt: skip


#: Separates a score model's name from a non-default escalation band: ``v3:band=0.3``.
BAND_SUFFIX = ":band="


def score_model(name: str, escalation_band: float | None = None) -> ScoreModel:
    """Look a score model up by name, with its escalation band widened or narrowed.

    ``escalation_band`` (or a ``:band=<x>`` suffix on the name, which is how a trace records a
    non-default band, so replay rebuilds the same model) applies only to a model that escalates
    (v3) and must lie in (0, 1]; the model's default band keeps its plain name.
    """
    base, sep, option = name.partition(BAND_SUFFIX)
    try:
        model = SCORE_MODELS[base]
    except KeyError:
        known = ", ".join(SCORE_MODELS)  # in version order: v1 … v10
        raise ConfigurationError(f"unknown score model {name!r}; choose one of: {known}") from None
    band = escalation_band
    if sep:
        try:
            named = float(option)
        except ValueError:
            raise ConfigurationError(f"score model {name!r}: band must be a number") from None
        if band is not None and band != named:
            raise ConfigurationError(f"score model {name!r} names band {named:g}, not {band:g}")
        band = named
    if band is None or band == model.escalation_band:
        return model
    if model.escalation_band is None:
        raise ConfigurationError(f"score model {base} does not escalate: a band needs v3")
    if not 0.0 < band <= 1.0:  # also refuses NaN
        raise ConfigurationError(f"escalation band must lie in (0, 1], not {band:g}")
    return replace(model, name=f"{base}{BAND_SUFFIX}{band:g}", escalation_band=band)


@dataclass(frozen=True, slots=True)
class PreparedSpan:
    """Everything the scorer needs from one evidence span, computed once per plan."""

    index: int
    span: EvidenceSpan
    counts: Counter[str]
    numerics: frozenset[str]
    entity: EntityView | None
    sentences: tuple[tuple[Counter[str], Cues], ...]
    #: v7: the sentences (as in ``sentences``) that state a finding, not an aim or a method.
    finding_sentences: tuple[tuple[Counter[str], Cues], ...] = ()
    #: v21 and v34: the span's word tokens, for a claim's figures written as part of a name.
    words: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class PreparedClaim:
    claim: Claim
    weighted: WeightedClaim
    numerics: frozenset[str]
    entity: EntityView | None
    cues: Cues
    #: v7: the claim states a finding, so its polarity is read against sentences that state one.
    states_finding: bool = False
    #: v21: each numeric atom of the claim with the joined name it may be part of, per
    #: occurrence (None where it follows no letters) (:func:`joined_forms`).
    joins: tuple[tuple[str, str | None], ...] = ()
    #: v34: the claim's figures that stand only as part of a hyphenated name, each with the
    #: names (lowercase letters) it follows (:func:`name_figures`).
    name_figures: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: v56: how each figure of the claim is written: the unit of its last digit, and whether an
    #: approximator comes before it (:func:`~spanproof.text.numerics.roundings`).
    roundings: Mapping[str, Rounding] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Plan:
    """The prepared evidence of one verification: spans, their IDF table, and the model."""

    spans: tuple[PreparedSpan, ...]
    idf: PlanIdf
    model: ScoreModel
    #: v4: spans prepared for the edit check, built on first use (most spans never need it).
    edit_spans: dict[int, EvidenceText] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    #: the keys of every truth span's words (:meth:`stated_keys`), built on first use.
    stated: list[frozenset[str]] = field(
        default_factory=list, compare=False, hash=False, repr=False
    )
    #: v17: the abbreviations each source's spans define, by source, built on first use.
    source_abbreviations: dict[str | None, tuple[Abbreviation, ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    @property
    def truth_indices(self) -> list[int]:
        return [p.index for p in self.spans if p.span.truth_class]

    def edit_span(self, index: int) -> EvidenceText:
        """Span ``index`` prepared for the edit check (cached for the plan's lifetime)."""
        found = self.edit_spans.get(index)
        if found is None:
            span = self.spans[index].span
            found = self.edit_spans[index] = prepare_evidence(
                span.id,
                span.text,
                self.model.number_formats,
                self.model.spellings,
                self._shared_abbreviations(span) if self.model.edit_shared_abbreviations else (),
                self.model.signs,
                self.model.word_forms,
            )
        return found

    def stated_keys(self) -> frozenset[str]:
        """The alignment keys of every word the truth spans state (cached for the plan's
        lifetime): what a claim's word must be to be stated anywhere in the evidence."""
        if not self.stated:
            model = self.model
            self.stated.append(
                frozenset().union(
                    *(
                        self.edit_spans[i].keys
                        if i in self.edit_spans
                        else _text_keys(
                            self.spans[i].span.text,
                            model.number_formats,
                            model.spellings,
                            model.signs,
                            model.word_forms,
                        )
                        for i in self.truth_indices
                    )
                )
            )
        return self.stated[0]

    def _shared_abbreviations(self, span: EvidenceSpan) -> tuple[Abbreviation, ...]:
        """What every span of ``span``'s source defines (v17). A span without a ``source_id``
        shares with the other spans without one: evidence given as a list of passages."""
        source = _source_of(span)
        found = self.source_abbreviations.get(source)
        if found is None:
            found = self.source_abbreviations[source] = tuple(
                d
                for p in self.spans
                if _source_of(p.span) == source
                for d in abbreviation_keys(p.span.text, spellings=self.model.spellings)
            )
        return found


@lru_cache(maxsize=1 << 12)
def _text_keys(
    text: str, number_formats: bool, spellings: bool, signs: bool, forms: bool
) -> frozenset[str]:
    """The alignment keys of ``text``'s words (:func:`prepare_text`), remembered across plans:
    the same evidence is read again by every verification that quotes it."""
    return frozenset(prepare_text(text, number_formats, spellings, signs, forms).keys)


def _source_of(span: EvidenceSpan) -> str | None:
    source = span.source.get("source_id")
    return None if source is None else str(source)


def lexical_terms(tokens: list[str], model: ScoreModel) -> list[str]:
    """The tokens lexical coverage counts: stems under models that stem, else the tokens; under
    v17 the stems of their American spellings."""
    if model.spellings:
        tokens = [american(t) for t in tokens]
    return stems(tokens) if model.stem else tokens


def prepare_plan(spans: Sequence[EvidenceSpan], model: ScoreModel) -> Plan:
    """Tokenise every span once and build the plan's IDF table."""
    # Under v17 a figure in another format is one token for the lexical score, the numeric gate
    # and the edit check's bound (:func:`~spanproof.verify.edits.may_copy`); the entity view
    # reads the plain word segmentation.
    token_lists = [
        token_texts(s.text, number_formats=model.number_formats, signs=model.signs) for s in spans
    ]
    lexical_lists = [lexical_terms(t, model) for t in token_lists]
    idf = PlanIdf(lexical_lists)
    prepared = []
    for i, (span, tokens, lexical) in enumerate(
        zip(spans, token_lists, lexical_lists, strict=True)
    ):
        text = nfc(span.text)
        # Each sentence segmented once, for the polarity cues and the entity view alike.
        segmented = (
            [(s.text, segments(s.text)) for s in split_sentences(text)]
            if model.polarity_gate or model.entity_gate
            else []
        )
        sentences: tuple[tuple[Counter[str], Cues], ...] = ()
        findings: tuple[tuple[Counter[str], Cues], ...] = ()
        if model.polarity_gate:
            read = segmented
            if model.opposed_clauses:  # v28: a sentence's opposed clauses read one by one
                read = [
                    (piece, segments(piece) if len(pieces) > 1 else words)
                    for body, words in segmented
                    for pieces in [opposed_clauses(body, model.more_cues, model.market_cues)]
                    for piece in pieces
                ]
            sentence_tokens = [
                [lower_chars(seg) for seg, _, _ in words]
                if body == nfc(body)
                else token_texts(body)
                for body, words in read
            ] or [tokens]
            bodies = [body for body, _words in read] or [text]
            sentences = tuple(
                (Counter(lexical_terms(t, model)), _cues_of(t, body, model))
                for t, body in zip(sentence_tokens, bodies, strict=True)
            )
            # The polarity gate reads the sentences that state a finding under v7's aims only;
            # v49's procedures are capped (below) but still read for a reversal.
            if model.finding_gate and len(sentences) == len(segmented):
                stated = [not states_no_finding(body) for body, _ in segmented]
                findings = tuple(s for s, ok in zip(sentences, stated, strict=True) if ok)
        prepared.append(
            PreparedSpan(
                index=i,
                span=span,
                counts=Counter(lexical),
                numerics=_span_numerics(tokens, model),
                entity=_entity_view(text, tokens, segmented, model) if model.entity_gate else None,
                sentences=sentences,
                finding_sentences=findings,
                words=frozenset(tokens)
                if model.joined_identifiers or model.name_figures
                else frozenset(),
            )
        )
    return Plan(tuple(prepared), idf, model)


#: Unsupported edits that name a detail the claim put in place of the span's: another entity,
#: number, unit, sign or bound, an opposite term, roles swapped. Not a phrase judged only by
#: its similarity, words the span does not state, nor a qualifier the claim leaves out (a
#: hedge, a scope, a population): another span may state those, or the finding without them.
_NAMED_CHANGES = (
    "unsupported: different entity",
    "unsupported: different number",
    "unsupported: different unit",
    "unsupported: different sign",
    "unsupported: different bound",
    "unsupported: opposite term",
    "unsupported: roles swapped",
    "unsupported: words from another clause",
)


def names_a_change(edit: Edit) -> bool:
    """An unsupported edit that names a detail changed (score model v21's dominance)."""
    return edit.judgement.startswith(_NAMED_CHANGES)


def joined_forms(tokens: Sequence[str], model: ScoreModel) -> tuple[tuple[str, str | None], ...]:
    """Each numeric atom of ``tokens`` (as the numeric gate reads them) with the name it would
    form joined to the letters before it: "A-769662" and "BRCA 1" segment as ("a", "769662")
    and ("brca", "1"), whose joined forms are "a769662" and "brca1"; a figure after no letters
    has None. Score model v21 (``joined_identifiers``)."""
    out: list[tuple[str, str | None]] = []
    for i, token in enumerate(tokens):
        atoms = _numerics([token], model)
        if not atoms:
            continue
        before = tokens[i - 1] if i > 0 else ""
        joined = before + token if before.isalpha() and token.isdigit() else None
        out.extend((atom, joined) for atom in atoms)
    return tuple(out)


def _figures_missing(claim: PreparedClaim, span: PreparedSpan, model: ScoreModel) -> bool:
    """The numeric gate: a figure of the claim that the span does not state; under v21 a figure
    the claim writes as part of a name the span writes joined is not missing, and under v34 one
    it writes after a name with a hyphen is not missing where the span does not write that name
    (the name is the entity gate's to read: :func:`name_figures`) and does not write a longer
    form of it with a figure ("IL-8" against "interleukin-6" is still missing); under v56 a
    figure the claim says is approximate and writes rounded from one the span states is not
    missing ("nearly 70" for 69, "about 5 mmHg" for 5.2 mmHg:
    :func:`~spanproof.text.numerics.rounds_to`)."""
    missing = claim.numerics - span.numerics
    if missing and claim.roundings:
        missing = frozenset(
            atom
            for atom in missing
            if atom not in claim.roundings
            or not any(
                rounds_to(float(figure), float(atom), claim.roundings[atom])
                for figure in span.numerics
            )
        )
    if missing and claim.name_figures:
        missing = frozenset(
            atom
            for atom in missing
            if atom not in claim.name_figures
            or any(
                name in span.words
                or any(_abbreviates(name, other) for other in _span_hyphen_names(span, model))
                for name in claim.name_figures[atom]
            )
        )
    if missing and model.figure_units >= 3:
        stated = converted(claim.claim.text, span.span.text)
        missing = frozenset(atom for atom in missing if float(atom) not in stated)
    if not missing or not model.joined_identifiers:
        return bool(missing)
    return any(
        any(a == atom and (joined is None or joined not in span.words) for a, joined in claim.joins)
        for atom in missing
    )


def _hyphen_figures(text: str, model: ScoreModel) -> tuple[dict[str, set[str]], set[str]]:
    """The figures of ``text`` written right after a hyphen that follows a word of two letters or
    more, each with the lowercase names it follows, and the figures written otherwise."""
    words = segments(text)
    named: dict[str, set[str]] = {}
    plain: set[str] = set()
    for k, (surface, start, _end) in enumerate(words):
        atoms = _numerics([lower_chars(surface)], model)
        if not atoms:
            continue
        before = words[k - 1] if k else None
        if (
            before is not None
            and before[2] == start - 1
            and text[start - 1] == "-"
            and before[0].isalpha()
            and len(before[0]) >= 2
        ):
            for atom in atoms:
                named.setdefault(atom, set()).add(lower_chars(before[0]))
        else:
            plain.update(atoms)
    return named, plain


def name_figures(text: str, model: ScoreModel) -> dict[str, frozenset[str]]:
    """Score model v34: the figures of ``text`` (NFC) that it writes only as part of a name —
    right after a hyphen that follows a word of two letters or more ("COVID-19", "SARS-CoV-2",
    "IL-6") — each with the lowercase names it follows. A figure the text also writes
    anywhere else ("19 patients … COVID-19") is not one."""
    named, plain = _hyphen_figures(text, model)
    return {atom: frozenset(names) for atom, names in named.items() if atom not in plain}


def hyphen_names(text: str, model: ScoreModel) -> frozenset[str]:
    """Score model v34: the lowercase names ``text`` (NFC) writes with a figure after a hyphen
    ("interleukin" of "interleukin-6", "cov" of "SARS-CoV-2")."""
    named, _plain = _hyphen_figures(text, model)
    return frozenset(name for names in named.values() for name in names)


def _span_hyphen_names(span: PreparedSpan, model: ScoreModel) -> frozenset[str]:
    """:func:`hyphen_names` of a span, read only when a claim's name figure is missing from it
    (most claims have none), once per text and model."""
    return _cached_hyphen_names(nfc(span.span.text), model)


@lru_cache(maxsize=1 << 12)
def _cached_hyphen_names(text: str, model: ScoreModel) -> frozenset[str]:
    return hyphen_names(text, model)


def _abbreviates(short: str, long: str) -> bool:
    """``short`` could be an initialism of ``long``: shorter, the same first letter, its letters
    in ``long`` in order, and not ``long``'s first letters alone ("il" of "interleukin"; not
    "covid" of "cov", nor "cov" of "covid", another name cut short)."""
    if len(short) >= len(long) or short[:1] != long[:1] or long.startswith(short):
        return False
    rest = iter(long)
    return all(ch in rest for ch in short)


def _numerics(tokens: list[str], model: ScoreModel) -> list[str]:
    """The numeric atoms of ``tokens`` as ``model`` reads them (the numeric gate's input)."""
    return numerics(
        tokens,
        months_need_digits=model.months_need_digits,
        number_parts=model.number_parts,
        fold_words=model.fold_words,
        number_words=model.number_words,
    )


def _span_numerics(tokens: list[str], model: ScoreModel) -> frozenset[str]:
    """The numeric atoms a span covers; under v19 each negative figure also covers its
    magnitude (:func:`~spanproof.text.numerics.with_magnitudes`)."""
    found = _numerics(tokens, model)
    return frozenset(with_magnitudes(found) if model.signs else found)


def _entity_view(
    text: str,
    tokens: list[str],
    segmented: list[tuple[str, list[tuple[str, int, int]]]] | None,
    model: ScoreModel,
) -> EntityView:
    """The entity gate's view of ``text``: its plain words (under v17, not the figures kept in
    one token), and (v17) Greek letters written as their names, so "IL-1β" and "IL-1beta" are
    one entity."""
    designators, plain = model.designators, model.plain_case
    if not (model.number_formats or model.spellings):
        return entity_view(text, tokens, segmented, model.word_forms, designators, plain)
    named = greek_named(text) if model.spellings else text
    if named != text and segmented is not None:
        segmented = [(s.text, segments(s.text)) for s in split_sentences(named)]
    return entity_view(named, token_texts(named), segmented, model.word_forms, designators, plain)


def edit_text(text: str, model: ScoreModel) -> Text:
    """``text`` tokenised for the edit check as ``model`` reads words: figures in other
    formats, spellings, signs and word forms as its readings say (:func:`prepare_text`)."""
    return prepare_text(text, model.number_formats, model.spellings, model.signs, model.word_forms)


def claim_words(claim: Claim, model: ScoreModel) -> str:
    """The text whose words the gates and the edit check read: the claim, with its citation
    markers blanked under a model that reads them (v11; same length, so offsets hold)."""
    return blank_citations(claim.text) if model.citation_markers else claim.text


def _cues_of(tokens: list[str], text: str, model: ScoreModel) -> Cues:
    """The polarity cues of ``tokens``, the words of ``text``, under ``model``; under v77 with
    the negations of its contrasted clauses kept to their clause (:func:`clause_denials`)."""
    read = cues(
        tokens,
        model.word_forms,
        model.more_cues,
        model.scoped_negations,
        model.denials,
        model.market_cues,
        model.paired_negations,
    )
    if not model.clause_negations:
        return read
    confined = clause_denials(
        text, model.more_cues, model.scoped_negations, model.denials, model.market_cues
    )
    return confine_clause_negations(read, confined)


def prepare_claim(claim: Claim, plan: Plan) -> PreparedClaim:
    model = plan.model
    words = claim_words(claim, model)
    tokens = token_texts(words, number_formats=model.number_formats, signs=model.signs)
    view = _entity_view(nfc(words), tokens, None, model) if model.entity_gate else None
    return PreparedClaim(
        claim=claim,
        weighted=weigh_claim(lexical_terms(tokens, model), plan.idf),
        numerics=frozenset(_numerics(tokens, model)),
        entity=view,
        cues=_cues_of(tokens, nfc(words), model),
        states_finding=model.finding_gate and not states_no_finding(words),
        joins=joined_forms(tokens, model) if model.joined_identifiers else (),
        name_figures=name_figures(nfc(words), model) if model.name_figures else {},
        roundings=roundings(tokens) if model.rounded_figures else {},
    )


def _aligned_cues(
    claim: PreparedClaim,
    span: PreparedSpan,
    close: bool = False,
    window: Cues | None = None,
    close_min: float = CLOSE_COVERAGE_MIN,
) -> Cues:
    """Polarity cues the gate reads for ``span`` (:func:`_sentence_cues`); under score model v30
    (``window``: the cues of the window the verdict quotes), the window's when the sentence read
    states nothing of the claim's polarity and trips nothing, while the window trips the gate
    and states nothing of the claim's polarity either."""
    chosen = _sentence_cues(claim, span, close, close_min)
    if window is None or not claim.cues.polar:
        return chosen
    if states_polarity(claim.cues, chosen) or polarity_gate_trips(claim.cues, chosen):
        return chosen
    if polarity_gate_trips(claim.cues, window) and not states_polarity(claim.cues, window):
        return window
    return chosen


@lru_cache(maxsize=1 << 14)
def window_cues(text: str, model: ScoreModel) -> Cues:
    """Polarity cues of a window's text under ``model``, read as the plan reads a span
    sentence (v30; :func:`_cues_of`)."""
    body = nfc(text)
    return _cues_of(segment_words(body), body, model)


def _sentence_cues(
    claim: PreparedClaim,
    span: PreparedSpan,
    close: bool = False,
    close_min: float = CLOSE_COVERAGE_MIN,
) -> Cues:
    """Polarity cues of the span sentence that covers the claim best (first on ties); under v7,
    of the sentences that state a finding when the claim states one and the span has any.

    ``close`` (score model v23): when the claim states a direction or a negation and that
    sentence neither states it (:func:`~spanproof.verify.gates.states_polarity`) nor trips the
    gate, the sentences covering the claim nearly as well are read: if none of them states the
    claim's polarity, the cues of the best-covering one that trips the gate (an abstract whose
    aim sentence covers the claim best and whose result states the opposite)."""
    pool = span.finding_sentences if claim.states_finding and span.finding_sentences else None
    pool = pool or span.sentences
    if len(pool) == 1:
        return pool[0][1]
    covs = [coverage(claim.weighted, counts) for counts, _cues in pool]
    best_cov = max(covs)
    best = pool[covs.index(best_cov)][1]  # the first on ties
    if (
        not close
        or not claim.cues.polar
        or states_polarity(claim.cues, best)
        or polarity_gate_trips(claim.cues, best)
    ):
        return best
    floor = max(best_cov - CLOSE_COVERAGE_MARGIN, close_min)
    ranked = sorted((-cov, k) for k, cov in enumerate(covs) if cov >= floor)
    if any(states_polarity(claim.cues, pool[k][1]) for _, k in ranked):
        return best
    for _, k in ranked:
        if polarity_gate_trips(claim.cues, pool[k][1]):
            return pool[k][1]
    return best


def _trips_beyond_a_restated_comparison(
    claim: PreparedClaim, span: PreparedSpan, aligned: Cues, model: ScoreModel
) -> bool:
    """Whether the polarity gate still trips once a comparison the span restates with its sides
    traded and its direction turned round (score model v41) is read as agreeing: its
    comparatives are left out of both sides' cues, and any other cue still counts."""
    if not comparison_restated(
        claim.claim.text, span.span.text, model.comparison_figure_sides, model.comparison_phrases
    ):
        return True
    return polarity_gate_trips(
        replace(claim.cues, directions=without_comparatives(claim.cues.directions)),
        replace(aligned, directions=without_comparatives(aligned.directions)),
    )


def score_pair(
    claim: PreparedClaim,
    span: PreparedSpan,
    cos: float,
    model: ScoreModel,
    edit: EditCheck | None = None,
    window: Cues | None = None,
) -> PairScore:
    """Score one (claim, span) pair with every gate of ``model`` recorded.

    ``edit`` is the edit check of the pair (score model v4) when the claim nearly copies the span;
    ``window`` the polarity cues of the window the verdict would quote (score model v30).
    """
    lex = coverage(claim.weighted, span.counts)
    fused = fuse(cos, lex, model.beta)
    numeric = (
        _figures_missing(claim, span, model)
        or (
            model.figure_units
            and units_differ(claim.claim.text, span.span.text, model.figure_units >= 2) is not None
        )
        or (model.figure_pairs and pair_reversed(claim.claim.text, span.span.text) is not None)
    )
    ordered = (
        model.order_words and order_opposed(claim.claim.text, span.span.text) is not None
    ) or (model.bound_sides and bound_opposed(claim.claim.text, span.span.text) is not None)
    entity = (
        model.title_bindings and title_conflict(claim.claim.text, span.span.text) is not None
    ) or (claim.entity is not None and _entity_trips(claim.entity, span, model))
    aligned = (
        _aligned_cues(claim, span, model.close_sentences, window, model.close_coverage_min)
        if model.polarity_gate
        else None
    )
    polar = aligned is not None and polarity_gate_trips(claim.cues, aligned)
    if polar and model.comparison_restated and aligned is not None:
        polar = _trips_beyond_a_restated_comparison(claim, span, aligned, model)
    polar = polar or ordered
    if model.comparisons and not polar:  # v32: a comparison with its sides traded
        # (v41: sides told apart by their figures too, "slept 8 hours" / "under 6 hours")
        polar = comparison_reversed(
            claim.claim.text,
            span.span.text,
            figures=model.comparison_restated,
            figure_sides=model.comparison_figure_sides,
            phrases=model.comparison_phrases,
        )
    states = not model.close_spans or aligned is None or states_polarity(claim.cues, aligned)
    if edit is not None and edit.near_copy:
        if entity and model.source_context and edit.outcome == "none":
            entity = _entity_beyond_naming(claim, span, edit, model)
        # The alignment reads negation and direction word by word, so it replaces the gate's
        # whole-sentence cue counts: a clause the claim leaves out is not a flip.
        polar = ordered or edit.outcome == "contradicted"
        edited = edit.outcome == "unsupported"
        score = min(fused, model.gate_cap) if (numeric or entity or polar or edited) else fused
        named = model.copy_dominates and edited and any(map(names_a_change, edit.edits))
        return PairScore(
            span.index,
            cos,
            lex,
            fused,
            score,
            numeric,
            entity,
            polar,
            edited,
            edit_named=named,
            states_polarity=states or edit.outcome == "none",  # a faithful copy restates it
        )
    score = min(fused, model.gate_cap) if (numeric or entity or polar) else fused
    return PairScore(
        span.index, cos, lex, fused, score, numeric, entity, polar, states_polarity=states
    )


#: Edits that allow a name the span itself does not write: what another item of its source names.
_NAMING_EDITS = frozenset(
    {"allowed: named in the evidence before", "allowed: context stated in the evidence"}
)


def _entity_beyond_naming(
    claim: PreparedClaim, span: PreparedSpan, edit: EditCheck, model: ScoreModel
) -> bool:
    """Score model v67: the entity gate read again without the claim's words that a faithful near
    copy's edit check allowed as named by another item of the span's source ("The Berlin Wall"
    for "It", "At Pellham,"): True when a name outside them is still missing from the span."""
    ranges = [(e.claim_start, e.claim_end) for e in edit.edits if e.judgement in _NAMING_EDITS]
    if not ranges or span.entity is None:
        return True
    chars = list(claim_words(claim.claim, model))
    for start, end in ranges:
        chars[start:end] = " " * (end - start)
    rest = "".join(chars)
    view = _entity_view(
        nfc(rest),
        token_texts(rest, number_formats=model.number_formats, signs=model.signs),
        None,
        model,
    )
    return _entity_trips(view, span, model)


def _entity_trips(view: EntityView, span: PreparedSpan, model: ScoreModel) -> bool:
    """The entity gate: a name of the claim's ``view`` that ``span`` does not write."""
    return (
        span.entity is not None
        and bool(view.entities)
        and entity_gate_trips(
            view,
            span.entity,
            model.entity_variants,
            model.initials,
            model.joined_names,
            model.alias_initials,
        )
    )


def marker_position(marker: str, count: int) -> int | None:
    """The 0-based position ``S<k>`` names among ``count`` evidence items, or None."""
    match = _MARKER.match(marker)
    return int(match.group(1)) - 1 if match and 1 <= int(match.group(1)) <= count else None


def resolve_markers(markers: Sequence[str], plan: Plan) -> list[int]:
    """Plan indices the markers name: an evidence id equal to the marker, else ``S<k>`` → k-th."""
    by_id = {p.span.id: p.index for p in plan.spans}
    out: list[int] = []
    for marker in markers:
        index = by_id.get(marker)
        if index is None:
            index = marker_position(marker, len(plan.spans))
        if index is not None and plan.spans[index].span.truth_class and index not in out:
            out.append(index)
    return out


def select_candidates(
    cosines: npt.NDArray[np.float64], cited: Sequence[int], plan: Plan
) -> list[int]:
    """Cited truth-class spans ∪ top-m truth-class spans by raw cosine, in plan order."""
    truth = plan.truth_indices
    ranked = sorted(truth, key=lambda i: (-float(cosines[i]), i))
    return sorted(set(cited) | set(ranked[: plan.model.candidates_m]))


def _band(score: float, model: ScoreModel) -> Verdict:
    if score >= model.supported_min:
        return Verdict.SUPPORTED
    if score >= model.partial_min:
        return Verdict.PARTIAL
    return Verdict.UNSUPPORTED


def _overlaps_erasure(span: EvidenceSpan, start: int, end: int) -> bool:
    return any(r.start < end and start < r.end for r in span.erased)


def unsupported_verdict(claim: Claim) -> ClaimVerdict:
    """The verdict for a claim when the plan has no truth-class span (no embedding needed)."""
    return ClaimVerdict(
        id=claim.id,
        text=claim.text,
        draft_span=claim.draft_span,
        verdict=Verdict.UNSUPPORTED,
        score=0.0,
        best_span=None,
        candidates_considered=0,
        cited_markers=claim.cited_markers,
        numeric_gated=False,
    )


def score_claim(
    claim: Claim,
    cosines: npt.NDArray[np.float64],
    plan: Plan,
    windows: Sequence[tuple[int, int]] | None = None,
    edits: Mapping[int, EditCheck] | None = None,
) -> tuple[ClaimVerdict, list[PairScore]]:
    """Verdict for one claim given its cosine to every plan span.

    Args:
        claim: the claim.
        cosines: cosine of the claim to each plan span (best window for long spans).
        plan: the prepared plan.
        windows: for each plan span, the character range of its best window; whole span if None.
        edits: score model v4: the edit check of each span the claim nearly copies, by plan
            index (:func:`edit_alignments`, then :func:`~spanproof.verify.edits.judge_edits`).

    Returns:
        The verdict and every candidate pair score in plan order.
    """
    if not plan.truth_indices:
        return unsupported_verdict(claim), []
    model = plan.model
    prepared = prepare_claim(claim, plan)
    cited = resolve_markers(claim.cited_markers, plan)
    candidates = select_candidates(cosines, cited, plan)
    quoted: dict[int, Cues] = {}
    states = prepared.cues.polar
    if model.window_polarity and model.polarity_gate and windows is not None and states:
        # (a claim stating no direction or negation is read as under v29: no window to read)
        for i in candidates:
            start, end = windows[i]
            quoted[i] = window_cues(plan.spans[i].span.text[start:end], model)
    pairs = [
        score_pair(
            prepared, plan.spans[i], float(cosines[i]), model, (edits or {}).get(i), quoted.get(i)
        )
        for i in candidates
    ]
    if model.reads_findings and not claim_states_no_finding(claim.text, model):
        gated = [(p, _finding_gate(p, plan, windows, model)) for p in pairs]
        pairs = [
            p if g is not p and _spared(claim, p.span_index, plan, windows, edits) else g
            for p, g in gated
        ]
    best = _best(_eligible(pairs, model))
    verdict = _band(best.score, model)
    chosen = best
    if model.polarity_gate and verdict is not Verdict.SUPPORTED:
        contra = _contradiction(pairs, model)
        if contra is not None:
            verdict, chosen = Verdict.CONTRADICTED, contra
    span = plan.spans[chosen.span_index].span
    start, end = windows[chosen.span_index] if windows is not None else (0, len(span.text))
    found = edits[chosen.span_index].edits if edits and chosen.span_index in edits else ()
    score = best.score
    if verdict is Verdict.SUPPORTED:
        near_copy = bool(edits and chosen.span_index in edits)  # the edit check's to read
        read = _read_window(claim.text, span, start, end, model, near_copy)
        if read is None and model.graft_novel_min and not near_copy:
            read = _grafted(claim, span, start, end, plan)
        if read is not None:
            verdict, edit = read
            found = (*found, edit) if edit.op == "insertion" else (edit,)
            score = min(score, model.gate_cap)
        elif model.supported_needs_copy and not faithful_copy(edits, chosen.span_index):
            verdict = Verdict.PARTIAL  # close, but not read word by word: a person should look
    if _overlaps_erasure(span, start, end):
        verdict = Verdict.EVIDENCE_REDACTED
    return (
        ClaimVerdict(
            id=claim.id,
            text=claim.text,
            draft_span=claim.draft_span,
            verdict=verdict,
            score=score,
            best_span=SpanRef(span.id, start, end),
            candidates_considered=len(pairs),
            cited_markers=claim.cited_markers,
            numeric_gated=chosen.numeric_gated,
            entity_gated=chosen.entity_gated,
            polarity_gated=chosen.polarity_gated,
            finding_gated=chosen.finding_gated,
            edits=found,
        ),
        pairs,
    )


def faithful_copy(edits: Mapping[int, EditCheck] | None, index: int) -> bool:
    """Whether the claim nearly copies span ``index`` and the edit check found nothing in the
    copy but what a faithful one may change (score model v43)."""
    check = edits.get(index) if edits else None
    return check is not None and check.near_copy and check.outcome == "none"


def _read_window(
    claim: str, span: EvidenceSpan, start: int, end: int, model: ScoreModel, near_copy: bool
) -> tuple[Verdict, Edit] | None:
    """What score models v38, v39, v40 and v74 read in a `supported` claim against its window
    ``span.text[start:end]``, the first that applies: an effect claimed on a window stating only
    an association (v38, ``association_effects``) is `unsupported`, a direction the window
    reverses on the same thing (v39, ``direction_objects``) `contradicted` — neither in a near
    copy, which the edit check reads —, an association it states with the other sign (v74,
    ``association_signs``; also in a near copy, whose edit check does not read the sign)
    `contradicted`, and a cure the window does not state (v40,
    ``cure_claims``) `unsupported`; with the edit that records it (offsets into the claim and
    the span). None when nothing applies."""
    window = span.text[start:end]

    def substitution(found: tuple[tuple[int, int], tuple[int, int]], why: str) -> Edit:
        (cs, ce), (ws, we) = found
        return Edit(
            "substitution", cs, ce, claim[cs:ce], span.id, start + ws, start + we,
            window[ws:we], why,
        )  # fmt: skip

    if not near_copy:
        if model.association_effects and (effect := association_stated_as_effect(claim, window)):
            why = "unsupported: association stated as an effect"
            return Verdict.UNSUPPORTED, substitution(effect, why)
        if (
            model.direction_objects
            and (flip := direction_reversed_on_object(claim, window))
            and not (model.comparison_phrases and _comparative_restated(claim, window, flip))
        ):
            return Verdict.CONTRADICTED, substitution(flip, "contradicted: direction flip")
    if model.association_signs and (turned := association_reversed(claim, window)):
        why = "contradicted: association reversed"
        return Verdict.CONTRADICTED, substitution(turned, why)
    if model.cure_claims and (cure := cure_not_stated(claim, window)):
        cs, ce = cure
        unstated = Edit(
            "insertion", cs, ce, claim[cs:ce], span.id, start, start, "",
            "unsupported: cure not stated",
        )  # fmt: skip
        return Verdict.UNSUPPORTED, unstated
    return None


def _comparative_restated(
    claim: str, window: str, flip: tuple[tuple[int, int], tuple[int, int]]
) -> bool:
    """Whether the direction ``flip`` reads turned round is a comparative of a comparison the
    window restates with its sides traded ("Never smokers had a lower risk … than smokers"
    against "Smokers had a higher risk … than never smokers"; score model v78)."""
    (start, _), _ = flip  # the offsets it returns are a comparative's alone
    return start in restated_comparatives(claim, window, True)


def _grafted(
    claim: Claim, span: EvidenceSpan, start: int, end: int, plan: Plan
) -> tuple[Verdict, Edit] | None:
    """A phrase of the claim's own grafted on a sentence it copies from its window
    ``span.text[start:end]`` (:func:`spanproof.verify.edits.grafted_phrase`): `unsupported`,
    with the insertion that records it. None when there is none."""
    model = plan.model
    said = edit_text(claim_words(claim, model), model)
    found = grafted_phrase(
        said,
        edit_text(span.text[start:end], model),
        plan.stated_keys,
        model.graft_copied_min,
        model.graft_novel_min,
    )
    if found is None or len(said.text) != len(claim.text):
        return None  # (offsets hold only where the text read is as long as the claim's)
    cs, ce = found
    grafted = Edit(
        "insertion", cs, ce, claim.text[cs:ce], span.id, start, start, "",
        "unsupported: not in the evidence (grafted on a copied sentence)",
    )  # fmt: skip
    return Verdict.UNSUPPORTED, grafted


#: An evidence item whose first word is "it" or "they" (v59: :func:`antecedent_of`).
_OPENS_WITH_PRONOUN = re.compile(r"\W*(?:it|they)\b", re.IGNORECASE)


def _same_source(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return all(a.get(k) == b.get(k) for k in ("source_id", "version", "section_key"))


def _piece_before(plan: Plan, index: int) -> int | None:
    """Score model v67: the plan index of the truth-class span of ``index``'s source (same source
    id, version and section) that starts last before it there; None when none does or the
    spans name no source and offsets."""
    here = plan.spans[index].span.source
    start = here.get("start")
    if here.get("source_id") is None or not isinstance(start, int):
        return None
    best: tuple[int, int] | None = None
    for j, prepared in enumerate(plan.spans):
        there = prepared.span.source
        at = there.get("start")
        if (
            j != index
            and prepared.span.truth_class
            and isinstance(at, int)
            and at < start
            and _same_source(here, there)
            and (best is None or at > best[0])
        ):
            best = (at, j)
    return None if best is None else best[1]


def source_keys(plan: Plan, index: int) -> frozenset[str]:
    """Score model v67: the edit-check keys of every truth-class span of ``index``'s source in
    the plan (empty before v67, or for a span that names no source)."""
    here = plan.spans[index].span.source
    if not plan.model.source_context or here.get("source_id") is None:
        return frozenset()
    return frozenset().union(
        *(
            plan.edit_span(j).keys
            for j, prepared in enumerate(plan.spans)
            if prepared.span.truth_class and _same_source(here, prepared.span.source)
        )
    )


def antecedent_of(plan: Plan, index: int) -> EvidenceText | None:
    """Under score model v59, the evidence item before span ``index``, prepared for the edit
    check: the plan's previous span when it is truth-class and, where both name their source,
    of the same source and version and before it in that source; None otherwise (and before
    v59). Under v67 (``source_context``), the span of the same source that starts last before
    it, wherever the plan lists it (:func:`_piece_before`), for any span."""
    if not plan.model.edit_named_pronouns:
        return None
    if plan.model.source_context:
        before_index = _piece_before(plan, index)
        if before_index is not None:
            return plan.edit_span(before_index)
    if index == 0:
        return None
    span, before = plan.spans[index].span, plan.spans[index - 1].span
    if not before.truth_class or not _OPENS_WITH_PRONOUN.match(span.text):
        return None  # only an item that opens with "it" or "they" has a name to find
    here, there = span.source, before.source
    if here.get("source_id") is not None or there.get("source_id") is not None:
        same = _same_source(here, there)
        order = here.get("start"), there.get("start")
        if not same or (
            isinstance(order[0], int) and isinstance(order[1], int) and order[1] >= order[0]
        ):
            return None
    return plan.edit_span(index - 1)


def edit_alignments(
    claim: Claim,
    cosines: npt.NDArray[np.float64],
    plan: Plan,
    windows: Sequence[tuple[int, int]] | None = None,
) -> dict[int, Alignment]:
    """Score model v4's edit check, phase one: the claim aligned to each candidate span it nearly
    copies, by plan index (empty under a model without the check)."""
    if not plan.model.edit_check or not plan.truth_indices:
        return {}
    text = edit_text(claim_words(claim, plan.model), plan.model)
    # v64: a claim that is no near copy as written is read again with "both … and" and "as well
    # as" read as "and"; one the check reads as written keeps that reading.
    joined = correlatives_joined(text) if plan.model.edit_correlatives else text
    out: dict[int, Alignment] = {}
    for i in select_candidates(cosines, resolve_markers(claim.cited_markers, plan), plan):
        runs = plan.model.edit_changed_runs
        # the counts are stems under v4 (of American spellings under v17)
        long_run = plan.model.edit_long_run
        if not may_copy(text, plan.spans[i].counts, runs, plan.model.spellings, long_run):
            continue
        evidence = plan.edit_span(i)
        window = windows[i] if windows is not None else None
        align = partial(
            align_edits,
            evidence=evidence,
            around=window,
            changed_runs=runs,
            run_share_min=plan.model.edit_run_share_min,
            mixups=plan.model.edit_mixups,
            moved_figures=plan.model.edit_moved_figures,
            units=plan.model.edit_units,
            overstatement=plan.model.edit_overstatement,
            inversions=plan.model.edit_inversions,
            frames=plan.model.edit_frames,
            restrictions=plan.model.edit_restrictions,
            reorders=plan.model.edit_reorders,
            local_qualifiers=plan.model.edit_local_qualifiers,
            figure_nouns=plan.model.edit_figure_nouns,
            bounds=plan.model.edit_bounds,
            contractions=plan.model.edit_contractions,
            abbreviated=plan.model.edit_shared_abbreviations,
            compounds=plan.model.edit_compounds,
            signs=plan.model.signs,
            postposed=plan.model.edit_postposed_bounds,
            clause_mixups=plan.model.edit_clause_mixups,
            carried_details=plan.model.edit_carried_details,
            extent=plan.model.edit_extent,
            suppositions=plan.model.edit_suppositions,
            caveats=plan.model.edit_caveats,
            negation_scope=plan.model.edit_negation_scope,
            local_population=plan.model.edit_local_population,
            paraphrases=plan.model.edit_paraphrases,
            conjuncts=plan.model.edit_conjuncts,
            answer_words=plan.model.edit_answer_words,
            rounded=plan.model.rounded_figures,
            antecedent=antecedent_of(plan, i),
            long_run=long_run,
            descriptions=plan.model.edit_named_descriptions,
            clause_splices=plan.model.edit_clause_splices,
            named_within=plan.model.edit_named_within,
            stated_frames=plan.model.edit_stated_frames,
            context=source_keys(plan, i),
            associations=plan.model.edit_associations,
            privatives=plan.model.paired_negations,
            comparisons=plan.model.comparison_phrases,
        )
        alignment = align(text)
        if not alignment.near_copy and joined is not text:
            alignment = align(joined)
        if alignment.near_copy:
            out[i] = alignment
    return out


def no_finding(text: str, model: ScoreModel) -> bool:
    """Whether ``text`` states no finding as ``model`` reads it: an aim or a design under
    ``finding_gate`` (v7), only a procedure under ``procedure_statements`` (v49)."""
    return states_no_finding(text, model.procedure_statements, aims=model.finding_gate)


def _spared(
    claim: Claim,
    index: int,
    plan: Plan,
    windows: Sequence[tuple[int, int]] | None,
    edits: Mapping[int, EditCheck] | None,
) -> bool:
    """Under ``procedure_copies`` (v79), whether span ``index`` is left to what reads a copy
    rather than capped by the finding gate: the claim nearly copies it (the edit check's), or
    copies a long run of its window's words (:func:`may_copy_window`, the graft reading's)."""
    if not plan.model.procedure_copies:
        return False
    if edits and index in edits:
        return True
    text = plan.spans[index].span.text
    start, end = windows[index] if windows is not None else (0, len(text))
    return may_copy_window(claim, text[start:end], plan.model)


def may_copy_window(claim: Claim, window: str, model: ScoreModel) -> bool:
    """Under ``procedure_copies`` (v79), whether ``claim`` copies a run of at least
    ``graft_copied_min`` of its content words, in order, from the sentence window ``window``
    (:func:`~spanproof.verify.edits.longest_copy`, the graft reading's copy). A window that
    states only a procedure is then still read for the claim, so that the graft reading and the
    edit check read the copy; a finding claim passes such a window over otherwise, for another
    window of the same span that states a finding. False before v79."""
    if not model.procedure_copies or not model.graft_copied_min:
        return False
    said = edit_text(claim_words(claim, model), model)
    copied, _ = longest_copy(said, edit_text(window, model))
    return copied >= model.graft_copied_min


def claim_states_no_finding(text: str, model: ScoreModel) -> bool:
    """Whether the claim ``text`` states no finding as ``model`` reads a claim: as
    :func:`no_finding` reads a window, and under ``procedure_copies`` (v79) also when it
    denies a procedure ("Patients were not randomized from April 2003")."""
    return states_no_finding(
        text, model.procedure_statements, aims=model.finding_gate, denied=model.procedure_copies
    )


def _finding_gate(
    pair: PairScore, plan: Plan, windows: Sequence[tuple[int, int]] | None, model: ScoreModel
) -> PairScore:
    """``pair`` capped at ``gate_cap`` when its window states no finding (score model v7); with
    no windows, when none of the span's sentences states one."""
    text = plan.spans[pair.span_index].span.text
    if windows is not None:
        start, end = windows[pair.span_index]
        aim = no_finding(text[start:end], model)
    else:
        aim = all(
            no_finding(s.text, model) for s in split_sentences(text) or [Sentence(text, 0, 0)]
        )
    if not aim:
        return pair
    return pair._replace(score=min(pair.score, model.gate_cap), finding_gated=True)


def _best(pairs: Sequence[PairScore]) -> PairScore:
    best = pairs[0]
    for pair in pairs[1:]:
        if pair.score > best.score:  # strictly greater: ties keep plan order
            best = pair
    return best


def _eligible(pairs: Sequence[PairScore], model: ScoreModel) -> Sequence[PairScore]:
    """The pairs allowed to decide the claim: v2's dominance rule (:func:`_dominant`), and under
    score model v24, when one of them close to the closest span states the claim's opposite
    (the polarity gate alone caps it), only pairs whose sentence states the claim's polarity
    (:func:`~spanproof.verify.gates.states_polarity`) or that are gated themselves: a span that
    shares the claim's words and states no direction does not outweigh one that reverses it."""
    eligible = _dominant(pairs, model)
    if not model.close_spans or model.dominance_margin is None:
        return eligible
    top = max(p.fused for p in pairs)
    if any(
        _only_polarity(p)
        and p.fused >= model.supported_min
        and p.fused >= top - model.dominance_margin
        for p in eligible
    ):
        return [p for p in eligible if p.polarity_gated or p.states_polarity]
    return eligible


def _only_polarity(pair: PairScore) -> bool:
    """The pair is capped by the polarity gate alone: it states the opposite of the claim."""
    return pair.polarity_gated and not (
        pair.numeric_gated or pair.entity_gated or pair.edit_gated or pair.finding_gated
    )


def _dominant(pairs: Sequence[PairScore], model: ScoreModel) -> Sequence[PairScore]:
    """The pairs allowed to decide the claim by v2's dominance rule.

    When the claim's most similar span (highest fused score) trips a gate, a span much less
    similar to the claim (fused more than ``dominance_margin`` below) cannot rescue it: the
    closest evidence says something else, and a weaker match elsewhere is most often a
    coincidence of vocabulary.
    """
    margin = model.dominance_margin
    if margin is None:
        return pairs
    top = pairs[0]
    for pair in pairs[1:]:
        if pair.fused > top.fused:
            top = pair
    gated = top.numeric_gated or top.entity_gated or top.polarity_gated or top.edit_gated
    if not gated or top.fused < model.supported_min:
        return pairs
    if model.copy_dominates and top.edit_named:  # v21: a near copy, a named detail changed
        return [p for p in pairs if p.fused >= top.fused]
    return [p for p in pairs if p.fused >= top.fused - margin]


def _contradiction(pairs: Sequence[PairScore], model: ScoreModel) -> PairScore | None:
    """The strongest pair that would be supported but for the polarity gate alone."""
    best: PairScore | None = None
    for pair in pairs:
        if (
            _only_polarity(pair)
            and pair.fused >= model.supported_min
            and (best is None or pair.fused > best.fused)
        ):
            best = pair
    return best
