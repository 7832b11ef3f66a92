"""The bound on the engine's work: the CPU time of one round question.

    .venv/bin/python benchmarks/search_bound.py [QUESTIONS] [SEED]

Asks QUESTIONS (default 300) hostile questions (tests/engine/hostile_questions.py:
rules within the profiles' bounds, hands of up to 200 cards, a draw discard, a meld or
a lay-off that must place an owed card) and the worst cases known (:func:`worst_cases`), and
prints the
CPU time of each kind of answer: allowed, refused, or undecided (SearchLimitError, the
bound reached). The target: no question over 1 s of CPU. It also prints the CPU time
per step of the bound for the questions that used it up, which is how MELD_COST and
NODE_LIMIT in site_builder/engine/search.py were chosen.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]

from hostile_questions import hostile_question  # noqa: E402

from site_builder.engine import RoundState, get_rules, parse_cards  # noqa: E402
from site_builder.engine.search import NODE_LIMIT, SearchLimitError  # noqa: E402

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


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 33)
    questions = worst_cases() + [hostile_question(rnd) for _ in range(count)]
    times: dict[str, list[float]] = {"allowed": [], "refused": [], "undecided": []}
    worst = (0.0, "")
    for name, ask in questions:
        started = time.process_time()
        try:
            ask()  # type: ignore[operator]
            answer = "allowed"
        except SearchLimitError:
            answer = "undecided"
        except ValueError:
            answer = "refused"
        spent = time.process_time() - started
        times[answer].append(spent)
        if spent > worst[0]:
            worst = (spent, f"{name} ({answer})")
        if name.startswith(WORST):
            print(f"{name}: {answer} in {spent:.3f} s CPU")
    for answer, spent in times.items():
        if spent:
            print(f"{answer:9} {len(spent):4} questions, CPU max {max(spent):.3f} s, "
                  f"mean {sum(spent) / len(spent):.3f} s")
    if times["undecided"]:
        per_step = max(times["undecided"]) / NODE_LIMIT
        print(f"bound reached: at most {per_step * 1e6:.2f} µs a step "
              f"({NODE_LIMIT:,} steps a question)")
    print(f"slowest: {worst[0]:.3f} s CPU: {worst[1]}")


if __name__ == "__main__":
    main()
