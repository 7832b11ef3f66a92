"""``melds``: one meld a row; whether it is valid, its kind, the points it lays, or why
it is not a meld."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder import engine
from site_builder.examples.base import Computed, Kind
from site_builder.examples.values import Parser, card_codes, cards, choice, integer

CLAIMS: dict[str, Parser] = {
    "verdict": choice("valid", "invalid"),
    "kind": choice("set", "sequence"),
    "points": integer,
    "reason": str,
    "jokers": card_codes,
}


def meld_values(result: engine.MeldResult) -> Computed:
    """The claims of a meld's verdict (a meld, or a meld after a lay-off)."""
    return {
        "verdict": "valid" if result.valid else "invalid",
        "kind": result.kind,
        "points": result.points if result.valid else None,
        "reason": result.reason,
        "jokers": [c.code for c in result.jokers],
        "result": result,
    }


def compute(inputs: dict[str, Any], rules: engine.RuleSet) -> Computed:
    return meld_values(engine.evaluate_meld(inputs["cards"], rules))


def required(stated: Mapping[str, Any], preset: engine.RuleSet) -> tuple[str, ...]:
    if stated.get("verdict") == "invalid":
        return ("verdict", "reason")
    # CardVerse defines no laid points (seed 004), so its melds need not state them.
    return ("verdict", "kind", "points") if preset.opening_threshold is not None \
        else ("verdict", "kind")


KIND = Kind(
    "melds", {"cards": cards}, CLAIMS, required, compute,
    doc_inputs="`cards`",
    doc_claims="**`verdict`** (valid/invalid), **`kind`** (set/sequence) and **`points`** "
               "when valid, **`reason`** when invalid, `jokers` (stand-in cards)",
)
