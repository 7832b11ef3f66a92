"""The finer points of the rules, as the engine applies them: the set joker, a discard laid
by a joker exchange, the final discard, rami sec, the first-round and "à carte" bans, meld
numbers after a failed opening, and the bounds of a round's scores."""

from __future__ import annotations

import pytest

from site_builder.engine import (
    ReplayError,
    check_round,
    evaluate_layoff,
    get_rules,
    max_hand_points,
    parse_cards,
    replay,
    round_problem,
)

RAMI40 = get_rules("rami40")
RAMI51 = get_rules("rami51")


def codes(cards: tuple[object, ...]) -> list[str]:
    return [c.code for c in cards]  # type: ignore[attr-defined]


# --- a set's joker stands for any missing suit -------------------------------------------------

@pytest.mark.parametrize(("meld", "added", "joker", "points"), [
    ("5H 5S JK", "5C", "5D", 20),
    ("5H 5S JK", "5D", "5C", 20),
    ("KC KD JK", "KH", "KS", 40),
    ("KC KD JK", "KS", "KH", 40),
])
def test_any_missing_suit_may_be_laid_off_beside_a_set_joker(meld: str, added: str, joker: str,
                                                             points: int) -> None:
    result = evaluate_layoff(parse_cards(meld), parse_cards(added), RAMI51)
    assert (result.valid, result.kind, codes(result.jokers), result.points) == (
        True, "set", [joker], points)


def test_a_set_joker_lay_off_under_the_house_rules_counts_the_fixed_value() -> None:
    result = evaluate_layoff(parse_cards("5H 5S JK"), parse_cards("5C"),
                             get_rules("rami51", joker_value=15))
    assert (result.valid, result.points) == (True, 30)


def test_a_sequence_joker_keeps_its_lower_place() -> None:
    assert evaluate_layoff(parse_cards("JK JH QH"), parse_cards("10H"), RAMI51).reason == \
        "duplicate_card"
    result = evaluate_layoff(parse_cards("JK JH QH"), parse_cards("KH"), RAMI51)
    assert (result.valid, result.points, codes(result.jokers)) == (True, 40, ["10H"])


SET_HANDS = ["5H 5S JK 9C 10C JC QC 2D 8H 8S 3D 6S 4S",
             "10S JS QS KC KD KS 5C 5D 2C 3C 9D 7S AH"]
SET_OPEN = ("1: draw stock QH; 1: meld 9C 10C JC QC; 1: meld 5H 5S JK; 1: discard QH; "
            "2: draw stock 2H; 2: meld 10S JS QS; 2: meld KC KD KS; 2: discard 2H; "
            "1: draw stock 4C; 1: discard 4C; 2: draw stock 7C")


@pytest.mark.parametrize("card", ["5C", "5D"])
def test_in_a_round_either_missing_suit_is_laid_off_on_a_set_joker(card: str) -> None:
    done = replay(RAMI51, SET_HANDS, "QH 2H 4C 7C 9S", "6C",
                  f"{SET_OPEN}; 2: layoff {card} on 2; 2: discard 7C")
    layoff = done.steps[-2].operation
    assert codes(layoff.arrangement) == ["5C", "5D", "5H", "5S"]  # type: ignore[union-attr]


@pytest.mark.parametrize("card", ["5C", "5D"])
def test_in_a_round_either_missing_suit_replaces_a_set_joker(card: str) -> None:
    done = replay(RAMI51, SET_HANDS, "QH 2H 4C 7C 9S", "6C",
                  f"{SET_OPEN}; 2: swap {card} for JK on 2; 2: meld 2C 3C JK; 2: discard 7C")
    assert done.steps[-3].text == f"2: swap {card} for JK on 2"


def test_a_wrong_card_for_a_set_joker_names_both_missing_suits() -> None:
    with pytest.raises(ReplayError, match=r"the joker stands for 5C or 5D"):
        replay(RAMI51, SET_HANDS, "QH 2H 4C 7C 9S", "6C", f"{SET_OPEN}; 2: swap 9D for JK on 2")


