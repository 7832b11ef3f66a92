"""``deals``: the cards dealt to each player, and those left in the stock."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder import engine
from site_builder.examples.base import Computed, Kind
from site_builder.examples.values import integer


def compute(inputs: dict[str, Any], rules: engine.RuleSet) -> Computed:
    dealt = engine.deal(rules, inputs["players"], seed=0)
    sizes = {len(h) for h in dealt.hands}
    size = sizes.pop() if len(sizes) == 1 else None
    return {"hand_size": size, "discard": len(dealt.discard), "stock": len(dealt.stock)}


def required(stated: Mapping[str, Any], preset: engine.RuleSet) -> tuple[str, ...]:
    return ("hand_size",)


KIND = Kind(
    "deals", {"players": integer}, {"hand_size": integer, "stock": integer}, required, compute,
    doc_inputs="`players`",
    doc_claims="**`hand_size`**, `stock` (cards left in the stock after the deal and the "
               "turned-up card)",
)
