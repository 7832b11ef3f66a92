"""``round``: a worked round, replayed step by step by the engine's round state machine.

The block's fields before the first row hold the deal (``hands``, ``stock``,
``discard``), the ``game`` and the ``profile``; each row is one ``step`` in the
engine's round notation and the claims about the state after it. The round is played
once, and its steps match the rows one to one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder import engine
from site_builder.errors import Problem
from site_builder.examples.base import Claim, Kind, Report, VerifiedRow, resolve, rules_for
from site_builder.examples.round_steps import (
    dealt_stock,
    refusal,
    refused_opening,
    round_values,
    tables_after,
)
from site_builder.examples.values import (
    BadValue,
    Parser,
    cards,
    choice,
    groups,
    integer,
    integers,
    sorted_codes,
)
from site_builder.sources.page import ExampleBlock, ExampleRow
from site_builder.sources.profiles import Profile

SETUP: dict[str, Parser] = {"hands": groups, "stock": cards, "discard": cards}
CLAIMS: dict[str, Parser] = {
    "kind": choice("set", "sequence"),
    "points": integer,
    "total": integer,
    "threshold": integer,
    "verdict": choice("accepted", "rejected"),
    "returned": sorted_codes,
    "hand": sorted_codes,
    "winner": integer,
    "hand_points": integers,
    "scores": integers,
    "ending": choice("out", "stock_out"),
    "refused": str,  # a step the engine must refuse before this row's step
}


def verify_round(source: str, block: ExampleBlock, profiles: Mapping[str, Profile],
                 problems: list[Problem], total: engine.Budget) -> list[VerifiedRow]:
    """Replay a worked round; each row is one step and its stated results. Its engine
    questions draw on *total*, the run's: once that is spent, the row whose question is
    refused is an error, and the block is not verified further."""
    before = len(problems)

    def error(line: int, message: str) -> None:
        problems.append(Problem(source, line, message))

    _check_fields(block, error)
    if len(problems) > before:
        return []
    found = resolve(block.defaults["game"], block.defaults.get("profile"), block.line,
                    profiles, error)
    if found is None:
        return []
    game, profile = found
    try:
        rules = rules_for(game, profile)
    except engine.RulesError as exc:
        error(block.line, f"round setup: {exc}")
        return []
    setup: dict[str, Any] = {}
    for key, parse in SETUP.items():  # each at its own line
        fld = block.defaults[key]
        try:
            setup[key] = parse(fld.value)
        except BadValue as exc:
            error(fld.line, f"round setup: {key}: {exc}")
    if len(setup) < len(SETUP):
        return []
    hands, stock, discard = setup["hands"], setup["stock"], setup["discard"]
    try:  # the deal itself (seats, cards dealt twice): at the hands line, not a step's
        engine.replay(rules, hands, stock, discard, [])
    except (engine.ReplayError, ValueError) as exc:
        error(block.defaults["hands"].line, f"round setup: {str(exc).removeprefix('setup: ')}")
        return []
    _check_one_step_a_row(block, error)
    if len(problems) > before:
        return []
    try:
        return _replayed(source, block, rules, game, profile, setup, total, error)
    except engine.TotalLimitError as exc:  # the run's engine work is spent: at its row
        row = block.rows[max(exc.step or 1, 1) - 1]
        error(row.fields["step"].line, f"example {row.caption.text!r}: {too_much(exc)}")
        return []


def too_much(exc: engine.TotalLimitError) -> str:
    """Why a question is refused once the run's engine work is spent, and what to do."""
    return (f"the pages together ask the engine more than one build allows ({exc.steps:,} "
            "search steps in all); use fewer or simpler worked rows (smaller hands, shorter "
            "rounds, fewer steps that search the hand, such as a draw from the discard pile)")


def _replayed(source: str, block: ExampleBlock, rules: engine.RuleSet, game: str,
              profile: Profile, setup: dict[str, Any], total: engine.Budget,
              error: Report) -> list[VerifiedRow]:
    """The rows of a round whose setup is sound, replayed (see :func:`verify_round`)."""
    hands, stock, discard = setup["hands"], setup["stock"], setup["discard"]
    steps = [row.fields["step"].value for row in block.rows]
    played = block.rows
    try:
        done = engine.replay(rules, hands, stock, discard, steps, total=total)
    except engine.ReplayError as exc:
        at = max(exc.step, 1) - 1  # the rows before the failing step stand
        played, failed = block.rows[:at], block.rows[at]
        error(failed.fields["step"].line, f"example {failed.caption.text!r}: {exc}")
        done = engine.replay(rules, hands, stock, discard, steps[: len(played)], total=total)
    rows: list[VerifiedRow] = []
    stock_total = dealt_stock(rules, len(hands))
    actions = [step.action for step in engine.parse_steps(steps[: len(done.steps)])]
    tables = tables_after(engine.RoundState(rules, hands, stock, discard, total=total),
                          done.steps, actions)
    for row, step, (table, changed) in zip(played, done.steps, tables, strict=False):
        computed = round_values(step, done.ending if step is done.steps[-1] else None)
        computed.update(table=sorted(table.items()), table_changed=changed,
                        meld=table.get(getattr(step.operation, "number", 0)))
        if "refused" in row.fields:
            try:
                computed["refused"], computed["refused_kind"], computed["refused_why"] = \
                    refusal(rules, hands, stock, discard, steps[: step.number - 1],
                            row.fields["refused"].value, total)
                computed["refused_opening"] = refused_opening(
                    rules, hands, stock, discard, steps[: step.number - 1],
                    row.fields["refused"].value, total)
            except engine.SearchLimitError as exc:  # no verdict: the row is not verified
                error(row.fields["refused"].line, f"example {row.caption.text!r}: {exc}")
                continue
            except engine.TotalLimitError as exc:
                error(row.fields["refused"].line, f"example {row.caption.text!r}: "
                                                  f"{too_much(exc)}")
                return rows
        _check_ending(row, computed["round_ending"], len(stock), stock_total, error)
        assert not isinstance(step.operation, engine.RoundEnding)  # a step is an action
        inputs = {"step": step, "seat": step.operation.seat + 1, "hands": hands,
                  "stock": stock, "discard": discard, "stock_total": stock_total}
        rows.append(VerifiedRow(row, game, profile, rules, inputs, computed,
                                _claims(source, row, computed, error)))
    return rows


