"""Replay every worked example through the engine and compare it with what the page states.

Each table type (``melds``, ``openings``, ``layoffs``, ``hands``, ``deals``,
``stock-out``, ``game``) declares its input fields, the claims it may state, the claims
it must state, and how the engine computes them. Every stated claim becomes a
:class:`Claim`; a claim whose stated value differs from the computed one is a
disagreement and fails the build.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from site_builder import engine
from site_builder.errors import Problem
from site_builder.sources.files import MAX_DIGITS
from site_builder.sources.page import ExampleBlock, ExampleRow, Field, Page
from site_builder.sources.profiles import GAME_NAMES, PROFILES_FILE, Profile


@dataclass(frozen=True, slots=True)
class Claim:
    """One stated claim and what the engine computes for it."""

    source: str
    line: int
    example: str
    field: str
    stated: Any
    computed: Any

    @property
    def ok(self) -> bool:
        return bool(self.stated == self.computed)

    def as_json(self) -> dict[str, Any]:
        return {"source": self.source, "line": self.line, "example": self.example,
                "field": self.field, "stated": self.stated, "computed": self.computed,
                "ok": self.ok}


@dataclass(frozen=True, slots=True)
class VerifiedRow:
    """An example row after replay: its inputs, the engine's values and its claims."""

    row: ExampleRow
    game: str
    profile: Profile
    rules: engine.RuleSet
    inputs: dict[str, Any]
    computed: dict[str, Any]
    claims: tuple[Claim, ...]

    @property
    def game_name(self) -> str:
        return GAME_NAMES.get(self.game, self.game)

    @property
    def context(self) -> str:
        return f"{self.game_name}, {self.profile.name}"


@dataclass(frozen=True, slots=True)
class VerifiedTable:
    block: ExampleBlock
    rows: tuple[VerifiedRow, ...]


@dataclass
class Verification:
    """The outcome of verifying a whole site."""

    tables: dict[tuple[str, int], VerifiedTable] = field(default_factory=dict)
    claims: list[Claim] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def disagreements(self) -> list[Claim]:
        return [c for c in self.claims if not c.ok]


# --- value parsers --------------------------------------------------------------------------


class _Bad(Exception):
    pass


def _int(value: str) -> int:
    # digits 0-9 only: int() would also take "+3", "1_000", " 3" and other scripts' digits
    if not re.fullmatch(rf"-?[0-9]{{1,{MAX_DIGITS}}}", value):
        raise _Bad(f"{value[:20]!r} is not a whole number (digits 0-9, at most {MAX_DIGITS})")
    return int(value)


def _ints(value: str) -> list[int]:
    return [_int(v.strip()) for v in value.split(",")]


def _choice(*options: str) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if value not in options:
            raise _Bad(f"{value!r} is not one of: {', '.join(options)}")
        return value
    return parse


def _codes(value: str) -> list[str]:
    """Reason codes, separated by commas or spaces; ``none`` for none (as a table shows
    them).

    >>> _codes("wrap, gap"), _codes("none")
    (['gap', 'wrap'], [])
    """
    codes = sorted(v.strip() for v in value.replace(",", " ").split() if v.strip())
    return [] if codes == ["none"] else codes


def _cards(value: str) -> tuple[engine.Card, ...]:
    try:
        return engine.parse_cards(value)
    except engine.CardError as exc:
        raise _Bad(f"{exc}; write cards like QH 10S AD JK") from None


def _card_codes(value: str) -> list[str]:
    return [c.code for c in _cards(value)]


def _groups(value: str) -> tuple[tuple[engine.Card, ...], ...]:
    """Groups of cards separated by ``|`` (melds, or seats' hands); none may be empty.

    >>> [[c.code for c in group] for group in _groups("QH KH AH | JK 7S 8S")]
    [['QH', 'KH', 'AH'], ['JK', '7S', '8S']]
    >>> _groups("QH KH AH |")
    Traceback (most recent call last):
    ...
    site_builder.verify.examples._Bad: group 2 (after '|') holds no card; remove the extra '|'
    """
    groups = tuple(_cards(part) for part in value.split("|"))
    empty = [n for n, group in enumerate(groups, 1) if not group]
    if empty:
        raise _Bad(f"group {empty[0]} (after '|') holds no card; remove the extra '|'"
                   if empty[0] > 1 else "group 1 (before '|') holds no card; remove the "
                   "extra '|'")
    return groups


