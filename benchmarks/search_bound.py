"""The bound on the engine's work: the CPU time of one round question, beside the lines of
the engine's Python it runs (the count that tests/engine/test_search_bounded.py bounds).

    .venv/bin/python benchmarks/search_bound.py [QUESTIONS] [SEED]

Asks QUESTIONS (default 300) hostile questions (tests/engine/hostile_questions.py:
rules within the profiles' bounds, hands of up to 200 cards, a draw discard, a meld or
a lay-off that must place an owed card) and the worst cases known (:func:`worst_cases`),
each twice, in one run: once timed, once counted (counting traces every line, which
slows it). It prints, for each kind of answer (allowed, refused, or undecided:
SearchLimitError, the bound reached), the CPU time and the lines. The targets: no
question over 1 s of CPU, none over the test's WORK_PER_STEP lines a step of the bound.
It also prints the CPU time per step of the bound for the questions that used it up,
which is how MELD_COST and NODE_LIMIT in site_builder/engine/search.py were chosen, and
the CPU time a line of the count takes here, which ties the count to this machine.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "engine")]

from hostile_questions import (  # noqa: E402
    WORK_PER_STEP,
    answer_of,
    hostile_question,
    work_of,
)

from site_builder.engine import RoundState, get_rules, parse_cards  # noqa: E402
from site_builder.engine.search import NODE_LIMIT  # noqa: E402

FULL = " ".join(f"{r}{s}" for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())
MAXED = dict(decks=4, jokers=8, max_jokers_per_meld=8, adjacent_jokers=True,
             all_joker_melds=True)
WORST = "worst case:"  # the start of the names of :func:`worst_cases`' questions


def worst_cases() -> list[tuple[str, object]]:
    """52 cards and seven jokers, then a joker taken from the discard, under profiles at
    their bounds: 9 to 17 s of CPU a question when the bound covered the search alone."""
    out = []
    for name, overrides, jokers in (
            (f"{WORST} maxed", MAXED, 7),
            (f"{WORST} maxed, threshold 1000, rami sec", {**MAXED, "opening_threshold": 1000,
                                                           "rami_sec": True}, 7),
            (f"{WORST} maxed, threshold 1000", {**MAXED, "opening_threshold": 1000}, 7),
            (f"{WORST} threshold 1000, rami sec", {"opening_threshold": 1000, "rami_sec": True},
             2)):
        rules = get_rules("rami51", **overrides)
        state = RoundState(rules, [parse_cards(FULL + " JK" * jokers), parse_cards("KC KD")],
                           parse_cards("KS 3C 3D"), parse_cards("JK"))
        out.append((name, state.verify_draw_discard))
    return out


def questions(count: int, seed: int) -> list[tuple[str, object]]:
    """The worst cases known, then *count* hostile questions drawn from *seed*."""
    rnd = random.Random(seed)
    return worst_cases() + [hostile_question(rnd) for _ in range(count)]


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 33
    times: dict[str, list[float]] = {"allowed": [], "refused": [], "undecided": []}
    counts: dict[str, list[int]] = {"allowed": [], "refused": [], "undecided": []}
    worst = (0.0, "")
    # each question made twice, from the same seed: timed on one state, counted on the other
    pairs = zip(questions(count, seed), questions(count, seed), strict=True)
    for (name, ask), (_, again) in pairs:
        started = time.process_time()
        answer = answer_of(ask)  # type: ignore[arg-type]
        spent = time.process_time() - started
        lines, counted = work_of(again, limit=None)  # type: ignore[arg-type]
        assert counted == answer, (name, answer, counted)
        times[answer].append(spent)
        counts[answer].append(lines)
        if spent > worst[0]:
            worst = (spent, f"{name} ({answer})")
        if name.startswith(WORST):
            print(f"{name}: {answer} in {spent:.3f} s CPU, {lines:,} lines "
                  f"({lines / NODE_LIMIT:.1f} a step of the bound)")
    for answer, spent in times.items():
        if spent:
            print(f"{answer:9} {len(spent):4} questions, CPU max {max(spent):.3f} s, "
                  f"mean {sum(spent) / len(spent):.3f} s; lines max {max(counts[answer]):,}")
    if times["undecided"]:
        per_step = max(times["undecided"]) / NODE_LIMIT
        print(f"bound reached: at most {per_step * 1e6:.2f} µs a step "
              f"({NODE_LIMIT:,} steps a question)")
    most = max(max(lines) for lines in counts.values() if lines)
    per_line = sum(map(sum, times.values())) / sum(map(sum, counts.values()))
    print(f"lines: at most {most / NODE_LIMIT:.1f} a step of the bound (the test allows "
          f"{WORK_PER_STEP}); {per_line * 1e9:.0f} ns of CPU a line here")
    print(f"slowest: {worst[0]:.3f} s CPU: {worst[1]}")


if __name__ == "__main__":
    main()
