"""Hand points, round scores, the stock-out winner, openings' card counts, and dealing."""

from __future__ import annotations

from collections import Counter

import pytest

from site_builder.engine import (
    JOKER,
    RulesError,
    deal,
    evaluate_opening,
    full_deck,
    get_rules,
    hand_points,
    parse_cards,
    round_scores,
    stock_out_winner,
)

CARDVERSE = get_rules("cardverse")


def test_hand_points() -> None:
    assert hand_points(parse_cards("AH KS 7D"), CARDVERSE) == 18
    assert hand_points(parse_cards("AH KS 7D"), get_rules("cardverse", ace_high=True)) == 28
    assert hand_points(parse_cards("2C 9D 10H JS QC KD"), CARDVERSE) == 51
    assert hand_points((), CARDVERSE) == 0
    assert hand_points([JOKER], get_rules("rami51")) == 20
    assert hand_points([JOKER], get_rules("rami51", joker_hand_points=50)) == 50


def test_round_scores_winner_takes_opponents_points() -> None:
    hands = [parse_cards("KH 2C"), (), parse_cards("AS 9D")]
    assert round_scores(hands, 1, CARDVERSE) == (0, 22, 0)
    assert round_scores(hands, 0, CARDVERSE) == (10, 0, 0)
    with pytest.raises(RulesError, match="winner must be a seat from 0 to 2"):
        round_scores(hands, 3, CARDVERSE)


def test_stock_out_fewest_points_win_ties_to_first_seat() -> None:
    hands = [parse_cards("KH"), parse_cards("5C 3D"), parse_cards("8S"), parse_cards("QS")]
    assert stock_out_winner(hands, CARDVERSE) == 1  # 10, 8, 8, 10: seats 1 and 2 tie
    assert stock_out_winner([parse_cards("AH"), parse_cards("AS")], CARDVERSE) == 0
    aces_high = get_rules("cardverse", ace_high=True)
    assert stock_out_winner([parse_cards("AH"), parse_cards("10S")], aces_high) == 1


def test_opening_counts_copies_against_the_deck() -> None:
    rami = get_rules("rami51")
    twice = [parse_cards("5C 6C 7C"), parse_cards("5C 6C 7C"), parse_cards("KH KS KD")]
    assert evaluate_opening(twice, rami).accepted  # two decks: two of each card
    thrice = [*twice, parse_cards("5C 5D 5H")]
    assert "too_many_copies" in evaluate_opening(thrice, rami).reasons
    jokers = [parse_cards("JK 2C 3C"), parse_cards("JK 5D 6D"), parse_cards("JK 9H 10H"),
              parse_cards("JK JS QS"), parse_cards("JK KC KD")]
    assert evaluate_opening(jokers, rami).reasons == ("too_many_copies", "no_pure_sequence")
    one_deck = [parse_cards("5C 6C 7C"), parse_cards("5C 5D 5H")]
    assert evaluate_opening(one_deck, CARDVERSE).reasons == ("too_many_copies",)


def test_opening_reports_every_reason() -> None:
    result = evaluate_opening([parse_cards("KH KS"), parse_cards("QC QD QS")], get_rules("rami51"))
    assert result.reasons == ("invalid_meld", "below_threshold", "no_pure_sequence")
    assert not result.accepted
    assert [m.reason for m in result.melds] == ["too_short", None]
    assert evaluate_opening([], get_rules("rami40")).reasons == ("no_melds", "below_threshold")


def test_full_deck() -> None:
    assert len(full_deck(CARDVERSE)) == 52 and len(set(full_deck(CARDVERSE))) == 52
    rami = Counter(full_deck(get_rules("rami40")))
    assert len(rami) == 53 and rami[JOKER] == 4
    assert all(count == 2 for card, count in rami.items() if not card.is_joker)


@pytest.mark.parametrize(("game", "players", "size"), [
    ("cardverse", 2, 7), ("cardverse", 3, 10), ("cardverse", 4, 10),
    ("rami51", 2, 13), ("rami40", 4, 13),
])
def test_deal(game: str, players: int, size: int) -> None:
    rules = get_rules(game)
    dealt = deal(rules, players, seed=2024)
    assert [len(hand) for hand in dealt.hands] == [size] * players
    assert len(dealt.discard) == 1
    every = [c for hand in dealt.hands for c in hand] + list(dealt.stock) + list(dealt.discard)
    assert Counter(every) == Counter(full_deck(rules))
    assert deal(rules, players, seed=2024) == dealt
    assert deal(rules, players, seed=2025) != dealt


def test_deal_is_pinned_to_random_seed() -> None:
    dealt = deal(CARDVERSE, 2, seed=1)
    assert " ".join(map(str, dealt.hands[0])) == "JS QH 3C 7D 10H 4H 5S"
    assert str(dealt.discard[0]) == "JD"


@pytest.mark.parametrize("players", [0, 1, 5])
def test_deal_outside_two_to_four_players(players: int) -> None:
    message = rf"^Rami \(CardVerse\) is for 2 to 4 players, not {players}$"
    with pytest.raises(RulesError, match=message):
        deal(CARDVERSE, players, seed=1)
