"""The practice table's teacher: the hint, the reason for every move, and the round's review.

Pure: no I/O, no clock; the only randomness is seeded (the review's rollouts).

**The hint** (:func:`advise`) is the move the normal computer player would make in the
seat to play, and why. It is computed from the position, not kept in a player object
across the reader's moves: the reader may follow it or not, and a saved game restored
in another visit must give the same hint. So the normal player here plans from what the
position shows, the melds already laid this turn for a first meld included
(:meth:`~site_builder.engine.play.players.NormalPlayer.arrange` asks only for what the
first meld still lacks): a reader who follows the hint lays the melds of one plan, and
one who did not gets a plan that starts from their melds. A first meld is advised only
when the engine has played the whole plan through on a copy of the position and the
first meld was accepted; where none can be completed this turn, the hint says so with
the numbers, and advises no part of one.

**Reasons** (:func:`explain`) are :class:`~site_builder.engine.reasons.Reason` codes and
values. Each is confirmed (:func:`confirm`) against the position before it is given, by
the engine's own verdicts on a copy of it: "the top of the discard pile fits no meld that
can be laid this turn" is the round's refusal of that draw under the rules that ask that
a taken card be laid (melds, lay-offs and joker exchanges included, with the card in the
hand); a reason that cannot be confirmed is not given. A variation that forbids the move
not made is named as the reason. The same reasons explain the computer players' moves;
a reason that would show what a computer holds and has not laid (its melds' total) is
not given for them.

**The review** (:func:`review`) finds, when a round is over, the reader's moves that cost
the most: for each turn where the reader did other than the normal player, the rest of
the turn is played both ways on copies of the round, and then on to the end with the
computer players (the reader's seat by the normal player), a few times each with the
stock still to be drawn shuffled by a seeded generator (the other hands stay as dealt):
the difference of the reader's points, on average, is the move's cost.

>>> from site_builder.engine import RoundState, get_rules, parse_cards
>>> state = RoundState(get_rules("rami51"), [parse_cards("5H 6H JK 2C 9S KD"),
...     parse_cards("3D 4D 5D QS QD")], parse_cards("8C 9C"), parse_cards("7H"))
>>> advice = advise(state)
>>> advice.action.kind, [str(r) for r in advice.reasons]
('draw_stock', ['7H fits a meld, but no first meld with it can be completed this turn'])
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from site_builder.engine.cards import JOKER, Card, CardError, parse_cards
from site_builder.engine.deal import full_deck
from site_builder.engine.layoff import evaluate_layoff
from site_builder.engine.melds import evaluate_meld
from site_builder.engine.opening import evaluate_opening
from site_builder.engine.play.players import LEVELS, NormalPlayer, Player, make_player
from site_builder.engine.reasons import Reason
from site_builder.engine.refusals import Refusal
from site_builder.engine.round import (
    Action,
    Phase,
    RoundState,
    TableMeld,
    needs_opening,
)
from site_builder.engine.rules import RuleSet
from site_builder.engine.scoring import hand_points
from site_builder.engine.search import (
    SearchLimitError,
    TotalLimitError,
    best_arrangement,
    find_melds,
    find_opening,
)

__all__ = ["Advice", "Mistake", "RoundStart", "advise", "clone", "confirm", "explain",
           "fallback", "in_order", "review"]

Meld = tuple[Card, ...]
#: Questions whose bound of work was reached: no verdict, so no reason (and no advice).
_UNDECIDED: Final = (SearchLimitError, TotalLimitError)


# ------------------------------------------------------------------ copies of a round


def clone(state: RoundState) -> RoundState:
    """A copy of *state* that can be played on without changing it (its cards, rules,
    melds and records are shared: they are frozen).

    >>> from site_builder.engine import RoundState, get_rules, parse_cards
    >>> state = RoundState(get_rules("cardverse"), [parse_cards("5H 6H"),
    ...                    parse_cards("2C 3D")], parse_cards("KS 4C"))
    >>> copied = clone(state); _ = copied.draw_stock()
    >>> len(state.hands[0]), len(copied.hands[0])
    (2, 3)
    """
    memo: dict[int, object] = {id(state.rules): state.rules}
    for card in state.cards():
        memo[id(card)] = card
    for op in state.history:
        memo[id(op)] = op
    for op in state.view(state.turn).history:
        memo[id(op)] = op
    for meld in state.table:
        memo[id(meld)] = meld
    return copy.deepcopy(state, memo)


def _after(state: RoundState, *actions: Action) -> RoundState | None:
    """A copy of *state* with *actions* played, or None if one is refused or undecided."""
    copied = clone(state)
    try:
        for action in actions:
            copied.apply(action)
    except (ValueError, *_UNDECIDED):
        return None
    return copied


def _legal(state: RoundState, action: Action) -> bool:
    """Whether the round allows *action* now (an undecided question counts as no)."""
    try:
        return state.can(action)
    except _UNDECIDED:
        return False


def fallback(state: RoundState) -> Action:
    """A legal action for the seat to play when its player's choice is refused or cannot be
    decided within the engine's bound: a draw (the stock first), else a discard, else the
    first legal action. Each question that reaches the bound is skipped.

    >>> from site_builder.engine import RoundState, get_rules, parse_cards
    >>> state = RoundState(get_rules("cardverse"), [parse_cards("5H 6H"),
    ...                    parse_cards("2C 3D")], parse_cards("KS 4C"), parse_cards("9D"))
    >>> fallback(state).kind
    'draw_stock'
    """
    if state.phase is Phase.DRAW:
        return Action("draw_stock") if state.can_draw_stock() else Action("draw_discard")
    hand = state.hands[state.turn]
    for card in dict.fromkeys(hand):
        if _legal(state, Action("discard", (card,))):
            return Action("discard", (card,))
    for meld in state.table:  # a card still owed, laid off
        for card in dict.fromkeys(hand):
            if _legal(state, Action("lay_off", (card,), meld.number)):
                return Action("lay_off", (card,), meld.number)
    try:
        legal = state.legal_actions()
    except _UNDECIDED:
        legal = ()
    return legal[0] if legal else Action("discard", (hand[0],))


# ------------------------------------------------------------------ small facts


def in_order(cards: Sequence[Card], rules: RuleSet) -> Meld:
    """A meld's cards as the worked rounds draw them: in rank order, each joker in the
    place it stands for (the cards as given if they make no valid meld).

    >>> from site_builder.engine import get_rules, parse_cards
    >>> [c.code for c in in_order(parse_cards("QC JK JC"), get_rules("rami51"))]
    ['JK', 'JC', 'QC']
    >>> [c.code for c in in_order(parse_cards("7S JK 5S"), get_rules("rami51"))]
    ['5S', 'JK', '7S']
    """
    result = evaluate_meld(cards, rules)
    if not result.valid:
        return tuple(cards)
    naturals = Counter(card for card in cards if not card.is_joker)
    out: list[Card] = []
    for card in result.arrangement:
        if naturals[card] > 0:
            naturals[card] -= 1
            out.append(card)
        else:
            out.append(JOKER)
    return tuple(out)


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(card.code for card in cards)


def _melds_text(melds: Sequence[Meld], rules: RuleSet) -> str:
    return " | ".join(_codes(in_order(meld, rules)) for meld in melds)


def _melds_of(text: str) -> tuple[Meld, ...]:
    """The melds a reason's value names (:func:`_melds_text`); none if it names no cards."""
    try:
        return tuple(parse_cards(part) for part in text.split("|") if part.strip())
    except CardError:
        return ()


