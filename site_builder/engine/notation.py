"""Round notation and a pure replay, for worked rounds on the website.

A round script is a list of steps separated by ``;`` or new lines. Each step
names the seat (counted from 1) and one action:

=============================== ==============================================
``1: draw stock``               draw the top of the stock
``1: draw stock 9H``            the same, and check that the card is 9H
``2: draw discard``             take the top of the discard pile (a card may
                                follow, checked the same way)
``1: meld 5H 6H 7H``            lay these cards as a new meld
``2: layoff 8H on 1``           add cards to table meld 1 (melds are numbered
                                from 1 in the order they were laid; numbers
                                never change, and the numbers of a first
                                meld that falls short go to the next melds
                                laid, so the table holds melds 1, 2, 3 ...)
``2: swap 7S for JK on 1``      put 7S in the place of the joker in table
                                meld 1 and take the joker into the hand
                                (joker exchange; the joker must be laid in
                                the same turn)
``1: discard KS``               discard; this ends the turn
=============================== ==============================================

Cards use the engine's notation (``10H`` or ``TH``, ``JK``, glyphs allowed);
words are case-insensitive; ``#`` starts a comment that runs to the end of
the line. The round ends by itself when a player has no cards left, or when
the next player must draw and the stock is empty.

:func:`replay` deals the given cards (not necessarily a full deck), applies
the steps through :class:`~site_builder.engine.round.RoundState` and returns a
frozen :class:`Replay`: every step's operation record, and the end of the
round if it ended. A step that cannot be applied raises :class:`ReplayError`,
which names the step number and says why.

A short CardVerse round (two players, seven cards each): seat 1 lays a
sequence and a set, seat 2 lays three fours and adds the 8 of hearts to seat
1's sequence, seat 1 adds the 4 of hearts and goes out with its last discard.
Seat 2 is left with J, 3 and 10: seat 1 scores 23.

>>> from site_builder.engine import get_rules
>>> done = replay(get_rules("cardverse"),
...     hands=["5H 6H 7H KC KD 9C 2S", "4C 4D 4S 8H QS JD 3C"],
...     stock="KS 10D 4H 9S", discard="QC",
...     actions="1: draw stock KS; 1: meld 5H 6H 7H; 1: meld KC KD KS; 1: discard 9C; "
...             "2: draw stock 10D; 2: meld 4C 4D 4S; 2: layoff 8H on 1; 2: discard QS; "
...             "1: draw stock 4H; 1: layoff 4H on 1; 1: discard 2S")
>>> done.reason, done.winner, done.hand_points, done.scores
('out', 0, (0, 23), (23, 0))
>>> [str(meld) for meld in done.table]
['1: 4H 5H 6H 7H 8H', '2: KC KD KS', '3: 4C 4D 4S']
>>> print(done.steps[-1].note)
discard 2S; goes out

A step that breaks a rule names itself:

>>> replay(get_rules("cardverse"), ["5H 6H 7H 2S", "4C 4D 4S 3C"], "KS 9D", "QC",
...        "1: draw stock; 1: meld 5H 6H 7H; 1: discard 2S; 2: draw discard; 2: layoff 2S on 1")
Traceback (most recent call last):
...
site_builder.engine.notation.ReplayError: step 5 (2: layoff 2S on 1): 2S does not fit meld 1 \
(5H 6H 7H): mixed_suits
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from site_builder.engine.cards import Card, CardError, parse_cards
from site_builder.engine.refusals import Refusal
from site_builder.engine.round import (
    Action,
    ActionKind,
    Discarding,
    Drawing,
    LayingOff,
    Melding,
    Operation,
    RoundEnding,
    RoundState,
    Swapping,
    TableMeld,
    kind_of,
)
from site_builder.engine.rules import RulesError, RuleSet
from site_builder.engine.scoring import hand_points
from site_builder.engine.search import Budget, SearchLimitError, TotalLimitError

__all__ = [
    "POSITION_LINK",
    "POSITION_LINK_LETTERS",
    "Replay",
    "ReplayError",
    "ReplayStep",
    "Step",
    "format_history",
    "parse_steps",
    "position_link",
    "refusal",
    "replay",
]


class ReplayError(ValueError):
    """A step that cannot be read or applied; ``step`` is its number (from 1), 0 for the setup.
    When the rules refused the step, ``code`` and ``values`` are the
    :class:`~site_builder.engine.refusals.Refusal`'s (else ``None`` and empty).

    >>> from site_builder.engine import get_rules
    >>> try:
    ...     replay(get_rules("cardverse"), ["5H 6H 7H", "2C 3C 9D"], "KS", "4C",
    ...            "1: draw stock; 1: meld 5H 6H 8H")
    ... except ReplayError as exc:
    ...     print(exc.step, exc.code, exc)
    2 not-held step 2 (1: meld 5H 6H 8H): seat 1 does not hold 8H
    """

    def __init__(self, step: int, text: str, message: str, code: str | None = None,
                 values: Mapping[str, int | str] | None = None) -> None:
        self.step = step
        self.text = text
        self.message = message
        self.code = code
        self.values: Mapping[str, int | str] = MappingProxyType(dict(values or {}))
        where = f"step {step} ({text})" if step else "setup"
        super().__init__(f"{where}: {message}")

    @classmethod
    def refused(cls, step: int, text: str, refusal: Refusal) -> ReplayError:
        """The error for step *step* that the rules refused with *refusal*."""
        return cls(step, text, str(refusal), refusal.code, refusal.values)

    def __reduce__(self) -> tuple[object, ...]:
        return (ReplayError, (self.step, self.text, self.message, self.code,
                              dict(self.values)))


@dataclass(frozen=True, slots=True)
class Step:
    """One parsed step: the seat (from 0), the action, and for a draw the card it must give."""

    number: int
    text: str
    seat: int
    action: Action
    expect: Card | None = None


# Digits 0-9 only: \d would also take other scripts' digits, which no player types.
_STEP: Final = re.compile(r"^\s*([0-9]+)\s*:\s*(.*?)\s*$", re.S)
_LAYOFF: Final = re.compile(r"^(.*?)\s+on\s+([0-9]+)$", re.I | re.S)
_SWAP: Final = re.compile(r"^(\S+)\s+for\s+(?:jk|joker)\s+on\s+([0-9]+)$", re.I | re.S)


def parse_steps(text: str | Sequence[str]) -> tuple[Step, ...]:
    """Read a round script (a string, or one string per step).

    >>> [(s.seat, s.action.kind, [c.code for c in s.action.cards], s.action.target)
    ...  for s in parse_steps("1: draw discard; 2: layoff 8H 9H on 1 # two cards")]
    [(0, 'draw_discard', [], None), (1, 'lay_off', ['8H', '9H'], 1)]
    >>> parse_steps("1: pass")
    Traceback (most recent call last):
    ...
    site_builder.engine.notation.ReplayError: step 1 (1: pass): unknown action 'pass' \
