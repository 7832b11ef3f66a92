"""The practice table's glue (site_builder/engine/play/table.py): whole games, save and
restore, positions, and every request the page may send, hostile ones included."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from site_builder.engine import deal, format_history, game_winners, get_rules
from site_builder.engine.play import make_player
from site_builder.engine.play.table import SAVE_VERSION, Session, Table, TableError
from site_builder.engine.round import RoundState


def play_on(table: Table, limit: int = 20_000, must_end: bool = True) -> list[dict[str, Any]]:
    """Play the game to its end (or *limit* actions): the reader follows the normal
    player's hints; each action's save."""
    saves: list[dict[str, Any]] = []
    for _ in range(limit):
        if table.game_over:
            return saves
        if table.state.is_over:
            assert "event" in table.next_round()
        elif table.state.turn == table.human:
            answer = table.act(table.hint()["action"])
            assert "event" in answer, answer
        else:
            assert "event" in table.step()
        saves.append(table.save())
    assert not must_end, "the game did not end"
    return saves


@pytest.mark.parametrize("game, levels", [("rami51", ["easy", "normal", "hard"]),
                                          ("cardverse", ["hard"])])
def test_a_seeded_game_runs_to_its_limit(game: str, levels: list[str]) -> None:
    table = Table.new({"game": game, "levels": levels, "seed": 11})
    play_on(table)
    view = table.view()
    rules = get_rules(game)
    assert view["game_over"] and len(view["rounds"]) >= 1
    assert view["totals"] == [sum(r[seat] for r in view["rounds"])
                              for seat in range(len(levels) + 1)]
    assert max(view["totals"]) >= rules.target_score
    assert view["winners"] == list(game_winners(view["totals"], rules))


def test_each_round_is_the_seeded_deal_and_the_computers_play_as_in_python() -> None:
    """Round 1 of a seeded game is play_game's deal; a computer seat moves exactly as
    its player does on the same state."""
    rules = get_rules("rami51")
    table = Table.new({"game": "rami51", "levels": ["hard"], "seed": 5})
    dealt = deal(rules, 2, random.Random(5).getrandbits(64))
    assert table.state.hands == dealt.hands and table.state.stock == dealt.stock
    shadow = RoundState.from_deal(rules, dealt)
    hard = make_player("hard")
    while not table.state.is_over:
        if table.state.turn == 0:
            request = {"kind": "draw_stock"} if table.state.phase.value == "draw" else \
                {"kind": "discard", "cards": [table.state.hands[0][0].code]}
            table.act(request)
        else:
            table.step()
    # replay the same choices on a shadow round, asking the hard player at its turns
    for action in table.actions:
        if shadow.turn == 1:
            assert hard.choose(shadow.view(1)) == action
        shadow.apply(action)
    assert format_history(shadow.history) == format_history(table.state.history)


def test_a_saved_game_restores_at_every_step() -> None:
    table = Table.new({"game": "rami40", "levels": ["normal", "easy"], "seed": 3})
    saves = play_on(table, limit=300, must_end=False)
    for save in saves[::17]:
        again = Table.restore(json.loads(json.dumps(save)))
        assert again.save() == save


@pytest.mark.parametrize("config, code", [
    ({"game": "rami52", "levels": ["easy"], "seed": 1}, "bad-game"),
    ({"game": "cardverse", "variation": "house", "levels": ["easy"], "seed": 1}, "bad-variation"),
    ({"game": "rami51", "variation": "__class__", "levels": ["easy"], "seed": 1},
     "bad-variation"),
    ({"game": "rami51", "levels": [], "seed": 1}, "bad-players"),
    ({"game": "rami51", "levels": ["easy"] * 4, "seed": 1}, "bad-players"),
    ({"game": "rami51", "levels": ["genius"], "seed": 1}, "bad-level"),
    ({"game": "rami51", "levels": ["easy"], "seed": -1}, "bad-seed"),
    ({"game": "rami51", "levels": ["easy"], "seed": 2**60}, "bad-seed"),
    ({"game": "rami51", "levels": ["easy"], "seed": True}, "bad-seed"),
    ([], "bad-config"),
])
def test_a_bad_config_is_refused_with_its_code(config: Any, code: str) -> None:
    with pytest.raises(TableError) as caught:
        Table.new(config)
    assert caught.value.code == code
    assert json.loads(Session().call("new", json.dumps(config)))["refusal"]["code"] == code


@pytest.mark.parametrize("save", [
    None, [], {"v": SAVE_VERSION + 1}, {"v": SAVE_VERSION, "config": {"game": "<b>"}},
    {"v": SAVE_VERSION, "config": {"game": "rami51", "levels": ["easy"], "seed": 1},
     "rounds": [], "actions": ["discard KS"]},
    {"v": SAVE_VERSION, "config": {"game": "rami51", "levels": ["easy"], "seed": 1},
     "rounds": [[1, 2, 3]], "actions": []},
    {"v": SAVE_VERSION, "config": {"game": "rami51", "levels": ["easy"], "seed": 1},
     "rounds": [], "actions": ["draw stock"] * 6000},
])
def test_a_damaged_save_is_refused(save: Any) -> None:
    with pytest.raises(TableError) as caught:
        Table.restore(save)
    assert caught.value.code == "bad-save"


@pytest.mark.parametrize("request_", [
    {"kind": "meld", "cards": ["ZZ"]}, {"kind": "meld", "cards": "5H"},
    {"kind": "lay_off", "cards": ["5H"], "target": "1"}, {"kind": "explode"}, "draw",
    {"kind": "discard", "cards": ["5H"] * 200},
])
def test_a_hostile_move_is_refused_and_changes_nothing(request_: Any) -> None:
    table = Table.new({"game": "rami51", "levels": ["easy"], "seed": 1})
    before = table.save()
    assert "refusal" in table.act(request_)
    assert table.save() == before


def test_a_refusal_carries_a_code_and_the_english_sentence() -> None:
    table = Table.new({"game": "rami51", "levels": ["easy"], "seed": 4217})
    refusal = table.act({"kind": "discard", "cards": [table.state.hands[0][0].code]})["refusal"]
    assert refusal["code"] and refusal["message"] == "seat 1 must draw first"


def test_a_position_is_played_from_the_seat_to_move() -> None:
    position = {"game": "cardverse", "hands": [["5H", "6H", "7H"], ["9C", "JD", "4S"]],
                "stock": ["2C", "3D", "8S"], "discard": ["9D"], "steps": ["1: draw stock"]}
    table = Table.from_position(position)
    assert table.human == 0 and table.view()["phase"] == "play"
    for bad in ({**position, "steps": ["2: draw stock"]}, {**position, "hands": [["5H"]]},
                {**position, "stock": ["5H"] * 9}, {**position, "steps": "1: draw stock"}):
        with pytest.raises(TableError):
            Table.from_position(bad)


def test_a_variation_is_the_sites_by_name() -> None:
    session = Session()
    config = {"game": "rami51", "variation": "house", "levels": ["easy"], "seed": 2}
    assert json.loads(session.call("new", json.dumps(config)))["refusal"]["code"] == \
        "bad-variation"
    assert json.loads(session.call("variations", '{"house": {"joker_value": 15}}')) == {}
    assert "view" in json.loads(session.call("new", json.dumps(config)))
    assert session.table is not None and session.table.rules.joker_value == 15
    assert json.loads(session.call("variations", '{"x": {"decks": "many"}}'))["refusal"][
        "code"] == "bad-variation"