# --- the discard taken to replace a joker -------------------------------------------------------

D2_HANDS = ["4H JK 6H 9C 10C JC QC 2S 3S 8H 8D KD 5S",
            "10S JS QS KC KH KS 5H 2C 3C 9D 4D 7S AH"]
D2_OPEN = ("1: draw stock QH; 1: meld 9C 10C JC QC; 1: meld 4H JK 6H; 1: discard QH; "
           "2: draw stock 2H; 2: discard 5H")


def test_a_discard_may_be_taken_to_replace_a_joker() -> None:
    done = replay(RAMI51, D2_HANDS, "QH 2H 4C", "6C",
                  f"{D2_OPEN}; 1: draw discard 5H; 1: swap 5H for JK on 2; "
                  "1: meld 2S 3S JK; 1: discard KD")
    assert codes(done.table[1].arrangement) == ["4H", "5H", "6H"]
    assert sorted(codes(done.hands[0])) == ["5S", "8D", "8H"]


def test_the_discard_taken_for_an_exchange_must_still_be_laid() -> None:
    with pytest.raises(ReplayError, match="step 8 .*must lay 5H this turn"):
        replay(RAMI51, D2_HANDS, "QH 2H 4C", "6C", f"{D2_OPEN}; 1: draw discard 5H; 1: discard KD")


def test_a_discard_that_fits_nowhere_is_still_refused() -> None:
    hands = [D2_HANDS[0], "10S JS QS KC KH KS 2D 2C 3C 9D 4D 7S AH"]
    with pytest.raises(ReplayError, match="step 7 .*may take 2D .*it fits no meld"):
        replay(RAMI51, hands, "QH 2H 4C", "6C",
               "1: draw stock QH; 1: meld 9C 10C JC QC; 1: meld 4H JK 6H; 1: discard QH; "
               "2: draw stock 2H; 2: discard 2D; 1: draw discard 2D")


# --- going out: a final discard in Rami, the variation without one ------------------------------

OUT_HANDS = ["9S 10S JS QS AH AD AC 5D 6D 7D 2C 3C 4C",
             "JK AS 7D 4C 9H 3S 6C 10D QH 2S 5C 8C KH"]
OUT_LAID = "1: draw stock 5C; 1: meld 9S 10S JS QS; 1: meld AH AD AC; 1: meld 5D 6D 7D"


def test_rami_needs_a_final_discard() -> None:
    assert RAMI40.discard_to_win and RAMI51.discard_to_win
    with pytest.raises(ReplayError, match="step 5 .*must keep a card for the final discard"):
        replay(RAMI51, OUT_HANDS, "5C 3C", "9D", f"{OUT_LAID}; 1: meld 2C 3C 4C 5C")
    done = replay(RAMI51, OUT_HANDS, "5C 3C", "9D",
                  f"{OUT_LAID}; 1: meld 2C 3C 4C; 1: discard 5C")
    assert (done.reason, done.winner, done.scores) == ("out", 0, (0, 105))


def test_going_out_without_a_final_discard_is_a_variation() -> None:
    rules = get_rules("rami51", discard_to_win=False)
    done = replay(rules, OUT_HANDS, "5C 3C", "9D", f"{OUT_LAID}; 1: meld 2C 3C 4C 5C")
    assert (done.reason, done.winner, done.scores) == ("out", 0, (0, 105))


# --- rami sec ----------------------------------------------------------------------------------

DRY_HANDS = ["AC 2C 3C 4C AD 2D 3D 4S 5S 6S 5H 5D 5C",
             "JK AS 7D 4C 9H 3S 6C 10D QH 2S 8C KH QD"]
DRY = ("1: draw stock KD; 1: meld AC 2C 3C 4C; 1: meld AD 2D 3D; 1: meld 4S 5S 6S; "
       "1: meld 5H 5D 5C; 1: discard KD")