(draw stock, draw discard, meld, layoff … on N, swap … for JK on N, discard)
    """
    if isinstance(text, str):
        lines = [re.sub(r"#.*", "", line) for line in text.splitlines()]
        chunks = [part.strip() for line in lines for part in line.split(";")]
    else:
        chunks = [re.sub(r"#.*", "", part).strip() for part in text]
    steps: list[Step] = []
    for chunk in chunks:
        if chunk:
            steps.append(_parse_step(len(steps) + 1, chunk))
    return tuple(steps)


def _parse_step(number: int, text: str) -> Step:
    text = " ".join(text.split())
    match = _STEP.match(text)
    if match is None:
        raise ReplayError(number, text, "a step starts with the seat number, e.g. '1: draw stock'")
    seat = int(match.group(1)) - 1
    if seat < 0:
        raise ReplayError(number, text, "seats are numbered from 1")
    words = match.group(2).split(" ", 1)
    verb = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    try:
        if verb == "draw":
            source, _, card = rest.partition(" ")
            source = source.lower()
            if source not in ("stock", "discard"):
                raise ReplayError(number, text, "draw from 'stock' or 'discard'")
            expect = _one_card(card) if card else None
            action = Action("draw_stock") if source == "stock" else Action("draw_discard")
            return Step(number, text, seat, action, expect)
        if verb == "meld":
            return Step(number, text, seat, Action("meld", _some_cards(rest)))
        if verb == "layoff":
            layoff = _LAYOFF.match(rest)
            if layoff is None:
                raise ReplayError(number, text, "write a lay-off as 'layoff CARDS on N'")
            return Step(number, text, seat,
                        Action("lay_off", _some_cards(layoff.group(1)), int(layoff.group(2))))
        if verb == "swap":
            swap = _SWAP.match(rest)
            if swap is None:
                raise ReplayError(number, text, "write a joker exchange as 'swap CARD for JK on N'")
            return Step(number, text, seat,
                        Action("swap", (_one_card(swap.group(1)),), int(swap.group(2))))
        if verb == "discard":
            return Step(number, text, seat, Action("discard", (_one_card(rest),)))
    except CardError as exc:
        raise ReplayError(number, text, str(exc)) from None
    except _Shape as exc:
        raise ReplayError(number, text, str(exc)) from None
    raise ReplayError(number, text, f"unknown action {verb!r} (draw stock, draw discard, meld, "
                                    f"layoff … on N, swap … for JK on N, discard)")


class _Shape(ValueError):
    pass


def _some_cards(text: str) -> tuple[Card, ...]:
    cards = parse_cards(text)
    if not cards:
        raise _Shape("no cards given")
    return cards


def _one_card(text: str) -> Card:
    cards = parse_cards(text)
    if len(cards) != 1:
        raise _Shape(f"expected one card, not {len(cards)}")
    return cards[0]


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """A step as applied: its number, the canonical notation, the operation record and
    the hand of the seat that played it, after it."""

    number: int
    text: str
    operation: Operation
    hand: tuple[Card, ...]

    @property
    def note(self) -> str:
        """A short English description of what the step did.

        >>> from site_builder.engine import get_rules
        >>> done = replay(get_rules("rami51"), ["5C 6C 7C KH KS KD 2D", "4H 9S"], "QH 3S", "8D",
        ...               "1: draw stock; 1: meld 5C 6C 7C; 1: meld KH KS KD; 1: discard 2D")
        >>> print(done.steps[-1].note)
        discard 2D; the opening of 48 points (threshold 51) falls short (below_threshold): \
