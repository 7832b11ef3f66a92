"""Scripted rounds in compact notation, replayed through the round state machine."""

from __future__ import annotations

import pytest

from site_builder.engine import (
    Action,
    Discarding,
    Drawing,
    Phase,
    Refusal,
    ReplayError,
    RoundState,
    RulesError,
    TableMeld,
    format_history,
    get_rules,
    parse_card,
    parse_cards,
    parse_steps,
    replay,
)

CARDVERSE = get_rules("cardverse")
RAMI51 = get_rules("rami51")
RAMI40 = get_rules("rami40")


def codes(cards: tuple[object, ...] | list[object]) -> str:
    return " ".join(card.code for card in cards)


# ---------------------------------------------------------------- the content rounds

CARDVERSE_ROUND = dict(
    hands=["5H 6H 7H KC KD 9C 2S", "4C 4D 4S 8H QS JD 3C"],
    stock="KS 10D 4H 9S",
    discard="QC",
    actions="1: draw stock KS; 1: meld 5H 6H 7H; 1: meld KC KD KS; 1: discard 9C; "
            "2: draw stock 10D; 2: meld 4C 4D 4S; 2: layoff 8H on 1; 2: discard QS; "
            "1: draw stock 4H; 1: layoff 4H on 1; 1: discard 2S",
)

RAMI_SHORT_OPENING = dict(
    hands=["5C 6C 7C KH KS KD 2D 9S", "3H 4H 9D QC JS 2C 6D 7S"],
    stock="QD 10H 8C 4S",
    discard="5S",
    actions="1: draw stock QD; 1: meld 5C 6C 7C; 1: meld KH KS KD; 1: discard QD; "
            "2: draw stock 10H; 2: discard 10H; "
            "1: draw stock 8C; 1: meld 5C 6C 7C 8C; 1: meld KH KS KD; 1: discard 9S",
)


def test_cardverse_round() -> None:
    done = replay(CARDVERSE, **CARDVERSE_ROUND)  # type: ignore[arg-type]
    assert done.reason == "out"
    assert done.winner == 0
    assert done.hand_points == (0, 23)
    assert done.scores == (23, 0)
    assert codes(done.hands[1]) == "JD 3C 10D"
    assert [str(meld) for meld in done.table] == [
        "1: 4H 5H 6H 7H 8H", "2: KC KD KS", "3: 4C 4D 4S"]
    assert [meld.owner for meld in done.table] == [0, 0, 1]  # a lay-off keeps the owner
    assert done.steps[-1].operation == Discarding(0, parse_card("2S"), None, (), (), True)
    assert [step.note for step in done.steps[:3]] == [
        "draw KS from the stock", "meld 5H 6H 7H (18 points)", "meld KC KD KS (30 points)"]
    assert done.stock == parse_cards("9S")
    assert codes(done.discard_pile) == "QC 9C QS 2S"


def test_rami51_opening_falls_short_and_the_cards_go_back() -> None:
    done = replay(RAMI51, **RAMI_SHORT_OPENING)  # type: ignore[arg-type]
    first = done.steps[3].operation
    assert isinstance(first, Discarding)
    assert first.opening is not None
    assert (first.opening.total, first.opening.threshold, first.opening.accepted) == (48, 51, False)
    assert first.opening.reasons == ("below_threshold",)
    assert codes(first.returned) == "5C 6C 7C KH KS KD"
    assert first.withdrawn == (1, 2)
    assert done.steps[3].note == (
        "discard QD; the opening of 48 points (threshold 51) falls short (below_threshold): "
        "5C 6C 7C KH KS KD go back to the hand")
    second = done.steps[-1].operation
    assert isinstance(second, Discarding) and second.opening is not None
    assert (second.opening.total, second.opening.accepted, second.returned) == (56, True, ())
    assert done.opened == (True, False)
    # the short opening's numbers 1 and 2 went to the next melds
    assert [str(meld) for meld in done.table] == ["1: 5C 6C 7C 8C", "2: KD KH KS"]
    assert done.reason is None and done.winner is None and done.scores == (0, 0)
    assert done.hand_points == (2, 51)


