"""The shipped combiner of score model v5 (``scripts/fit_combiner.py --fit`` writes it).

Do not edit by hand: refit instead. Changing these numbers changes v5's verdicts, so stored v5
traces would no longer replay; a refit that ships needs a new score model name.
"""

from spanproof.verify.judging import Combiner

# Feature order:
#   p_entailed
#   p_contradicted
#   entailed_logit
#   cosine
#   lexical
#   fused
#   numeric_gated
#   entity_gated
#   polarity_gated
#   edit_unsupported
#   edit_contradicted
COMBINER_V5 = Combiner(
    weights=(
        -0.15018412598813657,
        0.6510273764398684,
        0.40827634247445416,
        1.9765408321974014,
        0.8673290939157456,
        0.6943612305222517,
        0.2661022747528985,
        0.11237937776207399,
        -0.25748733532822643,
        -0.06373970500154087,
        -0.4930634153748408,
    ),
    bias=-2.0284830858756604,
    supported_min=0.850817,
    unsupported_max=0.086236,
    contradicted_min=0.5,
    fitted_on=(
        "development splits scifact 124, healthver 258, citation_integrity 316, check_covid 207"
    ),
)
