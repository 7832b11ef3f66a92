"""``site-builder engine …``: exact JSON and exit codes.

The commands run in this process (:func:`conftest.run_main`: the command line's ``main``,
its output and exit code as the process would have them), not as 26 subprocesses of 3-5 s
each on a loaded machine; what belongs to the process itself (``--debug``'s traceback,
the exit at once) is tested in ``tests/test_invalid.py`` and ``tests/test_bad_inputs.py``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import run_main

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """``site-builder engine ARGS``, run in this process."""
    done = run_main("engine", *args, cwd=ROOT)
    return subprocess.CompletedProcess(["site-builder", "engine", *args], done.code, done.out,
                                       done.err)


def answer(*args: str) -> object:
    done = run(*args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.count("\n") == 1  # one JSON object on one line
    return json.loads(done.stdout)


def test_meld_exact_output() -> None:
    done = run("meld", "--game", "rami51", "JK", "7S", "8S")
    assert done.returncode == 0
    assert done.stdout == ('{"valid": true, "kind": "sequence", "points": 21, '
                           '"jokers": {"JK": "6S"}, "reason": null}\n')


@pytest.mark.parametrize(("args", "expected"), [
    (["--game", "rami40", "QH", "KH", "AH"],
     {"valid": True, "kind": "sequence", "points": 31, "jokers": {}, "reason": None}),
    (["--game", "rami51", "AH", "2H", "3H"],
     {"valid": True, "kind": "sequence", "points": 6, "jokers": {}, "reason": None}),
    (["--game", "rami51", "--joker-value", "15", "JK", "7S", "8S"],
     {"valid": True, "kind": "sequence", "points": 30, "jokers": {"JK": "6S"}, "reason": None}),
    (["--game", "rami51", "8♦", "8♣", "8♥"],
     {"valid": True, "kind": "set", "points": 24, "jokers": {}, "reason": None}),
    (["--game", "rami51", "--variation", "two_jokers", "JK", "5H", "7H", "JK"],
     {"valid": True, "kind": "sequence", "points": 22, "jokers": {"JK": "4H", "JK#2": "6H"},
      "reason": None}),
    (["--game", "cardverse", "AH", "2H", "3H"],
     {"valid": False, "kind": None, "points": 0, "jokers": {}, "reason": "ace_low_not_allowed"}),
    (["--game", "cardverse", "JK", "7S", "8S"],
     {"valid": False, "kind": None, "points": 0, "jokers": {}, "reason": "joker_not_allowed"}),
    (["--game", "rami51", "KH", "AH", "2H"],
     {"valid": False, "kind": None, "points": 0, "jokers": {}, "reason": "wrap"}),
])
def test_meld(args: list[str], expected: dict[str, object]) -> None:
    assert answer("meld", *args) == expected


def test_opening_exact_output() -> None:
    done = run("opening", "--game", "rami51", "QH KH AH", "JK 7S 8S")
    assert done.returncode == 0
    assert done.stdout == ('{"total": 52, "threshold": 51, "accepted": true, '
                           '"pure_sequence": true, "reasons": []}\n')


@pytest.mark.parametrize(("args", "expected"), [
    (["--game", "rami51", "KH KS KD", "QC QD QS"],
     {"total": 60, "threshold": 51, "accepted": False, "pure_sequence": False,
      "reasons": ["no_pure_sequence"]}),
    (["--game", "rami51", "5C 6C 7C", "KH KS KD"],
     {"total": 48, "threshold": 51, "accepted": False, "pure_sequence": True,
      "reasons": ["below_threshold"]}),
    (["--game", "rami40", "5C 6C 7C", "KH KS KD"],
     {"total": 48, "threshold": 40, "accepted": True, "pure_sequence": True, "reasons": []}),
    (["--game", "rami40", "5C 6C 7C", "4D 4S 4C", "AH 2H 3H 4H"],
     {"total": 40, "threshold": 40, "accepted": True, "pure_sequence": True, "reasons": []}),
    (["--game", "rami51", "--joker-value", "15", "QH KH AH", "JK 7S 8S"],
     {"total": 61, "threshold": 51, "accepted": True, "pure_sequence": True, "reasons": []}),
    (["--game", "cardverse", "5C 5D 5H"],
     {"total": 15, "threshold": None, "accepted": True, "pure_sequence": False, "reasons": []}),
])
def test_opening(args: list[str], expected: dict[str, object]) -> None:
    assert answer("opening", *args) == expected


def test_hand() -> None:
    assert run("hand", "--game", "cardverse", "AH", "KS", "7D").stdout == '{"points": 18}\n'
    assert answer("hand", "--game", "cardverse", "--ace-high", "AH", "KS", "7D") == {"points": 28}
    assert answer("hand", "--game", "rami51", "JK", "2C") == {"points": 22}  # joker 20


def test_layoff() -> None:
    assert answer("layoff", "--game", "rami51", "--meld", "5H 6H 7H", "8H") == \
        {"valid": True, "kind": "sequence", "points": 26, "jokers": {}, "reason": None}
    assert answer("layoff", "--game", "rami51", "--meld", "QH KH AH", "JH") == \
        {"valid": True, "kind": "sequence", "points": 41, "jokers": {}, "reason": None}
    assert answer("layoff", "--game", "rami51", "--meld", "QH KH AH", "2H") == \
        {"valid": False, "kind": None, "points": 0, "jokers": {}, "reason": "wrap"}


def bad(*args: str) -> str:
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


def test_unknown_card_is_one_line_exit_2() -> None:
    assert bad("meld", "--game", "rami51", "JK", "7S", "ZZ") == (
        "site-builder: card 3: 'ZZ' is not a card (ranks A 2-10 J Q K or T for 10, "
        "suits C D H S or ♣ ♦ ♥ ♠, joker JK)\n")


def test_unknown_card_in_opening_and_layoff_names_meld_and_token() -> None:
    assert bad("opening", "--game", "rami51", "QH KH AH", "JK 7S 8X").startswith(
        "site-builder: meld 2: card 3: '8X' is not a card")
    assert bad("layoff", "--game", "rami51", "--meld", "5H 6H 7Q", "8H").startswith(
        "site-builder: --meld: card 3: '7Q' is not a card")
    assert bad("hand", "--game", "cardverse", "11H").startswith(
        "site-builder: card 1: '11H' is not a card")


def test_a_hand_the_decks_cannot_hold_is_one_line_exit_2() -> None:
    assert bad("hand", "--game", "cardverse", "JK", "5H") == (
        "site-builder: the Rami (CardVerse) deck has no JK\n")
    assert bad("hand", "--game", "rami51", *["JK"] * 5) == (
        "site-builder: JK appears 5 times; the Rami 51 deck holds it 4 times\n")


def test_unknown_game_is_one_line_exit_2() -> None:
    assert bad("meld", "--game", "rami52", "JK", "7S", "8S") == (
        "site-builder: unknown game 'rami52' (known games: rami40, rami51, cardverse)\n")
    assert "'poker'" in bad("hand", "--game", "poker", "AH")


def test_usage_errors_are_one_line_exit_2() -> None:
    assert "--game" in bad("meld", "JK", "7S", "8S")
    assert "'x'" in bad("meld", "--game", "rami51", "--joker-value", "x", "JK", "7S", "8S")
    assert bad("meld", "--game", "rami51", "--joker-value=-3", "7S").endswith(
        "argument --joker-value: -3 is out of range: expected a whole number from 0 to 100 "
        "(see --help)\n")


@pytest.mark.parametrize("score", ["x", "\u0663\u0665", "1_0", "1234567", "3.5", "+3"])
def test_a_score_that_is_not_ascii_digits_is_named(score: str) -> None:
    """A round's scores are read as ASCII digits, at most six, before int() (which reads
    Arabic-Indic digits and underscores): the round, the score and what is expected."""
    assert bad("game", "--game", "rami51", "0, 35", f"{score}, 0") == (
        f"site-builder: round 2: {score!r} in {f'{score}, 0'!r} is not a score: expected one "
        'whole number per seat, up to 6 ASCII digits, e.g. "0, 35"\n')


ROUND = ["--game", "rami51",
         "--hands", "4H JK 6H 9C 10C JC QC 2D 8H 8S 3D 6S 5S",
         "10S JS QS KC KD KS 5H 2C 3C 9D 4D 7S AH",
         "--stock", "QH 2H 4C 7C", "--discard", "6C",
         "1: draw stock; 1: meld 9C 10C JC QC; 1: meld 4H JK 6H; 1: discard QH; "
         "2: draw stock; 2: meld 10S JS QS; 2: meld KC KD KS; 2: discard 2H; "
         "1: draw stock; 1: discard 4C; 2: draw stock 7C"]


def test_round_with_a_joker_exchange() -> None:
    result = answer("round", *ROUND[:-1], ROUND[-1] + "; 2: swap 5H for JK on 2; "
                    "2: meld 2C 3C JK; 2: discard 7C")
    assert isinstance(result, dict)
    assert result["steps"][-3] == {"step": "2: swap 5H for JK on 2", "note": "swap 5H for the "
                                   "joker on meld 2 (15 points); the joker goes to the hand"}
    assert "2: 4H 5H 6H" in result["table"]
    assert result["over"] is True  # the stock is empty when seat 1 must draw


def test_round_with_a_wrong_joker_exchange_is_bad_input() -> None:
    done = run("round", *ROUND[:-1], ROUND[-1] + "; 2: swap 7C for JK on 2")
    assert done.returncode == 2 and done.stdout == ""
    assert "step 12 (2: swap 7C for JK on 2): 7C cannot replace the joker in meld 2 " \
           "(4H 5H 6H): the joker stands for 5H" in done.stderr


def test_game_totals_and_winners() -> None:
    assert answer("game", "--game", "rami51", "0, 105, 95", "40, 0, 62", "23, 57, 0",
                  "0, 160, 31", "12, 120, 0", "0, 110, 44") == {
        "totals": [75, 552, 232], "target": 500, "over": True, "winners": [1]}
    assert answer("game", "--game", "cardverse", "23, 0", "0, 40") == {
        "totals": [23, 40], "target": 100, "over": False, "winners": []}


def test_a_game_with_a_round_that_cannot_happen_is_bad_input() -> None:
    """The build's check of game tables, on the command line too."""
    done = run("game", "--game", "rami51", "0, 105, 95", "0, 360, 12")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "site-builder: round 2 (0, 360, 12) cannot happen in Rami 51: seat 2 scores 360, more "
        "than any hand can hold: 13 cards are worth at most 178"]
