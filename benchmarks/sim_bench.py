"""Benchmark: computer players against each other, and simulation speed.

    .venv/bin/python benchmarks/sim_bench.py [--games 200] [--speed-games 100] [--seed 1]
                                             [--game cardverse]

Targets, measured heads-up over whole games to the target score,
with the first seat alternating from game to game:

* hard beats easy in at least 70% of games;
* normal beats easy in at least 60% of games;
* at least 200 simulated rounds per second with two easy players.

Win rates are printed with a 95% Wilson interval. Speed is printed both per
second of CPU time used by this process (stable on a busy machine) and per
second of wall-clock time. Every run also reports the invariant violations
the simulation found (there should be none).
"""

from __future__ import annotations

import argparse
import math
import time

from site_builder.engine import (
    PRESETS,
    get_rules,
)
from site_builder.engine.play import simulate


def wilson(wins: int, games: int) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 0.0)
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (centre - spread, centre + spread)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--speed-games", type=int, default=100,
                        help="games of easy against easy for the speed figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="cardverse", choices=sorted(PRESETS))
    args = parser.parse_args()
    rules = get_rules(args.game)
    ok = True

    cpu = time.process_time()
    wall = time.perf_counter()
    speed = simulate(rules, ["easy", "easy"], args.speed_games, args.seed)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    per_cpu = speed.rounds / cpu
    ok &= per_cpu >= 200 and not speed.violations
    print(f"speed, easy v easy: {speed.rounds} rounds in {args.speed_games} games: "
          f"{per_cpu:,.0f} rounds/s of CPU time, {speed.rounds / wall:,.0f} rounds/s wall "
          f"(target 200) {'ok' if per_cpu >= 200 else 'MISSED'}; "
          f"violations: {len(speed.violations)}")

    for strong, target in (("hard", 0.70), ("normal", 0.60)):
        started = time.process_time()
        result = simulate(rules, [strong, "easy"], args.games, args.seed)
        used = time.process_time() - started
        wins = result.game_wins[0]
        rate = wins / args.games
        low, high = wilson(wins, args.games)
        round_rate = result.round_wins[0] / max(1, result.rounds)
        met = rate >= target and not result.violations
        ok &= met
        print(f"{strong} v easy: {strong} wins {wins}/{args.games} games = {rate:.1%} "
              f"(95% CI {low:.1%}-{high:.1%}; target {target:.0%}) {'ok' if met else 'MISSED'}; "
              f"rounds won {round_rate:.1%} of {result.rounds}; "
              f"average scores {result.average_points[0]} v {result.average_points[1]}; "
              f"{result.rounds / used:,.0f} rounds/s CPU; violations: {len(result.violations)}")
    print("all targets met" if ok else "some targets missed")


if __name__ == "__main__":
    main()
