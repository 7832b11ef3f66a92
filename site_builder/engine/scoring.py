"""Points left in a hand, round scores and the stock-out winner."""

from __future__ import annotations

from collections.abc import Sequence

from site_builder.engine.cards import Card
from site_builder.engine.rules import RulesError, RuleSet

__all__ = ["card_hand_points", "hand_points", "round_scores", "stock_out_winner"]


def card_hand_points(card: Card, rules: RuleSet) -> int:
    """Points of one card left in a hand: ace 1 (11 with ``rules.ace_high``),
    2–9 face value, 10 J Q K 10, a joker ``rules.joker_hand_points``.

    >>> from site_builder.engine import JOKER, get_rules, parse_card
    >>> rules = get_rules("rami51")
    >>> card_hand_points(parse_card("AH"), rules), card_hand_points(JOKER, rules)
    (1, 25)
    """
    if card.rank is None:
        return rules.joker_hand_points
    if card.rank == 1:
        return 11 if rules.ace_high else 1
    return min(card.rank.value, 10)


def hand_points(cards: Sequence[Card], rules: RuleSet) -> int:
    """The points left in a hand.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> hand_points(parse_cards("AH KS 7D"), get_rules("cardverse"))
    18
    >>> hand_points(parse_cards("AH KS 7D"), get_rules("cardverse", ace_high=True))
    28
    """
    return sum(card_hand_points(card, rules) for card in cards)


def round_scores(hands: Sequence[Sequence[Card]], winner: int, rules: RuleSet) -> tuple[int, ...]:
    """Score a round: the *winner* (a seat index) gains the opponents' hand points.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> hands = [(), parse_cards("KH 2C"), parse_cards("AS")]
    >>> round_scores(hands, 0, get_rules("cardverse"))
    (13, 0, 0)
    """
    if isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < len(hands):
        raise RulesError(f"winner must be a seat from 0 to {len(hands) - 1}, not {winner!r}")
    gained = sum(hand_points(hand, rules) for seat, hand in enumerate(hands) if seat != winner)
    return tuple(gained if seat == winner else 0 for seat in range(len(hands)))


def stock_out_winner(hands: Sequence[Sequence[Card]], rules: RuleSet) -> int:
    """The seat that wins when the stock runs out: fewest hand points, ties to the first seat.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> stock_out_winner([parse_cards("KH"), parse_cards("5C 5D"), parse_cards("QS")],
    ...                  get_rules("cardverse"))
    0
    """
    if not hands:
        raise RulesError("there are no hands to compare")
    points = [hand_points(hand, rules) for hand in hands]
    return points.index(min(points))
