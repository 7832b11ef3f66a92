"""A reader who follows every hint of the practice table, against a normal and an easy player.

    .venv/bin/python benchmarks/hint_follower.py [--rounds 80] [--seed 1] [--json]

Plays ``--rounds`` seeded rounds, half Rami 51 and half Rami 40, with three seats: the
reader at seat 1 (who asks :meth:`Table.hint` before each action and does what it says),
a normal and an easy computer player at seats 2 and 3, in turn in that order and the
other (so that each sits after the other as often: the seat after the easy player gets
its careless discards). Round *i* is round ``i % 3`` of the seeded game ``seed + i`` (so
the first seat moves on from round to round, as in a game), and each round is played to
its end.

Counted for the reader, the normal player and the easy player:

* first melds laid and rejected at the discard (the opening fell short);
* hints the table refused when the reader made the move (the reader then makes a legal
  move instead), and hints that gave no move;
* rounds won.

Targets: the reader has 0 first melds rejected, 0 hints refused, and wins at least as
many rounds as the normal computer player. Printed as a table, or one JSON object with
``--json``. Beside them, in CPU time of this machine's Python (the browser runs the same
engine in Pyodide, slower; its own figures are ``benchmarks/play.py``'s): each hint, each
computer move (with its reasons), and the round's review of a careless reader (one who
plays the easy player's moves) in ``--reviews`` of the rounds (0: none). No time is a
target here.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from site_builder.engine.play import make_player  # noqa: E402
from site_builder.engine.play.coach import fallback  # noqa: E402
from site_builder.engine.play.table import Table, _deal  # noqa: E402
from site_builder.engine.round import Action, Discarding  # noqa: E402

GAMES = ("rami51", "rami40")
SEATS = ("reader", "normal", "easy")


def play_round(game: str, seed: int, k: int, levels: list[str]) -> dict[str, Any]:
    """One round, the reader following every hint: what happened, player by player
    (reader, normal, easy)."""
    table = _table(game, seed, k, levels)
    refused = no_move = 0
    hint_cpu: list[float] = []
    step_cpu: list[float] = []
    actions = 0
    reasoned = [0, 0]  # hints, computer moves that carry a reason
    moves = [0, 0]
    while not table.state.is_over and actions < 3000:
        actions += 1
        if table.state.turn != table.human:
            started = time.process_time()
            step = table.step()
            step_cpu.append(time.process_time() - started)
            moves[1] += 1
            reasoned[1] += bool(step.get("event", {}).get("reasons"))
            continue
        started = time.process_time()
        hint = table.hint()
        hint_cpu.append(time.process_time() - started)
        moves[0] += 1
        reasoned[0] += bool(hint.get("reasons"))
        if "action" not in hint:
            no_move += 1
            table.act(_request(fallback(table.state)))
            continue
        answer = table.act(hint["action"])
        if "refusal" in answer:
            refused += 1
            table.act(_request(fallback(table.state)))
    who = [SEATS.index(level or "reader") for level in table.levels]  # seat -> player
    laid = [0, 0, 0]
    rejected = [0, 0, 0]
    for op in table.state.history:
        if isinstance(op, Discarding) and op.opening is not None:
            laid[who[op.seat]] += 1
            rejected[who[op.seat]] += not op.opening.accepted
    ending = table.state.ending
    return {"game": game, "seed": seed, "round": k + 1, "laid": laid, "rejected": rejected,
            "refused": refused, "no_move": no_move, "hint_cpu": hint_cpu, "step_cpu": step_cpu,
            "reasoned": reasoned, "moves": moves,
            "winner": None if ending is None else who[ending.winner]}


def _table(game: str, seed: int, k: int, levels: list[str]) -> Table:
    """Round *k* (from 0) of the seeded game, as the table deals it after *k* rounds."""
    table = Table.new({"game": game, "levels": levels, "seed": seed})
    table.state = _deal(table.rules, seed, len(SEATS), k)
    table.rounds = [[0] * len(SEATS) for _ in range(k)]
    return table


def review_cpu(game: str, seed: int, k: int, levels: list[str]) -> tuple[float, int]:
    """The CPU time of the review of a round whose reader played the easy player's moves,
    and the number of moves it names."""
    table = _table(game, seed, k, levels)
    careless = make_player("easy")
    while not table.state.is_over:
        if table.state.turn != table.human:
            table.step()
            continue
        action = careless.choose(table.state.view(table.human))
        if "refusal" in table.act(_request(action)):
            table.act(_request(fallback(table.state)))
    started = time.process_time()
    found = table.review()["review"]
    return time.process_time() - started, len(found)


def _request(action: Action) -> dict[str, Any]:
    return {"kind": action.kind, "cards": [c.code for c in action.cards],
            "target": action.target}


def _ms(times: list[float], how: Any) -> float | None:
    return round(how(times) * 1000, 1) if times else None


def run(rounds: int, seed: int, reviews: int = 20) -> dict[str, Any]:
    """Play *rounds* rounds (half of each game) and add up the counts; review *reviews*
    of them played by a careless reader."""
    def levels(i: int) -> list[str]:
        return ["normal", "easy"] if i // 2 % 2 == 0 else ["easy", "normal"]
    played = [play_round(GAMES[i % 2], seed + i, i % 3, levels(i)) for i in range(rounds)]
    reviewed = [review_cpu(GAMES[i % 2], seed + i, i % 3, levels(i))
                for i in range(min(reviews, rounds))]
    cpu = [t for r in played for t in r["hint_cpu"]]
    steps = [t for r in played for t in r["step_cpu"]]
    wins = [sum(r["winner"] == seat for r in played) for seat in range(len(SEATS))]
    return {
        "rounds": rounds,
        "first_melds_laid": [sum(r["laid"][s] for r in played) for s in range(len(SEATS))],
        "first_melds_rejected": [sum(r["rejected"][s] for r in played)
                                 for s in range(len(SEATS))],
        "hints_refused": sum(r["refused"] for r in played),
        "hints_without_move": sum(r["no_move"] for r in played),
        "round_wins": wins,
        "unfinished": sum(r["winner"] is None for r in played),
        "hints": len(cpu),
        "hints_with_a_reason": sum(r.get("reasoned", [0, 0])[0] for r in played),
        "computer_moves": sum(r.get("moves", [0, 0])[1] for r in played),
        "computer_moves_with_a_reason": sum(r.get("reasoned", [0, 0])[1] for r in played),
        "hint_cpu_median_ms": _ms(cpu, statistics.median),
        "hint_cpu_max_ms": _ms(cpu, max),
        "computer_move_cpu_median_ms": _ms(steps, statistics.median),
        "computer_move_cpu_max_ms": _ms(steps, max),
        "reviews": len(reviewed),
        "review_moves_named": sum(n for _, n in reviewed),
        "review_cpu_median_ms": _ms([t for t, _ in reviewed], statistics.median),
        "review_cpu_max_ms": _ms([t for t, _ in reviewed], max),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reviews", type=int, default=20,
                        help="rounds also played by a careless reader and reviewed")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    report = run(args.rounds, args.seed, args.reviews)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['rounds']} rounds ({', '.join(GAMES)}), reader v normal v easy")
    print(f"{'player':8} {'first melds rejected':>22} {'rounds won':>11}")
    for s, name in enumerate(SEATS):
        rejected, laid = report["first_melds_rejected"][s], report["first_melds_laid"][s]
        print(f"{name:8} {rejected:>12} of {laid:<7} {report['round_wins'][s]:>11}")
    print(f"hints refused by the table: {report['hints_refused']}; hints without a move: "
          f"{report['hints_without_move']}; rounds unfinished: {report['unfinished']}")
    print(f"{report['hints']} hints, CPU median {report['hint_cpu_median_ms']} ms, "
          f"max {report['hint_cpu_max_ms']} ms; with a confirmed reason: "
          f"{report['hints_with_a_reason']} hints, {report['computer_moves_with_a_reason']} of "
          f"{report['computer_moves']} computer moves")
    print(f"computer moves: CPU median {report['computer_move_cpu_median_ms']} ms, max "
          f"{report['computer_move_cpu_max_ms']} ms; {report['reviews']} reviews of a careless "
          f"reader: CPU median {report['review_cpu_median_ms']} ms, max "
          f"{report['review_cpu_max_ms']} ms, {report['review_moves_named']} moves named")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
