"""Refused actions carry a stable code and their values, which the site translates and
links to the rule that refuses."""

from __future__ import annotations

import json
import pickle
import string

import pytest

from site_builder.cli import main
from site_builder.engine import (
    REFUSALS,
    Refusal,
    ReplayError,
    RoundState,
    TableMeld,
    get_rules,
    parse_card,
    parse_cards,
    refusal,
    replay,
)


def refused(check: object) -> Refusal:
    with pytest.raises(Refusal) as info:
        check()  # type: ignore[operator]
    return info.value


def test_codes_are_kebab_case_and_every_template_formats() -> None:
    for code, template in REFUSALS.items():
        assert code == code.lower() and " " not in code and "_" not in code
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        message = str(Refusal(code, **dict.fromkeys(names, "X")))
        assert "{" not in message and message  # every placeholder was filled


def test_a_refusal_is_a_value_error_with_its_sentence() -> None:
    state = RoundState(get_rules("cardverse"), [parse_cards("5H 6H 7H 9C"),
                                                parse_cards("2C 3D 4S 8D")],
                       parse_cards("8H 10C"), parse_cards("4C"))
    exc = refused(lambda: state.verify_meld(parse_cards("5H 6H 7H")))
    assert (exc.code, dict(exc.values), str(exc)) == ("draw-first", {"seat": 1},
                                                      "seat 1 must draw first")
    state.draw_stock()
    exc = refused(lambda: state.verify_meld(parse_cards("5H 6H 9C")))
    assert isinstance(exc, ValueError)
    assert exc.code == "invalid-meld"
    assert dict(exc.values) == {"cards": "5H 6H 9C", "reason": "mixed_suits"}
    assert str(exc) == "5H 6H 9C is not a valid meld (mixed_suits)"
    assert REFUSALS[exc.code].format_map(exc.values) == str(exc)
    again = pickle.loads(pickle.dumps(exc))
    assert (again.code, dict(again.values), str(again)) == (exc.code, dict(exc.values), str(exc))


def test_a_set_joker_names_each_suit_it_may_stand_for() -> None:
    state = RoundState(get_rules("rami51"), [parse_cards("5H 9C 9D 9H"), parse_cards("2C 3D")],
                       parse_cards("4C 5C"), parse_cards("8D"))
    state._opened[0] = True  # as if seat 1 had opened earlier
    state._table[1] = TableMeld(1, 1, parse_cards("5S 5C JK"), "set", 15,
                                parse_cards("5C 5D 5S"))
    state.draw_stock()
    exc = refused(lambda: state.verify_swap(1, parse_card("9C")))
    assert exc.code == "swap-wrong-card-2"
    assert dict(exc.values) == {"card": "9C", "target": 1, "meld": "5C 5D 5S",
                                "stands": "5D", "other": "5H"}
    assert str(exc).endswith("the joker stands for 5D or 5H")


def test_the_final_discard_is_named_when_it_is_the_only_obstacle() -> None:
    rami = get_rules("rami51")
    # Not opened: KD makes 60 points with a pure sequence, but only by laying every card.
    state = RoundState(rami, [parse_cards("9H 10H JH KH KS"), parse_cards("2C 3D")],
                       parse_cards("4C 5C"), parse_cards("KD"))
    exc = refused(state.verify_draw_discard)
    assert exc.code == "discard-take-needs-final-discard"
    assert str(exc) == ("seat 1 may take KD from the discard pile only to lay it this turn, "
                        "and cannot: no card would be left to discard")
    # Without the final discard the same take is allowed: the discard was the only obstacle.
    free = RoundState(get_rules("rami51", discard_to_win=False),
                      [parse_cards("9H 10H JH KH KS"), parse_cards("2C 3D")],
                      parse_cards("4C 5C"), parse_cards("KD"))
    free.verify_draw_discard()
    # Opened: 5H 6H and 7H make a meld, which would leave no card.
    state = RoundState(rami, [parse_cards("5H 6H"), parse_cards("2C 3D")],
                       parse_cards("4C 5C"), parse_cards("7H"))
    state._opened[0] = True
    assert refused(state.verify_draw_discard).code == "discard-take-needs-final-discard"
    # A card that does fit no meld still says so.
    state = RoundState(rami, [parse_cards("5H 9C 2D"), parse_cards("2C 3D")],
                       parse_cards("4C 5C"), parse_cards("KS"))
    state._opened[0] = True
    assert refused(state.verify_draw_discard).code == "discard-take-needs-lay"


def test_an_owed_card_left_without_its_final_discard() -> None:
    state = RoundState(get_rules("rami51"), [parse_cards("5H 6H 9C"), parse_cards("2C 3D")],
                       parse_cards("4C 5C"), parse_cards("7H"))
    state._opened[0] = True
    state._table[1] = TableMeld(1, 1, parse_cards("10C JC QC"), "sequence", 30,
                                parse_cards("10C JC QC"))
    state._next_number = 2
    state.draw_discard()
    exc = refused(lambda: state.verify_lay_off(1, parse_cards("9C")))
    assert (exc.code, dict(exc.values)) == ("owed-no-final-discard", {"seat": 1, "cards": "7H"})
    assert str(exc) == ("seat 1 must lay 7H this turn and could not after that "
                        "(no card would be left to discard)")
    exc = refused(lambda: state.verify_discard(parse_card("9C")))
    assert (exc.code, str(exc)) == ("discard-owes-card", "seat 1 took 7H from the discard pile "
                                                         "and must lay 7H this turn")


def test_replay_and_refusal_carry_the_code() -> None:
    deal = (["5H 6H 7H 2S", "4C 4D 4S 3C"], "KS 9D", "QC")
    with pytest.raises(ReplayError) as info:
        replay(get_rules("cardverse"), *deal, "1: draw stock; 2: draw stock")
    assert (info.value.code, dict(info.value.values)) == ("not-your-turn", {"turn": 1, "seat": 2})
    assert str(info.value) == "step 2 (2: draw stock): it is seat 1's turn, not seat 2's"
    again = pickle.loads(pickle.dumps(info.value))
    assert (again.code, str(again)) == (info.value.code, str(info.value))
    with pytest.raises(ReplayError) as info:
        replay(get_rules("cardverse"), *deal, "1: fly")
    assert info.value.code is None  # not a step: no rule refused it
    found = refusal(get_rules("cardverse"), *deal, "1: draw stock", "1: layoff 2S on 1")
    assert found is not None
    assert (found.code, str(found)) == ("no-such-meld", "there is no meld 1 on the table")


def test_the_cli_reports_the_code(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["engine", "round", "--game", "rami51", "--hands", "9H 10H JH KH KS 2D", "2C 3D",
            "--stock", "4C 5C 8D", "--discard", "KD"]
    assert main([*args, "--try", "2: draw discard", "1: draw stock; 1: discard 2D"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["try"] == {
        "step": "2: draw discard", "allowed": False, "code": "discard-take-needs-lay",
        "values": {"seat": 2, "card": "2D"},
        "message": "seat 2 may take 2D from the discard pile only to lay it this turn, and "
                   "cannot: it fits no meld"}
    assert main([*args, "--try", "2: draw stock", "1: draw stock; 1: discard 2D"]) == 0
    assert json.loads(capsys.readouterr().out)["try"] == {"step": "2: draw stock",
                                                          "allowed": True}
    assert main([*args, "--try", "2: draw stock 9Q", "1: draw stock"]) == 2
    assert capsys.readouterr().err.startswith("site-builder: --try: ")