5C 6C 7C KH KS KD go back to the hand
        """
        op = self.operation
        if isinstance(op, Drawing):
            return f"draw {op.card.code if op.card else 'a card'} from the {op.source}"
        if isinstance(op, Discarding):
            text = f"discard {op.card.code}"
            if op.opening is not None:
                verdict = ("is accepted" if op.opening.accepted else
                           f"falls short ({', '.join(op.opening.reasons)}): "
                           f"{' '.join(c.code for c in op.returned)} go back to the hand")
                text += (f"; the opening of {op.opening.total} points "
                         f"(threshold {op.opening.threshold}) {verdict}")
            return text + ("; goes out" if op.went_out else "")
        if isinstance(op, RoundEnding):
            return str(op)
        if isinstance(op, Swapping):
            return (f"swap {op.card.code} for the joker on meld {op.number} "
                    f"({op.points} points); the joker goes to the hand")
        return self.text.split(": ", 1)[1] + (
            f" ({op.points} points)" + ("; goes out" if op.went_out else ""))


@dataclass(frozen=True, slots=True)
class Replay:
    """The result of :func:`replay`.

    ``steps`` holds one entry per script step (the automatic end of the round
    is ``ending``, not a step). ``hands``, ``table``, ``stock`` and
    ``discard_pile`` are the state after the last step.
    """

    rules: RuleSet
    steps: tuple[ReplayStep, ...]
    ending: RoundEnding | None
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[TableMeld, ...]
    stock: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    opened: tuple[bool, ...]

    @property
    def reason(self) -> str | None:
        """``"out"``, ``"stock_out"``, or ``None`` if the round has not ended."""
        return self.ending.reason if self.ending else None

    @property
    def winner(self) -> int | None:
        """The winning seat (from 0), or ``None`` if the round has not ended."""
        return self.ending.winner if self.ending else None

    @property
    def hand_points(self) -> tuple[int, ...]:
        """The points left in each hand now."""
        return tuple(hand_points(hand, self.rules) for hand in self.hands)

    @property
    def scores(self) -> tuple[int, ...]:
        """What each seat gains from the round (all 0 if it has not ended)."""
        return self.ending.scores if self.ending else (0,) * len(self.hands)


def _card_list(value: str | Sequence[Card], what: str) -> tuple[Card, ...]:
    if isinstance(value, str):
        try:
            return parse_cards(value)
        except CardError as exc:
            raise ReplayError(0, what, f"{what}: {exc}") from None
    return tuple(value)


def replay(rules: RuleSet, hands: Sequence[str | Sequence[Card]], stock: str | Sequence[Card],
           discard: str | Sequence[Card], actions: str | Sequence[str], *,
           first: int = 0, total: Budget | None = None) -> Replay:
    """Play *actions* (a round script) from the given deal and return the :class:`Replay`.

    *hands* holds one hand per seat; ``stock[0]`` is drawn first; the last card
    of *discard* is its top. *first* is the seat that plays first (from 0).
    Cards may be given as text. Any bad step raises :class:`ReplayError`. Every
    question of the round draws on *total* (a
    :class:`~site_builder.engine.search.Budget` shared with other rounds), if given;
    past it, :class:`~site_builder.engine.search.TotalLimitError` with the step's number.

    >>> from site_builder.engine import get_rules
    >>> done = replay(get_rules("cardverse"), ["9C 9D 9H 2S", "KC KD 5S 6S"], "9S 3C", "4H",
    ...               "1: draw stock 9S; 1: meld 9C 9D 9H 9S; 1: discard 2S")
    >>> done.reason, done.winner, done.scores, done.steps[1].note
    ('out', 0, (31, 0), 'meld 9C 9D 9H 9S (36 points)')
    """
    state, done = _play(rules, hands, stock, discard, actions, first=first, total=total)
    return Replay(rules, tuple(done), state.ending, state.hands, state.table, state.stock,
                  state.discard_pile, state.opened)


def refusal(rules: RuleSet, hands: Sequence[str | Sequence[Card]], stock: str | Sequence[Card],
            discard: str | Sequence[Card], actions: str | Sequence[str], step: str, *,
            first: int = 0, total: Budget | None = None) -> Refusal | None:
    """Whether the one step *step* would be refused after *actions* (as :func:`replay`
    takes them): the :class:`~site_builder.engine.refusals.Refusal`, or ``None`` if the
    rules allow it. A bad deal, a bad step among *actions*, or a *step* that is not one
    step raises :class:`ReplayError`; an undecided one,
    :class:`~site_builder.engine.search.SearchLimitError`.

    >>> from site_builder.engine import get_rules
    >>> deal = (["5H 6H 7H 2S", "4C 4D 4S 3C"], "KS 9D", "QC")
    >>> refused = refusal(get_rules("cardverse"), *deal, "1: draw stock", "1: meld 5H 6H 2S")
    >>> refused.code, str(refused)
    ('invalid-meld', '5H 6H 2S is not a valid meld (mixed_suits)')
    >>> print(refusal(get_rules("cardverse"), *deal, "1: draw stock", "1: meld 5H 6H 7H"))
    None
    >>> print(refusal(get_rules("cardverse"), *deal, "", "2: draw stock"))
    it is seat 1's turn, not seat 2's
    """
    parsed = parse_steps([step])
    if len(parsed) != 1:
        raise ReplayError(1, step, "give exactly one step")
    state, _ = _play(rules, hands, stock, discard, actions, first=first, total=total)
    return _refused(state, parsed[0])


def _refused(state: RoundState, step: Step) -> Refusal | None:
    """Why *state* refuses *step*, or None."""
    if state.is_over:
        return Refusal("round-over")
    if step.seat != state.turn:
        return Refusal("not-your-turn", turn=state.turn + 1, seat=step.seat + 1)
    try:
        state.verify(step.action)
    except Refusal as exc:
        return exc
    return None


def _play(rules: RuleSet, hands: Sequence[str | Sequence[Card]], stock: str | Sequence[Card],
          discard: str | Sequence[Card], actions: str | Sequence[str], *,
          first: int = 0, total: Budget | None = None
          ) -> tuple[RoundState, list[ReplayStep]]:
    """The round after *actions*, and each step as applied (see :func:`replay`); every
    question of the round draws on *total*, if given: past it,
    :class:`~site_builder.engine.search.TotalLimitError` with the step's number."""
    try:
        state = RoundState(rules, [_card_list(hand, f"hand {i}") for i, hand in
                                   enumerate(hands, 1)],
                           _card_list(stock, "stock"), _card_list(discard, "discard"),
                           first=first, total=total)
    except RulesError as exc:
        raise ReplayError(0, "", str(exc)) from None
    done: list[ReplayStep] = []
    for step in parse_steps(actions):
        if state.is_over or step.seat != state.turn:
            refused = _refused(state, step)
            assert refused is not None
            raise ReplayError.refused(step.number, step.text, refused)
        try:
            operation = state.apply(step.action)
        except Refusal as exc:
            raise ReplayError.refused(step.number, step.text, exc) from None
        except TotalLimitError as exc:  # not this step's fault: the caller says so
            raise TotalLimitError(exc.steps, step.number) from None
        except (ValueError, SearchLimitError) as exc:  # refused, or undecided (no verdict)
            raise ReplayError(step.number, step.text, str(exc)) from None
        if step.expect is not None and isinstance(operation, Drawing) \
                and operation.card != step.expect:
            got = operation.card.code if operation.card else "?"
            raise ReplayError(step.number, step.text,
                              f"the {operation.source} gave {got}, not {step.expect.code}")
        done.append(ReplayStep(step.number, str(operation), operation,
                               state.hands[step.seat]))
    return state, done


