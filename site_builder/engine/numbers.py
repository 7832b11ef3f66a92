"""The numbers a page may state about the rules, by placeholder name.

Prose never states a rule number directly: it names it, e.g. ``{rami51_threshold}``, and
the value comes from here: the card values, the meld limits, each game's rule set, and
each rule profile's whole-number overrides (``{house_joker_value}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder.engine.cards import ACE_HIGH_POINTS, ACE_LOW_POINTS, FACE_POINTS, PACK_CARDS
from site_builder.engine.melds import MAX_SET_CARDS, MIN_MELD_CARDS
from site_builder.engine.rules import PRESETS, RuleSet

__all__ = ["rule_numbers"]


def rule_numbers(presets: Mapping[str, RuleSet] | None = None,
                 profiles: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, int]:
    """Every number a page may state, by placeholder name.

    Per game: ``threshold`` (if any), ``min_players`` and ``max_players``, ``hand_<n>``
    for each player count, ``decks``, ``deck_cards`` (the packs' cards) and ``cards``
    (with the jokers), ``jokers``, ``max_jokers`` (per meld), ``joker_hand`` and
    ``ace_hand`` (a joker and an ace left in a hand), ``target``; per rule profile (by
    key, its overrides), each whole-number override; the laid values of cards and the
    meld limits.

    >>> numbers = rule_numbers(profiles={"house": {"joker_value": 15, "ace_high": False}})
    >>> numbers["rami51_cards"], numbers["rami51_max_jokers"], numbers["rami51_joker_hand"]
    (108, 1, 20)
    >>> numbers["rami40_threshold"], numbers["cardverse_hand_2"], numbers["cardverse_deck_cards"]
    (40, 7, 52)
    >>> numbers["house_joker_value"], "house_ace_high" in numbers
    (15, False)
    >>> numbers["ace_high_points"], numbers["ace_low_points"], numbers["face_points"]
    (11, 1, 10)
    """
    values: dict[str, int] = {
        "min_meld_cards": MIN_MELD_CARDS, "max_set_cards": MAX_SET_CARDS,
        "ace_high_points": ACE_HIGH_POINTS, "ace_low_points": ACE_LOW_POINTS,
        "face_points": FACE_POINTS, "pack_cards": PACK_CARDS,
    }
    for game, rules in (PRESETS if presets is None else presets).items():
        if rules.opening_threshold is not None:
            values[f"{game}_threshold"] = rules.opening_threshold
        values[f"{game}_min_players"] = rules.min_players
        values[f"{game}_max_players"] = rules.max_players
        values[f"{game}_deck_cards"] = rules.decks * PACK_CARDS
        values[f"{game}_jokers"] = rules.jokers
        for players in range(rules.min_players, rules.max_players + 1):
            values[f"{game}_hand_{players}"] = rules.hand_size(players)
        values[f"{game}_decks"] = rules.decks
        values[f"{game}_cards"] = rules.deck_cards
        values[f"{game}_max_jokers"] = rules.max_jokers_per_meld
        values[f"{game}_joker_hand"] = rules.joker_hand_points
        values[f"{game}_ace_hand"] = ACE_HIGH_POINTS if rules.ace_high else ACE_LOW_POINTS
        values[f"{game}_target"] = rules.target_score
    for name, overrides in (profiles or {}).items():
        for key, value in overrides.items():
            if isinstance(value, int) and not isinstance(value, bool):
                values[f"{name}_{key}"] = value
    return values
