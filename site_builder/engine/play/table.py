"""The practice table's glue: one game between a reader and computer players, in and
out as JSON-able values, for the site's practice page (``<lang>/play/``), which runs
this module in the browser under Pyodide. Pure: no I/O, no clock, no randomness but
the seeded deal.

A game is a game (``rami40``, ``rami51``, ``cardverse``), an optional published
variation of Rami 40/51 (by name: the page hands the site's variations, from
``content/profiles.toml``, to its :class:`Session` once), the computer
players' levels (1 to 3 seats besides the reader, who sits at seat 0) and a seed.
Round *k* (from 0) is dealt with the *k*-th 64-bit number of ``random.Random(seed)``
and starts with seat ``k % seats``, as :func:`~site_builder.engine.play.play_game`
deals. A game may instead start from a position of a worked round
(:meth:`Table.from_position`): the same hands, stock, discard pile and steps, one
round, the reader playing the seat whose turn it is.

Everything the page sends is checked here and bounded; a request that cannot be
applied gives a refusal: ``{"code": ..., "values": {...}, "message": ...}``. The
engine's refusals carry a ``code`` and ``values`` when it has them; otherwise the
code is ``"other"`` and the English message is kept.

>>> table = Table.new({"game": "rami51", "levels": ["easy"], "seed": 4217})
>>> view = table.view()
>>> view["phase"], len(view["hand"]), view["hand_sizes"], view["turn"]
('draw', 13, [13, 13], 0)
>>> table.act({"kind": "discard", "cards": [view["hand"][0]]})["refusal"]["code"] != ""
True
>>> table.act({"kind": "draw_stock"})["event"]["kind"]
'draw_stock'
>>> Table.restore(table.save()).view() == table.view()
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from site_builder.engine.cards import Card, CardError, parse_card
from site_builder.engine.deal import deal
from site_builder.engine.notation import ReplayError, format_history, parse_steps
from site_builder.engine.opening import evaluate_opening
from site_builder.engine.play.coach import (
    ROLLOUTS,
    Advice,
    RoundStart,
    advise,
    clone,
    explain,
    fallback,
    review,
)
from site_builder.engine.play.players import LEVELS, Player, make_player
from site_builder.engine.refusals import Refusal
from site_builder.engine.round import (
    Action,
    Discarding,
    Drawing,
    LayingOff,
    Melding,
    Operation,
    RoundState,
    Swapping,
    TableMeld,
)
from site_builder.engine.rules import PRESETS, RulesError, RuleSet, get_rules
from site_builder.engine.scoring import game_over, game_winners
from site_builder.engine.search import Meld, SearchLimitError

__all__ = ["CODES", "SAVE_VERSION", "Session", "Table", "TableError", "check_variations"]

#: The version of :meth:`Table.save`'s format; a saved game of another version is refused.
SAVE_VERSION: Final = 1
#: The largest seed a link may carry (JavaScript's safe integers).
MAX_SEED: Final = 2**53 - 1
#: Actions a saved round may hold, and rounds a saved game; more is a damaged save.
MAX_ACTIONS: Final = 5_000
MAX_ROUNDS: Final = 1_000
#: The rule variations of Rami 40/51 the table offers (CardVerse has none).
VARIATION_GAMES: Final = ("rami40", "rami51")
#: The table's own refusal codes, kebab-case as the engine's (``engine.REFUSALS``): a
#: request it cannot read, or one its state does not take. A move the rules refuse carries
#: the engine's code, and so does a move out of the reader's turn.
CODES: Final = ("bad-request", "bad-game", "bad-variation", "bad-players", "bad-level",
                "bad-seed", "bad-config", "bad-position", "bad-save", "bad-action", "bad-cards",
                "bad-target", "your-turn", "round-not-over", "search-limit", "other")

JSON = dict[str, Any]


class TableError(ValueError):
    """A request the table cannot read: ``code`` names the problem for the page's
    catalog, ``values`` fill its message.

    >>> TableError("bad-game", game="rami52").code
    'bad-game'
    """

    def __init__(self, code: str, **values: Any) -> None:
        self.code = code
        self.values = values
        super().__init__(f"{code}: {values}")


def _int(value: object, low: int, high: int, code: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise TableError(code, value=str(value)[:40])
    return value


Variations = dict[str, dict[str, Any]]  # the site's variations: name -> rule overrides


def _rules(game: object, variation: object, variations: Variations | None) -> RuleSet:
    if not isinstance(game, str) or game not in PRESETS:
        raise TableError("bad-game", game=str(game)[:40])
    if variation in (None, ""):
        return get_rules(game)
    if game not in VARIATION_GAMES or not isinstance(variation, str) \
            or variation not in (variations or {}):
        raise TableError("bad-variation", variation=str(variation)[:40])
    return get_rules(game, **(variations or {})[variation])


def check_variations(variations: object) -> Variations:
    """The site's variations (name: rule overrides), each checked by the engine.

    >>> _rules("rami51", "house", check_variations({"house": {"joker_value": 15}})).joker_value
    15
    >>> check_variations({"house": {"decks": "many"}})
    Traceback (most recent call last):
    ...
    site_builder.engine.play.table.TableError: bad-variation: {'variation': 'house'}
    """
    if not isinstance(variations, dict) or len(variations) > 100:
        raise TableError("bad-variation", variation="")
    checked: Variations = {}
    for name, overrides in variations.items():
        try:
            get_rules("rami51", **overrides)
        except (RulesError, TypeError, ValueError):
            raise TableError("bad-variation", variation=str(name)[:40]) from None
        checked[str(name)] = dict(overrides)
    return checked


def _levels(levels: object, rules: RuleSet) -> list[str]:
    if not isinstance(levels, list) or not 1 <= len(levels) <= rules.max_players - 1 \
            or len(levels) + 1 < rules.min_players:
        raise TableError("bad-players", players=str(levels)[:40])
    for level in levels:
        if level not in LEVELS:
            raise TableError("bad-level", level=str(level)[:40])
    return [str(level) for level in levels]


def _cards(codes: object, limit: int = 108) -> tuple[Card, ...]:
    if not isinstance(codes, list) or len(codes) > limit:
        raise TableError("bad-cards")
    out = []
    for code in codes:
        if not isinstance(code, str) or len(code) > 3:
            raise TableError("bad-cards")
        try:
            out.append(parse_card(code))
        except CardError:
            raise TableError("bad-cards") from None
    return tuple(out)


def _codes(cards: Sequence[Card]) -> list[str]:
    return [card.code for card in cards]


def _meld(meld: TableMeld) -> JSON:
    return {"number": meld.number, "owner": meld.owner, "cards": _codes(meld.cards),
            "arrangement": _codes(meld.arrangement), "kind": meld.kind, "points": meld.points}


def refusal(exc: Exception) -> JSON:
    """A refused move as the page shows it: the engine's code and values when the
    exception carries them, else ``"other"`` with the English sentence.

    >>> refusal(ValueError("the stock is empty"))["code"]
    'other'
    >>> refusal(TableError("bad-cards"))["code"]
    'bad-cards'
    """
    if isinstance(exc, SearchLimitError):
        return {"code": "search-limit", "values": {}, "message": str(exc)}
    code = getattr(exc, "code", None)
    values = getattr(exc, "values", None)
    plain = {str(k): v if isinstance(v, int | str) and not isinstance(v, bool) else str(v)
             for k, v in (values.items() if isinstance(values, Mapping) else ())}
    return {"code": code if isinstance(code, str) else "other", "values": plain,
            "message": str(exc)}


def _action(request: object) -> Action:
    """A reader's request as an engine action, its shape checked."""
    if not isinstance(request, dict):
        raise TableError("bad-action")
    kind = request.get("kind")
    if kind in ("draw_stock", "draw_discard"):
        return Action(kind)
    if kind not in ("meld", "lay_off", "swap", "discard"):
        raise TableError("bad-action")
    cards = _cards(request.get("cards", []))
    target = request.get("target")
    if kind in ("lay_off", "swap"):
        return Action(kind, cards, _int(target, 1, 999, "bad-target"))
    return Action(kind, cards)


