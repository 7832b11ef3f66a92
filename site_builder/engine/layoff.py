"""Lay-offs: adding cards from a hand to a meld already on the table."""

from __future__ import annotations

from collections.abc import Sequence

from site_builder.engine.cards import Card
from site_builder.engine.melds import MeldResult, evaluate_meld
from site_builder.engine.rules import RuleSet

__all__ = ["evaluate_layoff"]


def evaluate_layoff(meld: Sequence[Card], added: Sequence[Card], rules: RuleSet) -> MeldResult:
    """The meld that results from adding *added* to *meld*; it must be one valid meld.

    The engine does not remember where a joker on the table was laid: the
    combined meld's jokers are resolved afresh. Adding nothing is refused with
    the reason ``nothing_added``.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> rami = get_rules("rami51")
    >>> qka = parse_cards("QH KH AH")
    >>> result = evaluate_layoff(qka, parse_cards("JH"), rami)
    >>> result.valid, result.points, [c.code for c in result.arrangement]
    (True, 41, ['JH', 'QH', 'KH', 'AH'])
    >>> evaluate_layoff(qka, parse_cards("2H"), rami).reason
    'wrap'
    """
    combined = (*meld, *added)
    if not added:
        return MeldResult(False, None, 0, "nothing_added", combined)
    return evaluate_meld(combined, rules)
