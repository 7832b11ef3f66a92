"""Rami 40/51 rules from the published sources: joker exchange, taking the discard, penalty
scoring, the end of a game, and the variations declared in content/profiles.toml."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.engine import (
    JOKER,
    Card,
    Rank,
    ReplayError,
    RoundState,
    Suit,
    Swapping,
    evaluate_meld,
    game_over,
    game_winners,
    get_rules,
    parse_card,
    parse_cards,
    replay,
    round_scores,
)

ROOT = Path(__file__).resolve().parents[2]
RAMI40 = get_rules("rami40")
RAMI51 = get_rules("rami51")

# Seat 1 lays a joker meld, seat 2 opens, then exchanges the joker (content/melds.md).
HANDS = ["4H JK 6H 9C 10C JC QC 2D 8H 8S 3D 6S 5S",
         "10S JS QS KC KD KS 5H 2C 3C 9D 4D 7S AH"]
STOCK = "QH 2H 4C 7C"
OPENINGS = ("1: draw stock; 1: meld 9C 10C JC QC; 1: meld 4H JK 6H; 1: discard QH; "
            "2: draw stock; 2: meld 10S JS QS; 2: meld KC KD KS; 2: discard 2H; "
            "1: draw stock; 1: discard 4C; 2: draw stock 7C")


def test_joker_exchange_replays_and_the_joker_is_laid_again() -> None:
    done = replay(RAMI51, HANDS, STOCK, "6C",
                  OPENINGS + "; 2: swap 5H for JK on 2; 2: meld 2C 3C JK; 2: discard 7C")
    swap = done.steps[-3].operation
    assert isinstance(swap, Swapping) and str(swap) == "2: swap 5H for JK on 2"
    assert [str(m) for m in done.table if m.number == 2] == ["2: 4H 5H 6H"]
    assert done.table[1].cards == parse_cards("4H 5H 6H")
    assert Counter(done.hands[1]) == Counter(parse_cards("9D 4D 7S AH"))


@pytest.mark.parametrize(("step", "reason"), [
    ("2: swap 7C for JK on 2", "7C cannot replace the joker in meld 2 (4H 5H 6H): the joker "
                               "stands for 5H"),
    ("2: swap 9D for JK on 1", "meld 1 (9C 10C JC QC) holds no joker"),
    ("2: swap 8H for JK on 2", "seat 2 does not hold 8H"),
])
def test_a_joker_exchange_with_the_wrong_card_names_the_reason(step: str, reason: str) -> None:
    with pytest.raises(ReplayError, match=r"step 12 \(" + step + r"\): ") as caught:
        replay(RAMI51, HANDS, STOCK, "6C", OPENINGS + "; " + step)
    assert caught.value.message == reason


def test_the_joker_taken_must_be_laid_in_the_same_turn() -> None:
    with pytest.raises(ReplayError, match="step 13 .*seat 2 took a joker from meld 2 and must "
                                          "lay it this turn"):
        replay(RAMI51, HANDS, STOCK, "6C", OPENINGS + "; 2: swap 5H for JK on 2; 2: discard 7C")


def test_the_card_a_joker_stands_for_goes_in_by_exchange_not_by_lay_off() -> None:
    """content/melds.md: "The joker can only be the five" of 4H JK 6H, and the five goes
    in by exchanging the joker. Laid off beside it, the meld would hold 5H twice (a meld
    may not hold two identical cards: Remik, szl.wikipedia)."""
    with pytest.raises(ReplayError, match=r"step 12 \(2: layoff 5H on 2\): ") as caught:
        replay(RAMI51, HANDS, STOCK, "6C", OPENINGS + "; 2: layoff 5H on 2")
    assert caught.value.message == "5H does not fit meld 2 (4H 5H 6H): duplicate_card"


def test_no_joker_exchange_before_the_first_meld() -> None:
    script = "1: draw stock; 1: meld 9C 10C JC QC; 1: meld 4H JK 6H; 1: discard QH; " \
             "2: draw stock; 2: swap 5H for JK on 2"
    with pytest.raises(ReplayError, match="has not opened yet and may not exchange a joker"):
        replay(RAMI51, HANDS, STOCK, "6C", script)


def test_a_joker_in_a_set_is_exchanged_for_a_missing_suit() -> None:
    state = RoundState(RAMI40, [parse_cards("10S JS QS KS 7H 7S JK 2C 2D 9H"),
                                parse_cards("3C 4D 5S 8C 9D")],
                       parse_cards("QD 4C 7D 7C"), parse_cards("6C"))
    for text in ("draw stock", "meld 10S JS QS KS", "meld 7H 7S JK"):
        verb, _, rest = text.partition(" ")
        if verb == "draw":
            state.draw_stock()
        else:
            state.meld(parse_cards(rest))
    state.discard(parse_card("2C"))
    state.draw_stock()
    state.discard(parse_card("3C"))
    state.draw_stock()  # seat 1 draws 7D
    assert not state.can_swap(2, parse_card("7H"))  # the set holds a heart already
    assert not state.can_swap(2, parse_card("8C"))
    assert state.can_swap(2, parse_card("7D"))
    record = state.swap(2, parse_card("7D"))
    assert evaluate_meld(state.table[1].cards, RAMI40).valid and record.points == 21


def test_cardverse_has_no_joker_exchange() -> None:
    state = RoundState(get_rules("cardverse"), [parse_cards("5H 6H 7H 2C"),
                                                parse_cards("3D 4S 9D 9C")],
                       parse_cards("KS 8D"), parse_cards("4C"))
    state.draw_stock()
    with pytest.raises(ValueError, match="has no joker exchange"):
        state.verify_swap(1, parse_card("2C"))


# --- taking the discard ------------------------------------------------------------------------

def test_the_discard_may_be_taken_only_to_be_laid() -> None:
    hands = ["7H 8H 9H 3C 3D 3S KC 2D 5S 8D JC 4C AD", "QD QC QS 5D 6D 7D 2H 9S 10C AC 4S"]
    # 7H 8H 9H 10H and three threes make 43, short of 51.
    with pytest.raises(ReplayError, match=r"step 1 \(1: draw discard\): seat 1 may take 10H from "
                                          r"the discard pile only to lay it this turn, and "
                                          r"cannot: no opening that uses it is accepted"):
        replay(RAMI51, hands, "9D JH", "10H", "1: draw discard")
    with pytest.raises(ReplayError, match="cannot: it fits no meld"):
        replay(RAMI40, hands, "9D JH", "6C", "1: draw discard")
    done = replay(RAMI40, hands, "9D JH", "10H",
                  "1: draw discard 10H; 1: meld 7H 8H 9H 10H; 1: meld 3C 3D 3S; 1: discard KC")
    assert done.opened == (True, False)


def test_the_card_taken_must_be_laid_before_the_discard() -> None:
    hands = ["7H 8H 9H 3C 3D 3S KC 2D 5S 8D JC 4C AD", "QD QC QS 5D 6D 7D 2H 9S 10C AC 4S"]
    with pytest.raises(ReplayError, match=r"step 2 \(1: discard KC\): seat 1 took 10H from the "
                                          r"discard pile and must lay 10H this turn"):
        replay(RAMI40, hands, "9D JH", "10H", "1: draw discard; 1: discard KC")
    # A meld after which the card could no longer be laid is refused at once.
    with pytest.raises(ReplayError, match=r"step 2 \(1: meld 7H 8H 9H\): seat 1 must lay 10H "
                                          r"this turn and could not after that \(it fits no "
                                          r"meld\)"):
        replay(RAMI40, hands, "9D JH", "10H", "1: draw discard; 1: meld 7H 8H 9H")
    # Laid in a first meld that falls short: the card goes back to the hand, so it is not laid.
    with pytest.raises(ReplayError, match="must lay 10H this turn"):
        replay(RAMI51, ["7H 8H 9H 3C 3D 3S KC KD KS 5S", "QD QC QS"], "9D JH", "10H",
               "1: draw discard; 1: meld 7H 8H 9H 10H; 1: discard KC")
    # Under the free_discard variation, the same steps are allowed.
    free = get_rules("rami40", discard_must_be_used=False)
    replay(free, hands, "9D JH", "10H", "1: draw discard; 1: discard KC")


# --- scoring and the end of the game -----------------------------------------------------------

def test_rami_scores_penalty_points_and_cardverse_gains() -> None:
    hands = [(), parse_cards("JK AS 7D 2C KC 3H"), parse_cards("2S")]
    assert round_scores(hands, 0, RAMI51) == (0, 53, 2)
    assert round_scores(hands, 0, get_rules("rami51", joker_hand_points=25)) == (0, 58, 2)
    assert round_scores(hands, 0, get_rules("rami51", ace_high=False)) == (0, 43, 2)
    hundred = get_rules("rami51", unopened_hand_points=100)
    assert round_scores(hands, 0, hundred, [True, False, True]) == (0, 100, 2)
    assert round_scores([(), parse_cards("KH"), parse_cards("AS")], 0,
                        get_rules("cardverse")) == (11, 0, 0)


def test_the_game_ends_at_the_limit_and_the_lowest_total_wins() -> None:
    assert not game_over([63, 162, 157], RAMI51)
    assert game_over([63, 522, 169], RAMI51) and game_winners([63, 522, 169], RAMI51) == (0,)
    assert game_winners([300, 520, 300], RAMI51) == (0, 2)
    assert game_winners([40, 104], get_rules("cardverse")) == (1,)


def test_a_whole_round_scores_add_up() -> None:
    """The round of content/whole-round.md: seat 2's penalty is its hand's points."""
    done = replay(RAMI51, ["5C 6C 7C KH KS KD 2S 3S 8D 5H 2D 10C QC",
                           "4H 6H JK 9D 10D JD QD 8C AS JK 7D 2C KC"],
                  "QH 3H 9C QS", "4S",
                  "1: draw stock; 1: meld 5C 6C 7C; 1: meld KH KS KD; 1: discard 2D; "
                  "2: draw stock; 2: meld 9D 10D JD QD; 2: meld 4H JK 6H; 2: discard 8C; "
                  "1: draw discard 8C; 1: meld 5C 6C 7C 8C; 1: meld KH KS KD; 1: discard 10C; "
                  "2: draw stock; 2: layoff 9C on 3; 2: layoff KC on 4; 2: layoff 3H on 2; "
                  "2: discard AS; 1: draw stock QS; "
                  "1: swap 5H for JK on 2; 1: meld 2S 3S JK; 1: meld QC QH QS; 1: discard 8D")
    assert (done.reason, done.winner, done.hand_points, done.scores) == ("out", 0, (0, 29),
                                                                          (0, 29))
    assert sum(done.scores) == sum(done.hand_points)


# --- a joker exchange never makes a meld invalid ------------------------------------------------

NATURALS = [Card(rank, suit) for rank in Rank for suit in Suit]


@st.composite
def joker_meld(draw: st.DrawFn) -> tuple[Card, ...]:
    """A valid Rami meld of 3-5 cards with one joker in it."""
    suit = draw(st.sampled_from(list(Suit)))
    if draw(st.booleans()):
        rank = draw(st.sampled_from(list(Rank)))
        suits = draw(st.permutations(list(Suit)))[:draw(st.integers(3, 4))]
        cards = [Card(rank, s) for s in suits]
    else:
        length = draw(st.integers(3, 5))
        start = draw(st.integers(1, 14 - length + 1))
        cards = [Card(Rank(1 if p == 14 else p), suit) for p in range(start, start + length)]
    cards[draw(st.integers(0, len(cards) - 1))] = JOKER
    return tuple(cards)


@settings(max_examples=150)
@given(meld=joker_meld(), card=st.sampled_from(NATURALS))
def test_a_joker_exchange_never_breaks_a_meld(meld: tuple[Card, ...], card: Card) -> None:
    before = evaluate_meld(meld, RAMI40)
    hand = [*parse_cards("10S JS QS KS"), *meld, card, parse_card("2D")]
    everything = Counter([*hand, *parse_cards("3C 4D 5S 9D 4C 8C 6C")])
    if not before.valid or any(n > 2 for c, n in everything.items() if not c.is_joker):
        return
    state = RoundState(RAMI40, [hand, parse_cards("3C 4D 5S")],
                       parse_cards("9D 4C 8C"), parse_cards("6C"))
    state.draw_stock()
    state.meld(parse_cards("10S JS QS KS"))
    state.meld(meld)
    state.discard(parse_card("2D"))
    state.draw_stock()
    state.discard(parse_card("3C"))
    state.draw_stock()
    cards_before = Counter(state.cards())
    if state.can_swap(2, card):
        record = state.swap(2, card)
        after = evaluate_meld(state.table[1].cards, RAMI40)
        assert after.valid and after.kind == before.kind and after.points == before.points
        assert record.points == after.points
        assert JOKER in state.hands[0]
    elif before.kind == "sequence":
        assert card not in before.jokers  # the card a sequence's joker stands for is accepted
    assert Counter(state.cards()) == cards_before  # no card created or lost
