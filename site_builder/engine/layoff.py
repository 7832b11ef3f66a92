"""Lay-offs: adding cards from a hand to a meld already on the table."""

from __future__ import annotations

from collections.abc import Sequence

from site_builder.engine.cards import Card
from site_builder.engine.melds import MeldResult, evaluate_meld
from site_builder.engine.rules import RuleSet

__all__ = ["evaluate_layoff"]


def evaluate_layoff(meld: Sequence[Card], added: Sequence[Card], rules: RuleSet) -> MeldResult:
    """The meld that results from adding *added* to *meld*; it must be one valid meld.

    A joker in a **sequence** keeps the place it was laid in (the one :func:`evaluate_meld`
    gives *meld*, its lower place where it could stand in two): the cards added must make
    a valid meld with it there. So the card a joker stands for cannot be laid off beside
    it (the meld would hold that card twice); it goes in by exchanging the joker. This is
    the site's choice, from the seed's "the lower value counts" (content/melds.md,
    "Jokers"); szl.wikipedia "Remik" lets the player name the card instead.

    A joker in a **set** stands for whichever suit the set lacks: any missing suit may
    be laid off, and the joker then stands for the suit still missing (no source pins a
    set joker to one suit; content/melds.md, "Exchanging a joker", lets either missing
    suit replace it). Adding nothing is refused with the reason ``nothing_added``.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> rami = get_rules("rami51")
    >>> qka = parse_cards("QH KH AH")
    >>> result = evaluate_layoff(qka, parse_cards("JH"), rami)
    >>> result.valid, result.points, [c.code for c in result.arrangement]
    (True, 41, ['JH', 'QH', 'KH', 'AH'])
    >>> evaluate_layoff(qka, parse_cards("2H"), rami).reason
    'wrap'

    The joker of ``4H JK 6H`` is the five; of ``2S 3S JK``, the ace (its lower place):

    >>> evaluate_layoff(parse_cards("4H JK 6H"), parse_cards("5H"), rami).reason
    'duplicate_card'
    >>> result = evaluate_layoff(parse_cards("4H JK 6H"), parse_cards("7H"), rami)
    >>> result.points, [c.code for c in result.jokers]
    (22, ['5H'])
    >>> evaluate_layoff(parse_cards("2S 3S JK"), parse_cards("AS"), rami).reason
    'duplicate_card'
    >>> evaluate_layoff(parse_cards("2S 3S JK"), parse_cards("5S"), rami).reason
    'gap'

    In a set, either missing suit may be laid off; the joker takes the other one:

    >>> [c.code for c in evaluate_layoff(parse_cards("5H 5S JK"), parse_cards("5C"), rami).jokers]
    ['5D']
    >>> [c.code for c in evaluate_layoff(parse_cards("5H 5S JK"), parse_cards("5D"), rami).jokers]
    ['5C']
    >>> evaluate_layoff(parse_cards("KC KD JK"), parse_cards("KH"), rami).points
    40
    >>> evaluate_layoff(parse_cards("5H 5S JK"), parse_cards("5H"), rami).reason
    'duplicate_suit'
    >>> result = evaluate_layoff(parse_cards("JK 7S 8S"), parse_cards("9S"),
    ...                          get_rules("rami51", joker_value=15))
    >>> result.points, result.card_points
    (39, (15, 7, 8, 9))
    """
    combined = (*meld, *added)
    if not added:
        return MeldResult(False, None, 0, "nothing_added", combined)
    free = evaluate_meld(combined, rules)
    if not free.valid or not any(card.is_joker for card in meld):
        return free
    table = evaluate_meld(meld, rules)
    if not table.valid or not table.jokers or table.kind == "set":
        return free  # a set's joker takes any suit the set lacks
    # The table's jokers as the cards they stand for, and the added cards (a joker among
    # them still takes whatever place fits best).
    naturals = tuple(card for card in meld if card.rank is not None)
    fixed = evaluate_meld((*naturals, *table.jokers, *added), rules)
    if not fixed.valid:
        return MeldResult(False, None, 0, fixed.reason, combined)
    card_points = list(fixed.card_points)
    if rules.joker_value is not None:
        for stand_in in table.jokers:
            card_points[fixed.arrangement.index(stand_in)] = rules.joker_value
    return MeldResult(True, fixed.kind, sum(card_points), None, combined, fixed.arrangement,
                      (*table.jokers, *fixed.jokers), tuple(card_points))