def test_after_a_short_opening_the_hand_holds_the_cards_again() -> None:
    script = "1: draw stock QD; 1: meld 5C 6C 7C; 1: meld KH KS KD; 1: discard QD"
    done = replay(RAMI51, RAMI_SHORT_OPENING["hands"], RAMI_SHORT_OPENING["stock"], "5S", script)
    assert sorted(codes(done.hands[0]).split()) == sorted("5C 6C 7C KH KS KD 2D 9S".split())
    assert done.table == ()
    assert done.opened == (False, False)
    assert codes(done.discard_pile) == "5S QD"


def test_the_same_opening_is_accepted_in_rami40() -> None:
    script = "1: draw stock QD; 1: meld 5C 6C 7C; 1: meld KH KS KD; 1: discard QD"
    done = replay(RAMI40, RAMI_SHORT_OPENING["hands"], RAMI_SHORT_OPENING["stock"], "5S", script)
    last = done.steps[-1].operation
    assert isinstance(last, Discarding) and last.opening is not None
    assert (last.opening.total, last.opening.threshold, last.opening.accepted) == (48, 40, True)
    assert done.opened == (True, False)
    assert codes(done.hands[0]) == "2D 9S"


def test_rami51_sets_only_opening_goes_back_for_want_of_a_pure_sequence() -> None:
    done = replay(RAMI51, ["KH KS KD QC QD QS 2D", "3H 4H 9D"], "8C 4S", "5S",
                  "1: draw stock; 1: meld KH KS KD; 1: meld QC QD QS; 1: discard 2D")
    last = done.steps[-1].operation
    assert isinstance(last, Discarding) and last.opening is not None
    assert (last.opening.total, last.opening.reasons) == (60, ("no_pure_sequence",))
    assert len(last.returned) == 6


def test_rami_joker_opening_with_house_rule() -> None:
    done = replay(get_rules("rami51", joker_value=15), ["QH KH AH JK 7S 8S 2C", "3H 4H 9D"],
                  "8C 4S", "5S", "1: draw stock; 1: meld QH KH AH; 1: meld JK 7S 8S; 1: discard 2C")
    last = done.steps[-1].operation
    assert isinstance(last, Discarding) and last.opening is not None
    assert (last.opening.total, last.opening.accepted) == (61, True)


# ---------------------------------------------------------------- going out and ending

def test_going_out_by_laying_the_last_card() -> None:
    done = replay(CARDVERSE, ["9C 9D 9H 2S", "KC KD 5S 6S"], "9S 3C", "4H",
                  "1: draw stock 9S; 1: meld 9C 9D 9H 9S; 1: discard 2S")
    assert done.scores == (31, 0)
    done = replay(CARDVERSE, ["9C 9D 9H", "KC KD 5S 6S"], "9S 3C", "4H",
                  "1: draw stock 9S; 1: meld 9C 9D 9H 9S")
    assert (done.reason, done.winner, done.scores) == ("out", 0, (31, 0))
    assert done.steps[-1].note == "meld 9C 9D 9H 9S (36 points); goes out"


def test_discard_to_win_needs_a_final_discard() -> None:
    rules = get_rules("cardverse", discard_to_win=True)
    with pytest.raises(ReplayError, match=r"step 2 .*must keep a card for the final discard"):
        replay(rules, ["9C 9D 9H", "KC KD 5S 6S"], "9S 3C", "4H",
               "1: draw stock 9S; 1: meld 9C 9D 9H 9S")
    done = replay(rules, ["9C 9D 9H", "KC KD 5S 6S"], "9S 3C", "4H",
                  "1: draw stock 9S; 1: meld 9C 9D 9H; 1: discard 9S")
    assert (done.reason, done.winner, done.scores) == ("out", 0, (31, 0))