def format_history(history: Sequence[Operation], *, cards: bool = True) -> str:
    """A round's history as a script that :func:`replay` accepts (the ending is left out).

    With *cards*, draws name the card drawn (which the replay then checks).

    >>> from site_builder.engine import get_rules
    >>> done = replay(get_rules("cardverse"), ["9C 9D 9H 2S", "KC KD 5S 6S"], "9S 3C", "4H",
    ...               "1: draw stock; 1: meld 9C 9D 9H; 1: discard 2S")
    >>> format_history([step.operation for step in done.steps])
    '1: draw stock 9S; 1: meld 9C 9D 9H; 1: discard 2S'
    """
    parts: list[str] = []
    for op in history:
        if isinstance(op, RoundEnding):
            continue
        if isinstance(op, Drawing) and not cards:
            parts.append(f"{op.seat + 1}: draw {op.source}")
        else:
            parts.append(str(op))
    return "; ".join(parts)


# -- the "Play from here" link ---------------------------------------------------------------

#: A worked round's position in a page address's fragment, as a "Play from here" link
#: writes it (:func:`position_link`, called by ``templates/examples/round.html``) and the
#: practice table reads it (``templates/assets/play/hash.js``, which gets these values
#: from the build): ``from=`` then game[+variation];hands;stock;discard;steps. Cards are
#: the engine's codes run together (each is self-delimiting), hands separated by ``/``,
#: steps by ``~``; a step is its seat (from 1) and the letter of its action
#: (:data:`POSITION_LINK_LETTERS`), then the cards, after ``n-`` the meld number of a
#: lay-off or a joker exchange. A longer fragment, or more steps, is not read.
POSITION_LINK: Final[Mapping[str, str | int]] = MappingProxyType({
    "key": "from", "variation": "+", "fields": ";", "hands": "/", "steps": "~",
    "target": "-", "max_length": 20_000, "max_steps": 500, "max_target_digits": 3,
})
#: Each kind of action's letter in a step of :data:`POSITION_LINK`.
POSITION_LINK_LETTERS: Final[Mapping[ActionKind, str]] = MappingProxyType({
    "draw_stock": "s", "draw_discard": "d", "meld": "m", "lay_off": "l", "swap": "x",
    "discard": "t",
})