def _keep(rules: RuleSet) -> int:
    return 1 if rules.discard_to_win else 0


def _pending(state: RoundState) -> list[Meld]:
    numbers = set(state.pending)
    return [meld.cards for meld in state.table if meld.number in numbers]


def _opening_needed(state: RoundState, seat: int) -> bool:
    return needs_opening(state.rules) and not state.opened[seat]


def _without(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def _fits_table(card: Card, table: Sequence[TableMeld], rules: RuleSet) -> bool:
    """Whether *card* may be laid off on a meld of *table*, or take a joker's place in one."""
    for meld in table:
        if evaluate_layoff(meld.cards, (card,), rules).valid:
            return True
        if JOKER in meld.cards and not card.is_joker:
            index = meld.cards.index(JOKER)
            swapped = evaluate_meld((*meld.cards[:index], card, *meld.cards[index + 1:]), rules)
            if swapped.valid and swapped.kind == meld.kind and (
                    meld.kind != "sequence" or swapped.arrangement == meld.arrangement):
                return True
    return False


def _fits_nothing(card: Card, hand: Sequence[Card], state: RoundState) -> bool:
    """Whether *card* is in no meld the *hand* holds, fits no meld on the table and takes
    no joker's place there."""
    if any(card in meld for meld in find_melds(hand, state.rules)):
        return False
    return not _fits_table(card, state.table, state.rules)


def _near(card: Card, hand: Sequence[Card]) -> bool:
    """Whether another card of *hand* is of *card*'s rank, or of its suit and at most two
    ranks from it (an ace next to both the two and the king)."""
    if card.rank is None:
        return True
    skipped = False
    for other in hand:
        if other == card and not skipped:
            skipped = True
            continue
        if other.rank is None:
            continue
        if other.rank == card.rank:
            return True
        if other.suit == card.suit:
            a, b = int(card.rank), int(other.rank)
            gaps = {abs(a - b)}
            if 1 in (a, b):
                gaps.add(abs((14 if a == 1 else a) - (14 if b == 1 else b)))
            if min(gaps) <= 2:
                return True
    return False


def _one_short(card: Card, hand: Sequence[Card], rules: RuleSet) -> bool:
    """Whether *card* and one other card of *hand* make a meld with one more card of the
    deck (a near-meld)."""
    deck = set(full_deck(rules)) - {JOKER}
    for other in dict.fromkeys(hand):
        if other.is_joker or (other == card and hand.count(card) < 2):
            continue
        for third in deck:
            if third.rank == card.rank or third.suit == card.suit:
                if evaluate_meld((card, other, third), rules).valid:
                    return True
    return False


def _best_total(hand: Sequence[Card], rules: RuleSet, keep: int) -> int:
    """The most laid points the melds of *hand* make together, leaving *keep* cards (an
    exact answer, found by halving with :func:`~site_builder.engine.search.find_opening`)."""
    if find_opening(hand, rules, keep=keep) is None:
        return 0
    low, high = 1, sum(evaluate_meld(m, rules).points for m in find_melds(hand, rules)) or 1
    while low < high:  # the most points with an opening of at least that many
        middle = (low + high + 1) // 2
        if find_opening(hand, rules, min_points=middle, keep=keep) is not None:
            low = middle
        else:
            high = middle - 1
    return low


def _pure_in(melds: Sequence[Meld], rules: RuleSet) -> bool:
    return any(evaluate_meld(meld, rules).is_pure for meld in melds)


# ------------------------------------------------------------------ confirming a reason


def confirm(state: RoundState, action: Action, reason: Reason,
            plan: Sequence[Meld] = ()) -> bool:
    """Whether *reason* is true of *action* in *state* (the seat to play's move), checked by
    the engine against the position; *plan* holds the melds to be laid after *action* this
    turn, where the reason speaks of them (a first meld). A question the engine cannot
    settle within its bound confirms nothing.

    >>> from site_builder.engine import RoundState, get_rules, parse_cards
    >>> state = RoundState(get_rules("rami51"), [parse_cards("5H 6H JK 2C 9S KD"),
    ...     parse_cards("3D 4D 5D QS QD")], parse_cards("8C 9C"), parse_cards("7H"))
    >>> confirm(state, Action("draw_stock"), Reason("stock-top-fits-nothing", card="7H"))
    False
    >>> confirm(state, Action("draw_stock"), Reason("stock-top-no-opening", card="7H"))
    True
    """
    try:
        return _confirm(state, action, reason, tuple(plan))
    except _UNDECIDED:
        return False


def _confirm(state: RoundState, action: Action, reason: Reason, plan: tuple[Meld, ...]
             ) -> bool:
    if state.is_over or not _legal(state, action):
        return False
    check = _CHECKS.get(reason.code)
    return check is not None and check(state, action, reason, plan)


_Check = Callable[[RoundState, Action, Reason, tuple[Meld, ...]], bool]


def _value(reason: Reason, name: str) -> int | str | None:
    return reason.values.get(name)


def _check_stock(state: RoundState, action: Action, reason: Reason,
                 plan: tuple[Meld, ...]) -> bool:
    """The reasons for drawing from the stock: the pile is empty, a variation forbids the
    discard, or the top could not be laid this turn (the round's verdict, asked as if the
    rules said that a card taken must be laid this turn and allowed it at any time)."""
    if action.kind != "draw_stock":
        return False
    pile = state.discard_pile
    if reason.code == "stock-pile-empty":
        return not pile and not reason.values
    if not pile:
        return False
    if reason.code in ("stock-first-round", "stock-one-card"):
        wanted = {"stock-first-round": "discard-first-round",
                  "stock-one-card": "discard-at-one-card"}[reason.code]
        try:
            state.verify_draw_discard()
        except Refusal as refused:
            return refused.code == wanted and not reason.values
        return False
    top = pile[-1]
    if dict(reason.values) != {"card": top.code}:
        return False
    return _take_refusal(state) == _STOCK_TOP.get(reason.code)


#: The reasons for leaving the top of the discard pile, by the round's refusal of taking it.
_STOCK_TOP: Final = {
    "stock-top-fits-nothing": "discard-take-needs-lay",
    "stock-top-no-opening": "discard-take-needs-opening",
    "stock-top-no-final-discard": "discard-take-needs-final-discard",
}


def _take_refusal(state: RoundState) -> str | None:
    """Why the top of the discard pile could not be laid this turn if the seat to play took
    it (the refusal code), or None if it could; judged by the round itself, under the
    rules that the card taken must be laid and may be taken at any time."""
    rules = dataclasses.replace(state.rules, discard_must_be_used=True,
                                discard_first_round=True, discard_at_one_card=True)
    strict = clone(state)
    strict.rules = rules
    try:
        strict.verify_draw_discard()
    except Refusal as refused:
        return refused.code
    return None


def _check_take(state: RoundState, action: Action, reason: Reason,
                plan: tuple[Meld, ...]) -> bool:
    """The reasons for taking the top of the discard pile, each played on a copy."""
    if action.kind != "draw_discard" or not state.discard_pile:
        return False
    card = state.discard_pile[-1]
    if _value(reason, "card") != card.code:
        return False
    taken = _after(state, action)
    if taken is None:
        return False
    seat, rules = state.turn, state.rules
    code = reason.code
    if code in ("take-completes", "take-opens"):
        cards = _value(reason, "cards")
        melds = [m for m in (plan or _opening_with(taken, card) if code == "take-opens"
                             else find_melds(taken.hands[seat], rules))
                 if card in m and _codes(in_order(_without(m, (card,)), rules)) == cards]
        if not melds:
            return False
        if code == "take-completes":
            return not _opening_needed(state, seat) and any(taken.can_meld(m) for m in melds)
        if not _opening_needed(state, seat):
            return False
        plan = plan or _opening_with(taken, card)
        if not any(card in m for m in plan):
            return False
        done = _after(taken, *(Action("meld", m) for m in plan))
        if done is None:
            return False
        opening = evaluate_opening(_pending(done), rules)
        return opening.accepted and (_value(reason, "total"), _value(reason, "threshold")) \
            == (opening.total, opening.threshold)
    if code == "take-lays-off":
        target = _value(reason, "target")
        return isinstance(target, int) and taken.can_lay_off(target, (card,))
    if code == "take-swaps":
        target = _value(reason, "target")
        return isinstance(target, int) and taken.can_swap(target, card)
    if code == "take-keeps":
        return _one_short(card, state.hands[seat], rules)
    return False


def _check_meld(state: RoundState, action: Action, reason: Reason,
                plan: tuple[Meld, ...]) -> bool:
    """The reasons for laying a meld: the points it takes out of the hand, or the first
    meld it makes (played through, with the melds planned after it, on a copy)."""
    if action.kind != "meld":
        return False
    seat, rules = state.turn, state.rules
    if reason.code == "meld-lowers-hand":
        return not _opening_needed(state, seat) and \
            dict(reason.values) == {"points": hand_points(action.cards, rules)}
    if not _opening_needed(state, seat):
        return False
    rest: tuple[Meld, ...] = ()
    if reason.code == "meld-opens-next":  # the melds named are laid after it
        rest = _melds_of(str(_value(reason, "next")))
        if not rest or evaluate_opening([*_pending(state), action.cards], rules).accepted:
            return False  # "with ... after it": the meld alone does not make the first meld
    done = _after(state, action, *(Action("meld", m) for m in rest))
    if done is None:
        return False
    opening = evaluate_opening(_pending(done), rules)
    return opening.accepted and (_value(reason, "total"), _value(reason, "threshold")) == (
        opening.total, opening.threshold)


def _check_lay(state: RoundState, action: Action, reason: Reason,
               plan: tuple[Meld, ...]) -> bool:
    """Laying off, the joker exchange, going out: the round allows the move (confirmed
    before), and the values are the move's."""
    rules = state.rules
    if reason.code == "lay-off-fits":
        return action.kind == "lay_off" and dict(reason.values) == {
            "cards": _codes(action.cards), "target": action.target,
            "points": hand_points(action.cards, rules)}
    if reason.code == "swap-joker":
        return action.kind == "swap" and dict(reason.values) == {
            "card": action.cards[0].code, "target": action.target}
    if reason.code == "goes-out":
        done = _after(state, action)
        return not reason.values and done is not None and done.is_over \
            and not done.hands[state.turn]
    return False


def _check_discard(state: RoundState, action: Action, reason: Reason,
                   plan: tuple[Meld, ...]) -> bool:
    """The reasons for the card discarded, and for laying no (more) first meld this turn."""
    if action.kind != "discard":
        return False
    seat, rules = state.turn, state.rules
    hand = state.hands[seat]
    card = action.cards[0]
    code = reason.code
    if code in ("keep-building", "keep-building-no-pure", "opening-returns"):
        if not _opening_needed(state, seat):
            return False
        pending = _pending(state)
        so_far = evaluate_opening(pending, rules)
        if pending and so_far.accepted:
            return False
        need = max((rules.opening_threshold or 0) - so_far.total, 0)
        pure = rules.pure_sequence_required and not so_far.pure_sequence
        if find_opening(hand, rules, min_points=need, need_pure=pure,
                        keep=_keep(rules)) is not None:
            return False  # a first meld could still be completed this turn
        threshold = rules.opening_threshold or 0
        if code == "opening-returns":
            return bool(pending) and dict(reason.values) == {"total": so_far.total,
                                                               "threshold": threshold}
        if pending:
            return False
        no_pure = rules.pure_sequence_required and not _pure_in(find_melds(hand, rules), rules)
        if (code == "keep-building-no-pure") != no_pure:
            return False
        return dict(reason.values) == {"total": _best_total(hand, rules, _keep(rules)),
                                       "threshold": threshold}
    if _value(reason, "card") != card.code:
        return False
    rest = _without(hand, (card,))
    if code == "discard-highest-loose":
        points = hand_points((card,), rules)
        if _value(reason, "points") != points or not _fits_nothing(card, hand, state):
            return False
        return all(not _fits_nothing(other, hand, state) for other in dict.fromkeys(rest)
                   if hand_points((other,), rules) > points)
    if code == "discard-no-neighbour":
        return not card.is_joker and not _near(card, hand)
    if code == "discard-safe":
        return bool(state.table) and not card.is_joker and all(
            not evaluate_layoff(m.cards, (card,), rules).valid for m in state.table)
    return False


_CHECKS: Final[dict[str, _Check]] = {
    "goes-out": _check_lay,
    **dict.fromkeys(("stock-top-fits-nothing", "stock-top-no-opening",
                     "stock-top-no-final-discard", "stock-first-round", "stock-one-card",
                     "stock-pile-empty"), _check_stock),
    **dict.fromkeys(("take-completes", "take-opens", "take-lays-off", "take-swaps",
                     "take-keeps"), _check_take),
    **dict.fromkeys(("meld-lowers-hand", "meld-opens", "meld-opens-next"), _check_meld),
    **dict.fromkeys(("lay-off-fits", "swap-joker"), _check_lay),
    **dict.fromkeys(("keep-building", "keep-building-no-pure", "opening-returns",
                     "discard-highest-loose", "discard-no-neighbour", "discard-safe"),
                    _check_discard),
}


# ------------------------------------------------------------------ finding reasons


def explain(state: RoundState, action: Action, plan: Sequence[Meld] = (), *,
            private: bool = False) -> tuple[Reason, ...]:
    """Why *action* is a good move for the seat to play in *state*: the reasons the engine
    confirms (:func:`confirm`), the main one first; *plan* holds the melds its player means
    to lay after it this turn. With *private*, no reason that tells what the seat holds and
    has not laid (a computer's hand, shown to the reader).

    >>> from site_builder.engine import RoundState, get_rules, parse_cards
    >>> state = RoundState(get_rules("cardverse"), [parse_cards("5H 6H KS 2C"),
    ...     parse_cards("3D 4D 5D QS")], parse_cards("8C 9C"), parse_cards("7H"))
    >>> [str(r) for r in explain(state, Action("draw_discard"))]
    ['7H completes 5H 6H']
    """
    plan = tuple(plan)
    turn: Reason | None = None  # why no (more) first meld this turn
    move: Reason | None = None  # why this move
    for reason in _candidates(state, action, plan):
        if reason.code in _TURN:
            if turn is None and not (private and reason.code in _PRIVATE) \
                    and confirm(state, action, reason, plan):
                turn = reason
        elif move is None and confirm(state, action, reason, plan):
            move = reason
    return tuple(r for r in (turn, move) if r is not None)


#: Reasons about the turn (no first meld can be completed), given beside the move's own.
_TURN: Final = ("keep-building", "keep-building-no-pure", "opening-returns")
#: Reasons that tell what a seat holds beyond the move itself (not given for a computer).
_PRIVATE: Final = ("keep-building", "keep-building-no-pure")


def _candidates(state: RoundState, action: Action, plan: tuple[Meld, ...]) -> list[Reason]:
    """The reasons that may be true of *action*, the likeliest first (each is confirmed)."""
    try:
        return _propose(state, action, plan)
    except _UNDECIDED:
        return []


def _propose(state: RoundState, action: Action, plan: tuple[Meld, ...]) -> list[Reason]:
    seat, rules = state.turn, state.rules
    pile = state.discard_pile
    out: list[Reason] = []
    if action.kind == "draw_stock":
        if not pile:
            return [Reason("stock-pile-empty")]
        # Only the reasons that can hold (each is still confirmed): a variation's ban when
        # the rule set has it, and the one reason the round gives for not taking the top.
        # Each proposal costs a verification of the round, the slowest part of a move.
        out = [Reason(code) for code, allowed in (
            ("stock-first-round", rules.discard_first_round),
            ("stock-one-card", rules.discard_at_one_card)) if not allowed]
        refused = _take_refusal(state)
        out += [Reason(code, card=pile[-1].code) for code, wanted in _STOCK_TOP.items()
                if wanted == refused]
        return out
    if action.kind == "draw_discard":
        if not pile:
            return []
        card = pile[-1]
        taken = _after(state, action)
        if taken is None:
            return []
        hand = taken.hands[seat]
        if _opening_needed(state, seat):
            first = _opening_with(taken, card)
            if first:
                with_card = next(m for m in first if card in m)
                done = _after(taken, *(Action("meld", m) for m in first))
                total = 0 if done is None else evaluate_opening(_pending(done), rules).total
                out.append(Reason("take-opens", card=card.code,
                                  cards=_codes(in_order(_without(with_card, (card,)), rules)),
                                  total=total, threshold=rules.opening_threshold or 0))
            return out
        melds = [m for m in find_melds(hand, rules)
                 if card in m and len(hand) - len(m) >= _keep(rules)]
        melds.sort(key=lambda m: (-len(m), -evaluate_meld(m, rules).points))
        for best in melds[:1]:
            out.append(Reason("take-completes", card=card.code,
                              cards=_codes(in_order(_without(best, (card,)), rules))))
        for laid in state.table:
            out.append(Reason("take-lays-off", card=card.code, target=laid.number))
            if JOKER in laid.cards:
                out.append(Reason("take-swaps", card=card.code, target=laid.number))
        out.append(Reason("take-keeps", card=card.code))
        return out
    if action.kind == "meld":
        if not _opening_needed(state, seat):
            out.append(Reason("meld-lowers-hand", points=hand_points(action.cards, rules)))
        else:
            alone = evaluate_opening([*_pending(state), action.cards], rules)
            rest = () if alone.accepted else plan or _completion(state, action.cards)
            done = _after(state, action, *(Action("meld", m) for m in rest))
            if done is not None:
                made = evaluate_opening(_pending(done), rules)
                values = {"total": made.total, "threshold": rules.opening_threshold or 0}
                if rest:
                    out.append(Reason("meld-opens-next", next=_melds_text(rest, rules),
                                      **values))
                else:
                    out.append(Reason("meld-opens", **values))
        out.append(Reason("goes-out"))
        return out
    if action.kind == "lay_off":
        return [Reason("lay-off-fits", cards=_codes(action.cards), target=action.target or 0,
                       points=hand_points(action.cards, rules)), Reason("goes-out")]
    if action.kind == "swap":
        return [Reason("swap-joker", card=action.cards[0].code, target=action.target or 0)]
    # the discard
    thrown = action.cards[0]
    held = state.hands[seat]
    if _opening_needed(state, seat):
        pending = _pending(state)
        threshold = rules.opening_threshold or 0
        if pending:
            out.append(Reason("opening-returns", total=evaluate_opening(pending, rules).total,
                              threshold=threshold))
        else:
            most = _best_total(held, rules, _keep(rules))
            out += [Reason("keep-building-no-pure", total=most, threshold=threshold),
                    Reason("keep-building", total=most, threshold=threshold)]
    out.append(Reason("goes-out"))
    out.append(Reason("discard-highest-loose", card=thrown.code,
                      points=hand_points((thrown,), rules)))
    out.append(Reason("discard-no-neighbour", card=thrown.code))
    out.append(Reason("discard-safe", card=thrown.code))
    return out


def _opening_with(state: RoundState, card: Card) -> tuple[Meld, ...]:
    """A first meld that lays *card* (held) this turn, with the melds already laid for it:
    the normal player's, or else any the search finds (none: empty)."""
    seat, rules = state.turn, state.rules
    player = NormalPlayer()
    try:
        action = player.choose(state.view(seat))
    except _UNDECIDED:
        return ()
    planned = (action.cards, *player.planned) if action.kind == "meld" else ()
    if any(card in meld for meld in planned):
        return planned
    so_far = evaluate_opening(_pending(state), rules)
    found = find_opening(state.hands[seat], rules,
                         min_points=max((rules.opening_threshold or 0) - so_far.total, 0),
                         need_pure=rules.pure_sequence_required and not so_far.pure_sequence,
                         keep=_keep(rules), must_lay=(card,))
    return found or ()


def _completion(state: RoundState, cards: Meld) -> tuple[Meld, ...]:
    """Melds of the hand that, laid after *cards*, complete the first meld this turn (none
    if *cards* completes it, or if nothing can)."""
    rules = state.rules
    so_far = evaluate_opening([*_pending(state), cards], rules)
    if so_far.accepted:
        return ()
    found = find_opening(_without(state.hands[state.turn], cards), rules,
                         min_points=max((rules.opening_threshold or 0) - so_far.total, 0),
                         need_pure=rules.pure_sequence_required and not so_far.pure_sequence,
                         keep=_keep(rules))
    return found or ()


# ------------------------------------------------------------------ the hint


@dataclass(frozen=True, slots=True)
class Advice:
    """The normal player's move for the seat to play (``action``), the confirmed
    ``reasons`` for it, and the melds it means to lay after it this turn (``plan``)."""

    action: Action
    reasons: tuple[Reason, ...]
    plan: tuple[Meld, ...]


def advise(state: RoundState) -> Advice:
    """The hint for the seat to play: the normal player's move from this position, checked
    by the round (a refused or undecided choice gives way to :func:`fallback`), never a
    first meld that the rest of its plan does not complete, and its confirmed reasons.

    >>> from site_builder.engine import RoundState, get_rules, parse_cards
    >>> state = RoundState(get_rules("rami51"), [parse_cards("4H 5H 6H 7H 2C 9S KD KC KS"),
    ...     parse_cards("3D 4D 5D QS QD")], parse_cards("8C 9C"), parse_cards("AD"))
    >>> _ = state.draw_stock()
    >>> advice = advise(state)
    >>> _codes(advice.action.cards), [str(r) for r in advice.reasons]
    ('KC KD KS', ['with 4H 5H 6H 7H after it, the first meld reaches 52 of 51 points'])
    >>> state.apply(advice.action).pending
    True
    >>> advice = advise(state)
    >>> _codes(advice.action.cards), [str(r) for r in advice.reasons]
    ('4H 5H 6H 7H', ['the first meld reaches 52 of 51 points'])
    >>> _ = state.apply(advice.action); advice = advise(state)
    >>> advice.action.kind, _codes(advice.action.cards), [r.code for r in advice.reasons]
    ('discard', '9S', ['discard-highest-loose'])
    """
    seat, rules = state.turn, state.rules
    player = NormalPlayer()
    try:
        action = player.choose(state.view(seat))
        plan = player.planned if action.kind == "meld" else ()
    except _UNDECIDED:
        action, plan = fallback(state), ()
    if not _legal(state, action):
        action, plan = fallback(state), ()
    if action.kind == "meld" and _opening_needed(state, seat):
        done = _after(state, action, *(Action("meld", m) for m in plan))
        if done is None or not evaluate_opening(_pending(done), rules).accepted:
            action, plan = _no_short_opening(state, player)
    return Advice(action, explain(state, action, plan), tuple(plan))


def _no_short_opening(state: RoundState, player: NormalPlayer) -> tuple[Action, tuple[Meld, ...]]:
    """In place of a first meld the plan does not complete: one the search finds, or else
    the discard (no part of a first meld that cannot be completed)."""
    seat, rules = state.turn, state.rules
    so_far = evaluate_opening(_pending(state), rules)
    try:
        found = find_opening(state.hands[seat], rules,
                             min_points=max((rules.opening_threshold or 0) - so_far.total, 0),
                             need_pure=rules.pure_sequence_required and not so_far.pure_sequence,
                             keep=_keep(rules))
    except _UNDECIDED:
        found = None
    if found:
        return Action("meld", found[0]), tuple(found[1:])
    view = state.view(seat)
    options = [c for c in view.hand if c != view.drawn] or list(view.hand)
    action = Action("discard", (player.pick_discard(view, options),))
    return (action if _legal(state, action) else fallback(state)), ()


# ------------------------------------------------------------------ the review


@dataclass(frozen=True, slots=True)
class RoundStart:
    """How a round began, so that it can be played again: the deal (``hands``, ``stock``
    with its first card drawn first, ``discard`` with its top last), the seat that played
    ``first``, and the actions played ``before`` the moves reviewed (a worked round's
    steps)."""

    rules: RuleSet
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    first: int
    before: tuple[Action, ...] = ()

    @classmethod
    def of(cls, state: RoundState, first: int, before: Sequence[Action] = ()) -> RoundStart:
        """The start of a round dealt as *state* is now (before any action)."""
        return cls(state.rules, state.hands, state.stock, state.discard_pile, first,
                   tuple(before))

    def play(self, actions: Sequence[Action], stock: Sequence[Card] | None = None
             ) -> RoundState:
        """The round after ``before`` and *actions*, with *stock* in place of the dealt one."""
        state = RoundState(self.rules, self.hands, self.stock if stock is None else stock,
                           self.discard, first=self.first)
        for action in (*self.before, *actions):
            state.apply(action)
        return state


@dataclass(frozen=True, slots=True)
class Mistake:
    """One of the reader's moves the review names: the reader's ``turn`` in the round (from
    1), the index of the move among the round's actions (``index``), the move ``made``,
    the normal player's move there (``better``) and its confirmed ``reasons``, and the
    estimated ``cost`` in the reader's points (the mean of ``rollouts`` games played on
    each way)."""

    turn: int
    index: int
    made: Action
    better: Action
    reasons: tuple[Reason, ...]
    cost: int
    rollouts: int


#: Rollouts per way and turn, the turns that get them, and the reader's turns each plays
#: on before the reader's points are estimated from the hand (all small: the browser runs
#: the review, on a phone too); and a bound on the actions of one rollout.
ROLLOUTS: Final = 3
CANDIDATES: Final = 3
HORIZON: Final = 1
MAX_ROLLOUT_ACTIONS: Final = 200


def review(start: RoundStart, actions: Sequence[Action], seat: int, levels: Sequence[str],
           seed: int, *, rollouts: int = ROLLOUTS, candidates: int = CANDIDATES,
           horizon: int = HORIZON, most: int = 3) -> tuple[Mistake, ...]:
    """At most *most* of *seat*'s moves in the round (*start* and *actions*) that cost the
    most, the costliest first; *levels* names the computer player of every seat (the
    reviewed seat's is not used: the normal player plays it on). The same round and *seed*
    give the same review.

    Each turn where the seat did other than the normal player is found by asking the normal
    player at each of the seat's moves (a meld it plans later in the turn counts as its
    choice). The turns are ranked by the points the seat's hand was left with, each way,
    at the turn's end; the first *candidates* are then played on to the end of the round
    (or *horizon* more turns of the seat, then the points its hand would leave are
    estimated) *rollouts* times each way.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> start = RoundStart(get_rules("cardverse"), (parse_cards("5H 6H KS 2C 9H 4D 8S"),
    ...     parse_cards("9D 9C 3S 4S QC 5C 7D")),
    ...     parse_cards("7H 8C QD 10S JS 2D 3D 6C 6D KD"), parse_cards("AD"), 0)
    >>> state = start.play(())
    >>> actions = [Action("draw_stock"), Action("discard", parse_cards("7H"))]  # not 5H 6H 7H
    >>> for action in actions:
    ...     _ = state.apply(action)
    >>> players = [make_player("normal"), make_player("normal")]
    >>> while not state.is_over:
    ...     actions.append(players[state.turn].choose(state.view(state.turn)))
    ...     _ = state.apply(actions[-1])
    >>> [(m.turn, m.made.describe(0), m.better.describe(0), m.cost, [str(r) for r in m.reasons])
    ...  for m in review(start, actions, 0, ["normal", "normal"], 1)]
    [(1, '1: discard 7H', '1: meld 5H 6H 7H', 21, ['it takes 18 points out of the hand'])]
    """
    played = start.play(())
    turns = 0
    found: list[tuple[int, int, Action, Action, tuple[Meld, ...], RoundState]] = []
    deviated = False
    for index, action in enumerate(actions):
        if played.is_over:
            break
        if played.turn == seat:
            if played.phase is Phase.DRAW:
                turns += 1
                deviated = False
            if not deviated:
                better, plan = _normal_choice(played)
                if better is not None and not _same_choice(action, better, plan):
                    deviated = True
                    found.append((turns, index, action, better, plan, clone(played)))
        played.apply(action)
    ranked: list[tuple[float, int, list[Action], list[Action]]] = []
    for number, (_, index, _, better, _, there) in enumerate(found):
        made = _finish_turn(clone(there), seat, list(actions[index:]), None)
        normal = _finish_turn(clone(there), seat, [], better)
        if made is None or normal is None:
            continue
        ranked.append((_estimate(made[0], seat) - _estimate(normal[0], seat), number,
                       [*actions[:index], *made[1]], [*actions[:index], *normal[1]]))
    ranked.sort(key=lambda entry: (-entry[0], entry[1]))
    mistakes: list[Mistake] = []
    for _, number, made_path, normal_path in ranked[:candidates]:
        turn, index, made_action, better, plan, there = found[number]
        rng = random.Random(f"{seed}:{index}")
        costs = []
        for _ in range(rollouts):
            shuffle = rng.getrandbits(64)
            costs.append(_rollout(start, made_path, seat, levels, shuffle, horizon)
                         - _rollout(start, normal_path, seat, levels, shuffle, horizon))
        cost = round(sum(costs) / len(costs))
        if cost >= 1:
            mistakes.append(Mistake(turn, index, made_action, better,
                                    explain(there, better, plan), cost, rollouts))
    mistakes.sort(key=lambda m: (-m.cost, m.index))
    return tuple(mistakes[:most])


def _normal_choice(state: RoundState) -> tuple[Action | None, tuple[Meld, ...]]:
    player = NormalPlayer()
    try:
        action = player.choose(state.view(state.turn))
    except _UNDECIDED:
        return None, ()
    return action, player.planned if action.kind == "meld" else ()


def _same_choice(made: Action, better: Action, plan: tuple[Meld, ...]) -> bool:
    """Whether the move *made* is the normal player's choice, or a meld it plans to lay
    later this turn (the order of one plan's melds does not matter)."""
    if made == better:
        return True
    if made.kind == "meld" and better.kind == "meld":
        return Counter(made.cards) in [Counter(m) for m in (better.cards, *plan)]
    return False


def _finish_turn(state: RoundState, seat: int, actions: Sequence[Action],
                 better: Action | None) -> tuple[RoundState, list[Action]] | None:
    """*state* played to the end of *seat*'s turn: with *actions* (as the round went on),
    or else with *better* and then the normal player's moves; and the actions played."""
    played: list[Action] = []
    player = NormalPlayer()
    queue = list(actions) if better is None else [better]
    for _ in range(60):
        if state.is_over or state.turn != seat:
            return state, played
        if queue:
            action = queue.pop(0)
        elif better is None:
            return None  # the round's actions ended inside the turn
        else:
            try:
                action = player.choose(state.view(seat))
            except _UNDECIDED:
                action = fallback(state)
        if not _legal(state, action):
            if better is None:
                return None
            action = fallback(state)
        state.apply(action)
        played.append(action)
    return None


def _rollout(start: RoundStart, path: Sequence[Action], seat: int, levels: Sequence[str],
             shuffle: int, horizon: int) -> float:
    """The reader's points after *path* and a game played on by the computer players, with
    the cards of the stock not yet drawn shuffled by *shuffle*."""
    drawn = sum(action.kind == "draw_stock" for action in (*start.before, *path))
    rest = list(start.stock[drawn:])
    random.Random(shuffle).shuffle(rest)
    state = start.play(path, stock=(*start.stock[:drawn], *rest))
    players: list[Player] = [make_player("normal" if s == seat or levels[s] not in LEVELS
                                         else levels[s]) for s in range(state.players)]
    turns = 0
    for _ in range(MAX_ROLLOUT_ACTIONS):
        if state.is_over or turns >= horizon:
            break
        mover = state.turn
        try:
            action = players[mover].choose(state.view(mover))
            state.apply(action)  # checked as it is applied: a refusal changes nothing
        except (ValueError, *_UNDECIDED):
            action = fallback(state)
            state.apply(action)
        turns += mover == seat and action.kind == "discard"
    return _estimate(state, seat)


def _estimate(state: RoundState, seat: int) -> float:
    """The points *seat* can expect to score in the round, fewer being better: at the end,
    what the round gave (a penalty, or in CardVerse the points lost to the winner less
    those won); before it, the points of the cards its melds would leave in the hand."""
    rules = state.rules
    ending = state.ending
    if ending is not None:
        if rules.penalty_scoring:
            return float(ending.scores[seat])
        if ending.winner == seat:
            return -float(ending.scores[seat])
        return float(ending.hand_points[seat])
    hand = state.hands[seat]
    keep = _keep(rules)
    try:
        if _opening_needed(state, seat):
            opening = find_opening(hand, rules, min_points=rules.opening_threshold or 0,
                                   need_pure=rules.pure_sequence_required, keep=keep)
            if opening is None:
                if rules.unopened_hand_points is not None:
                    return float(rules.unopened_hand_points)
                return float(hand_points(hand, rules))
            return float(hand_points(_without(hand, [c for m in opening for c in m]), rules))
        return float(best_arrangement(hand, rules, keep=keep).deadwood_points)
    except _UNDECIDED:
        return float(hand_points(hand, rules))
