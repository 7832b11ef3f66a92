"""Melds: kinds, points, joker stand-ins, reason codes and lay-offs."""

from __future__ import annotations

import pytest

from site_builder.engine import (
    JOKER,
    MeldResult,
    evaluate_layoff,
    evaluate_meld,
    get_rules,
    parse_cards,
)

RAMI = get_rules("rami51", max_jokers_per_meld=2)  # two jokers per meld, none side by side
OPEN_HOUSE = get_rules("rami51", max_jokers_per_meld=4, adjacent_jokers=True,
                       all_joker_melds=True)


def meld(cards: str, rules: object = RAMI) -> MeldResult:
    assert rules is not None
    return evaluate_meld(parse_cards(cards), rules)  # type: ignore[arg-type]


def codes(cards: tuple[object, ...]) -> str:
    return " ".join(str(c) for c in cards)


@pytest.mark.parametrize(("cards", "kind", "points", "arrangement", "jokers", "card_points"), [
    ("8D 8C 8H", "set", 24, "8C 8D 8H", "", (8, 8, 8)),
    ("KS KD KC KH", "set", 40, "KC KD KH KS", "", (10, 10, 10, 10)),
    ("JK 5H 5S", "set", 15, "5C 5H 5S", "5C", (5, 5, 5)),   # lowest free suit
    ("7H 8H 9H 10H JH", "sequence", 44, "7H 8H 9H 10H JH", "", (7, 8, 9, 10, 10)),
    ("JK JH QH", "sequence", 30, "10H JH QH", "10H", (10, 10, 10)),  # 10 or K: lower card
    ("KH QH JK", "sequence", 30, "JH QH KH", "JH", (10, 10, 10)),    # J (30) beats A (31)
    ("JK 2H 3H", "sequence", 6, "AH 2H 3H", "AH", (1, 2, 3)),         # low ace is a 1
    ("JK 5H 7H", "sequence", 18, "5H 6H 7H", "6H", (5, 6, 7)),        # fills the gap
    ("JK 5H 7H JK", "sequence", 22, "4H 5H 6H 7H", "4H 6H", (4, 5, 6, 7)),
    ("AD 2D JK", "sequence", 6, "AD 2D 3D", "3D", (1, 2, 3)),
    ("JK AH JK", "set", 33, "AC AD AH", "AC AD", (11, 11, 11)),  # side by side not allowed
])
def test_valid_melds(cards: str, kind: str, points: int, arrangement: str, jokers: str,
                     card_points: tuple[int, ...]) -> None:
    result = meld(cards)
    assert (result.valid, result.kind, result.points, result.reason) == (True, kind, points, None)
    assert codes(result.arrangement) == arrangement
    assert codes(result.jokers) == jokers
    assert result.card_points == card_points
    assert result.cards == parse_cards(cards)


def test_joker_points_under_house_rule() -> None:
    result = meld("JK 7S 8S", get_rules("rami51", joker_value=15))
    assert (result.points, codes(result.jokers), result.card_points) == (30, "6S", (15, 7, 8))


def test_ties_prefer_a_sequence_then_lower_stand_ins() -> None:
    # J-Q-K (jokers J and K, 30) ties with the set Q Q Q (30): the sequence wins.
    result = meld("JK QH JK")
    assert (result.kind, codes(result.arrangement), codes(result.jokers)) == \
        ("sequence", "JH QH KH", "JH KH")
    # Side by side allowed: 10-J-Q (30) is lower than J-Q-K by its stand-ins.
    result = meld("JK QH JK", OPEN_HOUSE)
    assert codes(result.arrangement) == "10H JH QH"


def test_all_joker_meld_under_house_rules() -> None:
    result = meld("JK JK JK JK", OPEN_HOUSE)  # four 2s (8) beat A-2-3-4 (10)
    assert (result.kind, result.points, codes(result.arrangement)) == ("set", 8, "2C 2D 2H 2S")
    result = meld("JK JK JK", OPEN_HOUSE)  # A-2-3 (6) ties with three 2s: the sequence wins
    assert (result.kind, result.points, codes(result.arrangement)) == ("sequence", 6, "AC 2C 3C")


