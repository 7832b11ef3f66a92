"""Melds: sets and sequences, with jokers resolved to their stand-in cards.

A **set** is 3 or 4 cards of one rank with distinct suits. A **sequence** is
3 or more consecutive cards of one suit; the ace is low (A-2-3, only where
``rules.ace_low``) or high (Q-K-A), never both at once and never in the
middle (K-A-2 wraps and is always refused).

Laid points: 2–9 their face value; 10, J, Q, K 10; an ace 11 at the high end
of a sequence and in a set of aces, 1 at the low end. A joker is worth the
card it stands for (reference rules) or ``rules.joker_value`` (house rules).

Joker resolution considers every legal placement and takes the one with
the fewest points. Ties are broken, in order, by: a sequence before a set;
the lower stand-in cards (compared by rank with the ace as 1, then by suit in
the order C D H S); the lower starting position. Stand-ins are reported in
that order, the first joker given getting the lowest stand-in.

Reason codes of an invalid meld:

======================= =====================================================
``too_short``           fewer than 3 cards
``too_long``            a set of more than 4 cards, or more than 13 cards
``joker_not_allowed``   a joker where the rules have none
``too_many_jokers``     more than ``rules.max_jokers_per_meld`` jokers
``all_jokers``          only jokers, and ``rules.all_joker_melds`` is off
``mixed_suits``         looks like a sequence but the suits differ
``mixed_ranks``         looks like a set but the ranks differ
``duplicate_suit``      a set with two cards of one suit
``duplicate_card``      a sequence with the same card twice
``gap``                 a sequence with missing cards that the jokers cannot fill
``wrap``                the cards only connect through K-A-2
``ace_low_not_allowed`` only A-2-3… would fit, and the rules forbid a low ace
``adjacent_jokers``     every placement puts two jokers side by side
======================= =====================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from site_builder.engine.cards import (
    ACE_HIGH_POINTS,
    ACE_LOW_POINTS,
    CARDS_BY_ORDINAL,
    FACE_POINTS,
    JOKER_ORDINAL,
    Card,
)
from site_builder.engine.rules import RuleSet

__all__ = ["REASONS", "MeldResult", "evaluate_meld", "laid_value"]

MeldKind = Literal["set", "sequence"]

REASONS: Final = (
    "too_short", "too_long", "joker_not_allowed", "too_many_jokers", "all_jokers",
    "mixed_suits", "mixed_ranks", "duplicate_suit", "duplicate_card", "gap", "wrap",
    "ace_low_not_allowed", "adjacent_jokers",
)

#: Laid value by sequence position: 1 is the low ace, 14 the high ace.
_POSITION_VALUE: Final = (0, ACE_LOW_POINTS, *range(2, 10), *(FACE_POINTS,) * 4, ACE_HIGH_POINTS)
#: _PREFIX[p] = sum of the values of positions 1 … p.
_PREFIX: Final = tuple(sum(_POSITION_VALUE[: p + 1]) for p in range(15))
#: Laid value in a set, by rank (ace 11).
_SET_VALUE: Final = (0, ACE_HIGH_POINTS, *_POSITION_VALUE[2:14])
_MAX_LENGTH: Final = 13
#: The fewest cards in any meld (a set or a sequence).
MIN_MELD_CARDS: Final = 3
#: The most cards in a set: one of each suit.
MAX_SET_CARDS: Final = 4


@dataclass(frozen=True, slots=True)
class MeldResult:
    """The verdict on one meld.

    * ``cards``: the cards as given.
    * ``arrangement``: the meld as laid (a sequence from low to high, a set in
      suit order C D H S), each joker replaced by its stand-in card.
    * ``jokers``: the stand-in of each joker, in the order the jokers appear.
    * ``card_points``: the points of each position of ``arrangement``.
    * ``reason``: ``None`` when valid, otherwise a code from :data:`REASONS`.
    """

    valid: bool
    kind: MeldKind | None
    points: int
    reason: str | None
    cards: tuple[Card, ...]
    arrangement: tuple[Card, ...] = ()
    jokers: tuple[Card, ...] = ()
    card_points: tuple[int, ...] = ()

    @property
    def is_pure(self) -> bool:
        """A valid sequence of at least 3 cards without a joker.

        >>> from site_builder.engine import get_rules, parse_cards
        >>> rules = get_rules("rami51")
        >>> evaluate_meld(parse_cards("5C 6C 7C"), rules).is_pure
        True
        >>> evaluate_meld(parse_cards("JK 6C 7C"), rules).is_pure
        False
        """
        return (self.valid and self.kind == "sequence" and len(self.cards) >= 3
                and not self.jokers)


def laid_value(card: Card, *, ace_high: bool) -> int:
    """Laid points of a natural card; *ace_high* says whether an ace is at the high end.

    >>> from site_builder.engine import parse_card
    >>> laid_value(parse_card("AH"), ace_high=True), laid_value(parse_card("QH"), ace_high=True)
    (11, 10)
    """
    if card.rank is None:
        raise ValueError("a joker has no value of its own")
    if card.rank == 1:
        return 11 if ace_high else 1
    return min(card.rank.value, 10)


# A candidate placement: (points, kind order, stand-in keys, start, payload).
# Kind order 0 = sequence, 1 = set. A stand-in key is rank * 4 + suit index
# (ace as rank 1), so comparing key tuples compares (rank, suit) pairs. Two
# candidates that agree on the first four items are the same placement, so
# candidates compare as plain tuples.
_Candidate = tuple[int, int, tuple[int, ...], int, tuple[int, ...]]

#: The cards of each suit by sequence position (index 1 and 14 are the ace).
_SEQUENCE_CARDS: Final = tuple(
    (CARDS_BY_ORDINAL[JOKER_ORDINAL],)
    + CARDS_BY_ORDINAL[suit * 13: suit * 13 + 13]
    + (CARDS_BY_ORDINAL[suit * 13],)
    for suit in range(4)
)
#: The card of each stand-in key (keys below 4 are unused).
_KEY_CARDS: Final = tuple(
    CARDS_BY_ORDINAL[(key & 3) * 13 + (key >> 2) - 1] if key >= 4 else CARDS_BY_ORDINAL[52]
    for key in range(56)
)


def evaluate_meld(cards: Sequence[Card], rules: RuleSet) -> MeldResult:
    """Judge one meld under *rules*; the order of *cards* does not matter.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> rami = get_rules("rami51")
    >>> result = evaluate_meld(parse_cards("JK 7S 8S"), rami)
    >>> result.valid, result.kind, result.points, [c.code for c in result.jokers]
    (True, 'sequence', 21, ['6S'])
    >>> [c.code for c in result.arrangement], result.card_points
    (['6S', '7S', '8S'], (6, 7, 8))
    >>> evaluate_meld(parse_cards("QH KH AH"), rami).points
    31
    >>> evaluate_meld(parse_cards("AH 2H 3H"), rami).points
    6
    >>> evaluate_meld(parse_cards("AH 2H 3H"), get_rules("cardverse")).reason
    'ace_low_not_allowed'
    >>> evaluate_meld(parse_cards("KH AH 2H"), rami).reason
    'wrap'
    >>> evaluate_meld(parse_cards("JK 7S 8S"), get_rules("rami51", joker_value=15)).points
    30
    """
    given = tuple(cards)
    n = len(given)
    if n < MIN_MELD_CARDS:
        return MeldResult(False, None, 0, "too_short", given)
    ordinals = [card.ordinal for card in given]
    jokers = ordinals.count(JOKER_ORDINAL)
    if jokers:
        if rules.jokers == 0:
            return MeldResult(False, None, 0, "joker_not_allowed", given)
        if jokers > rules.max_jokers_per_meld:
            return MeldResult(False, None, 0, "too_many_jokers", given)
        if jokers == n and not rules.all_joker_melds:
            return MeldResult(False, None, 0, "all_jokers", given)
        naturals = [o for o in ordinals if o != JOKER_ORDINAL]
    else:
        naturals = ordinals
    if n > _MAX_LENGTH:
        return MeldResult(False, None, 0, "too_long", given)
    m = n - jokers

    best: _Candidate | None
    if m == 0:
        best, reason = _all_jokers(n, rules)
    else:
        suits = {o // 13 for o in naturals}
        ranks = {o % 13 + 1 for o in naturals}
        if len(ranks) == 1:
            best, reason = _best_set(suits, ranks, jokers, n, m, rules)
        elif len(suits) > 1:
            # Several ranks and several suits: say what the meld most looks like.
            return MeldResult(False, None, 0, "mixed_suits" if len(ranks) == m
                              else _mixed_reason(naturals), given)
        elif len(ranks) < m:
            return MeldResult(False, None, 0, "duplicate_card", given)
        else:
            suit = suits.pop()
            if not jokers:  # fast path for a natural sequence
                positions = sorted(ranks)
                lo = positions[0]
                hi = positions[-1]
                run = hi - lo + 1 == m
                if lo == 1:  # the ace is low (A-2-3…) or high (…Q-K-A); low scores less
                    run = run and rules.ace_low
                    if not run and positions[1] == 15 - m:
                        lo, hi, run = positions[1], 14, True
                if run:
                    return MeldResult(True, "sequence", _PREFIX[hi] - _PREFIX[lo - 1], None,
                                      given, _SEQUENCE_CARDS[suit][lo:hi + 1], (),
                                      _POSITION_VALUE[lo:hi + 1])
            best, reason = _best_sequence(suit, ranks, jokers, rules)
    if best is None:
        return MeldResult(False, None, 0, reason, given)
    return _result(given, best, rules.joker_value)


def _mixed_reason(naturals: list[int]) -> str:
    """``mixed_suits`` if some suit is at least as common as any rank, else ``mixed_ranks``."""
    suits = [o // 13 for o in naturals]
    ranks = [o % 13 for o in naturals]
    most_suit = max(suits.count(s) for s in set(suits))
    most_rank = max(ranks.count(r) for r in set(ranks))
    return "mixed_suits" if most_suit >= most_rank else "mixed_ranks"


def _best_set(
    suits: set[int], ranks: set[int], jokers: int, n: int, m: int, rules: RuleSet
) -> tuple[_Candidate | None, str]:
    """Natural cards of one rank: a set, or (for a lone natural card) a sequence."""
    rank = next(iter(ranks))
    best: _Candidate | None = None
    reason = ""
    if n > MAX_SET_CARDS:
        reason = "too_long"
    elif len(suits) < m:
        reason = "duplicate_suit"
    else:
        best = _set_candidate(rank, suits, jokers, rules.joker_value)
    if m == 1:  # a lone natural card with jokers may also be part of a sequence
        sequence, sequence_reason = _best_sequence(next(iter(suits)), ranks, jokers, rules)
        if sequence is not None and (best is None or sequence < best):
            best = sequence
        elif best is None:
            reason = sequence_reason
    return best, reason


def _set_candidate(
    rank: int, suits: set[int] | list[int], jokers: int, jv: int | None
) -> _Candidate:
    """The set of *rank* with natural *suits*; jokers take the lowest missing suits."""
    value = _SET_VALUE[rank]
    if not jokers:
        return (value * len(suits), 1, (), rank, (rank,))
    stand_ins = [s for s in range(4) if s not in suits][:jokers]
    points = value * len(suits) + (value if jv is None else jv) * jokers
    return (points, 1, tuple(rank * 4 + s for s in stand_ins), rank, (rank, *stand_ins))


def _best_sequence(
    suit: int, ranks: set[int], jokers: int, rules: RuleSet
) -> tuple[_Candidate | None, str]:
    """The best sequence of *suit* through the natural *ranks*, or the reason there is none."""
    ace_low = rules.ace_low
    positions = sorted(ranks)
    if positions[0] == 1:
        options = [(positions[1:] + [14], 2, 14)]
        if ace_low:
            options.append((positions, 1, 13))
    else:
        options = [(positions, 1 if ace_low else 2, 14)]
    best = _scan_sequences(suit, options, jokers, rules, rules.adjacent_jokers)
    if best is not None:
        return best, ""
    # No placement: find the most helpful reason.
    if not rules.adjacent_jokers and _scan_sequences(suit, options, jokers, rules,
                                                      True) is not None:
        return None, "adjacent_jokers"
    if not ace_low and positions[0] == 1 and positions[-1] - len(positions) <= jokers:
        return None, "ace_low_not_allowed"
    circular = [r - 1 for r in positions]
    widest = max(b - a for a, b in zip(circular, circular[1:] + [circular[0] + 13], strict=True))
    if 14 - widest <= len(positions) + jokers:
        return None, "wrap"
    return None, "gap"


def _scan_sequences(
    suit: int,
    options: list[tuple[list[int], int, int]],
    jokers: int,
    rules: RuleSet,
    adjacent_ok: bool,
) -> _Candidate | None:
    """Try every way to place the jokers around natural positions (see :func:`_best_sequence`).

    Each option is (sorted natural positions, lowest allowed, highest allowed
    position). The jokers first fill the gaps; the spare ones go to either end.
    """
    jv = rules.joker_value
    best: _Candidate | None = None
    for positions, low_bound, high_bound in options:
        lo = positions[0]
        hi = positions[-1]
        spare = jokers - (hi - lo + 1 - len(positions))
        if spare < 0:
            continue
        if not jokers:
            candidate: _Candidate = (_PREFIX[hi] - _PREFIX[lo - 1], 0, (), lo, (suit, lo, hi))
            if best is None or candidate < best:
                best = candidate
            continue
        inner = [p for p in range(lo + 1, hi) if p not in positions] if spare < jokers else []
        for below in range(spare + 1):
            start = lo - below
            end = hi + spare - below
            if start < low_bound or end > high_bound:
                continue
            joker_positions = [*range(start, lo), *inner, *range(hi + 1, end + 1)]
            if not adjacent_ok and jokers > 1 and any(
                b - a == 1 for a, b in zip(joker_positions, joker_positions[1:], strict=False)
            ):
                continue
            points = _PREFIX[end] - _PREFIX[start - 1]
            if jv is not None:
                for p in joker_positions:
                    points += jv - _POSITION_VALUE[p]
            keys = [(1 if p == 14 else p) * 4 + suit for p in joker_positions]
            if end == 14 and jokers > 1:
                keys.sort()
            candidate = (points, 0, tuple(keys), start, (suit, start, end, *joker_positions))
            if best is None or candidate < best:
                best = candidate
    return best


def _all_jokers(n: int, rules: RuleSet) -> tuple[_Candidate | None, str]:
    """The best meld made of *n* jokers (only when ``rules.all_joker_melds``)."""
    jv = rules.joker_value
    best: _Candidate | None = None
    if n <= 4:
        for rank in range(1, 14):
            candidate = _set_candidate(rank, [], n, jv)
            if best is None or candidate < best:
                best = candidate
    if rules.adjacent_jokers:  # three or more jokers in a row always stand side by side
        for suit in range(4):
            for start in range(1 if rules.ace_low else 2, 16 - n):
                end = start + n - 1
                points = _PREFIX[end] - _PREFIX[start - 1] if jv is None else jv * n
                keys = tuple(sorted((1 if p == 14 else p) * 4 + suit
                                    for p in range(start, end + 1)))
                candidate = (points, 0, keys, start, (suit, start, end, *range(start, end + 1)))
                if best is None or candidate < best:
                    best = candidate
    if best is None:
        return None, "adjacent_jokers"
    return best, ""


def _result(given: tuple[Card, ...], best: _Candidate, jv: int | None) -> MeldResult:
    points, kind_order, keys, _, payload = best
    stand_ins = tuple([_KEY_CARDS[key] for key in keys]) if keys else ()
    if kind_order == 0:
        suit, start, end, *joker_positions = payload
        arrangement = _SEQUENCE_CARDS[suit][start:end + 1]
        values = _POSITION_VALUE[start:end + 1]
        if jv is not None and joker_positions:
            laid = list(values)
            for p in joker_positions:
                laid[p - start] = jv
            values = tuple(laid)
        return MeldResult(True, "sequence", points, None, given, arrangement, stand_ins, values)
    rank, *joker_suits = payload
    value = _SET_VALUE[rank]
    natural_suits = {card.ordinal // 13 for card in given if card.ordinal != JOKER_ORDINAL}
    laid_suits = sorted([*natural_suits, *joker_suits])
    arrangement = tuple([CARDS_BY_ORDINAL[s * 13 + rank - 1] for s in laid_suits])
    card_points = tuple([value if jv is None or s in natural_suits else jv for s in laid_suits])
    return MeldResult(True, "set", points, None, given, arrangement, stand_ins, card_points)
