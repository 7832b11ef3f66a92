"""``hands``: the points left in a hand at the end of a round."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder import engine
from site_builder.examples.base import Computed, Kind
from site_builder.examples.values import cards, integer, yes_no


def compute(inputs: dict[str, Any], rules: engine.RuleSet) -> Computed:
    return {"points": engine.hand_points(inputs["cards"], rules)}


def required(stated: Mapping[str, Any], preset: engine.RuleSet) -> tuple[str, ...]:
    return ("points",)


KIND = Kind(
    "hands", {"cards": cards, "ace_high": yes_no}, {"points": integer}, required, compute,
    options=("ace_high",),
    doc_inputs="`cards`, `ace_high` (yes/no)",
    doc_claims="**`points`**",
)