def test_a_lay_off_may_go_out_by_default_but_not_with_discard_to_win() -> None:
    script = ("1: draw stock; 1: meld 5H 6H 7H; 1: discard 2C; "
              "2: draw stock 4H; 2: layoff 8H on 1; 2: layoff 4H on 1")
    hands = ["5H 6H 7H 2C", "8H"]
    done = replay(CARDVERSE, hands, "KS 4H QS", "4C", script)
    assert (done.reason, done.winner, done.scores) == ("out", 1, (0, 10))
    assert [str(meld) for meld in done.table] == ["1: 4H 5H 6H 7H 8H"]
    with pytest.raises(ReplayError, match="step 6 .*must keep a card for the final discard"):
        replay(get_rules("cardverse", discard_to_win=True), hands, "KS 4H QS", "4C", script)


def test_rami_cannot_go_out_with_a_short_opening() -> None:
    # going out by laying the last cards: the no_final_discard variation
    rami51 = get_rules("rami51", discard_to_win=False)
    rami40 = get_rules("rami40", discard_to_win=False)
    with pytest.raises(ReplayError, match=r"step 3 .*cannot go out with an opening that falls "
                                          r"short \(48 points, threshold 51: below_threshold\)"):
        replay(rami51, ["5C 6C 7C KH KS", "3H 4H 9D"], "KD 4S", "5S",
               "1: draw stock KD; 1: meld 5C 6C 7C; 1: meld KH KS KD")
    done = replay(rami40, ["5C 6C 7C KH KS", "3H 4H 9D"], "KD 4S", "5S",
                  "1: draw stock KD; 1: meld 5C 6C 7C; 1: meld KH KS KD")
    # Rami scores penalty points: seat 2 keeps 3H 4H 9D, 16 points; seat 1 scores 0.
    assert (done.reason, done.winner, done.scores, done.opened) == ("out", 0, (0, 16),
                                                                    (True, False))


def test_stock_out_fewest_points_win() -> None:
    # After seat 1's discard the stock is empty and seat 2 must draw: the round ends.
    done = replay(CARDVERSE, ["KC 2D", "5S 6D"], "3C", "9H", "1: draw stock; 1: discard KC")
    assert done.reason == "stock_out"
    assert done.hand_points == (5, 11)
    assert (done.winner, done.scores) == (0, (11, 0))
    # The discard pile is never reshuffled: it still holds its cards.
    assert codes(done.discard_pile) == "9H KC" and done.stock == ()


def test_stock_out_tie_goes_to_the_first_seat() -> None:
    done = replay(CARDVERSE, ["KC 2D", "5S 3D", "4C 4D"], "3C", "9H",
                  "1: draw stock; 1: discard KC")
    assert done.hand_points == (5, 8, 8)
    assert done.winner == 0
    done = replay(CARDVERSE, ["KC 9D", "5S 3D", "4C 4D"], "3C", "9H",
                  "1: draw stock; 1: discard KC")
    assert done.hand_points == (12, 8, 8)
    assert (done.winner, done.scores) == (1, (0, 20, 0))


def test_an_empty_stock_at_the_start_ends_the_round_at_once() -> None:
    state = RoundState(CARDVERSE, [parse_cards("KC"), parse_cards("2D")], (), parse_cards("9H"))
    assert state.is_over and state.phase is Phase.OVER
    assert state.ending is not None and state.ending.winner == 1


# ---------------------------------------------------------------- lay-offs and openings

def test_cardverse_lays_off_without_melds_of_its_own() -> None:
    done = replay(CARDVERSE, ["5H 6H 7H 2C", "8H KD"], "KS QS JS", "4C",
                  "1: draw stock; 1: meld 5H 6H 7H; 1: discard 2C; "
                  "2: draw stock QS; 2: layoff 8H on 1")
    assert [str(meld) for meld in done.table] == ["1: 5H 6H 7H 8H"]