def _yes_no_text(value: str) -> str:
    if value not in ("yes", "no"):
        raise _Bad(f"{value!r} must be yes or no")
    return value


def _seats(value: str) -> list[int]:
    return [] if value.strip() in ("", "none") else _ints(value)


def _yes_no(value: str) -> bool:
    if value not in ("yes", "no"):
        raise _Bad(f"{value!r} must be yes or no")
    return value == "yes"


# --- table types ----------------------------------------------------------------------------


Computed = dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableSpec:
    inputs: dict[str, Callable[[str], Any]]
    claims: dict[str, Callable[[str], Any]]
    compute: Callable[[dict[str, Any], engine.RuleSet], Computed]
    required: Callable[[dict[str, Any]], tuple[str, ...]]
    options: tuple[str, ...] = ()  # inputs that become rule-set overrides


def _meld_values(result: engine.MeldResult) -> Computed:
    return {
        "verdict": "valid" if result.valid else "invalid",
        "kind": result.kind,
        "points": result.points if result.valid else None,
        "reason": result.reason,
        "jokers": [c.code for c in result.jokers],
        "result": result,
    }


def _compute_meld(inp: dict[str, Any], rules: engine.RuleSet) -> Computed:
    return _meld_values(engine.evaluate_meld(inp["cards"], rules))


def _compute_layoff(inp: dict[str, Any], rules: engine.RuleSet) -> Computed:
    return _meld_values(engine.evaluate_layoff(inp["meld"], inp["add"], rules))


def _compute_opening(inp: dict[str, Any], rules: engine.RuleSet) -> Computed:
    result = engine.evaluate_opening(inp["melds"], rules)
    return {
        "total": result.total,
        "threshold": result.threshold,
        "verdict": "accepted" if result.accepted else "rejected",
        "reasons": sorted(result.reasons),
        "result": result,
    }


def _compute_hand(inp: dict[str, Any], rules: engine.RuleSet) -> Computed:
    return {"points": engine.hand_points(inp["cards"], rules)}


def _compute_deal(inp: dict[str, Any], rules: engine.RuleSet) -> Computed:
    players = inp["players"]
    dealt = engine.deal(rules, players, seed=0)
    sizes = {len(h) for h in dealt.hands}
    size = sizes.pop() if len(sizes) == 1 else None
    return {"hand_size": size, "discard": len(dealt.discard), "stock": len(dealt.stock)}


def _compute_stock_out(inp: dict[str, Any], rules: engine.RuleSet) -> Computed:
    hands = inp["hands"]
    return {
        "points": [engine.hand_points(h, rules) for h in hands],
        "winner": engine.stock_out_winner(hands, rules) + 1,
    }


def _compute_game(inp: dict[str, Any], rules: engine.RuleSet) -> Computed:
    rounds = inp["rounds"]
    why = engine.game_problem(rounds, rules)  # a round that cannot happen (issue 25, 34)
    if why is not None:
        raise ValueError(why)
    totals = [sum(column) for column in zip(*rounds, strict=True)]
    over = engine.game_over(totals, rules)
    return {"totals": totals, "over": "yes" if over else "no",
            "winners": [s + 1 for s in engine.game_winners(totals, rules)] if over else []}


def _int_groups(value: str) -> list[list[int]]:
    return [_ints(part) for part in value.split("|")]


def _meld_required(stated: dict[str, Any]) -> tuple[str, ...]:
    if stated.get("verdict") == "invalid":
        return ("verdict", "reason")
    return ("verdict", "kind", "points")


def _layoff_required(stated: dict[str, Any]) -> tuple[str, ...]:
    if stated.get("verdict") == "invalid":
        return ("verdict", "reason")
    return ("verdict", "kind")


MELD_CLAIMS: dict[str, Callable[[str], Any]] = {
    "verdict": _choice("valid", "invalid"),
    "kind": _choice("set", "sequence"),
    "points": _int,
    "reason": str,
    "jokers": _card_codes,
}

