"""Computer players: easy, normal and hard.

A player sees only a :class:`~site_builder.engine.round.View`: its own hand,
the cards open on the table, the top of the discard pile, the public history
(another player's stock draws show no card) and the kinds of action the phase
allows. It answers with one :class:`~site_builder.engine.round.Action` per
call; the round (not the player) decides whether the action is legal.

* **easy** lays the melds it holds at once (greedily, the longest first),
  adds any card that fits a meld on the table, takes the discard only to
  lay it at once, and discards its strongest single card (the most points).
* **normal** looks for the useful melds: a search over the ways to split the
  hand finds the melds that leave the fewest points (before opening in Rami,
  only splits that make a valid opening). It keeps cards that are one card
  short of a meld, and weighs the risk of feeding the next player: a card
  that fits a meld on the table (when that player may lay off), or that
  matches a card the next player took from the discard pile.
* **hard** lays its melds by the same bounded search (at most 20,000 nodes)
  for the split that leaves the fewest unmelded points. It also remembers,
  from the public history, every card drawn from and thrown to the discard
  pile in the open, and so knows which cards are still unseen: a near-meld is
  worth as much as the unseen cards that would complete it, and a discard is
  as dangerous as the number of hidden pairs the next player could meld it
  with. As the other players' hands shrink, near-melds count for less and
  points for more: it sheds its high cards before someone goes out. Now and
  then it takes the top of the discard pile to keep it, when that card is
  clearly better than the worst card it holds.

Every player is deterministic. Easy and normal take the top of the discard
pile only to lay it in the same turn; hard keeps it at most
:attr:`HardPlayer.MAX_KEPT_TAKES` times a round. So every round ends: each
other turn draws from the stock or makes the hands smaller.

>>> from site_builder.engine import RoundState, get_rules, parse_cards
>>> state = RoundState(get_rules("cardverse"), [parse_cards("5H 6H 7H KS 2C"),
...                    parse_cards("9D 9C 3S 4S JH")], parse_cards("QD 8S"), parse_cards("8H"))
>>> easy = make_player("easy")
>>> [str(state.apply(easy.choose(state.view(0)))) for _ in range(3)]
['1: draw discard 8H', '1: meld 5H 6H 7H 8H', '1: discard KS']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final, Protocol

from site_builder.engine.cards import CARDS_BY_ORDINAL, JOKER, Card
from site_builder.engine.deal import full_deck
from site_builder.engine.layoff import evaluate_layoff
from site_builder.engine.melds import evaluate_meld
from site_builder.engine.opening import evaluate_opening
from site_builder.engine.round import (
    Action,
    Discarding,
    Drawing,
    LayingOff,
    Melding,
    Operation,
    Phase,
    Swapping,
    TableMeld,
    View,
    needs_opening,
)
from site_builder.engine.rules import RuleSet
from site_builder.engine.scoring import card_hand_points
from site_builder.engine.search import best_arrangement, find_melds, find_opening

__all__ = ["LEVELS", "EasyPlayer", "HardPlayer", "NormalPlayer", "Player", "make_player"]


class Player(Protocol):
    """Anything that picks an action from a view; ``level`` names it."""

    level: str

    def choose(self, view: View) -> Action:
        """The action this player wants to take (it must be the turn's seat)."""
        ...


def _fits(card: Card, meld: TableMeld, rules: RuleSet) -> bool:
    """Whether *card* alone can be added to *meld* (with a cheap filter first)."""
    if rules.jokers == 0 or not (card.is_joker or any(c.is_joker for c in meld.cards)):
        first = meld.arrangement[0]
        if meld.kind == "set":
            if card.rank != first.rank or len(meld.cards) >= 4:
                return False
        else:
            if card.suit != first.suit or card.rank is None or first.rank is None:
                return False
            low = int(first.rank)
            high = low + len(meld.arrangement) - 1
            rank = int(card.rank)
            if rank != low - 1 and rank != high + 1 and not (rank == 1 and high == 13):
                return False
    return evaluate_layoff(meld.cards, (card,), rules).valid


def _without(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def _meld_points(meld: Sequence[Card], rules: RuleSet) -> int:
    return evaluate_meld(meld, rules).points


def _pending_melds(view: View) -> list[tuple[Card, ...]]:
    """The melds of the first meld laid this turn, not yet checked (the view's ``pending``)."""
    return [meld.cards for meld in view.table if meld.number in view.pending]


def _this_turn(view: View) -> list[Operation]:
    """What the seat to play has done this turn, after its draw (from the public history)."""
    ops: list[Operation] = []
    for op in reversed(view.history):
        if isinstance(op, Drawing) and op.seat == view.seat:
            break
        if getattr(op, "seat", None) == view.seat:
            ops.append(op)
    return ops[::-1]


def _owed(view: View) -> list[Card]:
    """The cards the seat to play must still lay this turn: the top it took from the
    discard pile (where the rules ask for it) until a copy of it is laid, and each joker a
    joker exchange put in its hand until laid."""
    owed: list[Card] = []
    jokers = 0
    taken_laid = False
    for op in _this_turn(view):
        if isinstance(op, Swapping):
            jokers += 1
            taken_laid |= op.card == view.drawn
        elif isinstance(op, Melding | LayingOff):
            jokers -= min(jokers, sum(card.is_joker for card in op.cards))
            taken_laid |= view.drawn in op.cards
    if view.rules.discard_must_be_used and view.drawn is not None and not taken_laid \
            and view.drawn in view.hand:
        owed.append(view.drawn)
    return [*([JOKER] * jokers), *owed]


def _takes_joker_place(card: Card, meld: TableMeld, rules: RuleSet) -> bool:
    """Whether *card* may take the place of the joker in *meld* (the meld stays the same
    meld: a sequence keeps its cards' places; a set takes a suit it lacks), as the round
    allows a joker exchange."""
    if JOKER not in meld.cards or card.is_joker:
        return False
    index = meld.cards.index(JOKER)
    result = evaluate_meld((*meld.cards[:index], card, *meld.cards[index + 1:]), rules)
    if not result.valid or result.kind != meld.kind:
        return False
    return meld.kind != "sequence" or result.arrangement == meld.arrangement


def _joker_layable(card: Card, rest: Sequence[Card], swapped: TableMeld, view: View,
                   keep: int) -> bool:
    """Whether the joker that *card* takes the place of in *swapped* can be laid this turn,
    from the hand (*rest* and the joker): in a meld of the hand, or on a meld (the one it
    left, with *card* in its place, too)."""
    rules = view.rules
    hand = [*rest, JOKER]
    if any(JOKER in meld and len(hand) - len(meld) >= keep
           for meld in find_melds(hand, rules)):
        return True
    if len(hand) - 1 < keep:
        return False
    index = swapped.cards.index(JOKER)
    after = (*swapped.cards[:index], card, *swapped.cards[index + 1:])
    return evaluate_layoff(after, (JOKER,), rules).valid or any(
        _fits(JOKER, meld, rules) for meld in view.table if meld.number != swapped.number)


def _strength(card: Card, rules: RuleSet) -> tuple[int, int, int]:
    """Order for 'the strongest card': hand points, then rank, then suit."""
    rank = 14 if card.rank is None else int(card.rank)
    return (card_hand_points(card, rules), rank, card.ordinal)


class _Base:
    """The turn skeleton shared by the three levels."""

    level = "base"

    def __init__(self) -> None:
        self._plan: list[tuple[Card, ...]] = []
        self._planned = False

    # -- the level's choices
    def arrange(self, hand: Sequence[Card], view: View) -> list[tuple[Card, ...]]:
        raise NotImplementedError

    def pick_discard(self, view: View, options: list[Card]) -> Card:
        raise NotImplementedError

    # -- the skeleton
    def choose(self, view: View) -> Action:
        """One action for the seat whose turn it is."""
        if view.phase is Phase.DRAW:
            self._plan = []
            self._planned = False
            top = view.discard_top
            if top is not None and "draw_discard" in view.legal and self.wants(top, view):
                return Action("draw_discard")
            return Action("draw_stock" if "draw_stock" in view.legal else "draw_discard")
        owed = _owed(view)
        if not self._planned:
            self._planned = True
            self._plan = self.arrange(view.hand, view)
            min_points, pure = self._opening_limits(view)
            if min_points is not None and any(
                    not any(card in meld for meld in self._plan) for card in owed):
                # a card owed before the first meld: only an opening with it lays it
                found = find_opening(view.hand, view.rules, min_points=min_points,
                                     need_pure=pure, must_lay=owed,
                                     keep=1 if view.rules.discard_to_win else 0)
                self._plan = list(found or ())
        if any(not any(card in meld for meld in self._plan) for card in owed):
            action = self._lay_owed(view, owed)  # before the plan takes the cards it needs
            if action is not None:
                return action
        while self._plan:
            meld = self._plan.pop(0)
            if not Counter(meld) - Counter(view.hand):
                return Action("meld", meld)
            self._plan = []
        layoff = self._layoff(view)
        if layoff is not None:
            return layoff
        options = [c for c in view.hand if c != view.drawn] or list(view.hand)
        return Action("discard", (self.pick_discard(view, options),))

    @property
    def planned(self) -> tuple[tuple[Card, ...], ...]:
        """The melds this player still means to lay this turn, in order (its plan)."""
        return tuple(self._plan)

    def wants(self, top: Card, view: View) -> bool:
        """Take the discard top only if it is laid this turn.

        The hand is counted as it will be after the draw (the top in it). Where the rules
        ask that a card taken be laid this turn, the table offers the draw only when the
        engine has found a way (a meld, a lay-off, a joker exchange): then an opened player
        takes it; one who has not opened takes it only for the first meld it plans.
        """
        if _relates(top, view.hand):
            hand = [*view.hand, top]
            if any(top in meld for meld in self.arrange(hand, view)):
                return True
        if not view.opened[view.seat]:
            return False
        if view.rules.discard_must_be_used:
            return "draw_discard" in view.legal
        keep = 1 if view.rules.discard_to_win else 0
        return len(view.hand) >= keep and any(_fits(top, meld, view.rules)
                                              for meld in view.table)

    def _lay_owed(self, view: View, owed: Sequence[Card]) -> Action | None:
        """Lay a card this turn owes (:func:`_owed`): on a meld, in a meld of the hand, or
        (the card taken) by a joker exchange whose joker can then be laid."""
        rules = view.rules
        keep = 1 if rules.discard_to_win else 0
        hand = view.hand
        for card in owed:
            if view.opened[view.seat] and len(hand) - 1 >= keep:
                for meld in view.table:
                    if _fits(card, meld, rules):
                        return Action("lay_off", (card,), meld.number)
            melds = [m for m in find_melds(hand, rules) if card in m and len(hand) - len(m) >= keep]
            if melds:
                return Action("meld", max(melds, key=lambda m: (len(m), _meld_points(m, rules))))
            if view.opened[view.seat] and not card.is_joker and rules.joker_exchange:
                for meld in view.table:
                    if _takes_joker_place(card, meld, rules) \
                            and _joker_layable(card, _without(hand, (card,)), meld, view, keep):
                        self._planned = False  # plan again with the joker in the hand
                        return Action("swap", (card,), meld.number)
        return None

    def _layoff(self, view: View) -> Action | None:
        if not view.opened[view.seat] or not view.table:
            return None
        if view.rules.discard_to_win and len(view.hand) <= 1:
            return None
        # The card taken from the discard pile first: it must be laid this turn.
        first = [view.drawn] if view.drawn is not None and view.drawn in view.hand else []
        for card in [*first, *sorted(view.hand, key=lambda c: _strength(c, view.rules),
                                     reverse=True)]:
            for meld in view.table:
                if _fits(card, meld, view.rules):
                    return Action("lay_off", (card,), meld.number)
        return None

    def _opening_limits(self, view: View) -> tuple[int | None, bool]:
        """(min points, pure sequence needed) for melds laid now: what the first meld still
        needs beside the melds already laid for it this turn (``None``: no condition)."""
        rules = view.rules
        if view.opened[view.seat] or not needs_opening(rules):
            return None, False
        pending = _pending_melds(view)
        if not pending:
            return rules.opening_threshold or 0, rules.pure_sequence_required
        so_far = evaluate_opening(pending, rules)
        if so_far.accepted:
            return None, False
        return (max((rules.opening_threshold or 0) - so_far.total, 0),
                rules.pure_sequence_required and not so_far.pure_sequence)


class EasyPlayer(_Base):
    """Lays immediate melds greedily and discards its strongest single card."""

    level = "easy"

    def arrange(self, hand: Sequence[Card], view: View) -> list[tuple[Card, ...]]:
        rules = view.rules
        rest = list(hand)
        chosen: list[tuple[Card, ...]] = []
        while True:
            melds = [m for m in find_melds(rest, rules)
                     if not (rules.discard_to_win and len(m) == len(rest))]
            if not melds:
                break
            meld = max(melds, key=lambda m: (len(m), evaluate_meld(m, rules).points))
            chosen.append(meld)
            rest = _without(rest, meld)
        min_points, _ = self._opening_limits(view)
        if chosen and min_points is not None and not evaluate_opening(
                [*_pending_melds(view), *chosen], rules).accepted:
            return []
        return chosen

    def pick_discard(self, view: View, options: list[Card]) -> Card:
        return max(options, key=lambda c: _strength(c, view.rules))


class NormalPlayer(_Base):
    """Lays the melds that leave the fewest points; keeps near-melds; avoids feeding."""

    level = "normal"

    def arrange(self, hand: Sequence[Card], view: View) -> list[tuple[Card, ...]]:
        min_points, pure = self._opening_limits(view)
        keep = 1 if view.rules.discard_to_win else 0
        found = best_arrangement(hand, view.rules, min_points=min_points, need_pure=pure,
                                 keep=keep)
        return list(found.melds)

    def pick_discard(self, view: View, options: list[Card]) -> Card:
        rules = view.rules
        taken = _taken_by(view, _next_seat(view))
        return max(options, key=lambda c: (
            card_hand_points(c, rules) - 5 * _links(c, view.hand)
            - _feed_risk(c, view, taken), _strength(c, rules)))


class HardPlayer(NormalPlayer):
    """Remembers the open cards, counts the live ones, and weighs every discard."""

    level = "hard"

    #: Weight of each unseen card that would complete a near-meld the card is part of.
    OUTS: Final = 4
    #: Weight of the chance that the next player melds the discard with two hidden cards.
    DANGER: Final = 30
    #: How much better the discard top must be than the worst card in hand to take it.
    TAKE_MARGIN: Final = 10
    #: Takes of the discard top per round that are not laid at once (so rounds end).
    MAX_KEPT_TAKES: Final = 4

    def pick_discard(self, view: View, options: list[Card]) -> Card:
        scores = self._scores(view, list(view.hand))
        return max(options, key=lambda c: (scores[c], _strength(c, view.rules)))

    def wants(self, top: Card, view: View) -> bool:
        """Also take the top, now and then, to keep it when it beats the worst card held."""
        if super().wants(top, view):
            return True
        if view.rules.discard_must_be_used:  # a card taken must be laid this turn
            return False
        takes = sum(1 for op in view.history
                    if isinstance(op, Drawing) and op.seat == view.seat and op.source == "discard")
        if takes >= self.MAX_KEPT_TAKES:
            return False
        scores = self._scores(view, [*view.hand, top])
        worst = max(view.hand, key=lambda c: scores[c])
        return scores[worst] - scores[top] > self.TAKE_MARGIN

    def _scores(self, view: View, hand: list[Card]) -> dict[Card, float]:
        """How much each card of *hand* is better thrown away (higher: throw it)."""
        rules = view.rules
        memory = _Memory(view)
        nxt = _next_seat(view)
        taken = memory.taken[nxt]
        share = min(1.0, view.hand_sizes[nxt] / max(1, sum(memory.unseen.values())))
        keep = self._keep_weight(view)
        scores: dict[Card, float] = {}
        for card in dict.fromkeys(hand):
            rest = _without(hand, (card,))
            scores[card] = (card_hand_points(card, rules)
                            - keep * (5 * _links(card, hand)
                                      + self.OUTS * _live_outs(card, rest, memory.unseen, rules))
                            - self.DANGER * _danger(card, memory.unseen, share, rules)
                            - _feed_risk(card, view, taken))
        return scores

    @staticmethod
    def _keep_weight(view: View) -> float:
        """How much near-melds count against points: less as another player's hand shrinks
        (someone may go out soon, and the points held would be theirs)."""
        try:
            dealt = view.rules.hand_size(view.players)
        except ValueError:
            dealt = max(view.hand_sizes)
        fewest = min(size for seat, size in enumerate(view.hand_sizes) if seat != view.seat)
        if fewest >= dealt:
            return 1.0
        return 0.4 if fewest >= dealt - 2 else 0.2


class _Memory:
    """What the public history says about the cards (read by the hard player)."""

    def __init__(self, view: View) -> None:
        rules = view.rules
        pile: Counter[Card] = Counter()
        taken = [_taken_by(view, seat) for seat in range(view.players)]
        for op in view.history:
            if isinstance(op, Drawing) and op.source == "discard" and op.card is not None:
                pile[op.card] -= 1
            elif isinstance(op, Discarding):
                pile[op.card] += 1
        if view.discard_top is not None and pile[view.discard_top] <= 0:
            pile[view.discard_top] += 1  # the card turned up at the deal
        self.taken = taken
        unseen = Counter(full_deck(rules))
        unseen.subtract(view.hand)
        for meld in view.table:
            unseen.subtract(meld.cards)
        unseen.subtract(+pile)
        for seat, counter in enumerate(self.taken):
            if seat != view.seat:
                unseen.subtract(counter)
        self.unseen = +unseen


def _next_seat(view: View) -> int:
    return (view.seat + 1) % view.players


def _taken_by(view: View, seat: int) -> Counter[Card]:
    """Cards *seat* took from the discard pile and has not laid or thrown since."""
    taken: Counter[Card] = Counter()
    for op in view.history:
        if getattr(op, "seat", None) != seat:
            continue
        if isinstance(op, Drawing):
            if op.source == "discard" and op.card is not None:
                taken[op.card] += 1
        elif isinstance(op, Discarding | Melding | LayingOff):
            for card in (op.card,) if isinstance(op, Discarding) else op.cards:
                if taken[card] > 0:
                    taken[card] -= 1
    return +taken


def _positions(card: Card, rules: RuleSet | None = None) -> tuple[int, ...]:
    """Sequence positions of a natural card: an ace is 14, and 1 too where it may be low."""
    assert card.rank is not None
    if card.rank == 1:
        return (1, 14) if rules is None or rules.ace_low else (14,)
    return (int(card.rank),)


def _near(a: Card, b: Card) -> int:
    """2 for the same rank or a neighbour in suit, 1 for a card two apart in suit, else 0.

    A joker is near everything.
    """
    if a.rank is None or b.rank is None:
        return 2
    if a.rank == b.rank:
        return 2 if a.suit != b.suit else 0
    if a.suit != b.suit:
        return 0
    gap = min(abs(p - q) for p in _positions(a) for q in _positions(b))
    return 2 if gap == 1 else 1 if gap == 2 else 0


def _links(card: Card, hand: Sequence[Card]) -> int:
    """How strongly *card* connects with the rest of *hand* (near-melds)."""
    seen = False
    total = 0
    for other in hand:
        if other == card and not seen:
            seen = True
            continue
        total += _near(card, other)
    return total


def _relates(card: Card, hand: Sequence[Card]) -> bool:
    """Whether *card* would make a meld with two cards of *hand* (a joker always may)."""
    if card.rank is None:
        return True
    rank = int(card.rank)
    same_rank = 0
    near: set[int] = set()
    for other in hand:
        if other.rank is None:
            return True
        if other.rank == card.rank:
            same_rank += 1
        elif other.suit == card.suit:
            r = int(other.rank)
            near.add(r)
            if r == 1:
                near.add(14)
    if same_rank >= 2:
        return True
    return any((p - 2 in near and p - 1 in near) or (p - 1 in near and p + 1 in near)
               or (p + 1 in near and p + 2 in near) for p in ((1, 14) if rank == 1 else (rank,)))


_BY_RANK: Final = {rank: tuple(CARDS_BY_ORDINAL[s * 13 + rank - 1] for s in range(4))
                   for rank in range(1, 14)}
#: The card at each sequence position of each suit (1 and 14 are the ace; 0 and 15 unused).
_SUIT_CARDS: Final = tuple(
    tuple(CARDS_BY_ORDINAL[suit * 13 + (p - 1 if p < 14 else 0)] for p in range(1, 15))
    for suit in range(4))


def _live_outs(card: Card, rest: Sequence[Card], unseen: Counter[Card], rules: RuleSet) -> int:
    """Unseen cards that would turn *card* and one card of *rest* into a meld."""
    if card.rank is None or card.suit is None:
        return 0
    total = 0
    rank = int(card.rank)
    suit = card.suit.index
    for other in rest:
        if other.rank is None:
            continue
        if other.rank == card.rank and other.suit != card.suit:
            total += sum(unseen[c] for c in _BY_RANK[rank] if c != card and c != other)
        elif other.suit == card.suit and other.rank != card.rank:
            best = 0
            for p in _positions(card, rules):
                for q in _positions(other, rules):
                    low, high = min(p, q), max(p, q)
                    if high - low == 1:
                        wanted = [x for x in (low - 1, high + 1)
                                  if (2 if not rules.ace_low else 1) <= x <= 14]
                    elif high - low == 2:
                        wanted = [low + 1]
                    else:
                        wanted = []
                    best = max(best, sum(unseen[_SUIT_CARDS[suit][x - 1]] for x in wanted))
            total += best
    return total


def _danger(card: Card, unseen: Counter[Card], share: float, rules: RuleSet) -> float:
    """The chance-weighted number of hidden pairs the next player could meld *card* with.

    *share* is the next player's part of the unseen cards.
    """
    if card.rank is None or card.suit is None:
        return 0.0
    rank = int(card.rank)
    live = [c for c in _BY_RANK[rank] if c != card and unseen[c]]
    pairs = len(live) * (len(live) - 1) // 2
    cards = _SUIT_CARDS[card.suit.index]
    low = 1 if rules.ace_low else 2
    for p in _positions(card, rules):
        for a, b in ((p - 2, p - 1), (p - 1, p + 1), (p + 1, p + 2)):
            if low <= a and b <= 14 and unseen[cards[a - 1]] and unseen[cards[b - 1]]:
                pairs += 1
    return pairs * share * share


def _feed_risk(card: Card, view: View, taken: Counter[Card]) -> int:
    """How much discarding *card* may help the next player."""
    nxt = _next_seat(view)
    risk = 0
    if view.opened[nxt] or not needs_opening(view.rules):
        if any(_fits(card, meld, view.rules) for meld in view.table):
            risk += 10
    if any(_near(card, other) for other in taken):
        risk += 6
    return risk


LEVELS: Final = ("easy", "normal", "hard")

_CLASSES: Final = {"easy": EasyPlayer, "normal": NormalPlayer, "hard": HardPlayer}


def make_player(level: str) -> Player:
    """A new player of *level* (``easy``, ``normal`` or ``hard``).

    >>> make_player("hard").level
    'hard'
    >>> make_player("expert")
    Traceback (most recent call last):
    ...
    ValueError: unknown player level 'expert' (known levels: easy, normal, hard)
    """
    try:
        cls = _CLASSES[level]
    except (KeyError, TypeError):
        raise ValueError(f"unknown player level {level!r} "
                         f"(known levels: {', '.join(LEVELS)})") from None
    return cls()