def event(op: Operation, seat: int) -> JSON:
    """One operation as the log shows it to *seat*; another seat's stock draw hides its card.

    >>> from site_builder.engine import parse_card
    >>> event(Drawing(1, "stock", parse_card("KS")), 0)
    {'seat': 1, 'kind': 'draw_stock', 'card': None}
    """
    if isinstance(op, Drawing):
        hidden = op.source == "stock" and op.seat != seat
        return {"seat": op.seat, "kind": f"draw_{op.source}",
                "card": None if hidden or op.card is None else op.card.code}
    if isinstance(op, Melding):
        return {"seat": op.seat, "kind": "meld", "number": op.number, "cards": _codes(op.cards),
                "points": op.points, "pending": op.pending, "went_out": op.went_out}
    if isinstance(op, LayingOff):
        return {"seat": op.seat, "kind": "lay_off", "number": op.number,
                "cards": _codes(op.cards), "points": op.points, "went_out": op.went_out}
    if isinstance(op, Swapping):
        return {"seat": op.seat, "kind": "swap", "number": op.number, "card": op.card.code}
    if isinstance(op, Discarding):
        opening = None if op.opening is None else {
            "accepted": op.opening.accepted, "total": op.opening.total,
            "threshold": op.opening.threshold, "reasons": list(op.opening.reasons)}
        return {"seat": op.seat, "kind": "discard", "card": op.card.code, "opening": opening,
                "returned": _codes(op.returned), "went_out": op.went_out}
    return {"kind": "end", "reason": op.reason, "winner": op.winner,
            "hand_points": list(op.hand_points), "scores": list(op.scores)}


