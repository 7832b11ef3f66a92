"""Games and simulations: rounds until a player reaches the target score.

A game deals round after round with a seeded shuffle; the first seat moves
on by one each round. Each round's scores are added to the totals
(:func:`~site_builder.engine.scoring.round_scores`: in CardVerse the round
winner gains the points left in the opponents' hands; in Rami 40/51 each
player scores their own hand's points as penalty points). The game ends when
a total reaches ``rules.target_score`` (:func:`~site_builder.engine.scoring.game_over`)
and the best total wins: the highest in CardVerse, the lowest in Rami
(:func:`~site_builder.engine.scoring.game_winners`; ``winner`` is the first of
the tied seats).

Every round is checked as it is played. A **violation** is any broken
invariant: a card gained or lost (hands, stock, discard pile and table must
always hold exactly the cards dealt; 52 in CardVerse), a player asking for an
action that is not legal (the action is refused, never applied; the round
goes on with a fallback: draw from the stock, or discard the first card), an
invalid meld on the table, an ending that does not follow the rules, or a
round that does not end. A player whose search reaches its bound before it has chosen
plays a legal move instead (:func:`~site_builder.engine.play.coach.fallback`), as at the
practice table; that is no violation.

>>> from site_builder.engine import get_rules
>>> result = simulate(get_rules("cardverse"), ["easy", "easy"], games=2, seed=1)
>>> result.games, sum(result.game_wins), result.violations
(2, 2, ())
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from site_builder.engine.deal import deal
from site_builder.engine.melds import evaluate_meld
from site_builder.engine.play.coach import fallback as legal_move
from site_builder.engine.play.players import Player, make_player
from site_builder.engine.round import Action, Phase, RoundEnding, RoundState
from site_builder.engine.rules import RulesError, RuleSet
from site_builder.engine.scoring import game_over, game_winners, hand_points, round_scores
from site_builder.engine.search import SearchLimitError

__all__ = ["GameResult", "RoundResult", "Simulation", "play_game", "play_round", "simulate"]

#: A round that takes more actions than this is stopped and reported.
MAX_ACTIONS = 5_000
#: A game that takes more rounds than this is stopped and reported.
MAX_ROUNDS = 1_000


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One played round: its first seat, its end, the number of actions and any violations."""

    first: int
    ending: RoundEnding | None
    actions: int
    violations: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One played game: its rounds, the final scores and the winning seat."""

    rounds: tuple[RoundResult, ...]
    scores: tuple[int, ...]
    winner: int | None
    violations: tuple[str, ...]


def _fallback(state: RoundState) -> Action | None:
    """A legal action in place of a refused one, or ``None`` if there is none."""
    if state.phase is Phase.DRAW:
        return Action("draw_stock") if state.can_draw_stock() else Action("draw_discard")
    first = Action("discard", (state.hands[state.turn][0],))
    if state.can(first):
        return first
    legal = state.legal_actions()  # e.g. a card taken from the discard pile is still owed
    choices = [a for a in legal if a.kind == "discard"] or list(legal)
    return choices[0] if choices else None


def play_round(state: RoundState, players: Sequence[Player], *,
               max_actions: int = MAX_ACTIONS) -> RoundResult:
    """Play *state* to its end with *players* (one per seat), checking every invariant.

    >>> from site_builder.engine import deal, get_rules
    >>> from site_builder.engine.play import make_player
    >>> rules = get_rules("cardverse")
    >>> state = RoundState.from_deal(rules, deal(rules, 2, seed=3))
    >>> done = play_round(state, [make_player("easy"), make_player("easy")])
    >>> done.ending is not None, done.violations
    (True, ())
    """
    if len(players) != state.players:
        raise RulesError(f"{state.players} seats need {state.players} players, "
                         f"not {len(players)}")
    first = state.turn
    initial = sorted(card.ordinal for card in state.cards())
    violations: list[str] = []
    actions = 0
    while not state.is_over:
        if actions >= max_actions:
            violations.append(f"the round did not end after {max_actions} actions")
            break
        seat = state.turn
        try:
            action = players[seat].choose(state.view(seat))
        except SearchLimitError:  # no choice within the search's bound: a legal move
            action = legal_move(state)
        try:
            state.apply(action)  # verifies first; an illegal action changes nothing
        except ValueError as exc:
            violations.append(f"seat {seat + 1} asked for an illegal action "
                              f"({action.describe(seat)}): {exc}")
            fallback = _fallback(state)
            if fallback is None:
                violations.append(f"seat {seat + 1} has no legal action")
                break
            action = fallback
            state.apply(action)
        actions += 1
        # Every action keeps the number of cards; at the end of each turn the cards
        # themselves are compared with those dealt.
        if len(state.cards()) != len(initial) or (
                (state.phase is not Phase.PLAY)
                and sorted(card.ordinal for card in state.cards()) != initial):
            violations.append(f"cards were gained or lost after {action.describe(seat)}")
            break
    violations.extend(_check_end(state))
    return RoundResult(first, state.ending, actions, tuple(violations))


def _check_end(state: RoundState) -> list[str]:
    problems: list[str] = []
    for meld in state.table:
        if not evaluate_meld(meld.cards, state.rules).valid:
            problems.append(f"table meld {meld.number} is not a valid meld")
    ending = state.ending
    if ending is None:
        return problems
    hands = state.hands
    points = tuple(hand_points(hand, state.rules) for hand in hands)
    if ending.hand_points != points:
        problems.append("the ending's hand points do not match the hands")
    if ending.reason == "out" and hands[ending.winner]:
        problems.append("the winner went out with cards in hand")
    if ending.reason == "stock_out":
        if state.stock:
            problems.append("a stock-out with cards left in the stock")
        if points.index(min(points)) != ending.winner:
            problems.append("the stock-out winner does not hold the fewest points")
    if ending.scores != round_scores(hands, ending.winner, state.rules, state.opened):
        problems.append("the round scores do not follow the rules")
    return problems


def play_game(rules: RuleSet, players: Sequence[Player], seed: int, *, first: int = 0,
              max_rounds: int = MAX_ROUNDS) -> GameResult:
    """Play rounds until a seat reaches ``rules.target_score``.

    Round *k* (from 0) is dealt with the *k*-th 64-bit number of
    ``random.Random(seed)`` and starts with seat ``(first + k) % players``.

    >>> from site_builder.engine import get_rules
    >>> from site_builder.engine.play import make_player
    >>> game = play_game(get_rules("cardverse"), [make_player("hard"), make_player("easy")], 7)
    >>> max(game.scores) >= 100, game.winner == game.scores.index(max(game.scores))
    (True, True)
    """
    n = len(players)
    rng = random.Random(seed)
    scores = [0] * n
    rounds: list[RoundResult] = []
    violations: list[str] = []
    while not game_over(scores, rules):
        if len(rounds) >= max_rounds:
            violations.append(f"the game did not end after {max_rounds} rounds")
            break
        dealt = deal(rules, n, rng.getrandbits(64))
        state = RoundState.from_deal(rules, dealt, first=(first + len(rounds)) % n)
        result = play_round(state, players)
        rounds.append(result)
        violations.extend(f"round {len(rounds)}: {v}" for v in result.violations)
        if result.ending is None:
            break
        for seat, gained in enumerate(result.ending.scores):
            scores[seat] += gained
    winner = game_winners(scores, rules)[0] if game_over(scores, rules) else None
    return GameResult(tuple(rounds), tuple(scores), winner, tuple(violations))


@dataclass(frozen=True, slots=True)
class Simulation:
    """Totals over many games, per seat.

    ``average_points`` is each seat's mean final game score; ``violations``
    name the game and round of every broken invariant.
    """

    games: int
    rounds: int
    game_wins: tuple[int, ...]
    round_wins: tuple[int, ...]
    average_points: tuple[float, ...]
    violations: tuple[str, ...]


def simulate(rules: RuleSet, levels: Sequence[str], games: int, seed: int) -> Simulation:
    """Play *games* games between players of *levels* (one per seat).

    Each game gets fresh players and a seed drawn from ``random.Random(seed)``;
    game *g* starts with seat ``g % players`` so that no seat keeps the first move.

    >>> from site_builder.engine import get_rules
    >>> simulate(get_rules("cardverse"), ["easy", "easy"], games=3, seed=5) \\
    ...     == simulate(get_rules("cardverse"), ["easy", "easy"], games=3, seed=5)
    True
    """
    n = len(levels)
    rules.hand_size(n)  # raises RulesError for a bad player count
    for level in levels:
        make_player(level)  # raises ValueError for an unknown level
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"the number of games must be a positive integer, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"the seed must be an integer, not {seed!r}")
    rng = random.Random(seed)
    game_wins = [0] * n
    round_wins = [0] * n
    totals = [0] * n
    rounds = 0
    violations: list[str] = []
    for g in range(games):
        players = [make_player(level) for level in levels]
        game = play_game(rules, players, rng.getrandbits(64), first=g % n)
        rounds += len(game.rounds)
        if game.winner is not None:
            game_wins[game.winner] += 1
        for played in game.rounds:
            if played.ending is not None:
                round_wins[played.ending.winner] += 1
        for seat, score in enumerate(game.scores):
            totals[seat] += score
        violations.extend(f"game {g + 1} {v}" for v in game.violations)
    return Simulation(games, rounds, tuple(game_wins), tuple(round_wins),
                      tuple(round(total / games, 2) for total in totals), tuple(violations))