@pytest.mark.parametrize(("cards", "reason", "rules"), [
    ("QH KH", "too_short", RAMI),
    ("", "too_short", RAMI),
    ("5H 5S 5D 5C 5H", "too_long", RAMI),
    ("JK 5S 5D 5C 5H", "too_long", RAMI),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "too_long", OPEN_HOUSE),
    ("5H 6H 7S", "mixed_suits", RAMI),
    ("5H 5S 6D", "mixed_ranks", RAMI),
    ("5H 5H 5S", "duplicate_suit", RAMI),
    ("5H 5H 6H 7H", "duplicate_card", RAMI),
    ("5H 6H 8H", "gap", RAMI),
    ("JK 5H 8H", "gap", RAMI),
    ("KH AH 2H", "wrap", RAMI),
    ("QH KH AH 2H", "wrap", RAMI),
    ("KH JK 2H", "wrap", RAMI),
    ("AH 2H 3H", "ace_low_not_allowed", get_rules("cardverse")),
    ("JK 7S 8S", "joker_not_allowed", get_rules("cardverse")),
    ("JK JK 5H 6H", "too_many_jokers", get_rules("rami51", max_jokers_per_meld=1)),
    ("JK JK JK 5H", "too_many_jokers", RAMI),
    ("JK JK JK", "all_jokers", get_rules("rami51", max_jokers_per_meld=3)),
    ("JK JK 2H 3H JK", "adjacent_jokers", get_rules("rami51", max_jokers_per_meld=3)),
])
def test_reasons(cards: str, reason: str, rules: object) -> None:
    result = meld(cards, rules)
    assert (result.valid, result.kind, result.points, result.reason) == (False, None, 0, reason)
    assert (result.arrangement, result.jokers, result.card_points) == ((), (), ())
    assert not result.is_pure


def test_is_pure() -> None:
    assert meld("5C 6C 7C").is_pure
    assert not meld("JK 6C 7C").is_pure
    assert not meld("5C 5D 5H").is_pure


def test_accepts_any_sequence_of_cards() -> None:
    assert evaluate_meld([JOKER, *parse_cards("7S 8S")], RAMI).points == 21
    assert evaluate_meld(iter(parse_cards("7S 8S 9S")), RAMI).points == 24  # type: ignore[arg-type]


@pytest.mark.parametrize(("table", "added", "valid", "points", "reason"), [
    ("QH KH AH", "JH", True, 41, None),
    ("QH KH AH", "2H", False, 0, "wrap"),
    ("5H 6H 7H", "8H", True, 26, None),
    ("5H 6H 7H", "4H 8H", True, 30, None),
    ("5H 6H 7H", "9H", False, 0, "gap"),
    ("5C 5D 5H", "5S", True, 20, None),
    ("5C 5D 5H", "5H", False, 0, "duplicate_suit"),
    ("5C 5D 5H 5S", "JK", False, 0, "too_long"),
    ("JK 7S 8S", "9S", True, 30, None),
    # a table joker keeps its card (content/melds.md): that card is not laid off beside it
    ("4H JK 6H", "5H", False, 0, "duplicate_card"),
    ("4H JK 6H", "7H", True, 22, None),
    ("2S 3S JK", "AS", False, 0, "duplicate_card"),  # the joker is the ace, its lower place
    ("2S 3S JK", "4S", True, 10, None),
    ("5H 5S JK", "5C", True, 20, None),  # a set's joker takes any missing suit
    ("5H 5S JK", "5D", True, 20, None),
    ("5H 6H 7H", "", False, 0, "nothing_added"),
])
def test_layoff(table: str, added: str, valid: bool, points: int, reason: str | None) -> None:
    result = evaluate_layoff(parse_cards(table), parse_cards(added), RAMI)
    assert (result.valid, result.points, result.reason) == (valid, points, reason)
    assert result.cards == parse_cards(table) + parse_cards(added)
