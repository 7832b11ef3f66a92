"""``site-builder engine``: ask the rules engine, get one JSON object on stdout.

    site-builder engine meld --game rami51 JK 7S 8S
    site-builder engine opening --game rami51 "QH KH AH" "JK 7S 8S"
    site-builder engine hand --game cardverse --ace-high AH KS 7D
    site-builder engine layoff --game rami51 --meld "5H 6H 7H" 8H
    site-builder engine simulate --game cardverse --players hard,easy --games 100 --seed 1
    site-builder engine round --game rami51 --hands "6S 9C 9D" "2C 3D" --stock "4C 5C" \
        --discard 8D "1: draw stock; 1: discard 4C"
    site-builder engine round --game rami51 --hands "5H 6H 9C" "2C 3D" --stock "4C 5C 8D" \
        --discard 7H --try "1: draw discard" "1: draw stock; 1: discard 4C; 2: draw stock; \
        2: discard 5C"
    site-builder engine round --game rami51 --hands "5H 6H JK 2C" "3D 4D QS" --stock "8C 9C" \
        --discard 7H --hint ""
    site-builder engine game --game rami51 "0, 35" "12, 0"

``--variation NAME`` (repeatable) applies a rule profile of the project's
``content/profiles.toml`` (``house``, ``two_jokers``, ``joker_25``, ``hundred``,
``ace_one``, ``free_discard``, ...; ``--root`` names the project) on top of the game's
reference rules.

Exit 0 whenever a verdict is given (valid or not); exit 2 with one line on
stderr for bad input (an unknown card or game, a malformed option).
``simulate`` exits 1 when a game broke an invariant (listed in ``violations``).

``round --try STEP`` judges one more step after the round's steps, without
playing it: ``"try"`` holds ``allowed``, and for a refused step the refusal's
``code`` (a key of ``site_builder.engine.REFUSALS``), its ``values`` and its
English ``message``. A refused step among the round's own steps is bad input.

``round --hint`` adds ``"hint"``: the move the practice table's hint gives the seat to play
after the steps (the normal computer player's, checked by the engine), its ``reasons``
(each a code of ``site_builder.engine.reasons.MOVE_REASONS``, its ``values`` and its
English ``text``; each confirmed by the engine against the position) and the melds it
plans to lay after it this turn. ``--explain`` gives every step its confirmed reasons.
``--review SEAT`` (once the round is over) adds ``"review"``: at most three of that seat's
moves that cost it the most points, estimated by seeded rollouts (``--levels`` names the
computer player of each seat for them, ``--seed`` their seed): the same round and seed
give the same review.

In the ``jokers`` object of ``meld`` and ``layoff`` the first joker is keyed
``"JK"``, the second ``"JK#2"`` and so on, in the order the jokers were given;
each value is the card the joker stands for.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from site_builder.commands.arguments import OneLineParser, bounded, shown
from site_builder.engine import (
    PRESETS,
    Card,
    CardError,
    MeldResult,
    ReplayError,
    RulesError,
    RuleSet,
    SearchLimitError,
    evaluate_layoff,
    evaluate_meld,
    evaluate_opening,
    game_over,
    game_problem,
    game_winners,
    get_rules,
    hand_points,
    parse_cards,
    refusal,
    replay,
)
from site_builder.engine.notation import parse_steps
from site_builder.engine.play import LEVELS, simulate
from site_builder.engine.play.coach import RoundStart, advise, explain, review
from site_builder.engine.reasons import Reason
from site_builder.engine.round import Action, RoundState
from site_builder.errors import UserError
from site_builder.sources.files import MAX_DIGITS
from site_builder.sources.profiles import PROFILES_FILE, load_profiles

GAMES = ", ".join(PRESETS)


def add_parser(subparsers: Any, common: argparse.ArgumentParser) -> None:
    """Add ``engine`` and its subcommands ``meld``, ``opening``, ``hand`` and ``layoff``."""
    parser = subparsers.add_parser(
        "engine", parents=[common], help="ask the rules engine (JSON answers)",
        description="Ask the bundled Rami rules engine; each command prints one JSON object.",
    )
    commands = parser.add_subparsers(dest="engine_command", metavar="COMMAND",
                                     parser_class=OneLineParser)
    commands.required = True

    game = argparse.ArgumentParser(add_help=False)
    game.add_argument("--game", required=True, metavar="GAME", help=f"the variant: {GAMES}")
    joker_value = argparse.ArgumentParser(add_help=False)
    joker_value.add_argument("--joker-value", type=bounded(0, 100), metavar="N",
                             help="house rule: a laid joker is worth N points "
                                  "(default: the card it replaces, the lowest where ambiguous)")
    joker_value.add_argument("--variation", action="append", default=[], metavar="NAME",
                             help=f"apply a rule profile of {PROFILES_FILE} (repeatable), "
                                  "e.g. two_jokers")
    joker_value.add_argument("--root", type=Path, default=Path("."),
                             help="the project whose profiles --variation names (default: .)")

    meld = commands.add_parser("meld", parents=[common, game, joker_value],
                               help="judge one meld", description="Judge one meld.")
    meld.add_argument("cards", nargs="+", metavar="CARD", help="e.g. JK 7S 8S")
    meld.set_defaults(func=run_meld)

    opening = commands.add_parser("opening", parents=[common, game, joker_value],
                                  help="judge a first meld",
                                  description="Judge the melds laid in one opening turn.")
    opening.add_argument("melds", nargs="+", metavar="MELD",
                         help='one argument per meld, e.g. "QH KH AH" "JK 7S 8S", or melds '
                              'separated by |, e.g. "QH KH AH | JK 7S 8S"')
    opening.set_defaults(func=run_opening)

    hand = commands.add_parser("hand", parents=[common, game], help="points left in a hand",
                               description="Count the points left in a hand.")
    hand.add_argument("--ace-high", action="store_true", help="an ace counts 11 instead of 1")
    hand.add_argument("cards", nargs="*", metavar="CARD", help="e.g. AH KS 7D")
    hand.set_defaults(func=run_hand)

    layoff = commands.add_parser("layoff", parents=[common, game, joker_value],
                                 help="add cards to a meld on the table",
                                 description="Judge the meld that results from a lay-off.")
    layoff.add_argument("--meld", required=True, metavar="CARDS",
                        help='the meld on the table, e.g. "5H 6H 7H"')
    layoff.add_argument("cards", nargs="+", metavar="CARD", help="the cards added, e.g. 8H")
    layoff.set_defaults(func=run_layoff)

    sim = commands.add_parser("simulate", parents=[common, game, joker_value],
                              help="play computer players against each other",
                              description="Play games between computer players and print "
                                          "the totals per seat.")
    sim.add_argument("--players", required=True, metavar="LEVELS", type=levels,
                     help="one level per seat, comma-separated: easy, normal, hard "
                          "(e.g. hard,easy)")
    sim.add_argument("--games", type=bounded(1, 100_000), default=100, metavar="N",
                     help="number of games (default 100)")
    sim.add_argument("--seed", type=bounded(0, 2**63 - 1), default=0, metavar="S",
                     help="random seed (default 0)")
    sim.add_argument("--discard-to-win", action="store_true",
                     help="house rule: going out needs a final discard")
    sim.set_defaults(func=run_simulate)

    rnd = commands.add_parser("round", parents=[common, game, joker_value],
                              help="replay a round written in round notation",
                              description="Replay a round step by step (e.g. '1: draw stock; "
                                          "1: meld 5H 6H 7H; 2: swap 7S for JK on 1').")
    rnd.add_argument("--hands", nargs="+", required=True, metavar="CARDS",
                     help='one argument per seat, e.g. "5H 6H 7H KS" "2C 3D 4S"')
    rnd.add_argument("--stock", required=True, metavar="CARDS", help="the stock, top card first")
    rnd.add_argument("--discard", default="", metavar="CARDS",
                     help="the discard pile, its top card last")
    rnd.add_argument("--try", dest="attempt", metavar="STEP",
                     help="judge one more step after the others, without playing it "
                          "(e.g. '2: draw discard'); a refusal gives its code and reason")
    rnd.add_argument("--hint", action="store_true",
                     help="the practice table's hint for the seat to play after the steps, "
                          "with its reasons")
    rnd.add_argument("--explain", action="store_true",
                     help="the reasons the engine confirms for every step's move")
    rnd.add_argument("--review", type=bounded(1, 4), metavar="SEAT",
                     help="once the round is over: the moves of SEAT that cost it the most")
    rnd.add_argument("--levels", default="", metavar="LEVELS",
                     help="for --review: the computer player of each seat, comma-separated "
                          "(default: normal for every seat)")
    rnd.add_argument("--seed", type=bounded(0, 2**63 - 1), default=0, metavar="S",
                     help="for --review: the seed of its rollouts (default 0)")
    rnd.add_argument("steps", nargs="+", metavar="STEPS",
                     help="steps separated by ';' or given as separate arguments")
    rnd.set_defaults(func=run_round)

    gm = commands.add_parser("game", parents=[common, game, joker_value],
                             help="add up a game's round scores",
                             description="Add up round scores (one argument per round, "
                                         "one number per seat) and say who wins.")
    gm.add_argument("rounds", nargs="+", metavar="SCORES", help='e.g. "0, 35" "12, 0"')
    gm.set_defaults(func=run_game)


def _rules(args: argparse.Namespace, **overrides: Any) -> RuleSet:
    names = getattr(args, "variation", None) or []
    if names:  # the published variations are the project's rule profiles
        profiles, problems, _ = load_profiles(args.root)
        for name in names:
            if name not in profiles:
                raise UserError(problems or f"--variation {name}: no such profile in "
                                            f"{PROFILES_FILE}; declared: "
                                            f"{', '.join(profiles) or '(none)'}")
            overrides.update(profiles[name].overrides)
    joker_value = getattr(args, "joker_value", None)
    if joker_value is not None:
        overrides["joker_value"] = joker_value
    try:  # game names in any case, as card codes: --game RAMI51
        return get_rules(args.game.strip().lower(), **overrides)
    except RulesError as exc:
        raise UserError(str(exc)) from exc


def _cards(tokens: str | list[str], where: str = "") -> tuple[Card, ...]:
    text = tokens if isinstance(tokens, str) else " ".join(tokens)
    try:
        return parse_cards(text)
    except CardError as exc:
        raise UserError(f"{where}{exc}") from exc


def _emit(payload: dict[str, Any]) -> int:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
    return 0


def meld_json(result: MeldResult) -> dict[str, Any]:
    """The JSON answer for a meld or a lay-off."""
    jokers = {("JK" if i == 1 else f"JK#{i}"): card.code
              for i, card in enumerate(result.jokers, 1)}
    return {"valid": result.valid, "kind": result.kind, "points": result.points,
            "jokers": jokers, "reason": result.reason}


def run_meld(args: argparse.Namespace) -> int:
    rules = _rules(args)
    return _emit(meld_json(evaluate_meld(_cards(args.cards), rules)))


def run_opening(args: argparse.Namespace) -> int:
    rules = _rules(args)
    # melds as separate arguments, or separated by | as in the content's example blocks
    texts = [part for text in args.melds for part in text.split("|")]
    melds = [_cards(text, f"meld {i}: ") for i, text in enumerate(texts, 1)]
    empty = [i for i, meld in enumerate(melds, 1) if not meld]
    if empty:
        raise UserError(f"meld {empty[0]} has no cards (melds are separated by | or given "
                        "as separate arguments)")
    result = evaluate_opening(melds, rules)
    return _emit({"total": result.total, "threshold": result.threshold,
                  "accepted": result.accepted, "pure_sequence": result.pure_sequence,
                  "reasons": list(result.reasons)})


def run_hand(args: argparse.Namespace) -> int:
    rules = _rules(args, **({"ace_high": True} if args.ace_high else {}))
    try:
        return _emit({"points": hand_points(_cards(args.cards), rules)})
    except ValueError as exc:  # a hand the decks cannot hold
        raise UserError(str(exc)) from None


def run_layoff(args: argparse.Namespace) -> int:
    rules = _rules(args)
    meld = _cards(args.meld, "--meld: ")
    added = _cards(args.cards)
    return _emit(meld_json(evaluate_layoff(meld, added, rules)))


def run_simulate(args: argparse.Namespace) -> int:
    rules = _rules(args, **({"discard_to_win": True} if args.discard_to_win else {}))
    seats = len(args.players)  # its levels, each checked by its parser (levels)
    if not rules.min_players <= seats <= rules.max_players:
        raise UserError(f"--players {shown(','.join(args.players))}: {seats} "
                        f"{'seat' if seats == 1 else 'seats'}, but {rules.title} is for "
                        f"{rules.min_players} to {rules.max_players} players: give one "
                        "level per seat, e.g. hard,easy")
    started = time.perf_counter()
    result = simulate(rules, args.players, args.games, args.seed)
    elapsed = time.perf_counter() - started
    _emit({"games": result.games, "rounds": result.rounds,
           "game_wins": list(result.game_wins), "round_wins": list(result.round_wins),
           "average_points": list(result.average_points),
           "rounds_per_second": round(result.rounds / elapsed, 1) if elapsed > 0 else None,
           "violations": list(result.violations)})
    return 1 if result.violations else 0


def levels(text: str) -> list[str]:
    """An argparse type: ``--players``, one level per seat, comma-separated, each named
    where it is not a level (a number of players, ``3``, is what a user may type).

    >>> levels("Hard, easy")
    ['hard', 'easy']
    >>> levels("3")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '3' is not a level: expected one level per seat, ...
    """
    found = [level.strip().lower() for level in text.split(",")]
    for level in found:
        if level not in LEVELS:
            what = "an empty level (two commas?)" if not level else shown(level)
            raise argparse.ArgumentTypeError(
                f"{what} is not a level: expected one level per seat, comma-separated, "
                f"each one of {', '.join(LEVELS)} (e.g. hard,easy for two players)")
    return found


def run_round(args: argparse.Namespace) -> int:
    rules = _rules(args)
    hands = [_cards(text, f"--hands {i}: ") for i, text in enumerate(args.hands, 1)]
    stock = _cards(args.stock, "--stock: ")
    discard = _cards(args.discard, "--discard: ")
    script = "; ".join(args.steps)
    try:
        done = replay(rules, hands, stock, discard, script)
        attempt = _attempt(rules, hands, stock, discard, script, args.attempt)
    except ReplayError as exc:
        raise UserError(str(exc)) from exc
    except SearchLimitError as exc:  # no verdict on the step tried
        raise UserError(f"--try: {exc}") from exc
    coached = _coached(args, rules, hands, stock, discard, script)
    reasons = coached.pop("reasons", None)
    ending = done.ending
    return _emit({
        "steps": [{"step": step.text, "note": step.note,
                   **({} if reasons is None else {"reasons": reasons[i]})}
                  for i, step in enumerate(done.steps)],
        "hands": [" ".join(c.code for c in hand) for hand in done.hands],
        "table": [str(meld) for meld in done.table],
        "over": ending is not None,
        "winner": ending.winner + 1 if ending else None,
        "hand_points": list(ending.hand_points) if ending else None,
        "scores": list(ending.scores) if ending else None,
        **({} if attempt is None else {"try": attempt}),
        **coached,
    })


def _reasons_json(reasons: Sequence[Reason]) -> list[dict[str, Any]]:
    return [{**reason.as_json(), "text": str(reason)} for reason in reasons]


def _coached(args: argparse.Namespace, rules: RuleSet, hands: list[tuple[Card, ...]],
             stock: tuple[Card, ...], discard: tuple[Card, ...], script: str
             ) -> dict[str, Any]:
    """What ``--hint``, ``--explain`` and ``--review`` add to the round's answer (the steps
    were checked by the replay)."""
    if not (args.hint or args.explain or args.review):
        return {}
    actions = [step.action for step in parse_steps(script)]
    state = RoundState(rules, hands, stock, discard)
    out: dict[str, Any] = {}
    explained = []
    try:
        for action in actions:
            if args.explain:
                explained.append(_reasons_json(explain(state, action)))
            state.apply(action)
        if args.explain:
            out["reasons"] = explained
        if args.hint:
            if state.is_over:
                raise UserError("--hint: the round is over; no seat is to play")
            advice = advise(state)
            out["hint"] = {"seat": state.turn + 1, "step": advice.action.describe(state.turn),
                           "reasons": _reasons_json(advice.reasons),
                           "plan": [" ".join(c.code for c in meld) for meld in advice.plan]}
        if args.review:
            out["review"] = _review(args, rules, hands, stock, discard, actions, state)
    except SearchLimitError as exc:
        raise UserError(f"--hint: {exc}") from exc
    return out


def _review(args: argparse.Namespace, rules: RuleSet, hands: list[tuple[Card, ...]],
            stock: tuple[Card, ...], discard: tuple[Card, ...], actions: list[Action],
            state: RoundState) -> list[dict[str, Any]]:
    """``--review SEAT``: the seat's costliest moves in the round, as JSON."""
    seat = args.review - 1
    if seat >= len(hands):
        raise UserError(f"--review {args.review}: the round has {len(hands)} seats")
    if not state.is_over:
        raise UserError(f"--review {args.review}: the round is not over; a review is made "
                        "when it has ended")
    levels = [level.strip().lower() for level in args.levels.split(",") if level.strip()] \
        or ["normal"] * len(hands)
    if len(levels) != len(hands) or any(level not in LEVELS for level in levels):
        raise UserError(f"--levels: one of {', '.join(LEVELS)} for each of the "
                        f"{len(hands)} seats, comma-separated, not {shown(args.levels)}")
    start = RoundStart(rules, tuple(hands), stock, discard, 0)
    return [{"seat": args.review, "turn": m.turn, "made": m.made.describe(seat),
             "better": m.better.describe(seat), "reasons": _reasons_json(m.reasons),
             "cost": m.cost, "rollouts": m.rollouts}
            for m in review(start, actions, seat, levels, args.seed)]


