"""Request and response models of the HTTP API (they make the OpenAPI schema)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from spanproof.core.models import Outcome, ScoreModelName

MAX_ITEMS = 10_000
#: The largest integer a query or path parameter accepts (``offset``, version numbers): SQLite
#: integers are 64-bit, and a larger value reached the store and failed there (a 500).
MAX_INT = 2**31 - 1


class EvidenceItem(BaseModel):
    """One evidence span; extra keys are kept as source metadata."""

    model_config = ConfigDict(extra="allow")

    id: str | int
    text: str
    truth_class: bool = True


class ClaimItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str | None = None
    text: str
    cited_markers: list[str] = Field(default_factory=list)


class VerifyRequest(BaseModel):
    """Either ``draft`` (decomposed into claims) or ``claims``, with ``evidence``."""

    model_config = ConfigDict(extra="forbid")

    draft: str | None = Field(None, description="A draft to decompose and verify.")
    question: str | None = Field(
        None,
        description="With 'draft': the question the draft answers. A draft that opens with a "
        "bare 'Yes.' or 'No.' to a yes/no question ('Did walking lower blood pressure?') has "
        "it checked as the question's proposition or its negation (the first claim; a 'No.' "
        "is scored as the proposition with its verdict turned round, recorded in 'negates').",
    )
    claims: list[ClaimItem | str] | None = Field(
        None, description="Atomic claims to verify as given.", max_length=MAX_ITEMS
    )
    evidence: list[EvidenceItem] = Field(..., min_length=1, max_length=MAX_ITEMS)
    policy: Literal["flag", "redact"] | None = Field(
        None, description="Delivery policy for drafts (default: the server's)."
    )
    score_model: ScoreModelName | None = Field(
        None,
        description=(
            "Score model (default: the server's; v3 escalates to the checker, v4 adds the edit "
            "check, v5 reads every claim with the judge, v6 and v8 to v38 read two "
            "changed details (v9 also two figures or names mixed up, v10 also a figure moved "
            "into a shortened copy, v11 also a figure's unit changed, v12 also a finding "
            "overstated, v13 also what inverts it dropped, v14 also what the window does not "
            "assert, v15 also what restricts the finding dropped, v16 also a qualifier dropped "
            "where the claim keeps only another, or a figure's bound, v17 also a figure written "
            "another way, '.001', '2·9', '671 945', a contraction, 'doesn't', or a British "
            "spelling, 'haemorrhage', or an abbreviation another passage defines, v18 also a "
            "word written together, with a hyphen or apart, 'nonsmall', v19 also a sign, "
            "'−1.5', 'CD4+', or a fold or a bound written another way, 'twofold', '65 or "
            "older', v20 also a plural, possessive or other form of a name or direction word "
            "read as the word, 'HSPCs', 'Hodgkin's', 'inhibition', v21 also "
            "a figure of a name written apart, 'A-769662', and a failed near copy no other "
            "passage rescues, v22 also more direction and negation words, 'impedes', "
            "'scarce', 'ineffective', v23 also the sentences that cover a claim nearly as well "
            "as the best one, so an aim sentence no longer hides a result stating the "
            "opposite, v24 also no passage stating no direction supports a claim a close "
            "passage reverses, v25 v23 that also reads a name written within a longer one, "
            "'RAS' in 'KRAS', as that name, v26 v25 with v24's rule, v27 v25 whose "
            "polarity gate counts only negations that deny, not 'heart failure' or 'with or "
            "without', v28 v27 that reads a sentence's opposed clauses one by one, v29 v28 "
            "that also reads sentences covering the claim less, v30 v29 that also reads the "
            "window it quotes, v31 v29 whose edit check does not read words taken from an "
            "opposed clause as words reordered, v32 v31 that also reads a comparison with its "
            "sides traded, v33 v32 whose edit check also reads what a deletion carries on to "
            "the words it joins: a later figure's bound, a comparison left with one side, a "
            "supposed clause, v34 v33 whose numeric gate reads a figure written after a name "
            "with a hyphen, 'COVID-19', as part of the name, v35 v34 whose edit check also "
            "reads a dropped word of extent, 'partly', 'some', v36 v35 whose edit check also "
            "reads what the passage only supposes, aims at or doubts stated as a finding, 'It "
            "has been proposed that X', 'is thought to', 'is unlikely to', and 'would' as a "
            "hedge, v37 v36 whose edit check also reads what takes the finding back: a caveat "
            "of non-significance, 'Although X, the difference was not significant', a "
            "qualifier a 'but not' contrasts, weak evidence, 'numerically', and refuses a "
            "claim calling significant what the passage says was not, v38 v37 that also refuses "
            "an effect claimed on a passage that states only an association, near copy or "
            "not, v39 v38 that also reads each direction word with the thing it acts on and "
            "contradicts a claim whose thing the passage moves the other way, v40 v39 that also "
            "refuses a cure claimed on a passage that states none, v41 v40 that also reads a "
            "comparison restated with its sides traded and its direction turned round as "
            "agreeing, v42 v41 whose edit check also reads a negation deleted from the kept "
            "finding past a comma as dropped, v43 v42, strict: 'supported' only for a faithful "
            "near copy, 'partial' for what else v42 supports, v44 v42 whose edit check also "
            "reads a dropped population where it was dropped, v45 v44 that also tells a "
            "comparison's sides apart by their figures alone, v46 v45, strict, as v43, v47 v45 "
            "that also reads a cardinal number word ('four hours') as its figure, v48 v47, "
            "strict, as v43, v49 v47 that reads a sentence stating only a procedure ('We "
            "placed temperature loggers in 48 city blocks') as stating no finding, v50 v47 "
            "whose edit check allows a faithful answer's rewordings: 'reduced' for 'lowered', "
            "'approximately 5 mmHg', 'was found to lower', 'BP' for 'blood pressure', v51 v50 "
            "that refuses a thing joined to a copied one which the evidence states otherwise: "
            "'systolic and diastolic' against 'Diastolic blood pressure did not change', v52 "
            "v51 that reads more of an answer's words: 'is contraindicated' "
            "denies a use as 'should not be used' does, 'versus' is 'compared with', 'cut' "
            "goes down, v53 v52 whose entity gate reads a name a letter tells from its kin: "
            "'vitamin C' against 'vitamin D', v54 v53 whose entity gate reads an "
            "abbreviation of words the span writes out: 'BP' for 'blood pressure', v55 "
            "v54 whose entity gate reads capitals of style as no name: 'the short "
            "answer is YES', a sentence written in capitals, 'COVID19' as 'COVID-19', and "
            "'(BIR)' as 'break-induced replication', v56 v55 that reads a "
            "figure the claim rounds from the span's as that figure: 'nearly 70' for 69, v57 "
            "v56 with the judge's veto: a claim the rules call supported that "
            "the judge reads as entailed with a probability below 0.1 is partial, v58 "
            "v57 whose judge also turns a polarity-gate contradiction it reads as "
            "entailed (0.5 or more) partial, v59 v58 whose edit check lets a "
            "claim name what its window's opening 'it' or 'they' stands for when the evidence "
            "item before states it, v60 v59 whose edit check also reads one "
            "phrase of up to six words put in for another in a copied sentence as a "
            "substitution, v61 v60 that refuses a copied sentence with four "
            "words of its own grafted on after the copy, v62 v61 that refuses "
            "three such words, v63 v62 that reads business and news text: their "
            "words of change, 'up' or 'down' before a figure, and a name for 'the company', "
            "v64 v63 that reads 'both … and' and 'as well as' as 'and', v65 v64 "
            "that reads a figure's unit, a splice across a semicolon, a name for 'it' or 'the "
            "company' from the sentence before, and an opening frame such as 'At X,', v66 "
            "v65 that reads who holds a title, a score with its sides traded and a "
            "predicative 'non-', v67 v66 that reads evidence items cut from one "
            "source as that source's text, v68 v67 that reads a bound on a figure turned "
            "round, 'before' and 'after' traded, and plain words of change, v69 v68 that "
            "reads more units of a figure, v70 v69 that reads a figure "
            "converted to another unit as stated, v71 v70 that refuses a "
            "claim giving its source's act to someone else, v72 v71 that reads evidence "
            "without its invisible format characters, v73 v72 that refuses a claim joining "
            "one side of a contrast to the other side's thing, v74 v73 that reads the sign "
            "of an association, v75 v74 that reads an association restated in a copy, v76 "
            "v75 that reads negations against the other side, v77 v76 "
            "that keeps a negation to its clause of a contrast, v78 v77 that "
            "reads a comparison whose other side a phrase names, 'compared with', v79 (the "
            "default) v78 that reads a window stating only a procedure as stating no "
            "finding), v7 "
            "gates "
            "windows that "
            "state no "
            "finding)."
        ),
    )

    @model_validator(mode="after")
    def _one_of(self) -> VerifyRequest:
        if (self.draft is None) == (self.claims is None):
            raise ValueError("give exactly one of 'draft' or 'claims'")
        if self.question is not None and self.draft is None:
            raise ValueError("'question' goes with 'draft' (the question the draft answers)")
        return self


class VerdictCounts(BaseModel):
    """How many claims got each verdict."""

    supported: int
    partial: int
    unsupported: int
    contradicted: int
    evidence_redacted: int


OUTCOME_DESCRIPTION = (
    "What verification found: all_supported | not_all_supported | contradicted | no_claims | "
    "abstained | unavailable ('verification' only says whether the check ran)."
)


class VerifyResponse(BaseModel):
    """The CLI ``verify --json`` contract object."""

    model_config = ConfigDict(extra="allow")

    score_model: str
    embed_model: str
    embed_model_hash: str
    verification: str
    outcome: Outcome = Field(..., description=OUTCOME_DESCRIPTION)
    counts: VerdictCounts
    claims: list[dict[str, Any]]
    delivered: str | None


class GenerateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(..., min_length=1, max_length=4000)
    policy: Literal["flag", "redact"] | None = None


class GenerateResponse(BaseModel):
    """``Answer.to_dict()``: the answer, its claims, citations, plan and trace id."""

    model_config = ConfigDict(extra="allow")

    question: str
    answer: str | None
    draft: str
    verification: str
    outcome: Outcome = Field(..., description=OUTCOME_DESCRIPTION)
    counts: VerdictCounts
    policy: str
    claims: list[dict[str, Any]]
    citations: dict[str, dict[str, Any]]
    plan: dict[str, Any]
    models: dict[str, str]
    usage: dict[str, int]
    trace_id: str | None
    answered: bool = Field(
        True,
        description="false when the answer abstains: no span of the store reached the relevance "
        "floor, so 'answer' is \"The sources do not answer this question.\", there are no "
        "claims, the outcome is 'abstained' and 'closest' lists the nearest sources.",
    )
    relevance: float | None = Field(
        None, description="The best relevance of a span to the question, in [0, 1]."
    )
    closest: list[dict[str, Any]] = Field(
        default_factory=list,
        description="When the answer abstains: the closest spans (id, text, source fields and "
        "their relevance), one per source; empty otherwise.",
    )
    verdict: Literal["supported", "contradicted", "unsupported"] | None = Field(
        None,
        description="When the question is a proposition (a statement, 'Is it true that …', "
        "'Does/Is/Can …?'): the verdict on the claim it asks about, against the plan (and, "
        "for a reversal the plan misses, its three most relevant sources read in full around "
        "their planned spans); "
        "the answer then opens with it. null for other questions, and when the check could not "
        "run.",
    )
    proposition: dict[str, Any] | None = Field(
        None,
        description="The proposition checked: claim, form, verification, verdict, lead, "
        "best_span (marker, start, end, text, source) and the full claim verdict (result); "
        "evidence_states_finding: false when the quoted span states an aim, a design or a "
        "method rather than a finding (the lead then says so; absent otherwise); read: when "
        "the verdict comes from reading the plan's sources in full, each stretch read (marker "
        "R1…, source_id, version, section_key, start, end, title; absent otherwise).",
    )


MediaType = Literal[
    "text/plain",
    "text/markdown",
    "text/html",
    "text/csv",
    "application/jats+xml",
    "application/pubmed+xml",
    "application/xml",
    "application/octet-stream",
]


class SourceUpload(BaseModel):
    """A document sent inline: ``text`` or ``content_base64``, never a path or a URL."""

    model_config = ConfigDict(extra="forbid")

    text: str | None = Field(None, description="The document as text (UTF-8).")
    content_base64: str | None = Field(None, description="The document's bytes, base64.")
    title: str = Field("", max_length=1000)
    media_type: MediaType = Field("text/plain", description="The document's format.")

    @model_validator(mode="after")
    def _one_of(self) -> SourceUpload:
        if (self.text is None) == (self.content_base64 is None):
            raise ValueError("give exactly one of 'text' or 'content_base64'")
        return self


class SourceUploadResponse(BaseModel):
    source_id: str
    version: int
    status: Literal["new", "duplicate", "quarantined"]
    reason: str
    sections: int
    chunks: int
    chunks_embedded: int


class SearchHitOut(BaseModel):
    rank: int
    score: float
    source: str
    version: int
    section: str
    start: int
    end: int
    text: str


class Health(BaseModel):
    status: Literal["ok", "degraded"]
    store: bool
    models: dict[str, str]
    version: str
