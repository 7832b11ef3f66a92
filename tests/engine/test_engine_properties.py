"""Hypothesis properties of the engine, checked against a brute-force oracle.

The oracle below is written independently of ``site_builder.engine.melds``:
it replaces each joker by every one of the 52 cards in turn, judges the
resulting all-natural meld by the plain definitions, and keeps the lowest
placement under the documented tie-break (points, then a sequence before a
set, then the stand-ins compared by (rank with ace 1, suit C<D<H<S) in joker
order, then the lower start).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.engine import (
    JOKER,
    Card,
    MeldResult,
    Rank,
    RuleSet,
    Suit,
    evaluate_meld,
    evaluate_opening,
    get_rules,
)

SUIT_ORDER = [Suit.C, Suit.D, Suit.H, Suit.S]
NATURALS = [Card(rank, suit) for suit in SUIT_ORDER for rank in Rank]


def position_value(position: int) -> int:
    """Laid value of a sequence position (1 = low ace, 14 = high ace)."""
    if position == 1:
        return 1
    if position == 14:
        return 11
    return position if position < 10 else 10


def sort_key(card: Card) -> tuple[int, int]:
    assert card.rank is not None and card.suit is not None
    return (int(card.rank), SUIT_ORDER.index(card.suit))


Layout = tuple[str, list[Card], list[int], int]  # kind, laid cards, values, start


def natural_layouts(cards: Sequence[Card], rules: RuleSet) -> Iterator[Layout]:
    """Every way to lay these natural cards as one valid meld."""
    n = len(cards)
    ranks = {c.rank for c in cards}
    suits = [c.suit for c in cards]
    if 3 <= n <= 4 and len(ranks) == 1 and len(set(suits)) == n:
        rank = cards[0].rank
        assert rank is not None
        value = 11 if rank == Rank.ACE else min(int(rank), 10)
        laid = sorted(cards, key=sort_key)
        yield ("set", laid, [value] * n, int(rank))
    if n >= 3 and len(set(suits)) == 1:
        for ace_position in ((1, 14) if rules.ace_low else (14,)):
            def place(card: Card, ace_position: int = ace_position) -> int:
                return ace_position if card.rank == Rank.ACE else int(card.rank or 0)
            laid = sorted(cards, key=place)
            positions = [place(c) for c in laid]
            if positions == list(range(positions[0], positions[0] + n)):
                yield ("sequence", laid, [position_value(p) for p in positions], positions[0])


def oracle(cards: Sequence[Card], rules: RuleSet) -> tuple[object, ...] | None:
    """(points, kind, arrangement codes, joker codes, card points) of the best placement."""
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    best: tuple[tuple[object, ...], tuple[object, ...]] | None = None
    for stand_ins in itertools.product(NATURALS, repeat=jokers):
        for kind, laid, values, start in natural_layouts(naturals + list(stand_ins), rules):
            joker_at = [i for i, c in enumerate(laid) if c in stand_ins]
            if len(joker_at) != jokers:  # a stand-in duplicated a natural card
                continue
            if kind == "sequence" and not rules.adjacent_jokers and any(
                    b == a + 1 for a, b in zip(joker_at, joker_at[1:], strict=False)):
                continue
            if rules.joker_value is not None:
                values = [rules.joker_value if i in joker_at else v for i, v in enumerate(values)]
            key = (sum(values), 0 if kind == "sequence" else 1,
                   tuple(sort_key(s) for s in stand_ins), start)
            answer = (sum(values), kind, [c.code for c in laid], [s.code for s in stand_ins],
                      tuple(values))
            if best is None or key < best[0]:
                best = (key, answer)
    return None if best is None else best[1]


def summary(result: MeldResult) -> tuple[object, ...]:
    return (result.points, result.kind, [c.code for c in result.arrangement],
            [c.code for c in result.jokers], result.card_points)


# --- strategies -----------------------------------------------------------

rule_sets = st.builds(
    lambda game, **kw: get_rules(game, **kw),
    game=st.sampled_from(["rami40", "rami51"]),
    joker_value=st.sampled_from([None, None, 15, 0, 7]),
    max_jokers_per_meld=st.integers(1, 3),
    adjacent_jokers=st.booleans(),
    ace_low=st.booleans(),
)
all_rule_sets = st.one_of(rule_sets, st.sampled_from([get_rules("cardverse")]))
natural_cards = st.sampled_from(NATURALS)


@st.composite
def meld_like(draw: st.DrawFn, max_jokers: int = 2) -> list[Card]:
    """Mostly near-melds (runs and sets with jokers and noise), sometimes random cards."""
    shape = draw(st.sampled_from(["run", "run", "set", "random"]))
    if shape == "run":
        suit = draw(st.sampled_from(SUIT_ORDER))
        length = draw(st.integers(3, 7))
        start = draw(st.integers(1, 14 - length + 1))
        ranks = [1 if p == 14 else p for p in range(start, start + length)]
        cards = [Card(Rank(r), suit) for r in ranks]
    elif shape == "set":
        rank = draw(st.sampled_from(list(Rank)))
        suits = draw(st.lists(st.sampled_from(SUIT_ORDER), min_size=3, max_size=4, unique=True))
        cards = [Card(rank, s) for s in suits]
    else:
        cards = draw(st.lists(natural_cards, min_size=3, max_size=7))
    if draw(st.booleans()):  # drop a card, opening a gap or leaving a short meld
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    if draw(st.integers(0, 3)) == 0:  # noise: swap in a random card
        cards[draw(st.integers(0, len(cards) - 1))] = draw(natural_cards)
    jokers = draw(st.integers(0, max_jokers))
    for _ in range(jokers):
        replace_one: bool = draw(st.booleans())
        if cards and replace_one:
            cards[draw(st.integers(0, len(cards) - 1))] = JOKER
        else:
            cards.append(JOKER)
    return draw(st.permutations(cards))


# --- properties -----------------------------------------------------------


@settings(max_examples=300)
@given(cards=meld_like(), rules=all_rule_sets, data=st.data())
def test_card_order_never_changes_the_result(
    cards: list[Card], rules: RuleSet, data: st.DataObject
) -> None:
    shuffled = data.draw(st.permutations(cards))
    first = evaluate_meld(cards, rules)
    second = evaluate_meld(shuffled, rules)
    assert replace(second, cards=first.cards) == first


@settings(max_examples=250)
@given(cards=meld_like(), rules=rule_sets)
def test_joker_resolution_matches_brute_force_oracle(cards: list[Card], rules: RuleSet) -> None:
    result = evaluate_meld(cards, rules)
    jokers = sum(c.is_joker for c in cards)
    if len(cards) < 3 or jokers > rules.max_jokers_per_meld or jokers == len(cards):
        assert not result.valid
        return
    expected = oracle(cards, rules)
    if expected is None:
        assert not result.valid, summary(result)
        assert result.reason is not None
    else:
        assert result.valid, result.reason
        assert summary(result) == expected


@settings(max_examples=200)
@given(cards=meld_like(max_jokers=0), rules=all_rule_sets)
def test_natural_melds_match_oracle(cards: list[Card], rules: RuleSet) -> None:
    result = evaluate_meld(cards, rules)
    expected = oracle(cards, rules)
    assert (summary(result) if result.valid else None) == expected


@settings(max_examples=200)
@given(suit=st.sampled_from(SUIT_ORDER), length=st.integers(3, 13), data=st.data(),
       rules=all_rule_sets)
def test_pure_sequence_scores_its_positional_values(
    suit: Suit, length: int, data: st.DataObject, rules: RuleSet
) -> None:
    low = 1 if rules.ace_low else 2
    start = data.draw(st.integers(low, 14 - length + 1))
    positions = list(range(start, start + length))
    cards = [Card(Rank(1 if p == 14 else p), suit) for p in positions]
    result = evaluate_meld(data.draw(st.permutations(cards)), rules)
    assert result.valid and result.is_pure
    if length == 13 and rules.ace_low:  # all 13 ranks lie either way; the low ace scores less
        positions = list(range(1, 14))
    assert result.points == sum(position_value(p) for p in positions)
    assert result.card_points == tuple(position_value(p) for p in positions)


@settings(max_examples=150)
@given(melds=st.lists(meld_like(), min_size=0, max_size=4), rules=all_rule_sets)
def test_opening_total_is_the_sum_of_its_melds(melds: list[list[Card]], rules: RuleSet) -> None:
    result = evaluate_opening(melds, rules)
    assert result.total == sum(evaluate_meld(m, rules).points for m in melds)
    assert result.accepted == (not result.reasons)
    assert result.pure_sequence == any(evaluate_meld(m, rules).is_pure for m in melds)
    if rules.opening_threshold is not None and result.total < rules.opening_threshold:
        assert "below_threshold" in result.reasons


def test_three_jokers_alone_match_oracle() -> None:
    """All-joker melds (a house rule): the oracle tries all 52**3 stand-ins."""
    for adjacent in (True, False):
        rules = get_rules("rami51", all_joker_melds=True, max_jokers_per_meld=3,
                          adjacent_jokers=adjacent)
        result = evaluate_meld([JOKER] * 3, rules)
        assert result.valid
        assert summary(result) == oracle([JOKER] * 3, rules)
    assert summary(evaluate_meld([JOKER] * 3, get_rules(
        "rami51", all_joker_melds=True, max_jokers_per_meld=3, adjacent_jokers=True))) == (
        6, "sequence", ["AC", "2C", "3C"], ["AC", "2C", "3C"], (1, 2, 3))
