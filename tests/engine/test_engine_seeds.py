"""Every number in the seed pages, plus published rules from elsewhere."""

from __future__ import annotations

import pytest

from site_builder.engine import evaluate_meld, evaluate_opening, get_rules, parse_cards


@pytest.mark.parametrize(("cards", "points", "arrangement", "jokers"), [
    ("QH KH AH", 31, "QH KH AH", ""),       # ace high: 10 + 10 + 11
    ("AH 2H 3H", 6, "AH 2H 3H", ""),        # ace low: 1 + 2 + 3
    ("JK 7S 8S", 21, "6S 7S 8S", "6S"),     # the joker is the 6, not the 9
])
@pytest.mark.parametrize("game", ["rami40", "rami51"])
def test_worked_melds(game: str, cards: str, points: int, arrangement: str, jokers: str) -> None:
    result = evaluate_meld(parse_cards(cards), get_rules(game))
    assert result.valid
    assert result.kind == "sequence"
    assert result.points == points
    assert " ".join(c.code for c in result.arrangement) == arrangement
    assert " ".join(c.code for c in result.jokers) == jokers
    assert result.reason is None


Verdict = tuple[int, int | None, bool, tuple[str, ...]]


def opening(game: str, *melds: str, **overrides: int) -> Verdict:
    result = evaluate_opening([parse_cards(m) for m in melds], get_rules(game, **overrides))
    return result.total, result.threshold, result.accepted, result.reasons


def test_opening_1_pure_sequence_and_joker_sequence_52_at_51() -> None:
    assert opening("rami51", "QH KH AH", "JK 7S 8S") == (52, 51, True, ())


def test_opening_2_two_sets_60_rejected_without_pure_sequence() -> None:
    assert opening("rami51", "KH KS KD", "QC QD QS") == (60, 51, False, ("no_pure_sequence",))


def test_opening_3_48_rejected_at_51() -> None:
    assert opening("rami51", "5C 6C 7C", "KH KS KD") == (48, 51, False, ("below_threshold",))


def test_opening_4_same_cards_accepted_at_40() -> None:
    assert opening("rami40", "5C 6C 7C", "KH KS KD") == (48, 40, True, ())


def test_opening_5_exactly_40_is_enough() -> None:
    assert opening("rami40", "5C 6C 7C", "4D 4S 4C", "AH 2H 3H 4H") == (40, 40, True, ())


def test_opening_6_house_rule_joker_worth_15_gives_61() -> None:
    assert opening("rami51", "QH KH AH", "JK 7S 8S", joker_value=15) == (61, 51, True, ())


def test_rami40_needs_no_pure_sequence() -> None:
    result = evaluate_opening([parse_cards("KH KS KD"), parse_cards("QC QD QS")],
                              get_rules("rami40"))
    assert (result.total, result.accepted, result.pure_sequence,
            result.pure_sequence_required) == (60, True, False, False)


def test_polish_remik_opening_64_accepted_at_51() -> None:
    """Remik (pl): A♦-2♦-joker + 8♦ 8♣ 8♥ + 7♠ 8♠ 9♠ 10♠ = 6 + 24 + 34 = 64."""
    result = evaluate_opening(
        [parse_cards("A♦ 2♦ JK"), parse_cards("8♦ 8♣ 8♥"), parse_cards("7♠ 8♠ 9♠ 10♠")],
        get_rules("rami51"),
    )
    assert [m.points for m in result.melds] == [6, 24, 34]
    assert [c.code for c in result.melds[0].jokers] == ["3D"]  # never K♦: K-A-2 wraps
    assert (result.total, result.accepted, result.pure_sequence) == (64, True, True)


def test_kaluki_style_ace_low_and_high_but_never_round_the_corner() -> None:
    """Two-deck rummy rules (e.g. Kaluki): A-2-3 and Q-K-A are melds, K-A-2 is not."""
    rami = get_rules("rami51")
    assert evaluate_meld(parse_cards("AS 2S 3S"), rami).valid
    assert evaluate_meld(parse_cards("QS KS AS"), rami).valid
    assert evaluate_meld(parse_cards("KS AS 2S"), rami).reason == "wrap"


def test_set_of_aces_scores_11_each() -> None:
    result = evaluate_meld(parse_cards("AH AS AD"), get_rules("rami51"))
    assert (result.kind, result.points, result.card_points) == ("set", 33, (11, 11, 11))


def test_cardverse_page_ace_high_only_and_no_jokers() -> None:
    cardverse = get_rules("cardverse")
    assert evaluate_meld(parse_cards("QD KD AD"), cardverse).points == 31
    assert evaluate_meld(parse_cards("AD 2D 3D"), cardverse).reason == "ace_low_not_allowed"
    assert evaluate_meld(parse_cards("KD AD 2D"), cardverse).reason == "wrap"
    assert evaluate_meld(parse_cards("JK 7S 8S"), cardverse).reason == "joker_not_allowed"
    assert evaluate_meld(parse_cards("7S 7H 7S"), cardverse).reason == "duplicate_suit"
    result = evaluate_opening([parse_cards("5C 5D 5H")], cardverse)
    assert (result.threshold, result.accepted) == (None, True)  # no first-meld threshold