class Table:
    """A game at the practice table: the reader at seat ``human``, computer players at
    the others (see the module documentation)."""

    def __init__(self, config: JSON, rules: RuleSet, levels: list[str], human: int,
                 state: RoundState, start: JSON | None) -> None:
        self.config = config
        self.rules = rules
        self.levels = levels  # one per seat; the reader's seat holds ""
        self.human = human
        self.state = state
        self.start = start  # a worked round's position, or None for seeded deals
        self.totals = [0] * len(levels)
        self.rounds: list[list[int]] = []
        self.actions: list[Action] = []
        self.players: dict[int, Player] = {}
        # the last computer move whose reasons were not given yet: the position before it,
        # the move and its player's plan (step(reasons=False), then reasons())
        self.unexplained: tuple[RoundState, Action, tuple[Meld, ...]] | None = None

    # -------------------------------------------------------------- making one

    @classmethod
    def new(cls, config: object, variations: Variations | None = None) -> Table:
        """A seeded game: ``{"game", "variation", "levels", "seed"}``.

        >>> Table.new({"game": "rami51", "levels": ["easy", "hard", "normal", "easy"],
        ...            "seed": 1})
        Traceback (most recent call last):
        ...
        site_builder.engine.play.table.TableError: bad-players: {'players': \
"['easy', 'hard', 'normal', 'easy']"}
        """
        if not isinstance(config, dict):
            raise TableError("bad-config")
        rules = _rules(config.get("game"), config.get("variation"), variations)
        levels = _levels(config.get("levels"), rules)
        seed = _int(config.get("seed"), 0, MAX_SEED, "bad-seed")
        clean = {"game": config["game"], "variation": config.get("variation") or None,
                 "levels": levels, "seed": seed}
        return cls(clean, rules, ["", *levels], 0, _deal(rules, seed, len(levels) + 1, 0), None)

    @classmethod
    def from_position(cls, position: object, variations: Variations | None = None) -> Table:
        """A worked round's position: ``{"game", "variation", "hands", "stock", "discard",
        "steps", "first", "level"}``; one round, the reader at the seat to move.

        A position no real deal could give is refused (``bad-position``, its ``problem``
        in the values): a hand with more cards than the deal gives each seat
        (``hand-too-big``, with ``seat``, ``count`` and ``most``), a seat with no cards
        (``empty-hand``), a card that is not one (``unknown-card``), a card more often
        than the decks hold it (``too-many-copies``), a step the round refuses (``steps``),
        or a round already over (``round-over``); so is a number of hands the game is not
        for (``players``).

        >>> table = Table.from_position({"game": "cardverse", "hands": [["5H", "6H", "7H",
        ...     "KS", "2C"], ["9D", "9C", "3S", "4S", "JH"]], "stock": ["QD", "8S"],
        ...     "discard": ["8H"], "steps": ["1: draw stock", "1: discard KS"]})
        >>> table.human, table.view()["hand"]
        (1, ['9D', '9C', '3S', '4S', 'JH'])
        """
        if not isinstance(position, dict):
            raise TableError("bad-position")
        rules = _rules(position.get("game"), position.get("variation"), variations)
        hands = position.get("hands")
        if not isinstance(hands, list) or not rules.min_players <= len(hands) \
                <= rules.max_players:
            raise TableError("bad-position", problem="players")
        start = {"game": position["game"], "variation": position.get("variation") or None,
                 "hands": [_codes(h) for h in _dealt_hands(rules, hands)],
                 "stock": _codes(_position_cards(position.get("stock"))),
                 "discard": _codes(_position_cards(position.get("discard"))),
                 "first": _int(position.get("first", 0), 0, len(hands) - 1, "bad-position")}
        steps = position.get("steps", [])
        if not isinstance(steps, list) or len(steps) > MAX_ACTIONS:
            raise TableError("bad-position", problem="steps")
        try:
            state = RoundState(rules, [_cards(h) for h in start["hands"]],
                               _cards(start["stock"]), _cards(start["discard"]),
                               first=start["first"])
        except ValueError:  # a card more often than the decks hold it
            raise TableError("bad-position", problem="too-many-copies") from None
        try:
            for step in parse_steps([str(s)[:200] for s in steps]):
                if step.seat != state.turn or state.is_over:
                    raise TableError("bad-position", problem="steps")
                state.apply(step.action)
        except (ReplayError, ValueError, SearchLimitError):
            raise TableError("bad-position", problem="steps") from None
        if state.is_over:
            raise TableError("bad-position", problem="round-over")
        level = position.get("level", "normal")
        if level not in LEVELS:
            raise TableError("bad-level", level=str(level)[:40])
        human = state.turn
        levels = [str(level)] * len(hands)
        levels[human] = ""
        start["steps"] = [str(s)[:200] for s in steps]
        start["level"] = level
        config = {"game": start["game"], "variation": start["variation"],
                  "levels": [lv for lv in levels if lv], "seed": None}
        table = cls(config, rules, levels, human, state, start)
        return table

    # -------------------------------------------------------------- reading

    @property
    def game_over(self) -> bool:
        """Whether the game has ended: its limit reached, or a worked round's one round over."""
        if self.start is not None:
            return self.state.is_over
        return bool(self.rounds) and self.state.is_over and game_over(self.totals, self.rules)

    def view(self) -> JSON:
        """What the reader sees now (their hand in full; the others' counts only, until
        the round ends)."""
        state, me = self.state, self.human
        ending = state.ending
        out: JSON = {
            "seat": me, "turn": state.turn, "phase": state.phase.value,
            "hand": _codes(state.hands[me]), "hand_sizes": [len(h) for h in state.hands],
            "levels": self.levels, "stock": len(state.stock),
            "discard": state.discard_pile[-1].code if state.discard_pile else None,
            "table": [_meld(m) for m in state.table], "opened": list(state.opened),
            "pending": list(state.pending) if state.turn == me else [],
            "legal": list(state.view(me).legal), "totals": list(self.totals),
            "rounds": [list(r) for r in self.rounds], "round": len(self.rounds) + 1,
            "progress": self._progress(), "ending": None, "game_over": self.game_over,
            "winners": [], "target": self.rules.target_score,
            "seeded": self.start is None, "penalty": self.rules.penalty_scoring,
        }
        if ending is not None:
            out["ending"] = {"reason": ending.reason, "winner": ending.winner,
                             "hand_points": list(ending.hand_points),
                             "scores": list(ending.scores),
                             "hands": [_codes(h) for h in state.hands],
                             "history": format_history(state.history)}
            out["round"] = len(self.rounds)
        if self.game_over and self.start is None:
            out["winners"] = list(game_winners(self.totals, self.rules))
        return out

    def _progress(self) -> JSON | None:
        """The reader's first meld as laid so far this turn, checked as at the discard."""
        state = self.state
        if state.turn != self.human or state.opened[self.human] or state.is_over:
            return None
        melds = [m.cards for m in state.table if m.number in state.pending]
        result = evaluate_opening(melds, self.rules)
        return {"total": result.total, "threshold": result.threshold,
                "pure": result.pure_sequence, "pure_needed": self.rules.pure_sequence_required,
                "accepted": result.accepted}

    # -------------------------------------------------------------- playing

    def act(self, request: object) -> JSON:
        """Apply the reader's action: ``{"event": ...}``, or ``{"refusal": ...}`` (nothing
        changes)."""
        state = self.state
        if state.is_over or state.turn != self.human:
            return {"refusal": self._not_yours()}
        try:
            action = _action(request)
            op = state.apply(action)
        except (ValueError, SearchLimitError) as exc:
            return {"refusal": refusal(exc)}
        return self._applied(action, op)

    def _not_yours(self) -> JSON:
        """The engine's refusal of a move out of the reader's turn: the round is over, or
        another seat is to play (seats counted from 1, as the engine counts them)."""
        state = self.state
        if state.is_over:
            return refusal(Refusal("round-over"))
        return refusal(Refusal("not-your-turn", turn=state.turn + 1, seat=self.human + 1))

    def step(self, reasons: bool = True) -> JSON:
        """Let the computer seat whose turn it is take one action, with the reasons the
        engine confirms for it; without *reasons*, the move alone, and :meth:`reasons`
        gives them afterwards (confirming them is most of a move's time: the page shows
        the move first).

        >>> table = Table.new({"game": "cardverse", "levels": ["hard"], "seed": 3})
        >>> table.step()["refusal"]["code"]
        'your-turn'
        >>> _ = table.act({"kind": "draw_stock"})
        >>> _ = table.act({"kind": "discard", "cards": [table.state.hands[0][0].code]})
        >>> same = Table.restore(table.save())
        >>> told, later = table.step(reasons=False)["event"], table.reasons()["reasons"]
        >>> "reasons" in told, later == same.step()["event"]["reasons"] != []
        (False, True)
        """
        state = self.state
        seat = state.turn
        if state.is_over or seat == self.human:
            return {"refusal": {"code": "your-turn", "values": {}, "message": ""}}
        player = self.players.get(seat)
        if player is None:
            player = self.players[seat] = make_player(self.levels[seat])
        try:  # a search past its bound, choosing or checking, gives way to a legal move
            action = player.choose(state.view(seat))
            plan = getattr(player, "planned", ()) if action.kind == "meld" else ()
            legal = state.can(action)
        except SearchLimitError:
            legal = False
        if not legal:
            action, plan = fallback(state), ()
        if not reasons:
            self.unexplained = (clone(state), action, tuple(plan))
            return self._applied(action, state.apply(action))
        found = explain(state, action, plan, private=True)
        answer = self._applied(action, state.apply(action))
        answer["event"]["reasons"] = [reason.as_json() for reason in found]
        return answer

    def reasons(self) -> JSON:
        """The reasons for the last move of :meth:`step` without reasons (once): as
        ``step`` would have given them, or an empty list when there is none to give."""
        if self.unexplained is None:
            return {"reasons": []}
        before, action, plan = self.unexplained
        self.unexplained = None
        return {"reasons": [reason.as_json()
                            for reason in explain(before, action, plan, private=True)]}

    def _applied(self, action: Action, op: Operation) -> JSON:
        self.actions.append(action)
        events = [event(op, self.human)]
        ending = self.state.ending
        if ending is not None:
            events.append(event(ending, self.human))
            self.rounds.append(list(ending.scores))  # once: an ended round takes no action
            for seat, gained in enumerate(ending.scores):
                self.totals[seat] += gained
        return {"event": events[0], "events": events}

    def next_round(self) -> JSON:
        """Deal the next round of a seeded game whose round is over."""
        if not self.state.is_over or self.game_over or self.start is not None:
            return {"refusal": {"code": "round-not-over", "values": {}, "message": ""}}
        if len(self.rounds) >= MAX_ROUNDS:
            return {"refusal": {"code": "round-not-over", "values": {}, "message": ""}}
        self.state = _deal(self.rules, self.config["seed"], len(self.levels), len(self.rounds))
        self.actions = []
        self.players = {}
        return {"event": {"kind": "deal", "round": len(self.rounds) + 1}}

    def hint(self) -> JSON:
        """The move the normal player would make in the reader's place, and why: its
        ``action``, its ``reasons`` (codes and values, each confirmed by the engine against
        the position: :func:`~site_builder.engine.play.coach.advise` says how), the melds it
        means to lay after it this turn (``plan``), and ``why``, the reason in the page's
        older form, for as long as the page shows that.

        >>> table = Table.new({"game": "rami51", "levels": ["easy"], "seed": 4217})
        >>> hint = table.hint()
        >>> hint["action"]["kind"], hint["reasons"]
        ('draw_stock', [{'code': 'stock-top-no-opening', 'values': {'card': 'KC'}}])
        """
        state = self.state
        if state.is_over or state.turn != self.human:
            return {"refusal": self._not_yours()}
        advice = advise(state)
        action = advice.action
        return {"action": {"kind": action.kind, "cards": _codes(action.cards),
                           "target": action.target},
                "reasons": [reason.as_json() for reason in advice.reasons],
                "plan": [_codes(meld) for meld in advice.plan], "why": _older_why(advice)}

    def review(self, *, rollouts: int = ROLLOUTS) -> JSON:
        """When the round is over, the reader's moves that cost the most (at most three):
        for each, the reader's ``turn`` in the round, the move's ``index`` among the
        round's actions (a worked round's steps not counted), the move ``made``, the normal
        player's move there (``better``) and its ``reasons``, and the estimated ``cost`` in
        points, from seeded rollouts (:func:`~site_builder.engine.play.coach.review`): the
        same game gives the same review.

        >>> table = Table.new({"game": "rami40", "levels": ["easy"], "seed": 8})
        >>> table.review()["refusal"]["code"]
        'round-not-over'
        """
        if not self.state.is_over:
            return {"refusal": {"code": "round-not-over", "values": {}, "message": ""}}
        start, _ = self._round_start()
        seed = self.config["seed"] if self.config.get("seed") is not None else 0
        levels = [level or "normal" for level in self.levels]
        found = review(start, self.actions, self.human, levels,
                       seed * MAX_ROUNDS + len(self.rounds), rollouts=rollouts)
        return {"review": [{
            "turn": m.turn, "index": m.index, "made": _action_json(m.made),
            "better": _action_json(m.better),
            "reasons": [reason.as_json() for reason in m.reasons], "cost": m.cost,
            "rollouts": m.rollouts} for m in found]}

    def _round_start(self) -> tuple[RoundStart, int]:
        """How the round now played began: its deal, and for a worked round the steps
        played before the reader's first move (and their number)."""
        if self.start is None:
            k = len(self.rounds) - (1 if self.state.is_over else 0)
            dealt = _deal(self.rules, self.config["seed"], len(self.levels), k)
            return RoundStart.of(dealt, k % len(self.levels)), 0
        start = self.start
        state = RoundState(self.rules, [_cards(h) for h in start["hands"]],
                           _cards(start["stock"]), _cards(start["discard"]),
                           first=start["first"])
        steps = [step.action for step in parse_steps(start["steps"])]
        return RoundStart.of(state, start["first"], steps), len(steps)


    # -------------------------------------------------------------- saving

    def save(self) -> JSON:
        """The game as JSON-able data, to resume it (:meth:`restore`). A round that is over
        is saved as done: the game resumes with the next round's deal."""
        done = self.state.is_over and self.start is None
        return {"v": SAVE_VERSION, "config": self.config, "start": self.start,
                "totals": list(self.totals), "rounds": [list(r) for r in self.rounds],
                "actions": [a.describe(self.state.turn).split(": ", 1)[1]
                            for a in ([] if done else self.actions)]}

    @classmethod
    def restore(cls, saved: object, variations: Variations | None = None) -> Table:
        """A saved game, replayed to where it was; a damaged or outdated one raises
        :class:`TableError` (``bad-save``)."""
        try:
            return cls._restore(saved, variations)
        except (TableError, ValueError, SearchLimitError, KeyError, TypeError):
            raise TableError("bad-save") from None

    @classmethod
    def _restore(cls, saved: object, variations: Variations | None) -> Table:
        if not isinstance(saved, dict) or saved.get("v") != SAVE_VERSION:
            raise TableError("bad-save")
        start = saved.get("start")
        table = cls.from_position(start, variations) if start is not None \
            else cls.new(saved["config"], variations)
        rounds = saved.get("rounds", [])
        n = len(table.levels)
        if not isinstance(rounds, list) or len(rounds) > MAX_ROUNDS or any(
                not isinstance(r, list) or len(r) != n for r in rounds):
            raise TableError("bad-save")
        table.rounds = [[_int(x, 0, 10**6, "bad-save") for x in r] for r in rounds]
        table.totals = [sum(r[seat] for r in table.rounds) for seat in range(n)]
        if start is None and table.rounds:
            if game_over(table.totals, table.rules):
                raise TableError("bad-save")  # a finished game is not saved
            table.state = _deal(table.rules, table.config["seed"], n, len(table.rounds))
        actions = saved.get("actions", [])
        if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
            raise TableError("bad-save")
        for text in actions:
            if not isinstance(text, str) or len(text) > 200:
                raise TableError("bad-save")
            step = parse_steps(f"{table.state.turn + 1}: {text}")[0]
            table.state.apply(step.action)
            table.actions.append(step.action)
            if table.state.is_over:
                raise TableError("bad-save")  # a finished round is not saved
        return table


