"""Games, simulations and ``site-builder engine simulate`` (run in this process, as
``test_engine_cli`` runs the other engine commands: :func:`conftest.run_main`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import run_main

from site_builder.engine import (
    get_rules,
)
from site_builder.engine.play import make_player, play_game, simulate

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """``site-builder engine simulate ARGS``, run in this process."""
    done = run_main("engine", "simulate", *args, cwd=ROOT, timeout=300)
    return subprocess.CompletedProcess(["site-builder", "engine", "simulate", *args], done.code,
                                       done.out, done.err)


def answer(*args: str) -> dict[str, Any]:
    done = run(*args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.count("\n") == 1
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_simulate_prints_one_json_object() -> None:
    result = answer("--game", "cardverse", "--players", "hard,easy", "--games", "2",
                    "--seed", "7")
    assert list(result) == ["games", "rounds", "game_wins", "round_wins", "average_points",
                            "rounds_per_second", "violations"]
    assert result["games"] == 2
    assert sum(result["game_wins"]) == 2
    assert sum(result["round_wins"]) == result["rounds"]
    assert len(result["average_points"]) == 2
    assert result["rounds_per_second"] > 0
    assert result["violations"] == []


def test_simulate_is_deterministic_given_a_seed() -> None:
    args = ("--game", "cardverse", "--players", "normal,easy,easy", "--games", "2", "--seed", "3")
    first = answer(*args)
    second = answer(*args)
    del first["rounds_per_second"], second["rounds_per_second"]
    assert first == second
    direct = simulate(get_rules("cardverse"), ["normal", "easy", "easy"], 2, 3)
    assert first["round_wins"] == list(direct.round_wins)
    assert first["average_points"] == list(direct.average_points)


def test_leading_zeros_are_the_number() -> None:
    assert answer(*TWO, "--games", "0" * 30 + "2")["games"] == 2


def test_simulate_rami() -> None:
    result = answer("--game", "rami51", "--players", "hard,easy", "--games", "1", "--seed", "1")
    assert result["games"] == 1 and result["violations"] == []


EXPECTED = ("expected one level per seat, comma-separated, each one of easy, normal, hard "
            "(e.g. hard,easy for two players) (see --help)")
SIM = "site-builder engine simulate: error: argument"
TWO = ["--game", "cardverse", "--players", "easy,easy"]


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "cardverse", "--players", "hard,expert"],
     f"{SIM} --players: 'expert' is not a level: {EXPECTED}"),
    # a number of players, as a user may type it: the 3 is named, with what is expected
    (["--game", "rami51", "--players", "3"], f"{SIM} --players: '3' is not a level: {EXPECTED}"),
    (["--game", "rami51", "--players", "easy,,hard"],
     f"{SIM} --players: an empty level (two commas?) is not a level: {EXPECTED}"),
    # a bad level is named before a bad count, and --games is checked by its own parser
    (["--game", "rami51", "--players", "easy,easy,easy,easy,2"],
     f"{SIM} --players: '2' is not a level: {EXPECTED}"),
    (["--game", "cardverse", "--players", "easy"],
     "site-builder: --players 'easy': 1 seat, but Rami (CardVerse) is for 2 to 4 players: "
     "give one level per seat, e.g. hard,easy"),
    (["--game", "cardverse", "--players", "easy,easy,easy,easy,easy"],
     "site-builder: --players 'easy,easy,easy,easy,'... (24 characters): 5 seats, but Rami "
     "(CardVerse) is for 2 to 4 players: give one level per seat, e.g. hard,easy"),
    ([*TWO, "--games", "0"],
     f"{SIM} --games: 0 is out of range: expected a whole number from 1 to 100000 (see --help)"),
    # above the bound by one, by a digit or by thousands: out of range, never "not a number"
    ([*TWO, "--games", "100001"], f"{SIM} --games: 100001 is out of range: expected a whole "
                                  "number from 1 to 100000 (see --help)"),
    ([*TWO, "--games", "10000000"], f"{SIM} --games: 10000000 is out of range: expected a "
                                    "whole number from 1 to 100000 (see --help)"),
    ([*TWO, "--games", "9" * 5000], f"{SIM} --games: 99999999999999999999... (5000 characters) "
                                    "is out of range: expected a whole number from 1 to 100000 "
                                    "(see --help)"),
    ([*TWO, "--games", "-" + "9" * 30], f"{SIM} --games: -9999999999999999999... (31 "
                                        "characters) is out of range: expected a whole number "
                                        "from 1 to 100000 (see --help)"),
    ([*TWO, "--seed", str(2**63)], f"{SIM} --seed: 9223372036854775808 is out of range: "
                                   "expected a whole number from 0 to 9223372036854775807 "
                                   "(see --help)"),
    ([*TWO, "--games", "many"], f"{SIM} --games: 'many' is not a whole number: expected one "
                                "from 1 to 100000 (see --help)"),
    # what int() would read: a space, other scripts' digits, underscores
    ([*TWO, "--games", " 5"], f"{SIM} --games: ' 5' is not a whole number: expected one from "
                              "1 to 100000 (see --help)"),
    ([*TWO, "--games", "\u0665"], f"{SIM} --games: '\u0665' is not a whole number: expected "
                                  "one from 1 to 100000 (see --help)"),
    ([*TWO, "--seed", "1_0"], f"{SIM} --seed: '1_0' is not a whole number: expected one from 0 "
                              "to 9223372036854775807 (see --help)"),
    (["--game", "rami52", "--players", "easy,easy"],
     "site-builder: unknown game 'rami52' (known games: rami40, rami51, cardverse)"),
    (["--game", "cardverse"],
     "site-builder engine simulate: error: the following arguments are required: --players "
     "(see --help)"),
])
def test_bad_input_exits_2_with_one_line(args: list[str], message: str) -> None:
    """Each argument is checked by its own parser: the message names the argument, the
    value and what is expected."""
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == message + "\n"


def test_a_game_runs_to_the_target_score() -> None:
    rules = get_rules("cardverse")
    game = play_game(rules, [make_player("normal"), make_player("easy")], seed=11)
    assert game.violations == ()
    assert game.winner is not None
    assert game.scores[game.winner] >= rules.target_score
    assert all(score < rules.target_score for seat, score in enumerate(game.scores)
               if seat != game.winner)
    totals = [0, 0]
    for played in game.rounds:
        assert played.ending is not None
        for seat, gained in enumerate(played.ending.scores):
            totals[seat] += gained
    assert tuple(totals) == game.scores
    # The first seat moves on by one each round.
    assert [played.first for played in game.rounds[:4]] == [0, 1, 0, 1]


def test_a_lower_target_ends_sooner() -> None:
    rules = get_rules("cardverse", target_score=10)
    game = play_game(rules, [make_player("easy"), make_player("easy")], seed=2)
    assert max(game.scores) >= 10
    assert len(game.rounds) < len(play_game(get_rules("cardverse"),
                                            [make_player("easy"), make_player("easy")],
                                            seed=2).rounds)


def test_simulate_validates_its_arguments() -> None:
    rules = get_rules("cardverse")
    with pytest.raises(ValueError, match="positive integer"):
        simulate(rules, ["easy", "easy"], 0, 1)
    with pytest.raises(ValueError, match="the seed must be an integer"):
        simulate(rules, ["easy", "easy"], 1, "x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown player level"):
        simulate(rules, ["easy", "good"], 1, 1)