def _check_fields(block: ExampleBlock, error: Report) -> None:
    """The fields before the first row, and each row's: known, and none missing."""
    known = {"game", "profile", *SETUP}
    for fld in block.defaults.values():
        if fld.key not in known:
            error(fld.line, f"unknown field {fld.key!r} for a round table; expected: "
                            f"{', '.join(sorted(known))} before the first row")
    for key in ("game", *SETUP):
        if key not in block.defaults:
            error(block.line, f"round table needs '{key}:' before the first row")
    for row in block.rows:
        for fld in row.fields.values():
            if fld.key != "step" and fld.key not in CLAIMS:
                error(fld.line, f"example {row.caption.text!r}: unknown field {fld.key!r} in "
                                f"a round row; expected step and claims: {', '.join(CLAIMS)}")
        if "step" not in row.fields:
            error(row.line, f"example {row.caption.text!r}: missing 'step:' (e.g. "
                            "'step: 1: draw stock')")


def _check_one_step_a_row(block: ExampleBlock, error: Report) -> None:
    """Each row is one step of the round, so the round is replayed once, and its steps
    match the rows one to one: a row that holds no step, or more, is an error here."""
    for row in block.rows:
        try:
            count = len(engine.parse_steps([row.fields["step"].value]))
        except engine.ReplayError:
            continue  # reported by the replay, at this row
        if count != 1:
            error(row.fields["step"].line, f"example {row.caption.text!r}: 'step:' holds one "
                                           "step (e.g. 'step: 1: draw stock')")


def _check_ending(row: ExampleRow, ended: engine.RoundEnding | None, shown: int,
                  stock_total: int | None, error: Report) -> None:
    """A round that ends at this row's step says so, and a stock-out with a real stock."""
    if ended is None:
        return
    line, caption = row.fields["step"].line, row.caption.text
    if ended.reason == "stock_out" and stock_total is not None and shown < stock_total:
        error(line, f"example {caption!r}: the round ends with the stock empty, but the "
                    f"table shows only {shown} of its {stock_total} cards: in a real game "
                    f"the stock would not be empty here")
    if "ending" not in row.fields:
        how = ("the stock is empty" if ended.reason == "stock_out"
               else f"seat {ended.winner + 1} goes out")
        error(line, f"example {caption!r}: the round ends at this step ({how}): say so "
                    f"with 'ending: {ended.reason}'")


def _claims(source: str, row: ExampleRow, computed: dict[str, Any],
            error: Report) -> tuple[Claim, ...]:
    claims = []
    for key, fld in sorted(row.fields.items(), key=lambda kv: kv[1].line):
        if key == "step":
            continue
        try:
            stated = CLAIMS[key](fld.value)
        except BadValue as exc:
            error(fld.line, f"example {row.caption.text!r}: {key}: {exc}")
            continue
        claims.append(Claim(source, fld.line, row.caption.text, key, stated,
                            computed.get(key)))
    return tuple(claims)


def _required(stated: Mapping[str, Any], preset: engine.RuleSet) -> tuple[str, ...]:
    return ()  # a step's claims are the author's; the ending is required where it ends


KIND = Kind(
    "round", {**SETUP, "step": str}, CLAIMS, _required, None, verify_block=verify_round,
    doc_inputs="before the first row: `hands` (one per seat, separated by `\\|`), `stock` "
               "(top card first), `discard`; each row: `step` in the engine's round "
               "notation (`1: draw stock 9H`, `2: draw discard 8C`, `1: meld 5H 6H 7H`, "
               "`2: layoff 8H on 1`, `2: swap 5H for JK on 1`, `1: discard KS`)",
    doc_claims="per step: `kind`, `points` (a meld's points, or the meld's after a lay-off "
               "or a joker exchange), `total`, `threshold`, `verdict` and `returned` (an "
               "opening checked at the discard), `hand` (the seat's cards after the step), "
               "`winner`, `hand_points` and `scores` (when the round ends: in Rami 40/51 "
               "`scores` are each seat's penalty points, in CardVerse what the winner gains), "
               "`ending` (`out` or `stock_out`: a row whose step ends the round must say "
               "so), `refused` (a step the engine must refuse before this row's step)",
)
