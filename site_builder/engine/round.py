"""One round as a state machine: draw, lay melds, lay off, discard.

The state follows pokerkit's pattern. Every action ``x`` has three methods:
``verify_x(...)`` raises :class:`~site_builder.engine.refusals.Refusal` (a
:class:`ValueError`) with a sentence saying why the action is not allowed, and
its reason code and values, ``can_x(...)`` returns a bool, and ``x(...)`` applies
the action and returns a frozen operation record. :attr:`RoundState.history`
is the list of those records; the last one is a :class:`RoundEnding` once the
round is over.

An :class:`Action` names its kind; :data:`ACTION_KINDS` holds each kind once
(its notation, the shapes it takes, its ``verify_*`` and its action, and its
record type), and :meth:`Action.describe`, :meth:`RoundState.verify` and
:meth:`RoundState.apply` read that table.

The turn of the seat whose turn it is:

1. **Draw** the top card of the stock (:meth:`RoundState.draw_stock`) or of
   the discard pile (:meth:`RoundState.draw_discard`).
2. **Lay** melds (:meth:`RoundState.meld`), **lay off** cards onto melds on
   the table (:meth:`RoundState.lay_off`) and **exchange** a joker on the table
   for the card it stands for (:meth:`RoundState.swap`), as often as the
   player likes.
3. **Discard** one card (:meth:`RoundState.discard`); the turn passes on.

Rules, all read from the :class:`~site_builder.engine.rules.RuleSet`:

* **Opening.** A variant needs an opening when it has an
  ``opening_threshold`` or requires a pure sequence (Rami 40/51). Until a
  player has opened, the melds they lay in a turn are their opening; it is
  checked at the discard with :func:`~site_builder.engine.opening.evaluate_opening`.
  If it falls short (below the threshold, or without the required pure
  sequence) the laid cards go back to the hand and the discard happens as
  usual; the player may try again next turn. A player who has not opened may
  not lay off. An opening is confirmed at the discard, so a Rami player lays
  off and exchanges jokers from the turn after the opening (site's choice,
  from the seed: "the app checks at the discard"). Melds that fall short leave
  the table, and their numbers go to the next melds laid, so the melds on the
  table are always numbered 1, 2, 3 ... Without an opening (CardVerse) every
  player may lay off onto any meld at any time after drawing. With
  ``rami_sec`` a player who has not opened may go out in one turn by laying
  the whole hand, whatever the opening's total.
* **Taking the discard** (``discard_must_be_used``, Rami 40/51): the card
  taken from the discard pile must be laid in a meld or a lay-off in the same
  turn; if it is part of an opening, that opening must be accepted. Once the
  player has opened, the card may also be laid by putting it in the place of a
  joker (a joker exchange), the joker then being laid as below. A discard
  that would leave the obligation unmet is refused. Without
  ``discard_first_round`` nobody takes the discard in the first round (each
  player's first turn); without ``discard_at_one_card`` a player holding one
  card may not take it ("à carte").
* **Joker exchange** (``joker_exchange``, Rami 40/51): a player who has
  opened may put the card a joker on the table stands for in its place and
  take the joker into the hand; the meld must stay the same meld (a sequence
  keeps its cards' places; in a set any suit the set lacks may replace it).
  The joker must be laid in the same turn, as above.
* **Going out.** The round ends when a player has no cards after a legal
  action. Without ``discard_to_win`` (CardVerse's default, the Rami variation
  ``no_final_discard``) that may be a meld, a lay-off or the discard of the last
  card; with ``discard_to_win`` (Rami 40/51) only the final discard goes out, so a meld or
  lay-off must leave at least one card. A player whose opening is still
  pending may go out by laying cards only if the opening, checked then, is
  accepted.
* **Stock out.** When the player whose turn begins must draw and the stock is
  empty, the round ends: the fewest hand points win, a tie goes to the first
  seat among the tied. The discard pile is never reshuffled.
* **Score.** CardVerse: the winner gains the points left in the opponents'
  hands. Rami 40/51 (``penalty_scoring``): each other player scores the
  points left in their own hand as penalty points
  (:func:`~site_builder.engine.scoring.round_scores`).

Seats are numbered from 0 in fields and arguments, and from 1 in sentences
and in the notation (``str(record)``).

>>> from site_builder.engine import get_rules, parse_card, parse_cards
>>> state = RoundState(get_rules("cardverse"),
...                    hands=[parse_cards("5H 6H 7H 9C KS"), parse_cards("2C 3D 4S 8D 9D")],
...                    stock=parse_cards("8H 10C QD"), discard=parse_cards("4C"))
>>> state.legal_actions()
(Action(kind='draw_stock', cards=(), target=None), Action(kind='draw_discard', cards=(), \
target=None))
>>> print(state.draw_stock())
1: draw stock 8H
>>> state.can_meld(parse_cards("5H 6H 8H"))
False
>>> state.verify_meld(parse_cards("5H 6H 8H"))
Traceback (most recent call last):
...
site_builder.engine.refusals.Refusal: 5H 6H 8H is not a valid meld (gap)
>>> print(state.meld(parse_cards("5H 6H 7H 8H")))
1: meld 5H 6H 7H 8H
>>> print(state.discard(parse_card("KS")))
1: discard KS
>>> state.turn, state.hands[0]
(1, (Card(rank=<Rank.NINE: 9>, suit=<Suit.C: 'C'>),))
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal, cast

from site_builder.engine.cards import JOKER, Card, Suit
from site_builder.engine.deal import Deal
from site_builder.engine.layoff import evaluate_layoff
from site_builder.engine.melds import MeldKind, MeldResult, evaluate_meld
from site_builder.engine.opening import OpeningResult, evaluate_opening
from site_builder.engine.refusals import REFUSALS, Refusal
from site_builder.engine.rules import RulesError, RuleSet
from site_builder.engine.scoring import hand_points, round_scores, stock_out_winner
from site_builder.engine.search import MELD_COST, Budget, find_melds, find_opening

__all__ = [
    "ACTION_KINDS",
    "Action",
    "ActionKind",
    "Discarding",
    "Drawing",
    "Kind",
    "LayingOff",
    "Melding",
    "Operation",
    "Phase",
    "REFUSALS",
    "Refusal",
    "RoundEnding",
    "RoundState",
    "Swapping",
    "TableMeld",
    "View",
    "kind_of",
    "needs_opening",
]

ActionKind = Literal["draw_stock", "draw_discard", "meld", "lay_off", "swap", "discard"]
# Why owed cards cannot be laid (:meth:`RoundState._unreachable`), as refusal codes.
Why = Literal["", "fits-no-meld", "not-all", "no-opening", "no-final-discard"]


class Phase(enum.Enum):
    """Where the turn stands: the player must ``DRAW``, may ``PLAY`` (lay, lay off,
    discard), or the round is ``OVER``."""

    DRAW = "draw"
    PLAY = "play"
    OVER = "over"


def needs_opening(rules: RuleSet) -> bool:
    """Whether players must open before laying off (a threshold or a pure sequence).

    >>> from site_builder.engine import get_rules
    >>> needs_opening(get_rules("rami40")), needs_opening(get_rules("cardverse"))
    (True, False)
    """
    return rules.opening_threshold is not None or rules.pure_sequence_required


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(card.code for card in cards)


@dataclass(frozen=True, slots=True)
class Action:
    """A move a player asks for; ``cards`` and ``target`` (a meld number) as the kind needs.

    >>> from site_builder.engine import parse_cards
    >>> Action("lay_off", parse_cards("8H"), 1).describe(0)
    '1: layoff 8H on 1'
    """

    kind: ActionKind
    cards: tuple[Card, ...] = ()
    target: int | None = None

    def describe(self, seat: int) -> str:
        """The action in round notation for *seat* (counted from 0)."""
        return f"{seat + 1}: {_kind(self.kind).notation(self)}"


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table. ``number`` counts from 1 in the order melds were laid and
    never changes; ``cards`` are the cards as laid (jokers included), ``arrangement``
    the meld with each joker replaced by its stand-in."""

    number: int
    owner: int
    cards: tuple[Card, ...]
    kind: MeldKind
    points: int
    arrangement: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.number}: {_codes(self.arrangement)}"


