"""The engine's answer to "can this card be laid this turn" is exact and its
work is bounded, whatever the rules.

* On small hands, :func:`find_opening` agrees with a brute force over every set of
  disjoint melds (random hands, random constraints, random rules within the profiles'
  bounds).
* On large random hands and steep rules, every question is answered (allowed,
  refused, or :class:`SearchLimitError`) within a bound of work: the lines of the
  engine's Python it runs (``hostile_questions.work_of``), a count that does not depend
  on the machine, at most ``WORK_PER_STEP`` a step of its bound. The CPU time of the
  same questions is measured beside that count by ``benchmarks/search_bound.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hostile_questions import WORK_BOUND, WORK_PER_STEP, hostile_question, work_of
from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.engine import (
    RoundState,
    RulesError,
    SearchLimitError,
    evaluate_meld,
    find_melds,
    find_opening,
    full_deck,
    get_rules,
    parse_cards,
)
from site_builder.engine.search import NODE_LIMIT, Budget


def random_rules(rnd: random.Random):  # type: ignore[no-untyped-def]
    game = rnd.choice(["rami40", "rami51", "cardverse"])
    overrides = {"opening_threshold": rnd.choice([0, 10, 30, 40, 51, 80, 120, 1000])}
    if game != "cardverse":
        overrides.update(max_jokers_per_meld=rnd.randint(1, 3),
                         adjacent_jokers=rnd.random() < 0.5,
                         pure_sequence_required=rnd.random() < 0.5)
    return get_rules(game, **overrides)


def brute_force(hand, rules, min_points, need_pure, keep, lay_all, must):  # type: ignore[no-untyped-def]
    """Whether some set of disjoint melds meets the constraints, by trying every set."""
    melds = find_melds(hand, rules)
    held = Counter(card.ordinal for card in hand)
    for size in range(0 if lay_all else 1, len(melds) + 1):
        for chosen in combinations(melds, size):
            used = Counter(card.ordinal for meld in chosen for card in meld)
            if any(used[o] > held[o] for o in used):
                continue
            results = [evaluate_meld(meld, rules) for meld in chosen]
            left = len(hand) - sum(used.values())
            if (sum(r.points for r in results) >= min_points
                    and (not need_pure or any(r.is_pure for r in results))
                    and left >= keep and (not lay_all or left == keep)
                    and all(used[o] >= n for o, n in must.items())):
                return True
    return False


def test_find_opening_is_exact_on_small_hands() -> None:
    rnd = random.Random(28)
    checked = 0
    while checked < 400:
        rules = random_rules(rnd)
        deck = list(full_deck(rules))
        hand = rnd.sample(deck, rnd.randint(3, 9))
        if len(find_melds(hand, rules)) > 12:
            continue  # the brute force would take too long
        min_points = rnd.choice([0, 0, 10, 25, 40, 51, 70])
        need_pure, keep, lay_all = rnd.random() < 0.4, rnd.randint(0, 1), rnd.random() < 0.3
        must_lay = rnd.sample(hand, rnd.randint(0, 2))
        must = Counter(card.ordinal for card in must_lay)
        found = find_opening(hand, rules, min_points=min_points, need_pure=need_pure,
                             keep=keep, lay_all=lay_all, must_lay=must_lay)
        expected = brute_force(hand, rules, min_points, need_pure, keep, lay_all, must)
        assert (found is not None) == expected, (hand, rules.name, min_points, need_pure,
                                                 keep, lay_all, must_lay)
        if found is not None:  # and what it found meets the constraints
            results = [evaluate_meld(meld, rules) for meld in found]
            assert all(r.valid for r in results)
            assert sum(r.points for r in results) >= min_points
            used = Counter(card.ordinal for meld in found for card in meld)
            assert all(used[o] >= n for o, n in must.items())
        checked += 1


def test_two_hands_that_once_took_minutes_are_refused_with_the_right_reason() -> None:
    """The 51-card ``two_jokers`` hand, and a 26-card hand under a threshold of 1000
    (each ran the old search for minutes): no opening can use the joker."""
    ranks = "2 4 6 8 10 Q".split()
    cards = " ".join(f"{r}{s}" for r in ranks for s in "CDHS")
    cases = [(get_rules("rami51", max_jokers_per_meld=2, adjacent_jokers=True),
              f"{cards} {cards} JK JK JK"),
             (get_rules("rami40", opening_threshold=1000), f"{cards} JK JK")]
    for rules, hand in cases:
        state = RoundState(rules, [parse_cards(hand), parse_cards("KC KD")],
                           parse_cards("3C 3D"), parse_cards("JK"))
        try:
            state.verify_draw_discard()
        except ValueError as exc:
            assert "no opening that uses it is accepted" in str(exc)
        else:
            raise AssertionError("taking the joker was allowed")


def large_draw_discard(rnd: random.Random):  # type: ignore[no-untyped-def]
    """A ``draw discard`` with a hand of 13 to 80 cards from 2 to 4 decks, under steep
    rules of Rami 40 or 51: the question asked."""
    game = rnd.choice(["rami40", "rami51"])
    rules = get_rules(game, decks=rnd.randint(2, 4), jokers=rnd.randint(0, 8),
                      max_jokers_per_meld=rnd.randint(1, 8), adjacent_jokers=rnd.random() < 0.5,
                      opening_threshold=rnd.choice([40, 51, 150, 300, 600, 1000]),
                      pure_sequence_required=rnd.random() < 0.5, rami_sec=rnd.random() < 0.3)
    deck = list(full_deck(rules))
    rnd.shuffle(deck)
    size = rnd.randint(13, 80)
    hands, stock, discard = [deck[:size], deck[size:size + 13]], deck[-3:-1], deck[-1:]
    return RoundState(rules, hands, stock, discard).verify_draw_discard


@pytest.mark.slow  # a soak: 60 questions, each counted line by line
def test_a_draw_discard_on_a_large_hand_is_answered_within_the_bound() -> None:
    """60 large random hands: each question is answered within the bound of work, and the
    answers are not all of one kind (allowed and refused both occur)."""
    rnd = random.Random(28)
    answers: Counter[str] = Counter()
    for trial in range(60):
        lines, answer = work_of(large_draw_discard(rnd))
        assert lines <= WORK_BOUND, (trial, answer, lines)
        answers[answer] += 1
    assert answers["allowed"] and answers["refused"], answers


def test_an_undecided_search_is_an_error_of_the_step_never_a_verdict(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """With the bound made tiny, the same step is not refused nor allowed: the replay
    fails at that step saying that the engine cannot decide (the verifier reports it at
    the row's line), and ``state.verify`` raises no ``ValueError`` (a refusal)."""
    import pytest

    from site_builder.engine import ReplayError, replay
    from site_builder.engine import round as round_module
    from site_builder.engine.search import Budget, SearchLimitError

    # the whole question shares one budget: make it tiny
    monkeypatch.setattr(round_module, "Budget", lambda **shared: Budget(30, **shared))
    hands = ["5C 6C KH KS KD QH QD QC 2D 9S", "2S 3S 4S 5S 6S 7S 8S 9D 10D"]
    with pytest.raises(ReplayError, match="cannot decide this within its bound"):
        replay(get_rules("rami51"), hands, "AS AD", "7C", "1: draw discard")
    state = RoundState(get_rules("rami51"), [parse_cards(h) for h in hands],
                       parse_cards("AS AD"), parse_cards("7C"))
    with pytest.raises(SearchLimitError):
        state.verify_draw_discard()
    monkeypatch.undo()
    assert replay(get_rules("rami51"), hands, "AS AD", "7C", "1: draw discard").steps


# --- the bound covers the whole question, the listing of melds included -------------------

FULL = " ".join(f"{r}{s}" for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())
MAXED = {"decks": 4, "jokers": 8, "max_jokers_per_meld": 8, "adjacent_jokers": True,
         "all_joker_melds": True}
@pytest.mark.parametrize(("overrides", "jokers"), [
    (MAXED, 7),
    ({**MAXED, "opening_threshold": 1000, "rami_sec": True}, 7),
    ({**MAXED, "opening_threshold": 1000}, 7),
    ({"opening_threshold": 1000, "rami_sec": True}, 2),
])
def test_52_cards_and_seven_jokers_stay_within_the_bound(overrides: dict[str, object],
                                                         jokers: int) -> None:
    """52 cards and seven jokers, then a joker taken, under profiles at their bounds (9 to
    17 s of CPU when the bound covered the search alone: most of it went to listing about
    100,000 melds): at most WORK_PER_STEP lines of the engine's Python a step of the
    bound."""
    rules = get_rules("rami51", **overrides)
    state = RoundState(rules, [parse_cards(FULL + " JK" * jokers), parse_cards("KC KD")],
                       parse_cards("KS 3C 3D"), parse_cards("JK"))
    lines, answer = work_of(state.verify_draw_discard)
    assert lines <= WORK_BOUND, (answer, lines, f"{lines / NODE_LIMIT:.1f} a step")


def test_find_melds_spends_from_the_bound() -> None:
    rules = get_rules("rami51", **MAXED)
    hand = parse_cards(FULL + " JK" * 8)
    with pytest.raises(SearchLimitError):
        find_melds(hand, rules)  # 102,917 melds: past the bound
    budget = Budget()
    assert len(find_melds(parse_cards("5H 6H 7H 8H JK"), rules, budget=budget)) > 1
    assert 0 < budget.left < budget.limit


PROFILES = {
    "game": st.sampled_from(["rami40", "rami51", "cardverse"]),
    "decks": st.integers(1, 4), "jokers": st.integers(0, 8), "per_meld": st.integers(0, 8),
    "threshold": st.integers(0, 1000), "flags": st.lists(st.booleans(), min_size=5, max_size=5),
    "size": st.integers(3, 216), "rnd": st.randoms(use_true_random=False)}


def ask_within_the_bound(game, decks, jokers, per_meld, threshold, flags, size, rnd) -> None:  # type: ignore[no-untyped-def]
    """Random rules within the profiles' bounds (PROFILE_BOUNDS), a random hand of up to
    every card: the question (a draw discard, or a meld or lay-off with a card owed) is
    answered, refused or undecided (SearchLimitError) within the bound of work."""
    adjacent, all_jokers, pure, rami_sec, to_win = flags
    try:
        rules = get_rules(game, decks=decks, jokers=jokers, max_jokers_per_meld=per_meld,
                          opening_threshold=threshold, adjacent_jokers=adjacent,
                          all_joker_melds=all_jokers, pure_sequence_required=pure,
                          rami_sec=rami_sec, discard_to_win=to_win, discard_first_round=True)
    except RulesError:
        return  # not a profile the build accepts
    name, ask = hostile_question(rnd, rules, size)
    lines, answer = work_of(ask)
    assert lines <= WORK_BOUND, (name, answer, lines, f"more than {WORK_PER_STEP} a step")


@settings(max_examples=8, derandomize=True)
@given(**PROFILES)
def test_a_few_questions_of_accepted_profiles_stay_within_the_bound(**drawn) -> None:  # type: ignore[no-untyped-def]
    """A few questions, the same every run (the soak below asks more, new each run)."""
    ask_within_the_bound(**drawn)


@pytest.mark.slow  # a soak: each question counted line by line
@settings(max_examples=60)
@given(**PROFILES)
def test_no_question_of_an_accepted_profile_goes_past_the_bound(**drawn) -> None:  # type: ignore[no-untyped-def]
    ask_within_the_bound(**drawn)


# --- one total for the whole build's engine work, shared by every question ----------------

HOSTILE_ROUND = (
    "```example\ntable: round\ngame: rami51\nprofile: maxed\n"
    f"hands: {FULL}{' JK' * 7} | KC KD\nstock: KS 3C 3D\ndiscard: JK\n\n"
    "caption: Round {n}\nstep: 1: draw discard\n```\n\n")


def test_a_total_shared_by_many_questions_refuses_once_spent() -> None:
    """Each question draws on its own bound and on the shared total: once the total is
    spent, the next question raises TotalLimitError (not SearchLimitError: that
    question may be cheap), and the replay names the step that asked it."""
    from site_builder.engine import ReplayError, TotalLimitError, replay
    from site_builder.engine.search import Budget

    rules = get_rules("rami51", **MAXED, opening_threshold=1000, rami_sec=True)
    deal = ([FULL + " JK" * 7, "KC KD"], "KS 3C 3D", "JK")
    total = Budget(120_000)
    undecided = 0
    with pytest.raises(TotalLimitError) as refused:
        for _ in range(10):
            with pytest.raises(ReplayError, match="cannot decide"):
                replay(rules, *deal, "1: draw discard", total=total)
            undecided += 1
    assert undecided == 2  # two questions of 50,000 steps, the third past 120,000
    assert refused.value.steps == 120_000 and refused.value.step == 1
    assert total.left < 0


def test_a_page_of_many_hostile_rounds_fails_within_the_total(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The real site plus a page of hostile rounds, checked with a small total (a
    Session's ``engine_steps``): the first rows are each undecided at their line, and
    every row after the total is spent is refused at its line, saying that the pages
    together ask the engine too much and how to fix it. The real site alone checks
    within a total far smaller than the build's (ENGINE_STEPS)."""
    from conftest import copy_project

    from site_builder.build import check
    from site_builder.session import Session

    copy_project(tmp_path)  # content, catalogs, templates, and the checkout's node_modules
    assert not check(tmp_path, Session(engine_steps=5_000)).problems
    with open(tmp_path / "content" / "profiles.toml", "a", encoding="utf-8") as profiles:
        profiles.write('\n[maxed]\nname = "maxed"\ndecks = 4\njokers = 8\n'
                       "max_jokers_per_meld = 8\nadjacent_jokers = true\n"
                       "all_joker_melds = true\nopening_threshold = 1000\nrami_sec = true\n")
    page = "---\ntitle: Hostile\nslug: hostile\norder: 99\ndescription: Costly.\n---\n\nX.\n\n"
    page += "".join(HOSTILE_ROUND.replace("{n}", str(n)) for n in range(1, 41))
    (tmp_path / "content" / "hostile.md").write_text(page, encoding="utf-8")
    lines = {n: i for i, line in enumerate(page.splitlines(), 1)
             if line.startswith("caption: Round ") for n in [int(line.split()[-1])]}
    verified = check(tmp_path, Session(engine_steps=120_000))
    found = {p.line: p.message for p in verified.problems if p.path == "content/hostile.md"}
    assert len(found) == 40
    assert all("cannot decide this within its bound" in found[lines[n] + 1] for n in (1, 2))
    for n in range(3, 41):
        message = found[lines[n] + 1]
        assert message.startswith(f"example 'Round {n}': the pages together ask the engine "
                                  "more than one build allows (120,000 search steps")
        assert "use fewer or simpler worked rows" in message


def test_replaying_a_round_for_a_refused_step_draws_on_the_total() -> None:
    """A row that states a refused step replays the round up to it: that work is drawn
    from the run's total too (REPLAY_STEPS a step), so that a long round with a refusal
    on every row (work that grows with the square of its rows) is refused once spent."""
    from site_builder.engine import TotalLimitError
    from site_builder.engine.search import Budget
    from site_builder.examples.round_steps import REPLAY_STEPS, refusal

    deal = (get_rules("rami51"), [parse_cards("5H 9D 4S"), parse_cards("9C 10D 6S")],
            parse_cards("KS 3D KD"), parse_cards("7C"))
    before = ["1: draw stock", "1: discard 4S", "2: draw stock", "2: discard 6S"]
    enough = Budget(REPLAY_STEPS * len(before))
    assert refusal(*deal, before, "1: discard KS", enough)[0] == "1: discard KS"
    assert enough.left == 0
    with pytest.raises(TotalLimitError):
        refusal(*deal, before, "1: discard KS", Budget(REPLAY_STEPS * len(before) - 1))