def test_rami_lays_off_only_after_opening() -> None:
    hands = ["5C 6C 7C 8C KH KS KD 9C 9S", "10C QD QS JS 3H"]
    opening = "1: draw stock; 1: meld 5C 6C 7C 8C; 1: meld KH KS KD; "
    # The opening turn: not opened until the discard, so no lay-off in the same turn.
    with pytest.raises(ReplayError, match="step 4 .*seat 1 has not opened yet and may not "
                                          "lay off"):
        replay(RAMI51, hands, "4H 4S 4D", "5S", opening + "1: layoff 9C on 1")
    # Seat 2 has not opened: no lay-off onto seat 1's meld.
    with pytest.raises(ReplayError, match="step 6 .*seat 2 has not opened yet"):
        replay(RAMI51, hands, "4H 4S 4D", "5S",
               opening + "1: discard 4H; 2: draw stock; 2: layoff 10C on 1")
    done = replay(RAMI51, hands, "4H 4S 4D", "5S",
                  opening + "1: discard 4H; 2: draw stock; 2: discard 4S; "
                            "1: draw stock; 1: layoff 9C on 1; 1: discard 4D")
    assert [str(meld) for meld in done.table] == ["1: 5C 6C 7C 8C 9C", "2: KD KH KS"]


def test_rami_after_opening_there_is_no_minimum() -> None:
    done = replay(RAMI51, ["5C 6C 7C 8C KH KS KD 2D 3D 4D 9S", "QC QD QS JS 3H"], "4H 4S 4C",
                  "5S", "1: draw stock; 1: meld 5C 6C 7C 8C; 1: meld KH KS KD; 1: discard 4H; "
                  "2: draw stock; 2: discard 4S; "
                  "1: draw stock; 1: meld 2D 3D 4D; 1: discard 4C")
    last = done.steps[-1].operation
    assert isinstance(last, Discarding) and last.opening is None and last.returned == ()
    assert len(done.table) == 3


# ---------------------------------------------------------------- the pokerkit triple

def test_verify_can_and_apply() -> None:
    state = RoundState(CARDVERSE, [parse_cards("5H 6H 7H 9C"), parse_cards("2C 3D 4S 8D")],
                       parse_cards("8H 10C"), parse_cards("4C"))
    meld = parse_cards("5H 6H 7H")
    assert not state.can_meld(meld)
    with pytest.raises(ValueError, match="^seat 1 must draw first$"):
        state.verify_meld(meld)
    with pytest.raises(ValueError, match="must draw first"):
        state.meld(meld)
    assert not state.can_discard(parse_card("9C"))
    assert state.can_draw_stock() and state.can_draw_discard()
    record = state.draw_discard()
    assert record == Drawing(0, "discard", parse_card("4C"))
    assert not state.can_draw_stock()
    with pytest.raises(ValueError, match="^seat 1 has already drawn this turn$"):
        state.verify_draw_stock()
    with pytest.raises(ValueError, match="^seat 1 does not hold KS$"):
        state.verify_discard(parse_card("KS"))
    with pytest.raises(ValueError, match=r"^there is no meld 3 on the table$"):
        state.verify_lay_off(3, parse_cards("8H"))
    with pytest.raises(ValueError, match=r"^5H 6H 9C is not a valid meld \(mixed_suits\)$"):
        state.verify_meld(parse_cards("5H 6H 9C"))
    assert state.can_meld(meld)
    assert state.discard_pile == ()
    state.discard(parse_card("9C"))
    state.draw_discard()  # seat 2 takes the 9C: the pile is empty again
    state.discard(parse_card("9C"))
    assert state.turn == 0 and state.phase is Phase.DRAW