def _attempt(rules: RuleSet, hands: list[tuple[Card, ...]], stock: tuple[Card, ...],
             discard: tuple[Card, ...], script: str, step: str | None
             ) -> dict[str, Any] | None:
    """The verdict on the step tried with ``--try`` (None without it)."""
    if step is None:
        return None
    try:
        refused = refusal(rules, hands, stock, discard, script, step)
    except ReplayError as exc:
        if exc.step and exc.text == " ".join(step.split()):
            raise UserError(f"--try: {exc.message}") from exc
        raise
    if refused is None:
        return {"step": step, "allowed": True}
    return {"step": step, "allowed": False, "code": refused.code,
            "values": dict(refused.values), "message": str(refused)}


def run_game(args: argparse.Namespace) -> int:
    rules = _rules(args)
    rounds: list[list[int]] = []
    for i, text in enumerate(args.rounds, 1):
        parts = text.replace(",", " ").split()
        # ASCII digits, checked before int(), which reads other scripts' digits and "1_0"
        bad = [part for part in parts if not re.fullmatch(rf"-?[0-9]{{1,{MAX_DIGITS}}}", part)]
        if bad:
            raise UserError(f"round {i}: {shown(bad[0])} in {shown(text)} is not a score: "
                            f"expected one whole number per seat, up to {MAX_DIGITS} ASCII "
                            "digits, e.g. \"0, 35\"")
        rounds.append([int(part) for part in parts])
    why = game_problem(rounds, rules)  # the build's check of a game table
    if why is not None:
        raise UserError(why)
    totals = [sum(column) for column in zip(*rounds, strict=True)]
    over = game_over(totals, rules)
    return _emit({"totals": totals, "target": rules.target_score, "over": over,
                  "winners": [seat + 1 for seat in game_winners(totals, rules)] if over else []})