TABLES: dict[str, TableSpec] = {
    "melds": TableSpec({"cards": _cards}, MELD_CLAIMS, _compute_meld, _meld_required),
    "layoffs": TableSpec({"meld": _cards, "add": _cards}, MELD_CLAIMS, _compute_layoff,
                         _layoff_required),
    "openings": TableSpec(
        {"melds": _groups},
        {"total": _int, "threshold": _int, "verdict": _choice("accepted", "rejected"),
         "reasons": _codes},
        _compute_opening,
        lambda stated: ("total", "threshold", "verdict"),
    ),
    "hands": TableSpec({"cards": _cards, "ace_high": _yes_no}, {"points": _int}, _compute_hand,
                       lambda stated: ("points",), options=("ace_high",)),
    "deals": TableSpec({"players": _int}, {"hand_size": _int, "stock": _int}, _compute_deal,
                       lambda stated: ("hand_size",)),
    "game": TableSpec({"rounds": _int_groups},
                      {"totals": _ints, "over": _yes_no_text, "winners": _seats},
                      _compute_game, lambda stated: ("totals", "over")),
    "stock-out": TableSpec({"hands": _groups}, {"points": _ints, "winner": _int},
                           _compute_stock_out, lambda stated: ("points", "winner")),
}
COMMON_FIELDS = ("game", "profile")


# --- verification ---------------------------------------------------------------------------


def verify_pages(pages: list[Page], profiles: dict[str, Profile],
                 broken: frozenset[str] = frozenset()) -> Verification:
    """Replay every example of every page; collect claims and problems (never raises).
    An example under a *broken* profile (declared, but it did not load: its problem is
    reported) is left out."""
    out = Verification()
    for page in pages:
        for block in page.examples:
            if _profile_key(block.defaults.get("profile")) in broken:
                continue
            if block.table == "round":
                rows = _verify_round(page.source, block, profiles, out.problems)
                out.claims.extend(c for vr in rows for c in vr.claims)
                out.tables[(page.source, block.line)] = VerifiedTable(block, tuple(rows))
                continue
            rows = []
            for row in block.rows:
                if _profile_key(row.get("profile", block.defaults)) in broken:
                    continue
                verified = _verify_row(page.source, block, row, profiles, out.problems)
                if verified is not None:
                    rows.append(verified)
                    out.claims.extend(verified.claims)
            out.tables[(page.source, block.line)] = VerifiedTable(block, tuple(rows))
    return out


def _profile_key(given: Field | None) -> str:
    return given.value if given else "reference"


def _verify_row(source: str, block: ExampleBlock, row: ExampleRow,
                profiles: dict[str, Profile], problems: list[Problem]) -> VerifiedRow | None:
    before = len(problems)

    def error(line: int, message: str) -> None:
        problems.append(Problem(source, line, f"example {row.caption.text!r}: {message}"))

    spec = TABLES.get(block.table)
    if spec is None:
        problems.append(Problem(source, block.table_line, f"unknown table type {block.table!r}; "
                                                    f"use one of: {', '.join(TABLES)}"))
        return None
    known = set(spec.inputs) | set(spec.claims) | set(COMMON_FIELDS)
    for unknown in [*block.defaults.values(), *row.fields.values()]:
        if unknown.key not in known:
            error(unknown.line, f"unknown field {unknown.key!r} for a {block.table} table; "
                                f"expected: {', '.join(sorted(known))}")

    game_field = row.get("game", block.defaults)
    game = game_field.value if game_field else ""
    if game_field is None:
        error(row.line, f"no game: add 'game: {'|'.join(GAME_NAMES)}' to the row or the block")
    elif game not in engine.PRESETS:
        error(game_field.line, f"unknown game {game!r}; use one of: {', '.join(engine.PRESETS)}")
    profile_field = row.get("profile", block.defaults)
    profile_key = profile_field.value if profile_field else "reference"
    profile = profiles.get(profile_key)
    if profile is None:
        line = profile_field.line if profile_field else row.line
        error(line, f"unknown rule profile {profile_key!r}; declared in {PROFILES_FILE}: "
                    f"{', '.join(profiles) or '(none)'}")

    inputs: dict[str, Any] = {}
    for key, parse in spec.inputs.items():
        fld = row.get(key, block.defaults)
        if fld is None:
            if key not in spec.options:
                error(row.line, f"missing input {key!r}")
            continue
        try:
            inputs[key] = parse(fld.value)
        except _Bad as exc:
            error(fld.line, f"{key}: {exc}")

    stated: dict[str, tuple[Any, Field]] = {}
    for key, parse in spec.claims.items():
        fld = row.get(key, block.defaults)  # a claim before the first caption: every row's
        if fld is None:
            continue
        try:
            stated[key] = (parse(fld.value), fld)
        except _Bad as exc:
            error(fld.line, f"{key}: {exc}")
    if len(problems) > before or profile is None:
        return None
    # CardVerse defines no laid points (seed 004), so its melds need not state them.
    no_laid_points = game in engine.PRESETS and engine.PRESETS[game].opening_threshold is None
    for key in spec.required({k: v for k, (v, _) in stated.items()}):
        if key == "points" and no_laid_points:
            continue
        if key not in stated:
            error(row.line, f"missing claim {key!r}: state what the example shows, "
                            f"e.g. '{key}: ...'")
    overrides = dict(profile.overrides)
    overrides.update({k: inputs[k] for k in spec.options if k in inputs})
    try:
        rules = engine.get_rules(game, **overrides)
        computed = spec.compute(inputs, rules)
    except (engine.RulesError, ValueError) as exc:
        # the inputs led to it: at the row's first input line (e.g. players: 0)
        given = [f for k in spec.inputs if (f := row.fields.get(k)) is not None]
        error(given[0].line if given else row.line, str(exc))
        return None
    claims = tuple(
        Claim(source, fld.line, row.caption.text, key, value, computed.get(key))
        for key, (value, fld) in sorted(stated.items(), key=lambda kv: kv[1][1].line)
    )
    return VerifiedRow(row, game, profile, rules, inputs, computed, claims)