def test_actions_through_apply_and_legal_actions() -> None:
    state = RoundState(CARDVERSE, [parse_cards("5H 6H 7H 9C"), parse_cards("2C 3D 4S 8D")],
                       parse_cards("8H 10C"), parse_cards("4C"))
    assert state.legal_actions() == (Action("draw_stock"), Action("draw_discard"))
    state.apply(Action("draw_stock"))
    legal = [action.describe(0) for action in state.legal_actions()]
    assert legal == ["1: meld 5H 6H 7H", "1: meld 5H 6H 7H 8H", "1: meld 6H 7H 8H",
                     "1: discard 5H", "1: discard 6H", "1: discard 7H", "1: discard 9C",
                     "1: discard 8H"]
    with pytest.raises(ValueError, match="a discard is exactly one card"):
        state.apply(Action("discard", parse_cards("5H 6H")))
    state.apply(Action("meld", parse_cards("6H 7H 8H")))
    legal = [action.describe(0) for action in state.legal_actions()]
    assert "1: layoff 5H on 1" in legal


def test_two_deck_copies_and_bad_setups() -> None:
    with pytest.raises(RulesError, match="QH appears 2 times; the Rami \\(CardVerse\\) deck "
                                         "holds it once"):
        RoundState(CARDVERSE, [parse_cards("QH"), parse_cards("QH")], parse_cards("2C"))
    with pytest.raises(RulesError, match="for 2 to 4 players, not 1"):
        RoundState(CARDVERSE, [parse_cards("QH")], parse_cards("2C"))
    with pytest.raises(RulesError, match="the first seat must be from 0 to 1"):
        RoundState(CARDVERSE, [parse_cards("QH"), parse_cards("2D")], parse_cards("2C"), first=2)
    # Two decks: two copies of a card are fine, and melds may use either.
    state = RoundState(RAMI51, [parse_cards("QH QH 2C"), parse_cards("2D")], parse_cards("3C"))
    state.draw_stock()
    assert state.can_discard(parse_card("QH"))
    with pytest.raises(ValueError, match="^seat 1 holds only 2 of QH$"):
        state.verify_meld(parse_cards("QH QH QH"))


# ---------------------------------------------------------------- views

def test_a_view_shows_only_what_the_seat_may_see() -> None:
    state = RoundState(CARDVERSE, [parse_cards("5H 6H 7H 9C"), parse_cards("2C 3D 4S 8D")],
                       parse_cards("8H 10C JD"), parse_cards("4C"))
    state.draw_stock()
    state.discard(parse_card("9C"))
    mine = state.view(0)
    theirs = state.view(1)
    assert codes(mine.hand) == "5H 6H 7H 8H"
    assert codes(theirs.hand) == "2C 3D 4S 8D"
    assert theirs.history[0] == Drawing(0, "stock", None)  # a stock draw shows no card
    assert mine.history[0] == Drawing(0, "stock", None)
    assert theirs.discard_top == parse_card("9C") and theirs.discard_size == 2
    assert theirs.stock_size == 2 and theirs.hand_sizes == (4, 4)
    assert theirs.legal == ("draw_stock", "draw_discard") and mine.legal == ()
    state.draw_discard()
    view = state.view(1)
    assert view.drawn == parse_card("9C") and view.legal == ("meld", "discard")
    assert state.history[0] == Drawing(0, "stock", parse_card("8H"))


# ---------------------------------------------------------------- the notation

def test_notation_round_trip() -> None:
    done = replay(CARDVERSE, **CARDVERSE_ROUND)  # type: ignore[arg-type]
    script = format_history([step.operation for step in done.steps])
    assert script == CARDVERSE_ROUND["actions"]
    again = replay(CARDVERSE, CARDVERSE_ROUND["hands"], CARDVERSE_ROUND["stock"],
                   CARDVERSE_ROUND["discard"],
                   format_history([step.operation for step in done.steps], cards=False))
    assert again == done


def test_notation_accepts_lines_comments_glyphs_and_case() -> None:
    steps = parse_steps("""
        1: Draw Stock        # seat 1 draws
        1: MELD 5♥ 6♥ 7♥ ; 1: discard t♠
        2: layoff 8h ON 1
    """)
    assert [step.action.describe(step.seat) for step in steps] == [
        "1: draw stock", "1: meld 5H 6H 7H", "1: discard 10S", "2: layoff 8H on 1"]
    assert [step.number for step in steps] == [1, 2, 3, 4]


