"""Random rounds driven by Hypothesis: every invariant holds after every action.

The driver picks among the state's own list of legal actions, and now and
then asks for an action that is not legal, which must be refused without
changing anything. Each finished or abandoned round is then replayed from its
notation, which must give the same state.

The fast tier plays a few short rounds; the soaks, many long ones, are in the slow tier.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.engine import (
    Action,
    Card,
    Discarding,
    Drawing,
    Phase,
    RoundState,
    RuleSet,
    deal,
    evaluate_meld,
    format_history,
    full_deck,
    get_rules,
    hand_points,
    replay,
    round_scores,
)
from site_builder.engine.cards import CARDS_BY_ORDINAL

RULES = [
    get_rules("cardverse"),
    get_rules("cardverse", discard_to_win=True),
    get_rules("cardverse", ace_high=True),
    get_rules("rami40"),
    get_rules("rami51"),
    get_rules("rami51", joker_value=15, discard_to_win=True),
]
# Smaller Rami hands keep the examples quick; the rules are the same.
SMALL_RAMI = [get_rules(name, deal_sizes=((2, 9), (3, 9), (4, 9))) for name in ("rami40",
                                                                                  "rami51")]


def check_invariants(state: RoundState, deck: Counter[Card]) -> None:
    assert Counter(state.cards()) == deck, "cards gained or lost"
    numbers = [meld.number for meld in state.table]
    assert numbers == sorted(set(numbers))
    for meld in state.table:
        result = evaluate_meld(meld.cards, state.rules)
        assert result.valid and result.points == meld.points
    assert all(state.opened) or any(not o for o in state.opened)
    if state.pending:
        assert not state.opened[state.turn]
        assert all(meld.owner == state.turn for meld in state.table if meld.number in
                   state.pending)
    ending = state.ending
    if ending is None:
        assert state.phase in (Phase.DRAW, Phase.PLAY)
        if state.phase is Phase.DRAW:
            assert state.stock, "a player must draw from an empty stock"
        assert all(state.hands), "a player without cards but the round goes on"
        return
    assert state.phase is Phase.OVER
    assert state.history[-1] == ending
    points = tuple(hand_points(hand, state.rules) for hand in state.hands)
    assert ending.hand_points == points
    assert ending.scores == round_scores(state.hands, ending.winner, state.rules, state.opened)
    # scores add up: CardVerse's winner gains every other hand's points; in Rami 40/51 each
    # other seat's penalty is its own hand's points (or the fixed unopened penalty)
    others = sum(p for seat, p in enumerate(points) if seat != ending.winner)
    if state.rules.penalty_scoring:
        assert ending.scores[ending.winner] == 0
        if state.rules.unopened_hand_points is None:
            assert sum(ending.scores) == others
    else:
        assert sum(ending.scores) == ending.scores[ending.winner] == others
    if ending.reason == "out":
        assert state.hands[ending.winner] == ()
    else:
        assert state.stock == ()
        assert ending.winner == points.index(min(points))


def illegal_actions(state: RoundState, data: st.DataObject) -> list[Action]:
    """Some actions that the rules refuse now."""
    hand = state.hands[state.turn]
    outside = [c for c in CARDS_BY_ORDINAL[:52] if c not in hand]
    out: list[Action] = [Action("discard", (data.draw(st.sampled_from(outside)),))]
    if state.phase is Phase.DRAW:
        out.append(Action("meld", tuple(hand[:3])))
        out.append(Action("discard", (hand[0],)))
    else:
        out.append(Action("draw_stock"))
        out.append(Action("lay_off", (hand[0],), 999))
        if len(hand) >= 3:
            cards = tuple(data.draw(st.permutations(hand))[:3])
            if not evaluate_meld(cards, state.rules).valid:
                out.append(Action("meld", cards))
    return out


def play_randomly(rules: RuleSet, players: int, seed: int, data: st.DataObject,
                  steps: int) -> RoundState:
    dealt = deal(rules, players, seed)
    first = data.draw(st.integers(0, players - 1))
    state = RoundState.from_deal(rules, dealt, first=first)
    deck = Counter(full_deck(rules))
    check_invariants(state, deck)
    for _ in range(steps):
        if state.is_over:
            break
        if data.draw(st.integers(0, 9)) == 0:
            before = (state.hands, state.table, state.stock, state.discard_pile, state.history)
            for action in illegal_actions(state, data):
                assert not state.can(action)
            assert (state.hands, state.table, state.stock, state.discard_pile,
                    state.history) == before
        legal = state.legal_actions()
        assert legal, "no legal action in a round that is not over"
        # Prefer melds and lay-offs a little so that rounds reach their end.
        weighted = [a for a in legal if a.kind in ("meld", "lay_off")] * 2 + list(legal)
        action = data.draw(st.sampled_from(weighted))
        assert state.can(action)
        record = state.apply(action)
        assert state.history[-1] is record or state.history[-2] is record
        check_invariants(state, deck)
    # The history, written in round notation, replays to the same state.
    done = replay(rules, dealt.hands, dealt.stock, dealt.discard,
                  format_history(state.history), first=first)
    assert done.hands == state.hands
    assert done.table == state.table
    assert done.ending == state.ending
    assert done.stock == state.stock and done.discard_pile == state.discard_pile
    return state


@settings(max_examples=10)
@given(rules=st.sampled_from(RULES[:3] + SMALL_RAMI), players=st.integers(2, 4),
       seed=st.integers(0, 2**32), data=st.data())
def test_a_few_random_rounds_keep_every_invariant(rules: RuleSet, players: int, seed: int,
                                                  data: st.DataObject) -> None:
    play_randomly(rules, players, seed, data, steps=100)


@pytest.mark.slow  # a soak: 60 rounds of up to 250 actions
@settings(max_examples=60)
@given(rules=st.sampled_from(RULES[:3] + SMALL_RAMI), players=st.integers(2, 4),
       seed=st.integers(0, 2**32), data=st.data())
def test_random_rounds_keep_every_invariant(rules: RuleSet, players: int, seed: int,
                                            data: st.DataObject) -> None:
    play_randomly(rules, players, seed, data, steps=250)


@pytest.mark.slow  # a soak: 15 full-size rounds of up to 120 actions
@settings(max_examples=15)
@given(rules=st.sampled_from(RULES[3:]), seed=st.integers(0, 2**32), data=st.data())
def test_random_full_size_rami_rounds_keep_every_invariant(rules: RuleSet, seed: int,
                                                           data: st.DataObject) -> None:
    play_randomly(rules, 2, seed, data, steps=120)


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_a_failed_opening_returns_exactly_the_laid_cards(seed: int, data: st.DataObject) -> None:
    rules = get_rules("rami51")
    state = RoundState.from_deal(rules, deal(rules, 2, seed))
    state.draw_stock()
    before = Counter(state.hands[0])
    melds = [a for a in state.legal_actions() if a.kind == "meld"]
    laid: list[Card] = []
    for action in data.draw(st.lists(st.sampled_from(melds), max_size=3)) if melds else []:
        if state.can(action):
            state.apply(action)
            laid.extend(action.cards)
    card = state.hands[0][0]
    record = state.discard(card)
    assert isinstance(record, Discarding)
    if laid:
        assert record.opening is not None
        assert record.opening.accepted == (not record.returned)
        if not record.opening.accepted:
            assert Counter(record.returned) == Counter(laid)
            assert Counter(state.hands[0]) == before - Counter([card])
            assert state.table == ()
            assert not state.opened[0]
    else:
        assert record.opening is None


def test_views_never_show_hidden_cards() -> None:
    rules = get_rules("cardverse")
    state = RoundState.from_deal(rules, deal(rules, 3, 5))
    for _ in range(30):
        if state.is_over:
            break
        state.apply(state.legal_actions()[0] if state.phase is Phase.DRAW
                    else state.legal_actions()[-1])
        for seat in range(3):
            view = state.view(seat)
            assert view.hand == state.hands[seat]
            for op in view.history:
                if isinstance(op, Drawing) and op.source == "stock":
                    assert op.card is None