# --- worked rounds ---------------------------------------------------------------------------

ROUND_SETUP = ("hands", "stock", "discard")
ROUND_CLAIMS: dict[str, Callable[[str], Any]] = {
    "kind": _choice("set", "sequence"),
    "points": _int,
    "total": _int,
    "threshold": _int,
    "verdict": _choice("accepted", "rejected"),
    "returned": lambda v: sorted(_card_codes(v)),
    "hand": lambda v: sorted(_card_codes(v)),
    "winner": _int,
    "hand_points": _ints,
    "scores": _ints,
    "ending": _choice("out", "stock_out"),
    "refused": str,  # a step the engine must refuse before this row's step
}


def _verify_round(source: str, block: ExampleBlock, profiles: dict[str, Profile],
                  problems: list[Problem]) -> list[VerifiedRow]:
    """Replay a worked round step by step; each row is one step and its stated results.

    The block's defaults hold the deal (``hands``, ``stock``, ``discard``), the ``game``
    and the ``profile``; each row holds a ``step`` in the engine's round notation.
    """
    before = len(problems)

    def error(line: int, message: str) -> None:
        problems.append(Problem(source, line, message))

    known = {"game", "profile", *ROUND_SETUP}
    for fld in block.defaults.values():
        if fld.key not in known:
            error(fld.line, f"unknown field {fld.key!r} for a round table; expected: "
                            f"{', '.join(sorted(known))} before the first row")
    for key in ("game", *ROUND_SETUP):
        if key not in block.defaults:
            error(block.line, f"round table needs '{key}:' before the first row")
    for row in block.rows:
        for fld in row.fields.values():
            if fld.key != "step" and fld.key not in ROUND_CLAIMS:
                error(fld.line, f"example {row.caption.text!r}: unknown field {fld.key!r} in "
                                f"a round row; expected step and claims: "
                                f"{', '.join(ROUND_CLAIMS)}")
        if "step" not in row.fields:
            error(row.line, f"example {row.caption.text!r}: missing 'step:' (e.g. "
                            "'step: 1: draw stock')")
    if len(problems) > before:
        return []
    game = block.defaults["game"]
    if game.value not in engine.PRESETS:
        error(game.line, f"unknown game {game.value!r}; use one of: {', '.join(engine.PRESETS)}")
        return []
    profile_field = block.defaults.get("profile")
    profile = profiles.get(profile_field.value if profile_field else "reference")
    if profile is None:
        error(profile_field.line if profile_field else block.line,
              f"unknown rule profile; declared in {PROFILES_FILE}: {', '.join(profiles)}")
        return []
    try:
        rules = engine.get_rules(game.value, **profile.overrides)
    except engine.RulesError as exc:
        error(block.line, f"round setup: {exc}")
        return []
    setup: dict[str, Any] = {}
    for key in ROUND_SETUP:  # each at its own line
        fld = block.defaults[key]
        try:
            setup[key] = _groups(fld.value) if key == "hands" else _cards(fld.value)
        except _Bad as exc:
            error(fld.line, f"round setup: {key}: {exc}")
    if len(setup) < len(ROUND_SETUP):
        return []
    hands, stock, discard = setup["hands"], setup["stock"], setup["discard"]
    try:  # the deal itself (seats, cards dealt twice): at the hands line, not a step's
        engine.replay(rules, hands, stock, discard, [])
    except (engine.ReplayError, ValueError) as exc:
        error(block.defaults["hands"].line, f"round setup: {str(exc).removeprefix('setup: ')}")
        return []
    # Each row is one step of the round, so the round is replayed once, and its steps
    # match the rows one to one: a row that holds no step, or more, is an error here.
    for row in block.rows:
        try:
            count = len(engine.parse_steps([row.fields["step"].value]))
        except engine.ReplayError:
            continue  # reported by the replay below, at this row
        if count != 1:
            error(row.fields["step"].line, f"example {row.caption.text!r}: 'step:' holds one "
                                           "step (e.g. 'step: 1: draw stock')")
    if len(problems) > before:
        return []
    steps = [row.fields["step"].value for row in block.rows]
    played = block.rows
    try:
        done = engine.replay(rules, hands, stock, discard, steps)
    except engine.ReplayError as exc:
        at = max(exc.step, 1) - 1  # the rows before the failing step stand
        played, failed = block.rows[:at], block.rows[at]
        error(failed.fields["step"].line, f"example {failed.caption.text!r}: {exc}")
        done = engine.replay(rules, hands, stock, discard, steps[: len(played)])
    rows: list[VerifiedRow] = []
    stock_total = _dealt_stock(rules, len(hands))
    actions = [step.action for step in engine.parse_steps(steps[: len(done.steps)])]
    tables = _tables_after(engine.RoundState(rules, hands, stock, discard), done.steps, actions)
    for row, step, (table, changed) in zip(played, done.steps, tables, strict=False):
        computed = _round_values(step, done.ending if step is done.steps[-1] else None)
        computed.update(table=sorted(table.items()), table_changed=changed,
                        meld=table.get(getattr(step.operation, "number", 0)))
        if "refused" in row.fields:
            try:
                computed["refused"], computed["refused_kind"], computed["refused_why"] = \
                    _refusal(rules, hands, stock, discard, steps[: step.number - 1],
                             row.fields["refused"].value)
            except engine.SearchLimitError as exc:  # no verdict: the row is not verified
                error(row.fields["refused"].line, f"example {row.caption.text!r}: {exc}")
                continue
        ended = computed["round_ending"]
        if (ended is not None and ended.reason == "stock_out" and stock_total is not None
                and len(stock) < stock_total):
            error(row.fields["step"].line, f"example {row.caption.text!r}: the round ends with "
                                           f"the stock empty, but the table shows only "
                                           f"{len(stock)} of its {stock_total} cards: in a real "
                                           f"game the stock would not be empty here")
        if ended is not None and "ending" not in row.fields:
            how = ("the stock is empty" if ended.reason == "stock_out"
                   else f"seat {ended.winner + 1} goes out")
            error(row.fields["step"].line, f"example {row.caption.text!r}: the round ends at "
                                           f"this step ({how}): say so with 'ending: "
                                           f"{ended.reason}'")
        claims = []
        for key, fld in sorted(row.fields.items(), key=lambda kv: kv[1].line):
            if key == "step":
                continue
            try:
                stated = ROUND_CLAIMS[key](fld.value)
            except _Bad as exc:
                error(fld.line, f"example {row.caption.text!r}: {key}: {exc}")
                continue
            claims.append(Claim(source, fld.line, row.caption.text, key, stated,
                                computed.get(key)))
        op = step.operation
        seat = None if isinstance(op, engine.RoundEnding) else op.seat + 1
        inputs = {"step": step, "seat": seat, "hands": hands,
                  "stock": stock, "discard": discard, "stock_total": stock_total}
        rows.append(VerifiedRow(row, game.value, profile, rules, inputs, computed,
                                tuple(claims)))
    return rows