@pytest.mark.parametrize(("actions", "message"), [
    ("1: draw stock; 1: meld 5H 6H 8H",
     "step 2 (1: meld 5H 6H 8H): seat 1 does not hold 8H"),
    ("1: draw stock 9S", "step 1 (1: draw stock 9S): the stock gave KS, not 9S"),
    ("2: draw stock", "step 1 (2: draw stock): it is seat 1's turn, not seat 2's"),
    ("1: draw stock; 1: draw discard", "step 2 (1: draw discard): seat 1 has already drawn "
                                       "this turn"),
    ("1: draw stock; 1: meld 5H 6H 7Z", "step 2 (1: meld 5H 6H 7Z): card 3: '7Z' is not a card"),
    ("1: draw pile", "step 1 (1: draw pile): draw from 'stock' or 'discard'"),
    ("1: draw stock; 1: discard 5H 6H", "step 2 (1: discard 5H 6H): expected one card, not 2"),
    ("1: draw stock; 1: layoff 5H", "step 2 (1: layoff 5H): write a lay-off as 'layoff CARDS "
                                    "on N'"),
    ("draw stock", "step 1 (draw stock): a step starts with the seat number"),
    ("0: draw stock", "step 1 (0: draw stock): seats are numbered from 1"),
    ("1: draw stock; 1: meld", "step 2 (1: meld): no cards given"),
    ("1: draw stock; 1: discard 2C; 2: draw stock; 2: discard 3C; 1: draw stock",
     "step 5 (1: draw stock): the round is over"),
])
def test_bad_steps_name_the_step(actions: str, message: str) -> None:
    with pytest.raises(ReplayError) as caught:
        replay(CARDVERSE, ["5H 6H 7H 2C", "9D 3C"], "KS QS", "4C", actions)
    assert str(caught.value).startswith(message)


def test_bad_setup() -> None:
    with pytest.raises(ReplayError, match="^setup: hand 2: card 1: 'ZZ' is not a card"):
        replay(CARDVERSE, ["5H", "ZZ"], "KS", "4C", "")
    with pytest.raises(ReplayError, match="^setup: .*for 2 to 4 players, not 1"):
        replay(CARDVERSE, ["5H"], "KS", "4C", "")


def _full_table(hand: str, discard: str) -> RoundState:
    """Seat 1 has opened; the table holds two full sets, so a joker taken from the first
    fits no meld."""
    state = RoundState(RAMI51, [parse_cards(hand), parse_cards("2C 3D 4H")],
                       parse_cards("4C 5C"), parse_cards(discard))
    state._opened[0] = True
    state._table[1] = TableMeld(1, 2, parse_cards("KC KH KS JK"), "set", 40,
                                parse_cards("KC KH KS KD"))
    state._table[2] = TableMeld(2, 2, parse_cards("7C 7D 7H 7S"), "set", 28,
                                parse_cards("7C 7D 7H 7S"))
    return state


def test_a_joker_owed_by_an_exchange_names_the_meld_it_came_from() -> None:
    """An exchange is refused when the joker taken could not be laid after it; the refusal
    names that meld (``target``), so that the page links it to the exchange's rule. A card
    owed because it was taken from the discard pile names none."""
    state = _full_table("KD 2S 9D", "8D")
    state.draw_stock()
    with pytest.raises(Refusal) as caught:
        state.verify_swap(1, parse_card("KD"))
    assert caught.value.code == "owed-fits-no-meld"
    assert dict(caught.value.values) == {"seat": 1, "cards": "JK", "target": 1}

    state = _full_table("9H 10H 9C 9S 5D", "8H")
    state.draw_discard()
    with pytest.raises(Refusal) as caught:
        state.verify_meld(parse_cards("9H 9C 9S"))
    assert caught.value.code == "owed-fits-no-meld"
    assert dict(caught.value.values) == {"seat": 1, "cards": "8H"}