def _seat_and_action(step: Step | Operation) -> tuple[int, Action]:
    if isinstance(step, Step):
        return step.seat, step.action
    kind = kind_of(step)
    if isinstance(step, Melding):
        return step.seat, Action("meld", step.cards)
    if isinstance(step, LayingOff):
        return step.seat, Action("lay_off", step.cards, step.number)
    if isinstance(step, Swapping):
        return step.seat, Action("swap", (step.card,), step.number)
    if isinstance(step, Discarding):
        return step.seat, Action("discard", (step.card,))
    if isinstance(step, Drawing) and kind is not None:
        return step.seat, Action(kind)
    raise ValueError(f"not a step of a round: {step!r}")


def position_link(game: str, hands: Sequence[Sequence[Card]], stock: Sequence[Card],
                  discard: Sequence[Card], steps: Sequence[Step | Operation],
                  variation: str | None = None) -> str:
    """The fragment (without ``#``) of a "Play from here" link to the position after
    *steps* (parsed steps, or the records of the steps played), from the deal *hands*,
    *stock* (top card first) and *discard* (top card last): :data:`POSITION_LINK`.

    >>> from site_builder.engine import get_rules
    >>> hands = [parse_cards("9C 9D 9H 2S"), parse_cards("KC KD 5S 6S")]
    >>> stock, discard = parse_cards("9S 3C 10D"), parse_cards("4H")
    >>> done = replay(get_rules("cardverse"), hands, stock, discard,
    ...               "1: draw stock; 1: meld 9C 9D 9H; 1: discard 2S; 2: draw stock")
    >>> position_link("cardverse", hands, stock, discard, [s.operation for s in done.steps])
    'from=cardverse;9C9D9H2S/KCKD5S6S;9S3C10D;4H;1s~1m9C9D9H~1t2S~2s'
    >>> position_link("rami51", hands, stock, discard, parse_steps("2: layoff 8H 9H on 1"),
    ...               variation="house")
    'from=rami51+house;9C9D9H2S/KCKD5S6S;9S3C10D;4H;2l1-8H9H'
    """
    link = POSITION_LINK

    def cards(group: Sequence[Card]) -> str:
        return "".join(card.code for card in group)

    written = []
    for step in steps:
        seat, action = _seat_and_action(step)
        target = "" if action.target is None else f"{action.target}{link['target']}"
        written.append(f"{seat + 1}{POSITION_LINK_LETTERS[action.kind]}{target}"
                       f"{cards(action.cards)}")
    head = game if variation is None else f"{game}{link['variation']}{variation}"
    fields = [head, str(link["hands"]).join(cards(hand) for hand in hands), cards(stock),
              cards(discard), str(link["steps"]).join(written)]
    return f"{link['key']}={str(link['fields']).join(fields)}"
