"""``openings``: the melds of a first meld; their total, the threshold, and whether the
first meld is accepted (and the reasons when it is not)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder import engine
from site_builder.examples.base import Computed, Kind
from site_builder.examples.values import choice, codes, groups, integer


def compute(inputs: dict[str, Any], rules: engine.RuleSet) -> Computed:
    result = engine.evaluate_opening(inputs["melds"], rules)
    return {
        "total": result.total,
        "threshold": result.threshold,
        "verdict": "accepted" if result.accepted else "rejected",
        "reasons": sorted(result.reasons),
        "result": result,
    }


def required(stated: Mapping[str, Any], preset: engine.RuleSet) -> tuple[str, ...]:
    return ("total", "threshold", "verdict")


KIND = Kind(
    "openings", {"melds": groups},
    {"total": integer, "threshold": integer, "verdict": choice("accepted", "rejected"),
     "reasons": codes},
    required, compute,
    doc_inputs="`melds` (groups separated by `\\|`)",
    doc_claims="**`total`**, **`threshold`**, **`verdict`** (accepted/rejected), `reasons`",
)
