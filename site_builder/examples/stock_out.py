"""``stock-out``: the hands when the stock runs out; each one's points, and the winner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder import engine
from site_builder.examples.base import Computed, Kind
from site_builder.examples.values import groups, integer, integers


def compute(inputs: dict[str, Any], rules: engine.RuleSet) -> Computed:
    hands = inputs["hands"]
    return {
        "points": [engine.hand_points(h, rules) for h in hands],
        "winner": engine.stock_out_winner(hands, rules) + 1,
    }


def required(stated: Mapping[str, Any], preset: engine.RuleSet) -> tuple[str, ...]:
    return ("points", "winner")


KIND = Kind(
    "stock-out", {"hands": groups}, {"points": integers, "winner": integer}, required, compute,
    doc_inputs="`hands` (separated by `\\|`)",
    doc_claims="**`points`** (one per seat), **`winner`** (seat, from 1)",
)
