"""Hostile round questions for the bound on work: used by
``benchmarks/search_bound.py`` and ``tests/engine/test_search_bounded.py``.

Each question is a state and one call to it, as the build asks them: a rule set
that the profiles' bounds accept, a large hand, and a ``draw discard``, a meld or
a lay-off that must find out whether the owed card can still be laid.

The work a question does is counted in lines of the engine's Python run
(:func:`work_of`), which do not depend on the machine: the test bounds that count, the
benchmark prints it beside the CPU time.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from counting import Lines, TooMuchWork

import site_builder.engine
from site_builder.engine.cards import JOKER
from site_builder.engine.deal import full_deck
from site_builder.engine.round import RoundState, TableMeld
from site_builder.engine.rules import RulesError, RuleSet, get_rules
from site_builder.engine.search import NODE_LIMIT, SearchLimitError, find_melds

Question = tuple[str, Callable[[], object]]

ENGINE = Path(site_builder.engine.__file__).parent
# The most work one question may do: this many lines of the engine's Python a step of its
# bound (NODE_LIMIT). The costliest questions known run about 28 (52 cards and seven
# jokers, a joker taken: 21); a search runs more lines a step the deeper it goes. When
# the listing of melds was outside the bound, those questions took 9 to 17 s of CPU (a
# tenth of a second now, benchmarks/search_bound.py).
WORK_PER_STEP = 50
WORK_BOUND = WORK_PER_STEP * NODE_LIMIT


def answer_of(ask: Callable[[], object]) -> str:
    """What a question answers: allowed, refused (a ``ValueError``) or undecided (its
    bound reached, :class:`~site_builder.engine.search.SearchLimitError`)."""
    try:
        ask()
    except SearchLimitError:
        return "undecided"
    except ValueError:
        return "refused"
    return "allowed"


def work_of(ask: Callable[[], object], limit: int | None = WORK_BOUND) -> tuple[int, str]:
    """The lines of the engine's Python that a question runs, and its answer. One that
    runs more than *limit* is stopped there (then its count is ``limit + 1`` and its
    answer ``"stopped"``), so that a runaway costs what the bound does."""
    try:
        with Lines(ENGINE, limit=limit) as work:
            answer = answer_of(ask)
    except TooMuchWork:
        assert limit is not None
        return limit + 1, "stopped"
    return work.count, answer


def hostile_rules(rnd: random.Random) -> RuleSet:
    """A rule set within the profiles' bounds (``PROFILE_BOUNDS``), leaning to the
    costly end: many decks and jokers, many jokers a meld, steep thresholds."""
    while True:
        overrides: dict[str, object] = {
            "decks": rnd.choice([1, 2, 3, 4, 4, 4]),
            "jokers": rnd.choice([0, 2, 4, 8, 8]),
            "max_jokers_per_meld": rnd.choice([0, 1, 2, 4, 8, 8]),
            "adjacent_jokers": rnd.random() < 0.6,
            "all_joker_melds": rnd.random() < 0.4,
            "opening_threshold": rnd.choice([0, 40, 51, 150, 500, 1000, 1000]),
            "pure_sequence_required": rnd.random() < 0.5,
            "rami_sec": rnd.random() < 0.5,
            "discard_to_win": rnd.random() < 0.7,
            "joker_exchange": rnd.random() < 0.7,
            "discard_first_round": True,
            "ace_low": rnd.random() < 0.8,
        }
        try:
            return get_rules(rnd.choice(["rami40", "rami51", "cardverse"]), **overrides)
        except RulesError:
            continue


def hostile_question(rnd: random.Random, rules: RuleSet | None = None,
                     size: int | None = None) -> Question:
    """One question: its name and the call that asks it (it may refuse, or raise
    :class:`~site_builder.engine.search.SearchLimitError`). *rules* and the hand's
    *size* are drawn from *rnd* unless given."""
    rules = hostile_rules(rnd) if rules is None else rules
    deck = list(full_deck(rules))
    rnd.shuffle(deck)
    size = min(len(deck) - 6, rnd.choice([13, 30, 52, 60, 80, 120, 200]) if size is None
               else size)
    hand, top, rest = deck[:size], deck[size], deck[size + 1:]
    if rules.jokers and rnd.random() < 0.5 and top != JOKER and JOKER in rest:
        rest.remove(JOKER)
        rest.append(top)
        top = JOKER  # taking a joker: the costliest card to place
    state = RoundState(rules, [hand, rest[:2]], rest[2:5], [top])
    kind = rnd.choice(["draw", "draw", "meld", "lay_off"])
    if kind != "draw" or rnd.random() < 0.5:
        state._opened[0] = True  # as if seat 1 had opened earlier
        try:
            melds = find_melds(rest[5:], rules)[:3]
        except SearchLimitError:
            melds = ()
        for number, cards in enumerate(melds, 1):
            state._table[number] = TableMeld(number, 1, cards, "set", 0, cards)
        state._next_number = len(melds) + 1
    name = f"{kind}: {rules.name}, {size} cards, top {top.code}"
    if kind == "draw":
        return name, state.verify_draw_discard
    try:
        state.draw_discard()
    except (ValueError, SearchLimitError):  # then the draw is the question
        return name + " (a draw)", state.verify_draw_discard
    own = [c for c in state.hands[0] if c != top][:3]
    if kind == "meld":
        return name, lambda: state.verify_meld(own)
    target = next(iter(state._table), 1)
    return name, lambda: state.verify_lay_off(target, own[:1])