def _refusal(rules: engine.RuleSet, hands: Any, stock: Any, discard: Any, before: list[str],
             text: str) -> tuple[str | None, str | None, str | None]:
    """Whether the step *text* is refused after the steps *before*: (the step as stated,
    its action kind, the engine's reason) if it is, (None, None, None) if it is allowed
    (or not one step: then the claim disagrees and names it)."""
    try:
        steps = engine.parse_steps([text])
    except engine.ReplayError:
        return None, None, None
    if len(steps) != 1:
        return None, None, None
    state = engine.RoundState(rules, hands, stock, discard)
    for done in engine.parse_steps(before):
        state.apply(done.action)
    if state.turn != steps[0].seat:
        return None, None, None
    try:
        state.verify(steps[0].action)
    except ValueError as exc:
        return text, steps[0].action.kind, str(exc)
    return None, None, None


@dataclass(frozen=True, slots=True)
class ShownMeld:
    """A meld on the table as a page draws it: in its arrangement's order, each joker as
    a joker at the place it holds (never as the card it stands for), and the stand-ins
    named beside it, as the example tables name them."""

    number: int
    cards: tuple[engine.Card, ...]
    stand_ins: tuple[engine.Card, ...]


def shown_meld(meld: engine.TableMeld) -> ShownMeld:
    """*meld* with its jokers drawn as jokers.

    >>> cards = engine.parse_cards
    >>> shown = shown_meld(engine.TableMeld(2, 1, cards("4H JK 6H"), "sequence", 15,
    ...                                     cards("4H 5H 6H")))
    >>> [c.code for c in shown.cards], [c.code for c in shown.stand_ins]
    (['4H', 'JK', '6H'], ['5H'])
    >>> shown = shown_meld(engine.TableMeld(5, 0, cards("2C 3C JK"), "sequence", 16,
    ...                                     cards("AC 2C 3C")))
    >>> [c.code for c in shown.cards], [c.code for c in shown.stand_ins]
    (['JK', '2C', '3C'], ['AC'])
    """
    natural = [c for c in meld.cards if not c.is_joker]
    drawn: list[engine.Card] = []
    stand_ins: list[engine.Card] = []
    for card in meld.arrangement:
        if card in natural:
            natural.remove(card)
            drawn.append(card)
        else:
            drawn.append(engine.JOKER)
            stand_ins.append(card)
    return ShownMeld(meld.number, tuple(drawn), tuple(stand_ins))


