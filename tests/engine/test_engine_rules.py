"""Rule sets: presets as data, overrides, hand sizes."""

from __future__ import annotations

import dataclasses

import pytest

from site_builder.engine import PRESETS, RulesError, RuleSet, get_rules


def test_presets() -> None:
    assert set(PRESETS) == {"rami40", "rami51", "cardverse"}
    rami40, rami51, cardverse = (PRESETS[g] for g in ("rami40", "rami51", "cardverse"))
    assert (rami40.decks, rami40.jokers, rami40.opening_threshold,
            rami40.pure_sequence_required, rami40.ace_low) == (2, 4, 40, False, True)
    assert (rami51.decks, rami51.jokers, rami51.opening_threshold,
            rami51.pure_sequence_required, rami51.ace_low) == (2, 4, 51, True, True)
    assert (cardverse.decks, cardverse.jokers, cardverse.opening_threshold,
            cardverse.pure_sequence_required, cardverse.ace_low) == (1, 0, None, False, False)
    for rules in PRESETS.values():
        assert rules.joker_value is None
        assert (rules.min_players, rules.max_players) == (2, 4)
        # a final discard in Rami (most Rami 51 sources), none in CardVerse (seed)
        assert rules.discard_to_win == rules.penalty_scoring
    # CardVerse (seed): the winner gains, to 100; aces 1 in hand, no obligations.
    assert (cardverse.target_score, cardverse.ace_high, cardverse.penalty_scoring,
            cardverse.discard_must_be_used, cardverse.joker_exchange) == (100, False, False,
                                                                          False, False)
    # Rami (published rules, see RuleSet): penalty points to 500, ace 11 and joker 20 in hand,
    # one joker per meld, the discard taken must be laid, joker exchange.
    for rami in (rami40, rami51):
        assert (rami.target_score, rami.ace_high, rami.joker_hand_points,
                rami.max_jokers_per_meld, rami.penalty_scoring, rami.discard_must_be_used,
                rami.joker_exchange) == (500, True, 20, 1, True, True, True)


def test_rami40_and_rami51_differ_only_in_the_opening() -> None:
    differ = {f.name for f in dataclasses.fields(RuleSet)
              if getattr(PRESETS["rami40"], f.name) != getattr(PRESETS["rami51"], f.name)}
    assert differ == {"name", "title", "opening_threshold", "pure_sequence_required"}


def test_rule_sets_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        PRESETS["rami51"].decks = 3  # type: ignore[misc]


def test_hand_sizes() -> None:
    cardverse = get_rules("cardverse")
    assert [cardverse.hand_size(p) for p in (2, 3, 4)] == [7, 10, 10]
    assert [get_rules("rami51").hand_size(p) for p in (2, 3, 4)] == [13, 13, 13]
    for players in (0, 1, 5):
        with pytest.raises(RulesError, match=f"2 to 4 players, not {players}"):
            cardverse.hand_size(players)


def test_overrides() -> None:
    rules = get_rules("rami51", joker_value=15, max_jokers_per_meld=1)
    assert (rules.joker_value, rules.max_jokers_per_meld, rules.opening_threshold) == (15, 1, 51)
    assert get_rules("rami51") is PRESETS["rami51"]


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(RulesError) as info:
        get_rules("rummy")
    assert isinstance(info.value, ValueError)
    assert str(info.value) == "unknown game 'rummy' (known games: rami40, rami51, cardverse)"


def test_unknown_override() -> None:
    with pytest.raises(RulesError, match=r"^unknown rule 'jokers_per_meld'"):
        get_rules("rami51", jokers_per_meld=1)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("joker_value", "15", "must be an integer or None"),
    ("ace_high", 1, "must be a boolean"),
    ("decks", 0, "at least 1"),
    ("joker_value", -1, "must not be negative"),
    ("max_players", 9, "gives no hand size for 5 players"),
    ("deal_sizes", ((2, 30), (3, 30), (4, 30)), "cannot deal 30 cards to 2 players"),
])
def test_bad_overrides(field: str, value: object, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        get_rules("cardverse", **{field: value})