def _deal(rules: RuleSet, seed: int, n: int, k: int) -> RoundState:
    """Round *k* (from 0) of a seeded game of *n* seats, as :func:`.game.play_game` deals it."""
    rng = random.Random(seed)
    for _ in range(k):
        rng.getrandbits(64)
    return RoundState.from_deal(rules, deal(rules, n, rng.getrandbits(64)), first=k % n)


def _action_json(action: Action) -> JSON:
    return {"kind": action.kind, "cards": _codes(action.cards), "target": action.target}


#: The page's older sentence keys for the hint's reason (``why``), by the reason's code.
_OLDER_WHY: Final = {
    "take-completes": "take_to_lay", "take-opens": "take_to_lay",
    "take-lays-off": "take_to_lay", "take-swaps": "take_to_lay",
    "stock-top-fits-nothing": "discard_useless", "stock-pile-empty": "stock_only",
    "meld-opens": "first_meld", "meld-opens-next": "first_meld",
    "meld-lowers-hand": "meld", "lay-off-fits": "lay_off", "swap-joker": "swap",
}


def _older_why(advice: Advice) -> JSON:
    """The hint's main confirmed reason as the page's older sentence keys read it
    (``{"code": ""}``, no sentence, where none of them says it)."""
    for reason in advice.reasons:
        code = _OLDER_WHY.get(reason.code)
        if code is None:
            continue
        values = dict(reason.values)
        if code == "first_meld":
            return {"code": code, "points": values["total"], "threshold": values["threshold"]}
        if code in ("lay_off", "swap"):
            return {"code": code, "number": values["target"]}
        return {"code": code}
    return {"code": ""}