@dataclass(frozen=True, slots=True)
class Drawing:
    """A card drawn. ``card`` is ``None`` in another player's view of a stock draw."""

    seat: int
    source: Literal["stock", "discard"]
    card: Card | None

    def __str__(self) -> str:
        card = f" {self.card.code}" if self.card is not None else ""
        return f"{self.seat + 1}: draw {self.source}{card}"


@dataclass(frozen=True, slots=True)
class Melding:
    """A meld laid as table meld ``number``; ``pending`` while it is part of an
    opening that is checked at the discard."""

    seat: int
    number: int
    cards: tuple[Card, ...]
    kind: MeldKind
    points: int
    arrangement: tuple[Card, ...]
    pending: bool
    went_out: bool

    def __str__(self) -> str:
        return f"{self.seat + 1}: meld {_codes(self.cards)}"


@dataclass(frozen=True, slots=True)
class LayingOff:
    """Cards added to table meld ``number``; ``points`` and ``arrangement`` are the
    meld's after the addition."""

    seat: int
    number: int
    cards: tuple[Card, ...]
    points: int
    arrangement: tuple[Card, ...]
    went_out: bool

    def __str__(self) -> str:
        return f"{self.seat + 1}: layoff {_codes(self.cards)} on {self.number}"


@dataclass(frozen=True, slots=True)
class Swapping:
    """A joker exchange: ``card`` from the hand took the place of a joker in table meld
    ``number``, and the joker went to the hand; ``points`` and ``arrangement`` are the
    meld's after the exchange."""

    seat: int
    number: int
    card: Card
    points: int
    arrangement: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.seat + 1}: swap {self.card.code} for JK on {self.number}"


@dataclass(frozen=True, slots=True)
class Discarding:
    """A discard. ``opening`` is the check of a pending opening made at this discard
    (``None`` if there was none); when it falls short, ``returned`` holds the
    cards that went back to the hand and ``withdrawn`` the meld numbers taken
    off the table; ``rami_sec`` is True when the player went out all at once with an
    opening that the first-meld conditions alone would refuse."""

    seat: int
    card: Card
    opening: OpeningResult | None
    returned: tuple[Card, ...]
    withdrawn: tuple[int, ...]
    went_out: bool
    rami_sec: bool = False

    def __str__(self) -> str:
        return f"{self.seat + 1}: discard {self.card.code}"


@dataclass(frozen=True, slots=True)
class RoundEnding:
    """The end of the round: ``reason`` is ``"out"`` (a player has no cards) or
    ``"stock_out"``; ``hand_points`` are the points left in each hand and ``scores``
    what each seat gains (only the winner gains)."""

    reason: Literal["out", "stock_out"]
    winner: int
    hand_points: tuple[int, ...]
    scores: tuple[int, ...]

    def __str__(self) -> str:
        how = "goes out" if self.reason == "out" else "wins on the stock-out"
        return (f"seat {self.winner + 1} {how} and scores {self.scores[self.winner]}; "
                f"hand points {' '.join(str(p) for p in self.hand_points)}")


