"""The hand search (against brute force) and the easy, normal and hard players."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.engine import (
    JOKER,
    Action,
    Card,
    RoundState,
    RuleSet,
    View,
    best_arrangement,
    deal,
    evaluate_meld,
    evaluate_opening,
    find_melds,
    get_rules,
    hand_points,
    parse_cards,
)
from site_builder.engine.cards import CARDS_BY_ORDINAL
from site_builder.engine.play import make_player, play_round

CARDVERSE = get_rules("cardverse")
RAMI51 = get_rules("rami51")

NATURALS = list(CARDS_BY_ORDINAL[:52])


def key(cards: tuple[Card, ...] | list[Card]) -> tuple[int, ...]:
    return tuple(sorted(card.ordinal for card in cards))


def brute_melds(hand: list[Card], rules: RuleSet) -> set[tuple[int, ...]]:
    found = set()
    for size in range(3, len(hand) + 1):
        for combo in itertools.combinations(hand, size):
            if all(c.is_joker for c in combo):
                continue
            if evaluate_meld(combo, rules).valid:
                found.add(key(list(combo)))
    return found


def brute_deadwood(hand: list[Card], rules: RuleSet) -> int:
    """The fewest points left over any set of disjoint melds (tries every split)."""
    melds = [m for m in brute_melds(hand, rules)]
    best = hand_points(hand, rules)

    def go(rest: Counter[int], start: int) -> None:
        nonlocal best
        best = min(best, hand_points([CARDS_BY_ORDINAL[o] for o in rest.elements()], rules))
        for i in range(start, len(melds)):
            need = Counter(melds[i])
            if not need - rest:
                go(rest - need, i + 1)

    go(Counter(card.ordinal for card in hand), 0)
    return best


hands = st.lists(st.sampled_from(NATURALS), min_size=3, max_size=9, unique=True)


@settings(max_examples=150)
@given(hand=hands, rules=st.sampled_from([CARDVERSE, RAMI51]))
def test_find_melds_lists_every_valid_meld(hand: list[Card], rules: RuleSet) -> None:
    assert {key(m) for m in find_melds(hand, rules)} == brute_melds(hand, rules)
    assert len(find_melds(hand, rules)) == len(brute_melds(hand, rules))


@settings(max_examples=150)
@given(naturals=st.lists(st.sampled_from(NATURALS), min_size=2, max_size=7),
       jokers=st.integers(0, 2))
def test_find_melds_with_jokers_and_two_decks(naturals: list[Card], jokers: int) -> None:
    counts = Counter(naturals)
    hand = [c for c in naturals if counts[c] <= 2] + [JOKER] * jokers
    assert {key(m) for m in find_melds(hand, RAMI51)} == brute_melds(hand, RAMI51)


@settings(max_examples=100)
@given(hand=st.lists(st.sampled_from(NATURALS), min_size=3, max_size=8, unique=True),
       rules=st.sampled_from([CARDVERSE, RAMI51]))
def test_best_arrangement_leaves_the_fewest_points(hand: list[Card], rules: RuleSet) -> None:
    found = best_arrangement(hand, rules)
    assert found.complete
    assert found.deadwood_points == brute_deadwood(hand, rules)
    laid = [c for meld in found.melds for c in meld]
    assert Counter(laid) + Counter(found.deadwood) == Counter(hand)
    assert all(evaluate_meld(meld, rules).valid for meld in found.melds)


@settings(max_examples=100)
@given(hand=st.lists(st.sampled_from(NATURALS), min_size=6, max_size=10, unique=True))
def test_an_arranged_opening_is_accepted(hand: list[Card]) -> None:
    found = best_arrangement(hand, RAMI51, min_points=51, need_pure=True)
    if found.melds:
        assert evaluate_opening(found.melds, RAMI51).accepted
        assert found.laid_points == evaluate_opening(found.melds, RAMI51).total


def test_keep_leaves_a_card_for_the_final_discard() -> None:
    hand = parse_cards("9C 9D 9H 9S")
    assert best_arrangement(hand, CARDVERSE).deadwood == ()
    kept = best_arrangement(hand, CARDVERSE, keep=1)
    assert len(kept.deadwood) == 1 and kept.melds


# ---------------------------------------------------------------- the players

def state_for(hands: list[str], stock: str, discard: str, rules: RuleSet = CARDVERSE,
              ) -> RoundState:
    return RoundState(rules, [parse_cards(h) for h in hands], parse_cards(stock),
                      parse_cards(discard))


def turn(state: RoundState, level: str) -> list[str]:
    """Let *level* play one whole turn; return the notation of its actions."""
    player = make_player(level)
    seat = state.turn
    done = []
    while not state.is_over and state.turn == seat:
        action = player.choose(state.view(seat))
        assert state.can(action), action
        done.append(str(state.apply(action)))
        if done[-1].startswith(f"{seat + 1}: discard"):
            break
    return done


def test_easy_discards_its_strongest_single_card() -> None:
    state = state_for(["5H 6H 7H KS 2C QD", "9D 9C 3S 4S JH"], "8S QC", "4D")
    assert turn(state, "easy") == ["1: draw stock 8S", "1: meld 5H 6H 7H", "1: discard KS"]


def test_easy_takes_the_discard_only_to_lay_it() -> None:
    state = state_for(["5H 6H KS 2C", "9D 9C 3S 4S JH"], "QD 8S", "7H")
    assert turn(state, "easy")[:2] == ["1: draw discard 7H", "1: meld 5H 6H 7H"]
    state = state_for(["5H 9H KS 2C", "9D 9C 3S 4S JH"], "QD 8S", "7H")
    assert turn(state, "easy")[0] == "1: draw stock QD"


LEVELS = ["easy", "normal", "hard"]


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_lays_off_and_goes_out(level: str) -> None:
    state = state_for(["2C 2D 2H 7D 8D 9D QH", "2S 10D"], "4H KS 3C", "QC")
    for action in (Action("draw_stock"), Action("meld", parse_cards("2C 2D 2H")),
                   Action("meld", parse_cards("7D 8D 9D")), Action("discard", parse_cards("QH"))):
        state.apply(action)
    assert turn(state, level) == ["2: draw stock KS", "2: layoff 10D on 2", "2: layoff 2S on 1",
                                  "2: discard KS"]
    assert state.ending is not None
    assert (state.ending.reason, state.ending.winner, state.ending.scores) == ("out", 1, (0, 4))


def took_queen_of_clubs() -> RoundState:
    """Seat 2 took QC from the discard pile and kept it; seat 1 then draws 2D."""
    state = RoundState(CARDVERSE, [parse_cards("2H 3H 4H KC JS"), parse_cards("9S 5D 6S 8C")],
                       parse_cards("2D 7D"), parse_cards("QC"), first=1)
    for action in (Action("draw_discard"), Action("discard", parse_cards("9S")),
                   Action("draw_stock"), Action("meld", parse_cards("2H 3H 4H"))):
        state.apply(action)
    return state


def test_easy_feeds_but_normal_and_hard_weigh_the_risk() -> None:
    # KC and JS are both worth 10; KC sits next to the queen seat 2 is collecting.
    view = took_queen_of_clubs().view(0)
    assert make_player("easy").choose(view) == Action("discard", parse_cards("KC"))
    assert make_player("normal").choose(view) == Action("discard", parse_cards("JS"))
    assert make_player("hard").choose(view) == Action("discard", parse_cards("JS"))


def test_hard_remembers_the_dead_cards() -> None:
    # 4H and 4S went to the discard pile in the open: the pair of fours is dead, the
    # pair of nines is live. Easy and normal break the nines (more points); hard keeps them.
    # Seat 2 still holds seven cards, so hard weighs near-melds in full.
    seven = parse_cards("4H 4S 7C 8D 2S 3H 6D")
    state = RoundState(CARDVERSE, [parse_cards("4C 4D 9C"), seven],
                       parse_cards("2C QH 3D 9D 10S JS"), parse_cards("KH"), first=1)
    for action in (Action("draw_stock"), Action("discard", parse_cards("4H")),
                   Action("draw_stock"), Action("discard", parse_cards("QH")),
                   Action("draw_stock"), Action("discard", parse_cards("4S")),
                   Action("draw_stock")):
        state.apply(action)
    view = state.view(0)
    assert make_player("easy").choose(view) == Action("discard", parse_cards("9D"))
    assert make_player("normal").choose(view) == Action("discard", parse_cards("9D"))
    assert make_player("hard").choose(view) == Action("discard", parse_cards("4D"))


@pytest.mark.parametrize("level", LEVELS)
def test_rami_players_never_lay_a_short_opening(level: str) -> None:
    hands = ["5C 6C 7C KH KS KD 2D 9S", "3H 4H 9D QC JS 2C 6D 7S"]
    state = state_for(hands, "QD 10H 8C 4S", "5S", RAMI51)
    actions = turn(state, level)
    assert not any(" meld " in action for action in actions)  # 48 < 51
    assert state.table == ()
    state = state_for(hands, "QD 10H 8C 4S", "5S", get_rules("rami40"))
    actions = turn(state, level)
    melds = sorted(" ".join(sorted(a.split()[2:])) for a in actions if " meld " in a)
    assert melds == ["5C 6C 7C", "KD KH KS"]
    assert state.opened == (True, False)


@pytest.mark.parametrize("level", LEVELS)
def test_discard_to_win_players_keep_a_card(level: str) -> None:
    state = state_for(["9C 9D 9H", "2S 3D"], "9S KD", "QC", get_rules("cardverse",
                                                                      discard_to_win=True))
    actions = turn(state, level)
    assert len(actions) == 3 and actions[1].startswith("1: meld 9")
    assert state.ending is not None and state.ending.winner == 0


def test_players_see_only_a_view() -> None:
    rules = CARDVERSE
    state = RoundState.from_deal(rules, deal(rules, 2, 3))
    view = state.view(0)
    assert isinstance(view, View)
    assert not hasattr(view, "hands") and not hasattr(view, "stock")
    for level in ("easy", "normal", "hard"):
        assert make_player(level).choose(view) in (Action("draw_stock"), Action("draw_discard"))


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), levels=st.tuples(*[st.sampled_from(["easy", "normal",
                                                                       "hard"])] * 2),
       rules=st.sampled_from([CARDVERSE, get_rules("cardverse", discard_to_win=True)]))
def test_computer_rounds_keep_every_invariant(seed: int, levels: tuple[str, str],
                                               rules: RuleSet) -> None:
    state = RoundState.from_deal(rules, deal(rules, 2, seed), first=seed % 2)
    done = play_round(state, [make_player(level) for level in levels])
    assert done.violations == ()
    assert done.ending is not None


@settings(max_examples=6)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 3),
       rules=st.sampled_from([get_rules("rami40"), RAMI51]))
def test_computer_rami_rounds_keep_every_invariant(seed: int, players: int,
                                                   rules: RuleSet) -> None:
    levels = ["hard", "normal", "easy"][:players]
    state = RoundState.from_deal(rules, deal(rules, players, seed))
    done = play_round(state, [make_player(level) for level in levels])
    assert done.violations == ()
    assert done.ending is not None