def _dealt_hands(rules: RuleSet, hands: list[object]) -> list[tuple[Card, ...]]:
    """A position's hands, as a real deal could give them: cards all (``unknown-card``),
    each seat holding at least one (``empty-hand``) and no more than the deal gives a seat
    (``hand-too-big``); a problem raises ``bad-position``."""
    most = rules.hand_size(len(hands))
    out = []
    for seat, hand in enumerate(hands, 1):
        if isinstance(hand, list) and not hand:
            raise TableError("bad-position", problem="empty-hand", seat=seat)
        if isinstance(hand, list) and len(hand) > most:
            raise TableError("bad-position", problem="hand-too-big", seat=seat,
                             count=len(hand), most=most)
        out.append(_position_cards(hand))
    return out


def _position_cards(codes: object) -> tuple[Card, ...]:
    try:
        return _cards(codes)
    except TableError:
        raise TableError("bad-position", problem="unknown-card") from None


# ------------------------------------------------------------------ the page's one entry


class Session:
    """The page's table: one :meth:`call` for every request, JSON text in and out, so
    that the script holds one object and nothing is kept at module level. A request that
    cannot be read answers ``{"refusal": ...}``.

    >>> session = Session()
    >>> answer = json.loads(session.call("new", json.dumps({"game": "rami51",
    ...                                                      "levels": ["easy"], "seed": 4217})))
    >>> len(answer["view"]["hand"])
    13
    >>> json.loads(session.call("new", '{"game": "rami52"}'))["refusal"]["code"]
    'bad-game'
    >>> json.loads(Session().call("step", "{}"))["refusal"]["code"]
    'bad-request'
    """

    def __init__(self) -> None:
        self.table: Table | None = None
        self.variations: Variations = {}

    def call(self, name: str, payload: str) -> str:
        """Answer the request *name* with its *payload* (JSON text)."""
        try:
            data = json.loads(payload) if len(payload) <= 1_000_000 else None
            answer = self._answer(name, data)
        except (TableError, ValueError, RulesError, SearchLimitError) as exc:
            answer = {"refusal": refusal(exc)}
        return json.dumps(answer, separators=(",", ":"))

    def _answer(self, name: str, data: Any) -> JSON:
        if name == "variations":  # the site's rule sets, from the page's own data
            self.variations = check_variations(data)
            return {}
        if name in ("new", "position", "restore"):
            make = {"new": Table.new, "position": Table.from_position,
                    "restore": Table.restore}[name]
            made = self.table = make(data, self.variations)
            return {"view": made.view(), "save": made.save()}
        table = self.table
        if table is None or name not in ("act", "step", "reasons", "hint", "review",
                                         "next_round", "view"):
            raise TableError("bad-request")
        if name == "hint":
            return table.hint()
        if name == "reasons":
            return table.reasons()
        if name == "review":
            return table.review()
        if name == "view":
            answer: JSON = {}
        elif name == "act":
            answer = table.act(data)
        elif name == "step":  # {"reasons": false}: the move now, its reasons by "reasons"
            answer = table.step(reasons=not (isinstance(data, dict)
                                             and data.get("reasons") is False))
        else:
            answer = table.next_round()
        answer.update(view=table.view(), save=None if table.game_over else table.save())
        return answer
