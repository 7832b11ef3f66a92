"""Benchmark: how many melds per second ``evaluate_meld`` judges on one core.

    .venv/bin/python benchmarks/engine_bench.py [--count 100000] [--game rami51] [--seed 1]

The melds are random, 3–7 cards with up to 2 jokers, drawn from the two-deck
pack. Purely random cards are nearly always rejected at the first look, so
half of the melds are built to be near-melds: runs and sets of one suit or
rank, with jokers swapped in or added and, sometimes, one card replaced. The
mix of verdicts is printed with the speed. Target: at least 100,000 melds/s.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from site_builder.engine import JOKER, PRESETS, Card, Rank, Suit, evaluate_meld, get_rules

NATURALS = [Card(rank, suit) for suit in Suit for rank in Rank]


def random_meld(rng: random.Random) -> list[Card]:
    """One random meld of 3 to 7 cards with 0 to 2 jokers."""
    size = rng.randint(3, 7)
    jokers = rng.choice((0, 0, 1, 2))
    naturals = size - jokers
    shape = rng.random()
    if shape < 0.3:  # a run of one suit
        suit = rng.choice(list(Suit))
        start = rng.randint(1, 15 - size)
        run = [Card(Rank(1 if p == 14 else p), suit) for p in range(start, start + size)]
        cards = rng.sample(run, naturals)
    elif shape < 0.5:  # a set of one rank
        rank = rng.choice(list(Rank))
        cards = [Card(rank, suit) for suit in rng.sample(list(Suit), min(4, naturals))]
        cards += rng.sample(NATURALS, naturals - len(cards))
    else:  # anything
        cards = rng.sample(NATURALS, naturals)
    if rng.random() < 0.2:
        cards[rng.randrange(len(cards))] = rng.choice(NATURALS)
    cards += [JOKER] * jokers
    rng.shuffle(cards)
    return cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--game", default="rami51", choices=sorted(PRESETS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best one is reported")
    args = parser.parse_args()

    rules = get_rules(args.game)
    rng = random.Random(args.seed)
    melds = [random_meld(rng) for _ in range(args.count)]
    verdicts = Counter(
        (r.kind or "invalid") if r.valid or r.reason is None else r.reason
        for r in (evaluate_meld(m, rules) for m in melds)
    )
    best = float("inf")
    for _ in range(args.repeat):
        started = time.perf_counter()
        for meld in melds:
            evaluate_meld(meld, rules)
        best = min(best, time.perf_counter() - started)
    print(f"{args.count} melds under {args.game} in {best:.3f} s: "
          f"{args.count / best:,.0f} melds/s (best of {args.repeat})")
    print("verdicts: " + ", ".join(f"{name} {count / args.count:.1%}"
                                   for name, count in verdicts.most_common()))


if __name__ == "__main__":
    main()