def test_rami_sec_goes_out_free_of_the_threshold() -> None:
    done = replay(get_rules("rami51", rami_sec=True), DRY_HANDS, "KD 3H", "9D", DRY)
    last = done.steps[-1].operation
    assert (done.reason, done.winner, last.rami_sec, last.opening.total) == (  # type: ignore
        "out", 0, True, 46)


def test_without_rami_sec_the_short_opening_goes_back() -> None:
    done = replay(RAMI51, DRY_HANDS, "KD 3H", "9D", DRY)
    last = done.steps[-1].operation
    assert done.ending is None
    assert (last.rami_sec, len(last.returned)) == (False, 13)  # type: ignore[union-attr]
    assert len(done.table) == 0


def test_rami_sec_needs_the_whole_hand() -> None:
    rules = get_rules("rami51", rami_sec=True)
    done = replay(rules, DRY_HANDS, "KD 3H", "9D",
                  "1: draw stock KD; 1: meld AC 2C 3C 4C; 1: meld AD 2D 3D; 1: discard KD")
    assert done.ending is None and not done.opened[0]


def test_rami_sec_may_take_the_discard_to_go_out() -> None:
    hands = ["AC 2C 3C 4C AD 2D 3D 4S 5S 6S 5H 5D 9H", DRY_HANDS[1]]
    rules = get_rules("rami51", rami_sec=True)
    done = replay(rules, hands, "KD 3H", "5C",
                  "1: draw discard 5C; 1: meld AC 2C 3C 4C; 1: meld AD 2D 3D; "
                  "1: meld 4S 5S 6S; 1: meld 5H 5D 5C; 1: discard 9H")
    assert (done.reason, done.winner) == ("out", 0)
    with pytest.raises(ReplayError, match="step 1 .*may take 5C"):
        replay(RAMI51, hands, "KD 3H", "5C", "1: draw discard 5C")


# --- the discard in the first round, and with one card left -------------------------------------

TURN_HANDS = ["7H 8H 9H 3C 3D 3S KC 2D 5S 8D JC 4C AD",
              "QD QC QS 5D 6D 7D 2H 9S 10C AC 4S 6C KH"]


def test_no_discard_in_the_first_round_is_a_variation() -> None:
    rules = get_rules("rami40", discard_first_round=False)
    with pytest.raises(ReplayError, match="step 1 .*may not take the discard in the first round"):
        replay(rules, TURN_HANDS, "9D JH 2S 5C", "10H", "1: draw discard")
    # the second round: seat 1 may take seat 2's discard
    done = replay(rules, TURN_HANDS, "9D 10H 2S 5C", "10H",
                  "1: draw stock 9D; 1: discard 9D; 2: draw stock 10H; 2: discard 10H; "
                  "1: draw discard 10H; 1: meld 7H 8H 9H 10H; 1: meld 3C 3D 3S; 1: discard KC")
    assert done.opened[0]
    replay(RAMI40, TURN_HANDS, "9D JH 2S 5C", "10H", "1: draw discard 10H")


CARTE_HANDS = ["10S JS QS AH AD AC 5D 6D 7D 2C 3C 4C 8H",
               "JK AS 7D 5C 9H 3S 6C 10D QH 2S 8C KH QD"]
CARTE = ("1: draw stock KD; 1: meld 10S JS QS; 1: meld AH AD AC; 1: meld 5D 6D 7D; "
         "1: meld 2C 3C 4C; 1: discard KD; 2: draw stock 9C; 2: discard 5C")


def test_a_carte_a_player_with_one_card_must_draw() -> None:
    rules = get_rules("rami51", discard_at_one_card=False)
    with pytest.raises(ReplayError, match="step 9 .*holds one card and may not take the discard"):
        replay(rules, CARTE_HANDS, "KD 9C 6S 2H", "9D", f"{CARTE}; 1: draw discard")
    done = replay(RAMI51, CARTE_HANDS, "KD 9C 6S 2H", "9D",
                  f"{CARTE}; 1: draw discard 5C; 1: layoff 5C on 4; 1: discard 8H")
    assert (done.reason, done.winner) == ("out", 0)


