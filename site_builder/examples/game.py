"""``game``: the scores of a game's rounds; the totals, whether the game is over, and
who wins. A round that cannot happen under the rules is an error
(:func:`engine.game_problem`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder import engine
from site_builder.examples.base import Computed, Kind
from site_builder.examples.values import integer_groups, integers, seats, yes_no_text


def compute(inputs: dict[str, Any], rules: engine.RuleSet) -> Computed:
    rounds = inputs["rounds"]
    why = engine.game_problem(rounds, rules)  # a round that no real game can have
    if why is not None:
        raise ValueError(why)
    totals = [sum(column) for column in zip(*rounds, strict=True)]
    over = engine.game_over(totals, rules)
    return {"totals": totals, "over": "yes" if over else "no",
            "winners": [s + 1 for s in engine.game_winners(totals, rules)] if over else []}


def required(stated: Mapping[str, Any], preset: engine.RuleSet) -> tuple[str, ...]:
    return ("totals", "over")


KIND = Kind(
    "game", {"rounds": integer_groups},
    {"totals": integers, "over": yes_no_text, "winners": seats}, required, compute,
    doc_inputs="`rounds` (each round's scores, one number per seat, rounds separated by `\\|`)",
    doc_claims="**`totals`**, **`over`** (yes/no: a total reached the game's limit), "
               "`winners` (seats; the lowest total in Rami 40/51, the highest in CardVerse; "
               "tied seats share the win)",
)
