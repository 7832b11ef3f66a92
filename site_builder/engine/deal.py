"""The deck and a seeded, deterministic deal."""

from __future__ import annotations

import random
from dataclasses import dataclass

from site_builder.engine.cards import CARDS_BY_ORDINAL, JOKER, PACK_CARDS, Card
from site_builder.engine.rules import RulesError, RuleSet

__all__ = ["Deal", "deal", "full_deck"]


@dataclass(frozen=True, slots=True)
class Deal:
    """A dealt round: one hand per seat, the stock (``stock[0]`` is drawn
    first) and the discard pile (one card turned up)."""

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]


def full_deck(rules: RuleSet) -> tuple[Card, ...]:
    """Every card of the variant, unshuffled: each deck in suit order C D H S and
    rank order A … K, then the jokers.

    >>> from site_builder.engine import get_rules
    >>> len(full_deck(get_rules("cardverse"))), len(full_deck(get_rules("rami51")))
    (52, 108)
    """
    return CARDS_BY_ORDINAL[:PACK_CARDS] * rules.decks + (JOKER,) * rules.jokers


def deal(rules: RuleSet, players: int, seed: int) -> Deal:
    """Shuffle with ``random.Random(seed)`` and deal one card at a time to each seat.

    The same rules, players and seed always give the same deal.

    >>> from site_builder.engine import get_rules
    >>> dealt = deal(get_rules("cardverse"), 3, seed=7)
    >>> [len(hand) for hand in dealt.hands], len(dealt.discard), len(dealt.stock)
    ([10, 10, 10], 1, 21)
    >>> dealt == deal(get_rules("cardverse"), 3, seed=7)
    True
    """
    size = rules.hand_size(players)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RulesError(f"the seed must be an integer, not {seed!r}")
    cards = list(full_deck(rules))
    random.Random(seed).shuffle(cards)
    dealt = players * size
    hands = tuple(tuple(cards[seat:dealt:players]) for seat in range(players))
    return Deal(hands=hands, stock=tuple(cards[dealt + 1:]), discard=(cards[dealt],))