# --- meld numbers after a failed opening ---------------------------------------------------------

def test_a_failed_openings_numbers_go_to_the_next_melds() -> None:
    hands = ["5C 6C 7C KH KS KD 2S 3S 8D 5H 2D 10C QC",
             "4H 6H JK 9D 10D JD QD 8C AS JK 7D 2C KC"]
    done = replay(RAMI51, hands, "QH 3H 9C QS 7H 4C", "4S",
                  "1: draw stock; 1: meld 5C 6C 7C; 1: meld KH KS KD; 1: discard 2D; "
                  "2: draw stock; 2: meld 9D 10D JD QD; 2: meld 4H JK 6H; 2: discard 8C")
    assert [m.number for m in done.table] == [1, 2]
    assert codes(done.table[1].arrangement) == ["4H", "5H", "6H"]


# --- the bounds of a round's scores --------------------------------------------------------------

def test_the_most_a_hand_can_hold_follows_the_rule_set() -> None:
    assert max_hand_points(13, RAMI51) == 178
    assert max_hand_points(13, get_rules("rami51", joker_hand_points=25)) == 198
    assert max_hand_points(13, get_rules("rami51", ace_high=False)) == 80 + 90
    assert max_hand_points(10, get_rules("cardverse")) == 4 * 10 + 6 * 10


@pytest.mark.parametrize(("scores", "rules", "problem"), [
    ([0, 105, 95], RAMI51, None),
    ([0, 178, 12], RAMI51, None),
    ([0, 179, 12], RAMI51, "seat 2 scores 179, more than any hand can hold: 13 cards are worth "
                           "at most 178"),
    ([0, 360, 12], RAMI51, "seat 2 scores 360"),
    ([0, 198], get_rules("rami51", joker_hand_points=25), None),
    ([200, 300, 200], RAMI51, "nobody scores 0"),
    ([100, 220, 100], RAMI40, "nobody scores 0"),
    ([0, 0, 5], RAMI51, "seats 1 and 2 score 0"),
    ([0, -5], RAMI51, "seat 2 scores -5, but no score is negative"),
    ([0, 5, 5, 5, 5], RAMI51, "5 scores, but Rami 51 is for 2 to 4 players"),
    ([0, 100], get_rules("rami51", unopened_hand_points=100), None),
    ([0, 70], get_rules("cardverse"), None),
    ([71, 0], get_rules("cardverse"), "more than the other hands can hold: 1 x 7 cards are "
                                      "worth at most 70"),
    ([0, 0], get_rules("cardverse"), "nobody scores"),
    # the cheapest card, and all the hands of a round together
    ([0, 1], RAMI51, "seat 2 scores 1, less than any hand can hold: the cheapest card is "
                     "worth 2"),
    ([0, 2], RAMI51, None),
    ([0, 1], get_rules("rami51", ace_high=False), None),
    ([0, 178, 130], RAMI51, None),
    ([0, 178, 131], RAMI51, "seats 2 and 3 score 309 together, more than their hands can "
                            "hold: 26 cards are worth at most 308"),
    ([0, 178, 178], RAMI51, "seats 2 and 3 score 356 together"),
    ([0, 100, 100, 100], get_rules("rami51", unopened_hand_points=100), None),
    ([1, 0, 0], get_rules("cardverse"), "seat 1 gains 1, less than the other hands can hold"),
    ([2, 0, 0], get_rules("cardverse"), None),
])
def test_round_problem_names_the_bound(scores: list[int], rules: object,
                                       problem: str | None) -> None:
    why = round_problem(scores, rules)  # type: ignore[arg-type]
    if problem is None:
        assert why is None
    else:
        assert why is not None and problem in why
        found = check_round(scores, rules)  # type: ignore[arg-type]
        assert found is not None and found.message == why and found.code
        assert all(str(value) in why for value in found.values.values()
                   if isinstance(value, int))  # the sentence names every number it carries
