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
``--json``. The time each hint took (CPU, median and largest) is printed beside them;
it is no target here (the browser's is measured by ``benchmarks/play.py``).
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

from site_builder.engine.play.coach import fallback  # noqa: E402
from site_builder.engine.play.table import Table, _deal  # noqa: E402
from site_builder.engine.round import Action, Discarding  # noqa: E402

GAMES = ("rami51", "rami40")
SEATS = ("reader", "normal", "easy")


def play_round(game: str, seed: int, k: int, levels: list[str]) -> dict[str, Any]:
    """One round, the reader following every hint: what happened, player by player
    (reader, normal, easy)."""
    table = Table.new({"game": game, "levels": levels, "seed": seed})
    table.state = _deal(table.rules, seed, len(SEATS), k)
    refused = no_move = 0
    hint_cpu: list[float] = []
    actions = 0
    reasoned = [0, 0]  # hints, computer moves that carry a reason
    moves = [0, 0]
    while not table.state.is_over and actions < 3000:
        actions += 1
        if table.state.turn != table.human:
            step = table.step()
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
            "refused": refused, "no_move": no_move, "hint_cpu": hint_cpu,
            "reasoned": reasoned, "moves": moves,
            "winner": None if ending is None else who[ending.winner]}


def _request(action: Action) -> dict[str, Any]:
    return {"kind": action.kind, "cards": [c.code for c in action.cards],
            "target": action.target}


def run(rounds: int, seed: int) -> dict[str, Any]:
    """Play *rounds* rounds (half of each game) and add up the counts."""
    played = [play_round(GAMES[i % 2], seed + i, i % 3,
                         ["normal", "easy"] if i // 2 % 2 == 0 else ["easy", "normal"])
              for i in range(rounds)]
    cpu = [t for r in played for t in r["hint_cpu"]]
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
        "hint_cpu_median_ms": round(statistics.median(cpu) * 1000, 2) if cpu else None,
        "hint_cpu_max_ms": round(max(cpu) * 1000, 1) if cpu else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    report = run(args.rounds, args.seed)
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