Operation = Drawing | Melding | LayingOff | Swapping | Discarding | RoundEnding


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see: its own hand and public information only.

    ``history`` is the public history: another player's stock draw shows no
    card (nor does one's own; the hand shows it). ``legal`` lists the kinds of
    action the phase allows (whether a given meld fits is for the player to
    find out; :meth:`RoundState.can_meld` and friends decide). ``pending``
    holds the meld numbers of this seat's opening laid this turn, and
    ``drawn`` the card this seat drew this turn from the discard pile.
    """

    rules: RuleSet
    seat: int
    turn: int
    phase: Phase
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_top: Card | None
    discard_size: int
    table: tuple[TableMeld, ...]
    opened: tuple[bool, ...]
    pending: tuple[int, ...]
    drawn: Card | None
    history: tuple[Operation, ...]
    legal: tuple[ActionKind, ...]

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.hand_sizes)


class RoundState:
    """A round in play. See the module documentation for the rules.

    *hands* are dealt hands, one per seat; ``stock[0]`` is drawn first; the
    last card of *discard* is its top. *first* is the seat that plays first.
    Cards need not make a full deck (worked examples give only the cards that
    matter), but no card may appear more often than the variant's deck holds it.
    *total*, if given, is a :class:`~site_builder.engine.search.Budget` that every
    question of the state draws on, with any other state given it (a build's engine work).
    """

    __slots__ = ("_drawn", "_ending", "_hands", "_history", "_next_number", "_opened",
                 "_pending", "_phase", "_public", "_stock", "_table", "_turn", "rules",
                 "_discard_pile", "_owed", "_total")

    def __init__(self, rules: RuleSet, hands: Sequence[Sequence[Card]], stock: Sequence[Card],
                 discard: Sequence[Card] = (), *, first: int = 0,
                 total: Budget | None = None) -> None:
        players = len(hands)
        if not rules.min_players <= players <= rules.max_players:
            raise RulesError(f"{rules.title} is for {rules.min_players} to {rules.max_players} "
                             f"players, not {players}")
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
            raise RulesError(f"the first seat must be from 0 to {players - 1}, not {first!r}")
        excess = rules.excess(card for cards in (*hands, stock, discard) for card in cards)
        if excess is not None:
            raise RulesError(excess)
        self.rules = rules
        self._total = total  # shared by every question this state asks, and others'
        self._hands = [list(hand) for hand in hands]
        self._stock = list(reversed(stock))  # the top is the end of the list
        self._table: dict[int, TableMeld] = {}
        self._opened = [not needs_opening(rules)] * players
        self._turn = first
        self._phase = Phase.DRAW
        self._pending: list[int] = []
        self._drawn: Card | None = None
        self._history: list[Operation] = []
        self._public: list[Operation] = []
        self._ending: RoundEnding | None = None
        self._next_number = 1
        self._discard_pile = list(discard)
        # Cards that must leave the hand by a meld or lay-off this turn: (card, the
        # number of copies held when the obligation arose, the number of the meld a
        # joker was taken from, or None for the card taken from the discard pile).
        self._owed: list[tuple[Card, int, int | None]] = []
        if not self._stock:
            self._end("stock_out")

    @classmethod
    def from_deal(cls, rules: RuleSet, dealt: Deal, *, first: int = 0) -> RoundState:
        """A round from a :class:`~site_builder.engine.deal.Deal`.

        >>> from site_builder.engine import deal, get_rules
        >>> rules = get_rules("cardverse")
        >>> state = RoundState.from_deal(rules, deal(rules, 2, seed=1))
        >>> [len(hand) for hand in state.hands], len(state.stock), len(state.discard_pile)
        ([7, 7], 37, 1)
        """
        return cls(rules, dealt.hands, dealt.stock, dealt.discard, first=first)

    # ----------------------------------------------------------------- reading

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self._hands)

    @property
    def turn(self) -> int:
        """The seat whose turn it is (after the round ends: the seat that acted last)."""
        return self._turn

    @property
    def phase(self) -> Phase:
        """``DRAW``, ``PLAY`` or ``OVER``."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """True once the round has ended."""
        return self._ending is not None

    @property
    def ending(self) -> RoundEnding | None:
        """The round's end, once it is over."""
        return self._ending

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand."""
        return tuple(tuple(hand) for hand in self._hands)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, ``stock[0]`` drawn next."""
        return tuple(reversed(self._stock))

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, its top last."""
        return tuple(self._discard_pile)

    @property
    def table(self) -> tuple[TableMeld, ...]:
        """The melds on the table, in the order they were laid."""
        return tuple(self._table.values())

    @property
    def opened(self) -> tuple[bool, ...]:
        """Which seats have opened (always all of them when the variant has no opening)."""
        return tuple(self._opened)

    @property
    def pending(self) -> tuple[int, ...]:
        """Meld numbers of the opening laid this turn and not yet checked."""
        return tuple(self._pending)

    @property
    def history(self) -> tuple[Operation, ...]:
        """Every operation applied so far, in order."""
        return tuple(self._history)

    @property
    def first_round(self) -> bool:
        """Whether the round is still in its first round: not every seat has finished a turn.

        >>> from site_builder.engine import get_rules, parse_card, parse_cards
        >>> state = RoundState(get_rules("cardverse"), [parse_cards("5H 6H"),
        ...                    parse_cards("2C 3D")], parse_cards("KS 4C QS"))
        >>> state.first_round
        True
        >>> _ = state.draw_stock(); _ = state.discard(parse_card("KS"))
        >>> _ = state.draw_stock(); _ = state.discard(parse_card("4C"))
        >>> state.first_round
        False
        """
        turns = sum(isinstance(op, Discarding) for op in self._history)
        return turns < len(self._hands)

    def cards(self) -> tuple[Card, ...]:
        """Every card in the round: hands, stock, discard pile and table (for invariant checks).

        >>> from site_builder.engine import deal, get_rules
        >>> rules = get_rules("cardverse")
        >>> len(RoundState.from_deal(rules, deal(rules, 2, seed=1)).cards())
        52
        """
        out: list[Card] = []
        for hand in self._hands:
            out.extend(hand)
        out.extend(self._stock)
        out.extend(self._discard_pile)
        for meld in self._table.values():
            out.extend(meld.cards)
        return tuple(out)

    def view(self, seat: int) -> View:
        """What *seat* may see (see :class:`View`)."""
        self._check_seat(seat)
        mine = seat == self._turn and not self.is_over
        return View(
            rules=self.rules, seat=seat, turn=self._turn, phase=self._phase,
            hand=tuple(self._hands[seat]),
            hand_sizes=tuple(len(hand) for hand in self._hands),
            stock_size=len(self._stock),
            discard_top=self._discard_pile[-1] if self._discard_pile else None,
            discard_size=len(self._discard_pile),
            table=tuple(self._table.values()),
            opened=tuple(self._opened),
            pending=tuple(self._pending) if mine else (),
            drawn=self._drawn if mine else None,
            history=tuple(self._public),
            legal=self._legal_kinds() if mine else (),
        )

    def _legal_kinds(self) -> tuple[ActionKind, ...]:
        if self._phase is Phase.DRAW:
            kinds: list[ActionKind] = []
            if self._stock:
                kinds.append("draw_stock")
            if self._discard_pile and self.can_draw_discard():
                kinds.append("draw_discard")
            return tuple(kinds)
        if self._phase is Phase.PLAY:
            if self._opened[self._turn] and self._table:
                if self.rules.joker_exchange and any(
                        c.is_joker for m in self._table.values() for c in m.cards):
                    return ("meld", "lay_off", "swap", "discard")
                return ("meld", "lay_off", "discard")
            return ("meld", "discard")
        return ()

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action now, concretely.

        Draws; every meld the hand holds (as :func:`~site_builder.engine.search.find_melds`
        lists them); lay-offs of one card at a time (several cards at once are
        legal too when they fit); one discard per distinct card.

        >>> from site_builder.engine import get_rules, parse_cards
        >>> state = RoundState(get_rules("cardverse"), [parse_cards("5H 6H 7H"),
        ...                    parse_cards("2C 3D 4S")], parse_cards("KS"), parse_cards("4C"))
        >>> _ = state.draw_discard()
        >>> [a.describe(0) for a in state.legal_actions()]
        ['1: meld 5H 6H 7H', '1: discard 5H', '1: discard 6H', '1: discard 7H', '1: discard 4C']
        """
        if self._phase is Phase.DRAW:
            return tuple(Action(kind) for kind in self._legal_kinds())
        if self._phase is Phase.OVER:
            return ()
        hand = self._hands[self._turn]
        actions = [Action("meld", meld) for meld in find_melds(hand, self.rules)
                   if self.can_meld(meld)]
        if self._opened[self._turn]:
            for number in self._table:
                for card in dict.fromkeys(hand):
                    if self.can_lay_off(number, (card,)):
                        actions.append(Action("lay_off", (card,), number))
                    if self.can_swap(number, card):
                        actions.append(Action("swap", (card,), number))
        actions.extend(Action("discard", (card,)) for card in dict.fromkeys(hand)
                       if self.can_discard(card))
        return tuple(actions)

    # ----------------------------------------------------------------- drawing

    def verify_draw_stock(self) -> None:
        """Raise :class:`Refusal` unless the player whose turn it is may draw from the stock."""
        self._verify_phase(Phase.DRAW)
        if not self._stock:
            raise Refusal("stock-empty")

    def can_draw_stock(self) -> bool:
        """Whether :meth:`draw_stock` is allowed now."""
        return _can(self.verify_draw_stock)

    def draw_stock(self) -> Drawing:
        """Draw the top card of the stock."""
        self.verify_draw_stock()
        card = self._stock.pop()
        return self._drew(Drawing(self._turn, "stock", card))

    def verify_draw_discard(self) -> None:
        """Raise :class:`Refusal` unless the player may take the top of the discard pile.

        With ``discard_must_be_used`` the card must be one the player can lay this
        turn: in a new meld or on a meld on the table once opened, or else in an
        opening that is accepted.

        >>> from site_builder.engine import get_rules, parse_cards
        >>> state = RoundState(get_rules("rami51"), [parse_cards("5C 6C KH KS KD 2D"),
        ...     parse_cards("2C 3D")], parse_cards("4C 5C"), parse_cards("7C"))
        >>> try:
        ...     state.verify_draw_discard()
        ... except Refusal as refusal:
        ...     print(refusal.code, dict(refusal.values)); print(refusal)
        discard-take-needs-opening {'seat': 1, 'card': '7C'}
        seat 1 may take 7C from the discard pile only to lay it this turn, and cannot: no \
opening that uses it is accepted
        """
        self._verify_phase(Phase.DRAW)
        if not self._discard_pile:
            raise Refusal("discard-pile-empty")
        seat = self._turn + 1
        if not self.rules.discard_first_round and self.first_round:
            raise Refusal("discard-first-round", seat=seat)
        if not self.rules.discard_at_one_card and len(self._hands[self._turn]) == 1:
            raise Refusal("discard-at-one-card", seat=seat)
        if self.rules.discard_must_be_used:
            why = self._cannot_lay(self._discard_pile[-1])
            if why:
                raise Refusal(_TAKE_CODES[why], seat=seat, card=self._discard_pile[-1].code)

    def _cannot_lay(self, card: Card) -> Why:
        """Why the player whose turn it is could not lay *card* this turn if they took it
        ('' if they could)."""
        hand = [*self._hands[self._turn], card]
        return self._unreachable(hand, [card], self._pending_groups(),
                                 [m.cards for m in self._table.values()])

    def _pending_groups(self) -> list[tuple[Card, ...]]:
        return [self._table[n].cards for n in self._pending]

    def _unreachable(self, hand: list[Card], owed: list[Card],
                     pending: list[tuple[Card, ...]], table: list[tuple[Card, ...]]) -> Why:
        """Why the cards *owed* (still in *hand*) could not all be laid this turn, '' if they
        could: on the table once opened, or else in a first meld that is accepted (with the
        melds already *pending*). Each owed card is judged on its own. When the only
        obstacle is the final discard (they could be laid if no card had to be kept for
        it), that is the reason: ``"no-final-discard"``.

        The whole question shares one :class:`~site_builder.engine.search.Budget`, the
        listing of melds included; past it,
        :class:`~site_builder.engine.search.SearchLimitError`. It draws on
        the *total* the state was given, if any; past that,
        :class:`~site_builder.engine.search.TotalLimitError`."""
        budget = Budget(total=self._total)
        keep = 1 if self.rules.discard_to_win else 0
        why = self._unreachable_keeping(hand, owed, pending, table, keep, budget)
        if why and keep and not self._unreachable_keeping(hand, owed, pending, table, 0,
                                                          budget):
            return "no-final-discard"
        return why

    def _unreachable_keeping(self, hand: list[Card], owed: list[Card],
                             pending: list[tuple[Card, ...]], table: list[tuple[Card, ...]],
                             keep: int, budget: Budget) -> Why:
        """:meth:`_unreachable` with *keep* cards left in the hand."""
        rules = self.rules
        melds = _Melds(hand, rules, budget)
        if self._opened[self._turn]:
            for card in owed:
                if not any(card in m and len(hand) - len(m) >= keep
                           for m in melds.get()) and not (
                        len(hand) - 1 >= keep and _fits_on(table, card, rules, budget)
                ) and not self._lays_by_exchange(hand, card, table, keep, budget):
                    return "fits-no-meld"
            if len(owed) > 1 and not self._lay_all(hand, owed, table, keep, budget):
                return "not-all"  # e.g. two jokers and room for one
            return ""
        why = self._no_opening(hand, owed, pending, keep, melds, budget)
        if why and rules.rami_sec and self._dry_possible(hand, owed, keep, budget):
            return ""  # going out all at once needs no opening (asked last: the harder search)
        return why

    def _no_opening(self, hand: list[Card], owed: list[Card], pending: list[tuple[Card, ...]],
                    keep: int, melds: _Melds, budget: Budget) -> Why:
        """Why the cards *owed* could not all be laid in an accepted first meld this turn
        (with the melds already *pending*), '' if they could."""
        rules = self.rules
        if not owed:  # laid in the first meld: it must be accepted, or completed
            if evaluate_opening(pending, rules).accepted or self._completes(hand, pending, keep,
                                                                            budget):
                return ""
            return "no-opening"
        for card in owed:
            if not any(card in m and len(hand) - len(m) >= keep for m in melds.get()):
                return "fits-no-meld"
            if not self._completes(hand, pending, keep, budget, card):
                return "no-opening"
        return ""

    def _lay_all(self, hand: list[Card], owed: list[Card], table: list[tuple[Card, ...]],
                 keep: int, budget: Budget) -> bool:
        """Whether every card *owed* can be laid this turn, together: in melds from *hand*
        or on melds of *table*, each card laid changing what is left for the others.
        Every meld listed and tried is spent from *budget* (then
        :class:`~site_builder.engine.search.SearchLimitError`)."""
        if not owed:
            return True
        rules = self.rules
        card, others = owed[0], owed[1:]
        melds = find_melds(hand, rules, budget=budget)
        budget.spend(len(melds) + MELD_COST * len(table))
        for meld in melds:
            if card in meld and len(hand) - len(meld) >= keep:
                budget.spend(1 + len(hand) // 16)  # copying the hand
                rest, left = list(hand), list(others)
                for c in meld:
                    rest.remove(c)
                    if c in left and c != card:
                        left.remove(c)
                if self._lay_all(rest, left, [*table, meld], keep, budget):
                    return True
        if len(hand) - 1 >= keep:
            for index, meld_cards in enumerate(table):
                if evaluate_layoff(meld_cards, (card,), rules).valid:
                    rest = list(hand)
                    rest.remove(card)
                    after = [(*t, card) if i == index else t for i, t in enumerate(table)]
                    if self._lay_all(rest, others, after, keep, budget):
                        return True
        return False

    def _dry_possible(self, hand: list[Card], owed: list[Card], keep: int,
                      budget: Budget) -> bool:
        """Whether the whole *hand* but *keep* cards can be laid in melds, the *owed* cards
        among them (going out all at once, ``rami_sec``)."""
        return find_opening(hand, self.rules, keep=keep, lay_all=True, must_lay=owed,
                            budget=budget) is not None

    def _lays_by_exchange(self, hand: list[Card], card: Card, table: list[tuple[Card, ...]],
                          keep: int, budget: Budget) -> bool:
        """Whether *card* (in *hand*) can take a joker's place in a meld of *table*, and the
        joker then be laid this turn (in a meld from the hand, or on a meld)."""
        rules = self.rules
        if not rules.joker_exchange or card.is_joker:
            return False
        laid = {m.cards: m for m in self._table.values()}
        for index, cards in enumerate(table):
            if JOKER not in cards:
                continue
            budget.spend(2 * MELD_COST)
            meld = laid.get(cards)
            if meld is None:
                result = evaluate_meld(cards, rules)
                if not result.valid or result.kind is None:
                    continue
                kind, arrangement = result.kind, result.arrangement
            else:
                kind, arrangement = meld.kind, meld.arrangement
            swapped = _exchange(cards, kind, arrangement, card, rules)
            if swapped is None:
                continue
            rest = list(hand)
            rest.remove(card)
            rest.append(JOKER)
            after = [swapped if i == index else t for i, t in enumerate(table)]
            if any(JOKER in m and len(rest) - len(m) >= keep
                   for m in find_melds(rest, rules, budget=budget)):
                return True
            if len(rest) - 1 >= keep and _fits_on(after, JOKER, rules, budget):
                return True
        return False

    def _completes(self, hand: list[Card], pending: list[tuple[Card, ...]], keep: int,
                   budget: Budget, card: Card | None = None) -> bool:
        """Whether melds from *hand* (one at least, and one of them holding *card* if
        given) can make the *pending* first meld acceptable, leaving *keep* cards. An
        exact answer (:func:`~site_builder.engine.search.find_opening`), or
        :class:`~site_builder.engine.search.SearchLimitError`."""
        so_far = evaluate_opening(pending, self.rules) if pending else None
        total = so_far.total if so_far else 0
        pure = so_far.pure_sequence if so_far else False
        found = find_opening(
            hand, self.rules, min_points=max((self.rules.opening_threshold or 0) - total, 0),
            need_pure=self.rules.pure_sequence_required and not pure, keep=keep,
            must_lay=() if card is None else (card,), budget=budget)
        return found is not None and evaluate_opening([*pending, *found], self.rules).accepted

    def _verify_still_owed(self, hand: list[Card], table: list[tuple[Card, ...]],
                           pending: list[tuple[Card, ...]], extra: Sequence[Card] = (),
                           source: int | None = None) -> None:
        """Refuse an action after which a card owed this turn could no longer be laid
        (*extra*: a joker this action takes from meld *source*). When every card owed is a
        joker taken by an exchange, the refusal's ``target`` is the meld it came from: its
        rule is the exchange's, not that of taking the discard."""
        if not hand:
            return  # the action goes out
        # Copies of one card are alike: an obligation that arose when *count* copies were
        # held is met once fewer are held, so the copies still to lay are the hand's count
        # less the lowest unmet count, plus one (*extra*: a joker just taken, owed at the
        # count it will have).
        lowest: dict[Card, int] = {}
        for card, count, _ in [*self._owed, *((c, hand.count(c), None) for c in extra)]:
            if hand.count(card) >= count:
                lowest[card] = min(count, lowest.get(card, count))
        owed = [card for card, count in lowest.items()
                for _ in range(min(hand.count(card) - count + 1, hand.count(card)))]
        if not self._owed and not extra:
            return
        why = self._unreachable(hand, owed, pending, table)
        if why:
            named = self._owed or [(c, 0, source) for c in extra]
            cards = " ".join(dict.fromkeys(c.code for c, _, _ in named))
            froms = [s for _, _, s in named]
            taken = {} if None in froms else {"target": min(s for s in froms if s is not None)}
            raise Refusal(_OWED_CODES[why], seat=self._turn + 1, cards=cards, **taken)

    def can_draw_discard(self) -> bool:
        """Whether :meth:`draw_discard` is allowed now."""
        return _can(self.verify_draw_discard)

    def draw_discard(self) -> Drawing:
        """Take the top card of the discard pile."""
        self.verify_draw_discard()
        card = self._discard_pile.pop()
        self._drawn = card
        record = self._drew(Drawing(self._turn, "discard", card))
        if self.rules.discard_must_be_used:
            self._owed.append((card, self._hands[self._turn].count(card), None))
        return record

    def _drew(self, record: Drawing) -> Drawing:
        assert record.card is not None
        self._hands[self._turn].append(record.card)
        self._phase = Phase.PLAY
        self._history.append(record)
        self._public.append(record if record.source == "discard"
                            else Drawing(record.seat, "stock", None))
        return record

    # ----------------------------------------------------------------- melding

    def verify_meld(self, cards: Sequence[Card]) -> None:
        """Raise :class:`Refusal` unless the player may lay *cards* as a new meld."""
        self._check_meld(cards)

    def can_meld(self, cards: Sequence[Card]) -> bool:
        """Whether :meth:`meld` is allowed with these cards."""
        return _can(lambda: self._check_meld(cards))

    def meld(self, cards: Sequence[Card]) -> Melding:
        """Lay *cards* from the hand as a new meld on the table."""
        result = self._check_meld(cards)
        seat = self._turn
        laid = tuple(cards)
        self._remove(seat, laid)
        assert result.kind is not None
        number = self._next_number
        self._next_number += 1
        self._table[number] = TableMeld(number, seat, laid, result.kind, result.points,
                                        result.arrangement)
        pending = not self._opened[seat]
        if pending:
            self._pending.append(number)
        out = not self._hands[seat]
        record = Melding(seat, number, laid, result.kind, result.points, result.arrangement,
                         pending, out)
        self._log(record)
        if out:
            self._opened[seat] = True
            self._pending.clear()
            self._end("out")
        return record

    def _check_meld(self, cards: Sequence[Card]) -> MeldResult:
        self._verify_phase(Phase.PLAY)
        laid = tuple(cards)
        self._verify_holds(laid)
        result = evaluate_meld(laid, self.rules)
        if not result.valid:
            raise Refusal("invalid-meld", cards=_codes(laid), reason=str(result.reason))
        if len(laid) == len(self._hands[self._turn]):
            self._verify_may_go_out(extra=[laid])
        if self._owed:
            rest = list(self._hands[self._turn])
            for card in laid:
                rest.remove(card)
            pending = self._pending_groups()
            if not self._opened[self._turn]:
                pending.append(laid)
            self._verify_still_owed(rest, [*(m.cards for m in self._table.values()), laid],
                                    pending)
        return result

    # ----------------------------------------------------------------- lay-offs

    def verify_lay_off(self, target: int, cards: Sequence[Card]) -> None:
        """Raise :class:`Refusal` unless the player may add *cards* to table meld *target*."""
        self._check_lay_off(target, cards)

    def can_lay_off(self, target: int, cards: Sequence[Card]) -> bool:
        """Whether :meth:`lay_off` is allowed with these cards and this meld."""
        return _can(lambda: self._check_lay_off(target, cards))

    def lay_off(self, target: int, cards: Sequence[Card]) -> LayingOff:
        """Add *cards* from the hand to table meld number *target*."""
        result = self._check_lay_off(target, cards)
        seat = self._turn
        added = tuple(cards)
        self._remove(seat, added)
        meld = self._table[target]
        self._table[target] = TableMeld(target, meld.owner, meld.cards + added, meld.kind
                                        if result.kind is None else result.kind,
                                        result.points, result.arrangement)
        out = not self._hands[seat]
        record = LayingOff(seat, target, added, result.points, result.arrangement, out)
        self._log(record)
        if out:
            self._end("out")
        return record

    def _check_lay_off(self, target: int, cards: Sequence[Card]) -> MeldResult:
        self._verify_phase(Phase.PLAY)
        seat = self._turn
        if not self._opened[seat]:
            raise Refusal("lay-off-not-opened", seat=seat + 1)
        meld = self._table.get(target) if isinstance(target, int) else None
        if meld is None:
            raise Refusal("no-such-meld",
                          target=target if isinstance(target, int) else str(target))
        added = tuple(cards)
        if not added:
            raise Refusal("lay-off-no-cards")
        self._verify_holds(added)
        result = evaluate_layoff(meld.cards, added, self.rules)
        if not result.valid:
            raise Refusal("lay-off-misfit", cards=_codes(added), target=target,
                          meld=_codes(meld.arrangement), reason=str(result.reason))
        if len(added) == len(self._hands[seat]):
            self._verify_may_go_out(extra=[])
        if self._owed:
            rest = list(self._hands[seat])
            for card in added:
                rest.remove(card)
            table = [m.cards + added if m.number == target else m.cards
                     for m in self._table.values()]
            self._verify_still_owed(rest, table, self._pending_groups())
        return result

    # ----------------------------------------------------------------- joker exchange

    def verify_swap(self, target: int, card: Card) -> None:
        """Raise :class:`Refusal` unless the player may put *card* in the place of a joker in
        table meld *target* and take the joker."""
        self._check_swap(target, card)

    def can_swap(self, target: int, card: Card) -> bool:
        """Whether :meth:`swap` is allowed with this card and this meld."""
        return _can(lambda: self._check_swap(target, card))

    def swap(self, target: int, card: Card) -> Swapping:
        """Exchange *card* from the hand for a joker in table meld *target*.

        >>> from site_builder.engine import get_rules, parse_card, parse_cards
        >>> state = RoundState(get_rules("rami51"), [parse_cards("6S 9C 9D 9H"),
        ...     parse_cards("2C 3D")], parse_cards("4C 5C"), parse_cards("8D"))
        >>> state._opened[0] = True  # as if seat 1 had opened earlier
        >>> state._table[1] = TableMeld(1, 1, parse_cards("JK 7S 8S"), "sequence", 21,
        ...                             parse_cards("6S 7S 8S"))
        >>> _ = state.draw_stock()
        >>> def refusal(check):
        ...     try:
        ...         check()
        ...     except Refusal as exc:
        ...         print(f"{exc.code}: {exc}")
        >>> refusal(lambda: state.verify_swap(1, parse_card("9S")))
        not-held: seat 1 does not hold 9S
        >>> refusal(lambda: state.verify_swap(1, parse_card("9C")))
        swap-wrong-card: 9C cannot replace the joker in meld 1 (6S 7S 8S): the joker stands for 6S
        >>> print(state.swap(1, parse_card("6S")))
        1: swap 6S for JK on 1
        >>> refusal(lambda: state.verify_discard(parse_card("4C")))
        discard-owes-joker: seat 1 took a joker from meld 1 and must lay it this turn
        >>> print(state.meld(parse_cards("9C 9D JK")))
        1: meld 9C 9D JK
        """
        result = self._check_swap(target, card)
        seat = self._turn
        meld = self._table[target]
        index = meld.cards.index(JOKER)
        cards = meld.cards[:index] + (card,) + meld.cards[index + 1:]
        self._remove(seat, (card,))
        self._hands[seat].append(JOKER)
        self._table[target] = TableMeld(target, meld.owner, cards, meld.kind, result.points,
                                        result.arrangement)
        self._owed.append((JOKER, self._hands[seat].count(JOKER), target))
        record = Swapping(seat, target, card, result.points, result.arrangement)
        self._log(record)
        return record

    def _check_swap(self, target: int, card: Card) -> MeldResult:
        self._verify_phase(Phase.PLAY)
        seat = self._turn
        if not self.rules.joker_exchange:
            raise Refusal("no-joker-exchange", game=self.rules.title)
        if not self._opened[seat]:
            raise Refusal("swap-not-opened", seat=seat + 1)
        meld = self._table.get(target) if isinstance(target, int) else None
        if meld is None:
            raise Refusal("no-such-meld",
                          target=target if isinstance(target, int) else str(target))
        if card.is_joker:
            raise Refusal("swap-joker-for-joker")
        if JOKER not in meld.cards:
            raise Refusal("swap-no-joker", target=target, meld=_codes(meld.arrangement))
        self._verify_holds((card,))
        index = meld.cards.index(JOKER)
        cards = meld.cards[:index] + (card,) + meld.cards[index + 1:]
        result = evaluate_meld(cards, self.rules)
        if _exchange(meld.cards, meld.kind, meld.arrangement, card, self.rules) is None:
            stands = evaluate_meld(meld.cards, self.rules).jokers
            if meld.kind == "set":  # any suit the set lacks
                rank = next(c.rank for c in meld.cards if c.rank is not None)
                held = {c.suit for c in meld.cards}
                stands = tuple(Card(rank, suit) for suit in Suit if suit not in held)
            codes = dict(zip(("stands", "other", "third"), (c.code for c in stands),
                             strict=False))
            raise Refusal("swap-wrong-card" + ("", "", "-2", "-3")[len(codes)], card=card.code,
                          target=target, meld=_codes(meld.arrangement), **codes)
        rest = list(self._hands[seat])
        rest.remove(card)
        rest.append(JOKER)
        table = [cards if m.number == target else m.cards for m in self._table.values()]
        self._verify_still_owed(rest, table, self._pending_groups(), extra=[JOKER],
                                source=target)
        return result

    # ----------------------------------------------------------------- discarding

    def verify_discard(self, card: Card) -> None:
        """Raise :class:`Refusal` unless the player may discard *card*: it is held, and a card
        taken from the discard pile or a joker taken from the table has been laid (an
        opening that falls short gives its cards back, so they count as not laid)."""
        self._verify_phase(Phase.PLAY)
        self._verify_holds((card,))
        if self._owed:
            _, returned = self._check_opening(going_out=len(self._hands[self._turn]) == 1)
            held = Counter(self._hands[self._turn]) + Counter(returned)
            for owed, count, source in self._owed:
                if held[owed] >= count:
                    seat = self._turn + 1
                    if source is not None:  # a joker taken from meld *source*
                        raise Refusal("discard-owes-joker", seat=seat, target=source)
                    raise Refusal("discard-owes-taken-joker" if owed.is_joker
                                  else "discard-owes-card", seat=seat, card=owed.code)

    def _check_opening(self, going_out: bool = False
                       ) -> tuple[OpeningResult | None, tuple[Card, ...]]:
        """The check of the pending opening, and the cards it would give back (none when
        the player goes out all at once under ``rami_sec``)."""
        if not self._pending:
            return None, ()
        opening = evaluate_opening([self._table[n].cards for n in self._pending], self.rules)
        if opening.accepted or (going_out and self.rules.rami_sec):
            return opening, ()
        return opening, tuple(c for n in self._pending for c in self._table[n].cards)

    def can_discard(self, card: Card) -> bool:
        """Whether :meth:`discard` is allowed with this card."""
        return _can(lambda: self.verify_discard(card))

    def discard(self, card: Card) -> Discarding:
        """Discard *card*, check a pending opening, and pass the turn (or end the round)."""
        self.verify_discard(card)
        seat = self._turn
        self._remove(seat, (card,))
        opening: OpeningResult | None = None
        returned: tuple[Card, ...] = ()
        withdrawn: tuple[int, ...] = ()
        dry = False
        if self._pending:
            opening = evaluate_opening([self._table[n].cards for n in self._pending], self.rules)
            if opening.accepted:
                self._opened[seat] = True
            elif self.rules.rami_sec and not self._hands[seat]:
                self._opened[seat] = True  # out all at once: no first-meld conditions
                dry = True
            else:
                withdrawn = tuple(self._pending)
                returned = tuple(c for n in withdrawn for c in self._table.pop(n).cards)
                # The opening's melds were the last laid: their numbers are free again.
                self._next_number -= len(withdrawn)
                self._hands[seat].extend(returned)
            self._pending.clear()
        self._discard_pile.append(card)
        self._owed.clear()
        out = not self._hands[seat]
        record = Discarding(seat, card, opening, returned, withdrawn, out, dry)
        self._log(record)
        if out:
            self._end("out")
            return record
        self._turn = (seat + 1) % len(self._hands)
        self._phase = Phase.DRAW
        self._drawn = None
        if not self._stock:
            self._end("stock_out")
        return record

    # ----------------------------------------------------------------- any action

    def can(self, action: Action) -> bool:
        """Whether *action* is legal now."""
        return _can(lambda: self.verify(action))

    def verify(self, action: Action) -> None:
        """Raise :class:`Refusal` unless *action* is legal now (its kind's entry in
        :data:`ACTION_KINDS` checks its shape, then asks the kind's ``verify_*``)."""
        kind = _kind(action.kind)
        kind.shape(action)
        kind.verify(self, action)

    def apply(self, action: Action) -> Operation:
        """Apply *action* and return its record; like every action, it is verified first
        and raises :class:`Refusal` (a ValueError), changing nothing, when it is not
        legal (the kind's method verifies what the shape leaves)."""
        kind = _kind(action.kind)
        kind.shape(action)
        return kind.apply(self, action)

    # ----------------------------------------------------------------- helpers

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise Refusal("no-seat", seat=repr(seat))

    def _verify_phase(self, phase: Phase) -> None:
        if self._ending is not None:
            raise Refusal("round-over")
        if self._phase is not phase:
            seat = self._turn + 1
            if phase is Phase.DRAW:
                raise Refusal("already-drawn", seat=seat)
            raise Refusal("draw-first", seat=seat)

    def _verify_holds(self, cards: tuple[Card, ...]) -> None:
        if len(cards) == 1 and cards[0] in self._hands[self._turn]:
            return
        hand = Counter(self._hands[self._turn])
        for card, count in Counter(cards).items():
            if hand[card] < count:
                if not hand[card]:
                    raise Refusal("not-held", seat=self._turn + 1, card=card.code)
                raise Refusal("held-too-few", seat=self._turn + 1, count=hand[card],
                              card=card.code)

    def _verify_may_go_out(self, extra: list[tuple[Card, ...]]) -> None:
        seat = self._turn
        if self.rules.discard_to_win:
            raise Refusal("keep-final-discard", seat=seat + 1)
        if self._opened[seat] or self.rules.rami_sec:
            return  # rami sec: the whole hand laid at once needs no accepted opening
        opening = evaluate_opening([*(self._table[n].cards for n in self._pending), *extra],
                                   self.rules)
        if not opening.accepted:
            raise Refusal("out-opening-short", seat=seat + 1, total=opening.total,
                          threshold=str(opening.threshold) if opening.threshold is None
                          else opening.threshold, reasons=", ".join(opening.reasons))

    def _remove(self, seat: int, cards: tuple[Card, ...]) -> None:
        hand = self._hands[seat]
        for card in cards:
            hand.remove(card)

    def _log(self, record: Operation) -> None:
        self._history.append(record)
        self._public.append(record)

    def _end(self, reason: Literal["out", "stock_out"]) -> None:
        winner = self._turn if reason == "out" else stock_out_winner(self._hands, self.rules)
        ending = RoundEnding(
            reason, winner,
            tuple(hand_points(hand, self.rules) for hand in self._hands),
            round_scores(self._hands, winner, self.rules, self._opened),
        )
        self._ending = ending
        self._phase = Phase.OVER
        self._pending.clear()
        self._owed.clear()
        self._drawn = None
        self._log(ending)


_TAKE_CODES: dict[Why, str] = {"fits-no-meld": "discard-take-needs-lay",
                               "not-all": "discard-take-needs-lay",  # one card: cannot happen
                               "no-opening": "discard-take-needs-opening",
                               "no-final-discard": "discard-take-needs-final-discard"}
_OWED_CODES: dict[Why, str] = {"fits-no-meld": "owed-fits-no-meld", "not-all": "owed-not-all",
                               "no-opening": "owed-no-opening",
                               "no-final-discard": "owed-no-final-discard"}

@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of action, as :data:`ACTION_KINDS` holds it: how it is written in round
    notation (after ``"N: "``), which shapes of :class:`Action` it takes (``shape``
    refuses the others), how it is verified and applied on a :class:`RoundState`, and
    the type of the record it makes.

    >>> from site_builder.engine import parse_cards
    >>> [ACTION_KINDS[k].notation(Action(k, parse_cards("7S"), 1)) for k in ACTION_KINDS]
    ['draw stock', 'draw discard', 'meld 7S', 'layoff 7S on 1', 'swap 7S for JK on 1', \
'discard 7S']
    >>> [ACTION_KINDS[k].record.__name__ for k in ACTION_KINDS]
    ['Drawing', 'Drawing', 'Melding', 'LayingOff', 'Swapping', 'Discarding']
    >>> ACTION_KINDS["swap"].shape(Action("swap", parse_cards("7S 8S"), 1))
    Traceback (most recent call last):
    ...
    site_builder.engine.refusals.Refusal: a joker exchange needs one card and a target meld
    """

    name: ActionKind
    notation: Callable[[Action], str]
    shape: Callable[[Action], None]
    verify: Callable[[RoundState, Action], None]
    apply: Callable[[RoundState, Action], Operation]
    record: type[Drawing | Melding | LayingOff | Swapping | Discarding]


def _any_shape(action: Action) -> None:
    """Every shape: the kind's method reads what it needs."""


def _lay_off_shape(action: Action) -> None:
    if action.target is None:
        raise Refusal("lay-off-needs-target")


def _swap_shape(action: Action) -> None:
    if action.target is None or len(action.cards) != 1:
        raise Refusal("swap-needs-card-and-target")


def _discard_shape(action: Action) -> None:
    if len(action.cards) != 1:
        raise Refusal("discard-needs-one-card")


def _target(action: Action) -> int:
    assert action.target is not None  # the shape was checked
    return action.target


#: Every kind of action, in the order of a turn: the one table that
#: :meth:`Action.describe`, :meth:`RoundState.verify` and :meth:`RoundState.apply` read.
ACTION_KINDS: Final[Mapping[ActionKind, Kind]] = MappingProxyType({kind.name: kind for kind in (
    Kind("draw_stock", lambda a: "draw stock", _any_shape,
         lambda state, a: state.verify_draw_stock(), lambda state, a: state.draw_stock(),
         Drawing),
    Kind("draw_discard", lambda a: "draw discard", _any_shape,
         lambda state, a: state.verify_draw_discard(), lambda state, a: state.draw_discard(),
         Drawing),
    Kind("meld", lambda a: f"meld {_codes(a.cards)}", _any_shape,
         lambda state, a: state.verify_meld(a.cards), lambda state, a: state.meld(a.cards),
         Melding),
    Kind("lay_off", lambda a: f"layoff {_codes(a.cards)} on {a.target}", _lay_off_shape,
         lambda state, a: state.verify_lay_off(_target(a), a.cards),
         lambda state, a: state.lay_off(_target(a), a.cards), LayingOff),
    Kind("swap", lambda a: f"swap {_codes(a.cards)} for JK on {a.target}", _swap_shape,
         lambda state, a: state.verify_swap(_target(a), a.cards[0]),
         lambda state, a: state.swap(_target(a), a.cards[0]), Swapping),
    Kind("discard", lambda a: f"discard {_codes(a.cards)}", _discard_shape,
         lambda state, a: state.verify_discard(a.cards[0]),
         lambda state, a: state.discard(a.cards[0]), Discarding),
)})


def _kind(name: str) -> Kind:
    """The kind of action called *name*, or a refusal (``unknown-action``)."""
    kind = ACTION_KINDS.get(cast(ActionKind, name))
    if kind is None:
        raise Refusal("unknown-action", kind=repr(name))
    return kind


def kind_of(record: Operation) -> ActionKind | None:
    """The kind of action that made *record* (``None`` for the :class:`RoundEnding`).

    >>> from site_builder.engine import parse_card
    >>> kind_of(Drawing(0, "discard", parse_card("7S"))), kind_of(Drawing(0, "stock", None))
    ('draw_discard', 'draw_stock')
    >>> kind_of(RoundEnding("out", 0, (0, 5), (0, 5))) is None
    True
    """
    if isinstance(record, Drawing):
        return "draw_stock" if record.source == "stock" else "draw_discard"
    return next((k.name for k in ACTION_KINDS.values() if isinstance(record, k.record)), None)


def _exchange(cards: tuple[Card, ...], kind: MeldKind, arrangement: tuple[Card, ...],
              card: Card, rules: RuleSet) -> tuple[Card, ...] | None:
    """The cards of a table meld (*cards*, its *kind* and *arrangement*) after *card* takes
    the place of its joker, or None if it may not: the meld must stay the same meld (a
    sequence keeps its cards' places; a set takes any suit it lacks).

    >>> from site_builder.engine import get_rules, parse_card, parse_cards
    >>> rami = get_rules("rami51")
    >>> run = parse_cards("4H JK 6H")
    >>> [c.code for c in _exchange(run, "sequence", parse_cards("4H 5H 6H"),
    ...                            parse_card("5H"), rami)]
    ['4H', '5H', '6H']
    >>> print(_exchange(run, "sequence", parse_cards("4H 5H 6H"), parse_card("7H"), rami))
    None
    >>> fives = parse_cards("5H 5S JK")
    >>> [_exchange(fives, "set", parse_cards("5C 5H 5S"), parse_card(code), rami) is not None
    ...  for code in ("5C", "5D", "5H")]
    [True, True, False]
    """
    if JOKER not in cards or card.is_joker:
        return None
    index = cards.index(JOKER)
    swapped = cards[:index] + (card,) + cards[index + 1:]
    result = evaluate_meld(swapped, rules)
    if not result.valid or result.kind != kind:
        return None
    if kind == "sequence" and result.arrangement != arrangement:
        return None
    return swapped



class _Melds:
    """The melds of a hand, listed once and only when first asked for (spent from
    *budget*)."""

    __slots__ = ("_budget", "_hand", "_melds", "_rules")

    def __init__(self, hand: list[Card], rules: RuleSet, budget: Budget) -> None:
        self._hand, self._rules, self._budget = hand, rules, budget
        self._melds: tuple[tuple[Card, ...], ...] | None = None

    def get(self) -> tuple[tuple[Card, ...], ...]:
        if self._melds is None:
            self._melds = find_melds(self._hand, self._rules, budget=self._budget)
        return self._melds


def _fits_on(table: list[tuple[Card, ...]], card: Card, rules: RuleSet, budget: Budget) -> bool:
    """Whether *card* may be laid off on a meld of *table* (each meld tried is spent)."""
    for meld in table:
        budget.spend(MELD_COST)
        if evaluate_layoff(meld, (card,), rules).valid:
            return True
    return False


def _can(check: Callable[[], object]) -> bool:
    try:
        check()
    except ValueError:
        return False
    return True
