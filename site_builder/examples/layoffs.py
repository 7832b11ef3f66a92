"""``layoffs``: cards added to a meld on the table; whether the meld stays valid, and
its kind or why not."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder import engine
from site_builder.examples.base import Computed, Kind
from site_builder.examples.melds import CLAIMS, meld_values
from site_builder.examples.values import cards


def compute(inputs: dict[str, Any], rules: engine.RuleSet) -> Computed:
    return meld_values(engine.evaluate_layoff(inputs["meld"], inputs["add"], rules))


def required(stated: Mapping[str, Any], preset: engine.RuleSet) -> tuple[str, ...]:
    if stated.get("verdict") == "invalid":
        return ("verdict", "reason")
    return ("verdict", "kind")


KIND = Kind(
    "layoffs", {"meld": cards, "add": cards}, CLAIMS, required, compute,
    doc_inputs="`meld`, `add`",
    doc_claims="**`verdict`**, **`kind`** when valid, **`reason`** when invalid, `points`, "
               "`jokers`",
)