def _tables_after(state: engine.RoundState, steps: tuple[engine.ReplayStep, ...],
                  actions: list[engine.Action]) -> list[tuple[dict[int, ShownMeld], bool]]:
    """For each step, replayed from *state* (the deal): the melds on the table after it,
    by number, and whether the table changed during the turn that this step ends (a
    discard, or going out), so that a round table shows the table where it changes and
    "meld N" is always clear."""
    out: list[tuple[dict[int, ShownMeld], bool]] = []
    changed = False
    for step, action in zip(steps, actions, strict=True):
        op = step.operation
        state.apply(action)
        table = {meld.number: shown_meld(meld) for meld in state.table}
        if isinstance(op, engine.Melding | engine.LayingOff | engine.Swapping):
            changed = True
        ends_turn = isinstance(op, engine.Discarding) or getattr(op, "went_out", False)
        out.append((dict(sorted(table.items())), changed and ends_turn))
        if ends_turn:
            changed = False
    return out


def _dealt_stock(rules: engine.RuleSet, players: int) -> int | None:
    """Cards in a real stock after the deal and the turned-up card (None if the rules
    cannot deal to *players*): a round table that shows fewer says how many it shows."""
    try:
        return len(engine.deal(rules, players, seed=0).stock)
    except (engine.RulesError, ValueError):
        return None


def _round_values(step: engine.ReplayStep, ending: engine.RoundEnding | None) -> Computed:
    """What a round's step computes; *ending*: the round's, if this step ended it."""
    op = step.operation
    values: Computed = {"operation": op, "hand": sorted(c.code for c in step.hand),
                        "hand_cards": step.hand, "ending": None, "round_ending": ending}
    if isinstance(op, engine.Melding):
        values.update(kind=op.kind, points=op.points)
    elif isinstance(op, engine.LayingOff | engine.Swapping):
        values.update(points=op.points)
    elif isinstance(op, engine.Discarding) and op.opening is not None:
        values.update(total=op.opening.total, threshold=op.opening.threshold,
                      verdict="accepted" if op.opening.accepted else "rejected",
                      returned=sorted(c.code for c in op.returned))
    if ending is not None:
        values.update(winner=ending.winner + 1, hand_points=list(ending.hand_points),
                      scores=list(ending.scores), ending=ending.reason)
    return values


def describe(claim: Claim, row: VerifiedRow | None = None) -> str:
    """The message for a disagreement, as printed by ``build`` and ``check``."""
    context = f" ({row.context})" if row is not None else ""
    return (f"example {claim.example!r}: stated {claim.field} {_show(claim.stated)}, "
            f"the engine computes {_show(claim.computed)}{context}")


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    if value is None:
        return "nothing"
    return str(value)
